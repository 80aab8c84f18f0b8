package compile

import (
	"testing"

	"son/cfg"
	"son/outssa"
)

// outssaFault is a pass that translates out of SSA and then breaks the
// result as break says: a fault of the catalogue that the outssa checker
// must catch.
func outssaFault(breakIt func(in, out *cfg.Func)) func(*Unit) error {
	return func(u *Unit) error {
		u.SSA = u.Func
		r, err := outssa.Translate(u.Func)
		if err != nil {
			return err
		}
		breakIt(u.SSA, r.Func)
		u.OutSSA, u.Func = r, r.Func
		return nil
	}
}

// moves returns the moves at the end of b: the instructions after those
// of the same block of in.
func moves(in *cfg.Func, out *cfg.Func, i int) []*cfg.Instr {
	return out.Blocks[i].Instrs[len(in.Blocks[i].Instrs):]
}

// TestCheckerCatchesOutSSAFaults: a swap done in sequence, a lost copy and
// a wrong coalescing each change what a program returns when checking is
// off, and each is stopped by the outssa checker when it is on.
func TestCheckerCatchesOutSSAFaults(t *testing.T) {
	swap := []byte("int a = 1; int b = 2; int i = 0;\nwhile (i < arg) { int t = a; a = b; b = t; i = i + 1; }\nreturn a * 10 + b;\n")
	lost := []byte("int x = 1; int y = 0;\nwhile (1) { y = x; x = x + 1; if (x > arg) break; }\nreturn y;\n")
	for _, c := range []struct {
		name      string
		src       []byte
		arg, good int64
		breakIt   func(in, out *cfg.Func)
		want      string
	}{
		{"swap in sequence", swap, 1, 21, func(in, out *cfg.Func) {
			// t = b; b = a; a = t becomes b = a; a = b.
			for i := range out.Blocks {
				ms := moves(in, out, i)
				if len(ms) == 3 && ms[2].Args[0] == ms[0].Dst {
					ms[2].Args[0] = ms[0].Args[0]
					out.Blocks[i].Instrs = append(out.Blocks[i].Instrs[:len(in.Blocks[i].Instrs)], ms[1], ms[2])
				}
			}
		}, "parallel-move: the moves from b3 to b2: phi 0 (v10 = Phi v6 v11) wants the value of v11 in v10, which holds the value of v10"},
		{"lost copy", lost, 5, 5, func(in, out *cfg.Func) {
			for i := range out.Blocks {
				if ms := moves(in, out, i); len(ms) == 1 && ms[0].Op == cfg.OpCopy {
					out.Blocks[i].Instrs = out.Blocks[i].Instrs[:len(in.Blocks[i].Instrs)]
				}
			}
		}, "parallel-move: the moves from b4 to b2: phi 0 (v9 = Phi v6 v16) wants the value of v16 in v9, which holds no known value"},
		{"wrong coalescing", lost, 5, 5, func(in, out *cfg.Func) {
			// x and x + 1 interfere; put them in one register anyway.
			var from, to cfg.Reg
			for i := range out.Blocks {
				if ms := moves(in, out, i); len(ms) == 1 && ms[0].Op == cfg.OpCopy {
					from, to = ms[0].Args[0], ms[0].Dst
					out.Blocks[i].Instrs = out.Blocks[i].Instrs[:len(in.Blocks[i].Instrs)]
				}
			}
			for _, b := range out.Blocks {
				for _, in := range b.Instrs {
					if in.Dst == from {
						in.Dst = to
					}
					for k, a := range in.Args {
						if a == from {
							in.Args[k] = to
						}
					}
				}
			}
		}, "interference: at the end of the block: v16 and v9 are both live and both in v9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			withPass(t, "outssa", outssaFault(c.breakIt), func() {
				u, err := Compile("t.smp", c.src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if v, err := cfg.Run(u.Func, c.arg, cfg.Limits{Steps: 10000}); err == nil && v == c.good {
					t.Fatalf("unchecked: run(%d) = %d, the right result: the fault did not break the program", c.arg, v)
				}
				_, err = Compile("t.smp", c.src, Options{Check: true})
				wantCheckerError(t, err, "outssa", c.want)
			})
		})
	}
}

// TestOutSSALevels: after outssa, Func is the RTL function and SSA the
// function it came from, and both run; the moves are counted.
func TestOutSSALevels(t *testing.T) {
	src := []byte("int s = 0;\nfor (int i = 1; i <= arg; i = i + 1) s = s + i;\nreturn s;\n")
	u, err := Compile("t.smp", src, Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if u.Func.Level != cfg.RTL || u.SSA.Level != cfg.SSA {
		t.Fatalf("levels %v and %v, want RTL and SSA", u.Func.Level, u.SSA.Level)
	}
	for _, f := range []*cfg.Func{u.SSA, u.Func} {
		if v, err := cfg.Run(f, 4, cfg.Limits{}); err != nil || v != 10 {
			t.Errorf("%v: run(4) = %d, %v; want 10", f.Level, v, err)
		}
	}
	last := u.Stats[len(u.Stats)-1]
	if last.Name != "outssa" || last.Moves == nil || *last.Moves != (MoveStats{Naive: 4, Copies: 1, Cycles: 0}) {
		t.Errorf("stats of %s: moves %+v, want naive 4, copies 1 (i's start), cycles 0", last.Name, last.Moves)
	}
}
