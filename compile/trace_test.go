package compile

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the tests")

// TestSCCPTrace compares the trace of the combined analysis on paper 001's
// running example with its golden file, which reads like the paper's
// table VII. go test ./compile -run SCCPTrace -update rewrites it.
func TestSCCPTrace(t *testing.T) {
	const prog, golden = "../testdata/paper001_running_example.smp", "../testdata/paper001_running_example.trace"
	src, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	var trace strings.Builder
	if _, err := Compile("paper001_running_example.smp", src, Options{Check: true, StopAfter: "sccp", Trace: &trace}); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(golden, []byte(trace.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if trace.String() != string(want) {
		t.Errorf("trace differs from %s:\ngot:\n%s\nwant:\n%s", golden, trace.String(), want)
	}
}
