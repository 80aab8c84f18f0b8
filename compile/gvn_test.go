package compile

import (
	"os"
	"testing"

	"son/cfg"
	"son/gvn"
)

// loopHeaderPhis counts the Phis of f's first loop header.
func loopHeaderPhis(f *cfg.Func) int {
	for _, b := range f.Blocks {
		if len(b.Phis) > 0 {
			return len(b.Phis)
		}
	}
	return 0
}

// TestGVNFindsLoopPhis: the graph's own value numbering leaves the two
// equal induction variables of testdata/gvn_loop_phis.smp apart (three
// Phis in the loop header after gcm); the gvn pass merges them, and j+1
// with i+1, and the program still computes what it did (the program
// tables run it after every pass).
func TestGVNFindsLoopPhis(t *testing.T) {
	src, err := os.ReadFile("../testdata/gvn_loop_phis.smp")
	if err != nil {
		t.Fatal(err)
	}
	before, err := Compile("gvn_loop_phis.smp", src, Options{Check: true, StopAfter: "gcm"})
	if err != nil {
		t.Fatal(err)
	}
	after, err := Compile("gvn_loop_phis.smp", src, Options{Check: true, StopAfter: "gvn"})
	if err != nil {
		t.Fatal(err)
	}
	if b, a := loopHeaderPhis(before.Func), loopHeaderPhis(after.Func); b != 3 || a != 2 {
		t.Errorf("loop header Phis: %d after gcm, %d after gvn; want 3 and 2", b, a)
	}
	if b, a := gvn.Count(before.Func), gvn.Count(after.Func); b-a != 2 {
		t.Errorf("definitions: %d after gcm, %d after gvn; want 2 fewer", b, a)
	}
}

// TestGVNValidatorCatchesFaults: the fault catalogue of issue 16. A gvn
// pass whose numbering puts two different ops in one class, merges Phis
// of different blocks, or replaces a register by a congruent one whose
// definition does not dominate it, is stopped by the validator (Guard
// checker), with or without checking on: only a validated numbering
// rewrites the function.
func TestGVNValidatorCatchesFaults(t *testing.T) {
	src, err := os.ReadFile("../testdata/gvn_loop_phis.smp")
	if err != nil {
		t.Fatal(err)
	}
	// find returns the registers defined by op (Phi for Phis) in the
	// order of the blocks.
	find := func(f *cfg.Func, op string) []cfg.Reg {
		var regs []cfg.Reg
		for _, b := range f.Blocks {
			for _, p := range b.Phis {
				if op == "Phi" {
					regs = append(regs, p.Dst)
				}
			}
			for _, in := range b.Instrs {
				if in.Op.String() == op {
					regs = append(regs, in.Dst)
				}
			}
		}
		return regs
	}
	faults := []struct {
		name    string
		breakIt func(f *cfg.Func, p *gvn.Proposal)
		want    string
	}{
		{"two ops in one class", func(f *cfg.Func, p *gvn.Proposal) {
			lt, mod := find(f, "Lt")[0], find(f, "Mod")[0]
			p.N[mod] = p.N.Of(lt)
		}, "spec-op: v11 and v21 have number v11, but they are defined by v11 = Lt v10 v4 (b2 instr 0) and v21 = Mod v10 v20 (b3 instr 0)"},
		{"Phis of different blocks", func(f *cfg.Func, p *gvn.Proposal) {
			phis := find(f, "Phi") // s, j, i of the first loop, its if's join, then t, k of the second
			p.N[phis[len(phis)-1]] = p.N.Of(phis[1])
		}, "spec-phi-block: v9 and v41 have number v9, but they are Phis of different blocks: v9 = Phi v6 v37 (b2 phi 1) and v41 = Phi v57 v52 (b8 phi 1)"},
		{"a replacement that does not dominate", func(f *cfg.Func, p *gvn.Proposal) {
			muls := find(f, "Mul") // i*3 and j*3, one in each arm
			p.Replace = append(p.Replace, gvn.Replacement{Dst: muls[1], By: muls[0]})
		}, "replace-dom: v31 is replaced by v28, whose definition v28 = Mul v10 v27 (b4 instr 0) does not strictly dominate v31 = Mul v9 v27 (b5 instr 0)"},
	}
	for _, c := range faults {
		t.Run(c.name, func(t *testing.T) {
			fault := func(u *Unit) error {
				p, err := gvn.Number(u.Func)
				if err != nil {
					return err
				}
				c.breakIt(u.Func, p)
				return applyNumbering(u, p)
			}
			withPass(t, "gvn", fault, func() {
				for _, check := range []bool{false, true} {
					_, err := Compile("t.smp", src, Options{Check: check})
					wantCheckerError(t, err, "gvn", c.want)
				}
			})
		})
	}
}
