package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func needNative(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("native code is Linux x86-64; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
}

// execute runs an executable: stdout, stderr, exit status.
func execute(t *testing.T, path string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	c := exec.Command(path, args...)
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// TestBuild: son build writes an executable that computes what son run
// does, by default named after the program.
func TestBuild(t *testing.T) {
	needNative(t)
	dir := inDir(t)
	if code, out, errs := runSon("", "build", "loop.smp"); code != 0 || out != "" || errs != "" {
		t.Fatalf("build: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, tt := range []struct{ arg, want string }{{"0", "0\n"}, {"5", "10\n"}, {"0x10", "32\n"}, {"-3", "0\n"}} {
		out, errs, code := execute(t, filepath.Join(dir, "loop"), tt.arg)
		if out != tt.want || errs != "" || code != 0 {
			t.Errorf("loop %s: stdout %q, stderr %q, exit %d; want %q", tt.arg, out, errs, code, tt.want)
		}
	}
	if code, _, errs := runSon("", "build", "-o", "d.exe", "div.smp"); code != 0 {
		t.Fatalf("build -o: exit %d, %s", code, errs)
	}
	out, errs, code := execute(t, filepath.Join(dir, "d.exe"))
	if out != "" || errs != "div.smp:2:11: runtime error: division by zero\n" || code != 1 {
		t.Errorf("div: stdout %q, stderr %q, exit %d", out, errs, code)
	}
}

// TestRunNative: son run -level native agrees with -level ast, on values,
// runtime errors (message and status) and argument errors.
func TestRunNative(t *testing.T) {
	needNative(t)
	inDir(t)
	for _, args := range [][]string{
		{"loop.smp", "7"}, {"loop.smp", "-0x7"}, {"loop.smp"}, {"div.smp"}, {"add.smp", "9223372036854775807"},
		{"paper001.smp", "3"}, {"add.smp", "+1"}, {"add.smp", "007"},
	} {
		c1, o1, e1 := runSon("", append([]string{"run", "-level", "native"}, args...)...)
		c2, o2, e2 := runSon("", append([]string{"run", "-level", "ast"}, args...)...)
		if c1 != c2 || o1 != o2 || e1 != e2 {
			t.Errorf("%v: native: %d %q %q; ast: %d %q %q", args, c1, o1, e1, c2, o2, e2)
		}
	}
	if code, _, errs := runSon("", "run", "-level", "native", "-after", "gcm", "add.smp"); code != 2 || !strings.Contains(errs, "-after gcm cannot go with -level native") {
		t.Errorf("-after with native: exit %d, %q", code, errs)
	}
}

// TestBuildBadOutput: -o to a directory, to a path that cannot be written,
// to the program file itself, or without its value: a message and exit
// status 2, nothing written.
func TestBuildBadOutput(t *testing.T) {
	inDir(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "-o", "adir", "add.smp"}, "son: build: cannot write adir: it is a directory\n" + hint("build")},
		{[]string{"build", "-o", "nodir/x", "add.smp"}, "son: build: cannot write nodir/x: no such file or directory\n" + hint("build")},
		{[]string{"build", "-o"}, "son: build: flag needs an argument: -o\n" + hint("build")},
		{[]string{"build", "add.smp", "-o"}, "son: build: flag -o after the program file: flags go before it\n" + hint("build")},
		{[]string{"build", "add.smp", "-o", "x"}, "son: build: flag -o after the program file: flags go before it\n" + hint("build")},
		{[]string{"build", "nofile.smp"}, "son: build: cannot read nofile.smp: no such file or directory\n" + hint("build")},
		{[]string{"build", "-o", "add.smp", "add.smp"}, "son: build: cannot write add.smp: it is the program file\n" + hint("build")},
		{[]string{"build", "-o", "./add.smp", "add.smp"}, "son: build: cannot write ./add.smp: it is the program file\n" + hint("build")},
	} {
		code, out, errs := runSon("", tt.args...)
		if code != 2 || out != "" || errs != tt.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, errs, tt.want)
		}
	}
	if _, err := os.Stat("nodir"); err == nil {
		t.Error("nodir was created")
	}
	if b, err := os.ReadFile("add.smp"); err != nil || string(b) != programs["add.smp"] {
		t.Errorf("add.smp now holds %q (%v), want the program", b, err)
	}
}

// TestAsm: the listing of a program has its source lines and the code
// selected for them.
func TestAsm(t *testing.T) {
	inDir(t)
	code, out, errs := runSon("", "asm", "loop.smp")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, %s", code, errs)
	}
	for _, want := range []string{"\t; 4: while (i < arg) {\n", "\tcmp ", "\tret\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestIRAfterAmd64: son ir -after amd64 prints what son asm does, and
// refuses the flags of the levels before it.
func TestIRAfterAmd64(t *testing.T) {
	inDir(t)
	_, asm, _ := runSon("", "asm", "loop.smp")
	code, out, errs := runSon("", "ir", "-after", "amd64", "loop.smp")
	if code != 0 || errs != "" || out != asm || !strings.Contains(out, "\tret\n") {
		t.Fatalf("exit %d, stderr %q; want the listing of son asm:\n%s\ngot\n%s", code, errs, asm, out)
	}
	code, _, errs = runSon("", "ir", "-after", "amd64", "-nodes", "loop.smp")
	if want := "son: ir: -after amd64 prints the machine code: it takes no -nodes, -stats, -trace, -level or -via\n"; code != 2 || !strings.HasPrefix(errs, want) {
		t.Errorf("-nodes: exit %d, stderr %q; want 2, %q", code, errs, want)
	}
	code, _, errs = runSon("", "check", "-after", "amd64", "loop.smp")
	if code != 2 || !strings.Contains(errs, `unknown pass "amd64"`) {
		t.Errorf("check -after amd64: exit %d, stderr %q; want 2, unknown pass", code, errs)
	}
}
