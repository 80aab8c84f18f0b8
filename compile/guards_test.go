package compile

import (
	"errors"
	"strings"
	"testing"

	"son/cfg"
	"son/gcm"
	"son/son"
)

// withPass runs f with the pass named name replaced by run; not in
// parallel with anything that compiles.
func withPass(t *testing.T, name string, run func(*Unit) error, f func()) {
	t.Helper()
	for i := range Passes {
		if Passes[i].Name == name {
			old := Passes[i].run
			Passes[i].run = run
			defer func() { Passes[i].run = old }()
			f()
			return
		}
	}
	t.Fatalf("no pass %s", name)
}

// wantCheckerError requires err to be the checker of pass rejecting its
// result with a message containing want.
func wantCheckerError(t *testing.T, err error, pass, want string) {
	t.Helper()
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Pass != pass || ce.Guard != GuardChecker || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want the %s checker saying %q", err, pass, want)
	}
}

// TestCheckerCatchesAnyValueWitness: a zerocheck pass that takes a
// dominating check of any value as a witness, and reports nothing, makes
// issue 11's program return 5 instead of dividing by zero; with checking
// on, the pass's checker stops it.
func TestCheckerCatchesAnyValueWitness(t *testing.T) {
	src := []byte("int a = arg - 1; 100 / arg; 100 / a; return 5;")
	anyValue := func(u *Unit) error {
		var first *son.Node
		for n := u.Graph.Start.Proj(0); n != nil && n.Op != son.OpReturn; {
			var next *son.Node
			for _, x := range n.Out {
				if x.IsControl() && x.Op != son.OpStop {
					next = x
				}
			}
			if next != nil && next.Op == son.OpZeroCheck {
				if first == nil {
					first = next
				} else {
					u.Graph.Subsume(next, next.In[0])
					return nil
				}
			}
			n = next
		}
		return nil
	}
	withPass(t, "zerocheck", anyValue, func() {
		u, err := Compile("t.smp", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v, err := cfg.Run(u.Func, 1, cfg.Limits{}); err != nil || v != 5 {
			t.Fatalf("unchecked: run(1) = %d, %v; want the wrong 5 of the fault", v, err)
		}
		_, err = Compile("t.smp", src, Options{Check: true})
		wantCheckerError(t, err, "zerocheck", "removed: the check of Sub#")
	})
}

// TestCheckerCatchesHoistedCheck: a scheduler that moves a check, and the
// division it guards, above the branch that guards them, is stopped by
// the schedule checker, which reads the function, not the pass's record
// of where nodes went.
func TestCheckerCatchesHoistedCheck(t *testing.T) {
	src := []byte("if (arg % 2 == 1) return 100 / arg; return 0;")
	hoist := func(u *Unit) error {
		r, err := gcm.Schedule(u.Graph)
		if err != nil {
			return err
		}
		entry := r.Func.Blocks[0]
		for _, b := range r.Func.Blocks[1:] {
			for _, in := range b.Instrs {
				if in.Op == cfg.OpCheck {
					entry.Instrs = append(entry.Instrs, b.Instrs...)
					b.Instrs = nil
					break
				}
			}
		}
		u.GCM, u.Func = r, r.Func
		return nil
	}
	withPass(t, "gcm", hoist, func() {
		u, err := Compile("t.smp", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cfg.Run(u.Func, 0, cfg.Limits{}); err == nil || !strings.Contains(err.Error(), "division by zero") {
			t.Fatalf("unchecked: run(0) = %v, want the division by zero of the fault", err)
		}
		_, err = Compile("t.smp", src, Options{Check: true})
		wantCheckerError(t, err, "gcm", "but control passes it in b")
	})
}
