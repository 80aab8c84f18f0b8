package outssa_test

import (
	"math/rand"
	"strconv"
	"testing"

	"son/cfg"
	"son/compile"
	"son/internal/gen"
	"son/internal/testenv"
	"son/outssa"
)

// TestCheckRejectsWrongMutants breaks the pass's output on random programs
// at random, one change at a time (a move deleted, two moves exchanged, a
// register renamed in an instruction or a move), and requires of every
// mutant the checker accepts that it compute what the SSA function
// computes on every argument tried: the checker may reject a harmless
// change, never accept a harmful one. It also counts the mutants rejected,
// so that a checker that accepts everything cannot pass. SON_MUTANT_PROGRAMS=N
// runs a longer campaign (1,500 programs: 45,488 mutants rejected, 2,385
// accepted, all harmless).
func TestCheckRejectsWrongMutants(t *testing.T) {
	programs := int(testenv.Int(t, "SON_MUTANT_PROGRAMS", 30, "a number of programs"))
	mutants := 40
	if testing.Short() {
		programs = 15
	}
	rejected, accepted := 0, 0
	args := []int64{0, 1, 2, 5, -3, 100}
	lim := cfg.Limits{Steps: 200_000}
	for seed := int64(1); seed <= int64(programs); seed++ {
		shapes := []gen.Shape{gen.Loopy, gen.Mixed, gen.Branchy}
		src := gen.Program(gen.Config{Seed: seed, Size: 25, Shape: shapes[seed%3]})
		u, err := compile.Compile("gen.smp", []byte(src), compile.Options{StopAfter: "gcm"})
		if err != nil {
			t.Fatal(err)
		}
		ssa := u.Func
		want := make([]string, len(args))
		for k, a := range args {
			v, err := cfg.Run(ssa, a, lim)
			want[k] = result(v, err)
		}
		rng := rand.New(rand.NewSource(seed))
		for range mutants {
			r, err := outssa.Translate(ssa)
			if err != nil {
				t.Fatal(err)
			}
			what, ok := mutate(rng, ssa, r.Func)
			if !ok {
				continue
			}
			if err := outssa.Check(ssa, r.Func); err != nil {
				rejected++
				continue
			}
			accepted++
			for k, a := range args {
				v, err := cfg.Run(r.Func, a, lim)
				if got := result(v, err); got != want[k] && want[k] != "step limit" {
					t.Fatalf("seed %d: the checker accepts a mutant (%s) that returns %s for %d, not %s:\n%s\n%s",
						seed, what, got, a, want[k], cfg.Print(ssa), cfg.Print(r.Func))
				}
			}
		}
	}
	t.Logf("%d mutants rejected, %d accepted and harmless", rejected, accepted)
	if rejected < accepted {
		t.Errorf("only %d mutants rejected, %d accepted: the mutations or the checker do nothing", rejected, accepted)
	}
}

func result(v int64, err error) string {
	if err != nil {
		if re, ok := err.(*cfg.RuntimeError); ok && re.Msg != "division by zero" {
			return "step limit"
		}
		return err.Error()
	}
	return strconv.FormatInt(v, 10)
}

// mutate makes one random change to out and says what it was; false if
// out offers nothing to change.
func mutate(rng *rand.Rand, in, out *cfg.Func) (string, bool) {
	var regs []cfg.Reg
	type site struct {
		b, k int
	}
	var moves, instrs []site
	for i, b := range out.Blocks {
		for k, x := range b.Instrs {
			if x.Dst != 0 {
				regs = append(regs, x.Dst)
			}
			if k >= len(in.Blocks[i].Instrs) {
				moves = append(moves, site{i, k})
			} else if len(x.Args) > 0 || x.Dst != 0 {
				instrs = append(instrs, site{i, k})
			}
		}
	}
	if len(regs) == 0 {
		return "", false
	}
	other := func(r cfg.Reg) cfg.Reg {
		for range 10 {
			if s := regs[rng.Intn(len(regs))]; s != r {
				return s
			}
		}
		return r
	}
	rename := func(x *cfg.Instr) {
		if len(x.Args) > 0 && (x.Dst == 0 || rng.Intn(2) == 0) {
			j := rng.Intn(len(x.Args))
			x.Args[j] = other(x.Args[j])
		} else {
			x.Dst = other(x.Dst)
		}
	}
	switch n := rng.Intn(4); {
	case n == 0 && len(moves) > 0:
		m := moves[rng.Intn(len(moves))]
		b := out.Blocks[m.b]
		b.Instrs = append(b.Instrs[:m.k], b.Instrs[m.k+1:]...)
		return "a move deleted", true
	case n == 1 && len(moves) > 1:
		m := moves[rng.Intn(len(moves))]
		b := out.Blocks[m.b]
		if m.k+1 >= len(b.Instrs) {
			return "", false
		}
		b.Instrs[m.k], b.Instrs[m.k+1] = b.Instrs[m.k+1], b.Instrs[m.k]
		return "two moves exchanged", true
	case n == 2 && len(moves) > 0:
		m := moves[rng.Intn(len(moves))]
		rename(out.Blocks[m.b].Instrs[m.k])
		return "a register of a move renamed", true
	case len(instrs) > 0:
		m := instrs[rng.Intn(len(instrs))]
		rename(out.Blocks[m.b].Instrs[m.k])
		return "a register of an instruction renamed", true
	}
	return "", false
}
