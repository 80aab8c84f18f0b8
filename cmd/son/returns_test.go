package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// threeReturns has three returns on three lines; the builder merges them
// and the cleanup pass splits them again, the last one only once SCCP has
// proved the Region of the first two has one live path (x is 1).
const threeReturns = `int x = 1;
while (arg > 100) { if (x != 1) x = 2; arg = arg - 1; }
if (arg < 3)
	return arg / 5;
if (x != 1)
	return 0;
if (arg < 9)
	return arg * 7;
return arg + 11;
`

// TestReturnLines: after gcm each return is printed with the line of its
// own return statement, and son asm puts each ret under that line.
func TestReturnLines(t *testing.T) {
	inDir(t)
	if err := os.WriteFile("three.smp", []byte(threeReturns), 0o666); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSon("", "ir", "-level", "cfg", "three.smp")
	if code != 0 || errs != "" {
		t.Fatalf("ir: exit %d, %s", code, errs)
	}
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^\treturn v\d+ +; line (\d+)$`).FindAllStringSubmatch(out, -1) {
		got = append(got, m[1])
	}
	if want := "4 8 9"; strings.Join(got, " ") != want {
		t.Errorf("ir: returns at lines %v, want %s:\n%s", got, want, out)
	}

	code, out, errs = runSon("", "asm", "three.smp")
	if code != 0 || errs != "" {
		t.Fatalf("asm: exit %d, %s", code, errs)
	}
	got = got[:0]
	line, source := "", regexp.MustCompile(`^\t; (\d+): `)
	for _, l := range strings.Split(out, "\n") {
		if m := source.FindStringSubmatch(l); m != nil {
			line = m[1]
		}
		if l == "\tret" {
			got = append(got, line)
		}
	}
	if want := "4 8 9"; strings.Join(got, " ") != want {
		t.Errorf("asm: rets under lines %v, want %s:\n%s", got, want, out)
	}
}
