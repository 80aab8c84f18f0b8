package main

import (
	"runtime/debug"
	"testing"

	"son/internal/gcpolicy"
)

// TestCompileSetsBudget: with son's collector policy started, as main
// starts it, compiling a program sets the memory limit to the budget of
// its source's size.
func TestCompileSetsBudget(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	inDir(t)
	if !gcpolicy.Start() {
		t.Fatal("GOGC and GOMEMLIMIT unset: the policy does not hold")
	}
	defer gcpolicy.Stop()
	for _, args := range [][]string{{"check", "add.smp"}, {"run", "loop.smp", "3"}} {
		gcpolicy.SetSource(0)
		if code, _, errs := runSon("", args...); code != 0 {
			t.Fatalf("son %v: exit %d, %s", args, code, errs)
		}
		want := gcpolicy.Budget(len(programs[args[1]]))
		if got := debug.SetMemoryLimit(-1); got != want || want == gcpolicy.Budget(0) {
			t.Errorf("son %v: the memory limit is %d, want %d, the budget of %d bytes", args, got, want, len(programs[args[1]]))
		}
	}
}
