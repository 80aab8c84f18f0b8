package cfg

import (
	"os"
	"strings"
	"testing"
)

// textCase is one "-- name --" section of a file under testdata: a
// function in the text form, with comment lines the tests read.
type textCase struct {
	name string
	text string
	line int // the line of the section header in the file
}

// readCases reads the sections of a testdata file. Lines before the first
// section are the file's own comment.
func readCases(t testing.TB, file string) []textCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []textCase
	var text strings.Builder
	flush := func() {
		if len(cases) > 0 {
			cases[len(cases)-1].text = text.String()
		}
		text.Reset()
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") {
			flush()
			cases = append(cases, textCase{name: strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --"), line: i + 1})
			continue
		}
		text.WriteString(l)
		text.WriteByte('\n')
	}
	flush()
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	return cases
}

// directives returns the text after "; KEY: " of each comment line that
// starts so, in order.
func directives(text, key string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "; "+key+":"); ok {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return out
}

// mustParse parses text or stops the test.
func mustParse(t testing.TB, text string) *Func {
	t.Helper()
	f, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse:\n%v\n%s", err, text)
	}
	return f
}

// allCases is every function of the testdata files.
func allCases(t testing.TB) []textCase {
	var all []textCase
	for _, file := range []string{"testdata/verify.txt", "testdata/run.txt", "testdata/print.txt"} {
		for _, c := range readCases(t, file) {
			c.name = file + ": " + c.name
			all = append(all, c)
		}
	}
	return all
}
