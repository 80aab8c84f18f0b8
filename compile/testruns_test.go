package compile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"son/son"
)

// TestValidationByTestingCatchesAWrongFold: a cleanup pass that folds
// -x to x (the builder made x*-1 into -x) leaves a well-formed graph that every verifier accepts (it is
// the graph of another program); the validation by testing of the checked
// pipeline sees it return 5 where the reference semantics returns -5, and
// names the pass, the argument and both results.
func TestValidationByTestingCatchesAWrongFold(t *testing.T) {
	src := []byte("return arg * -1;")
	wrongFold := func(u *Unit) error {
		for _, n := range u.Graph.Live() {
			if n.Op == son.OpMinus {
				u.Graph.Subsume(n, n.In[1])
				return nil
			}
		}
		t.Fatal("no -x in the graph")
		return nil
	}
	withPass(t, "cleanup", wrongFold, func() {
		u, err := Compile("t.smp", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v, err := son.Run(u.Graph, 5, son.Limits{}); err != nil || v != 5 {
			t.Fatalf("unchecked: run(5) = %d, %v; want the fault's 5", v, err)
		}
		_, err = Compile("t.smp", src, Options{Check: true})
		var ce *CheckError
		want := "validation by testing: arg 1: son.Run gives 1, the reference semantics -1"
		if !errors.As(err, &ce) || ce.Pass != "cleanup" || ce.Guard != GuardTest || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want the cleanup pass stopped by testing: %q", err, want)
		}
	})
}

// TestPanicInPassIsAnError: a pass that panics stops the compilation with
// a CheckError of the pass (Guard pass) naming the panic, not the tool.
func TestPanicInPassIsAnError(t *testing.T) {
	withPass(t, "peephole", func(*Unit) error { panic("kill of Region#25 which is in use") }, func() {
		_, err := Compile("t.smp", []byte("return 1;"), Options{})
		var ce *CheckError
		if !errors.As(err, &ce) || ce.Pass != "peephole" || ce.Guard != GuardPass || err.Error() != "after pass peephole: panic: kill of Region#25 which is in use" {
			t.Errorf("got %v, want the peephole pass's error naming the panic", err)
		}
	})
}

// TestReferenceRunsBeforeBuild: with checking on, the reference's results
// are there when the build pass ends, and the syntax tree is gone by
// then (the build drops it before building, so that the collector can
// take it while the builder packs the edges): arg 0 divides by zero at
// the division's position, the others give 100/arg.
func TestReferenceRunsBeforeBuild(t *testing.T) {
	src := []byte("int d = arg;\nreturn 100 / d;\n")
	seen := false
	after := func(u *Unit, pass string) error {
		if pass != "build" {
			return nil
		}
		seen = true
		if u.File != nil {
			t.Errorf("after build, the unit still holds the syntax tree")
		}
		var got []string
		for _, r := range u.testRuns {
			got = append(got, fmt.Sprintf("%d: %v", r.arg, r))
		}
		want := []string{"0: division by zero at 2:12", "1: 100", "2: 50", "3: 33", "-1: -100", "10: 10", "100: 1", "-100: -1"}
		if !slices.Equal(got, want) {
			t.Errorf("the reference's runs after build:\n%q\nwant\n%q", got, want)
		}
		return nil
	}
	if _, err := Compile("t.smp", src, Options{Check: true, StopAfter: "build", AfterPass: after}); err != nil {
		t.Fatal(err)
	}
	if !seen {
		t.Fatal("build's AfterPass did not run")
	}
}
