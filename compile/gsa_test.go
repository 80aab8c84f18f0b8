package compile

import (
	"errors"
	"os"
	"testing"

	"son/pred"
)

// TestGSAPipeline: the GSA passes run with Options.GSA, or when StopAfter
// names one, and not otherwise; pass gsa reports its predicates' size.
func TestGSAPipeline(t *testing.T) {
	src, err := os.ReadFile("../gsa/testdata/figure2.smp")
	if err != nil {
		t.Fatal(err)
	}
	names := func(u *Unit) (ns []string) {
		for _, st := range u.Stats {
			ns = append(ns, st.Name)
		}
		return ns
	}
	u, err := Compile("figure2.smp", src, Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if u.GSA != nil || len(u.Stats) != len(PassNames()) {
		t.Errorf("without GSA: passes %v", names(u))
	}
	u, err = Compile("figure2.smp", src, Options{Check: true, StopAfter: "gsa"})
	if err != nil {
		t.Fatal(err)
	}
	last := u.Stats[len(u.Stats)-1]
	if last.Name != "gsa" || u.Stats[len(u.Stats)-2].Name != "loops" || u.GSA == nil {
		t.Fatalf("StopAfter gsa: passes %v", names(u))
	}
	if p := last.Predicates; p == nil || p.Total != 16 || p.PerBlock != 16.0/10 {
		t.Errorf("predicates: %+v, want 16 over 10 blocks", p)
	}
	u, err = Compile("figure2.smp", src, Options{Check: true, GSA: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(u.Stats); n != len(PassNames())+2 || u.Stats[n-1].Name != "outssa" {
		t.Errorf("with GSA: passes %v", names(u))
	}
}

// TestGSACheckerInPipeline: a gsa pass whose γ predicate is replaced by
// True is rejected by its checker (gsa.Check), naming the block.
func TestGSACheckerInPipeline(t *testing.T) {
	src, err := os.ReadFile("../gsa/testdata/figure2.smp")
	if err != nil {
		t.Fatal(err)
	}
	old := GSAPasses[1].run
	defer func() { GSAPasses[1].run = old }()
	GSAPasses[1].run = func(u *Unit) error {
		if err := old(u); err != nil {
			return err
		}
		for _, ms := range u.GSA.Merges {
			for _, m := range ms {
				if len(m.Preds) > 0 {
					m.Preds[0] = pred.Const(pred.True)
					return nil
				}
			}
		}
		return errors.New("no γ")
	}
	_, err = Compile("figure2.smp", src, Options{Check: true, GSA: true})
	wantCheckerError(t, err, "gsa", "gsa: b8: merge: v46 = γ(True: v27, ¬(v20) ∧ v31: v37, ¬(v20) ∧ ¬(v31): v40): no strict dominator d of b8 gives P(d, Preds[k]) for every argument k")
}
