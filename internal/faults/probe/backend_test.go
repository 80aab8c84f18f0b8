package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"son/compile"
)

// TestBackend runs the backend on programs that spill, which it must
// pass, and on a unit with no function, which must be the selection's
// error (the pass's, not a crash of the probe).
func TestBackend(t *testing.T) {
	for _, file := range []string{"spill_loop.smp", "spill_branches.smp"} {
		src, err := os.ReadFile("../../../testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		u, err := compile.Compile(file, src, compile.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := backend(u); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	err := backend(&compile.Unit{Name: "empty"})
	var ce *compile.CheckError
	if !errors.As(err, &ce) || ce.Pass != "isel" || ce.Guard != compile.GuardPass {
		t.Fatalf("no function: got %v, want the error of pass isel", err)
	}
	if k, detail := classifyCompile(err); k != "pass" || !strings.HasPrefix(detail, "pass after isel: ") {
		t.Errorf("no function: classified %q %q", k, detail)
	}
}
