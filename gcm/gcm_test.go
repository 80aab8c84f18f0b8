package gcm

import (
	"strings"
	"testing"

	"son/cfg"
	"son/opt"
	"son/son"
	"son/syntax"
)

// optimized builds src and runs the graph passes of the pipeline.
func optimized(t *testing.T, src string) *son.Graph {
	t.Helper()
	g, err := optimize(src)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// optimize builds src and runs the graph passes of the pipeline.
func optimize(src string) (*son.Graph, error) {
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		return nil, err
	}
	g := son.Build(f, son.BuildOptions{})
	g.PushAll()
	if err := g.Iterate(); err != nil {
		return nil, err
	}
	if _, err := opt.SCCP(g, opt.Combined, nil); err != nil {
		return nil, err
	}
	opt.ZeroCheckElim(g)
	g.PushAll()
	if err := g.Iterate(); err != nil {
		return nil, err
	}
	g.SplitReturns() // as the pipeline's cleanup pass leaves the returns
	g.StripRefines()
	if err := g.Iterate(); err != nil {
		return nil, err
	}
	return g, nil
}

// schedule schedules g and checks the result.
func schedule(t *testing.T, g *son.Graph) *Result {
	t.Helper()
	r, err := Schedule(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(g, r.Func); err != nil {
		t.Fatal(err)
	}
	return r
}

// placed finds the block of the only live node of op op (that pred
// accepts, if given).
func placed(t *testing.T, g *son.Graph, r *Result, op son.Op, pred ...func(*son.Node) bool) *cfg.Block {
	t.Helper()
	var found *son.Node
	for _, n := range g.Live() {
		if n.Op == op && (len(pred) == 0 || pred[0](n)) {
			if found != nil {
				t.Fatalf("two %v nodes", op)
			}
			found = n
		}
	}
	if found == nil || r.Block(found.ID) == nil {
		t.Fatalf("no placed %v", op)
	}
	return r.Block(found.ID)
}

// TestLoopInvariantLeaves: a multiplication written in a loop body that
// does not change in the loop is computed before the loop.
func TestLoopInvariantLeaves(t *testing.T) {
	g := optimized(t, `
		int s = 0;
		int i = 0;
		while (i < 10) {
			s = s + arg * 7;
			i++;
		}
		return s;`)
	r := schedule(t, g)
	if b := placed(t, g, r, son.OpMul); b.LoopDepth != 0 {
		t.Errorf("arg*7 is in b%d at loop depth %d, want outside the loop", b.ID, b.LoopDepth)
	}
	sum := func(n *son.Node) bool { return n.In[2].Op == son.OpMul }
	if b := placed(t, g, r, son.OpAdd, sum); b.LoopDepth != 1 {
		// s+... changes every round: it stays.
		t.Errorf("the sum is in b%d at loop depth %d, want 1", b.ID, b.LoopDepth)
	}
	// The bounds it was placed between: early at the entry (its inputs
	// are there), late in the loop, where its use is.
	for _, n := range g.Live() {
		if n.Op != son.OpMul {
			continue
		}
		if e := r.Early(n.ID); e != r.Func.Blocks[0] {
			t.Errorf("arg*7's early block is %v, want the entry %v", e, r.Func.Blocks[0])
		}
		if l := r.Late(n.ID); l == nil || l.LoopDepth != 1 {
			t.Errorf("arg*7's late block is %v, want one in the loop", l)
		}
		if r.Early(-1) != nil || r.Late(1<<30) != nil || r.Block(1<<30) != nil {
			t.Error("a block for an ID out of range")
		}
	}
}

// TestOnlyWhereNeeded: an expression used only in one branch is computed
// only in that branch, not before the If.
func TestOnlyWhereNeeded(t *testing.T) {
	g := optimized(t, `
		int x = arg * 3;
		if (arg > 10) return x;
		return 5;`)
	r := schedule(t, g)
	b := placed(t, g, r, son.OpMul)
	if b.Term.Kind != cfg.TermReturn || len(b.Preds) != 1 || b == r.Func.Blocks[0] {
		t.Errorf("arg*3 is in b%d, want in the block that returns it", b.ID)
	}
}

// TestNestedLoops: invariant work goes out of both loops, work that only
// the outer loop changes goes between them.
func TestNestedLoops(t *testing.T) {
	g := optimized(t, `
		int s = 0;
		for (int i = 0; i < arg; i++) {
			for (int j = 0; j < 5; j++) {
				s = s + (arg ^ 99) + (i << 3);
			}
		}
		return s;`)
	r := schedule(t, g)
	if b := placed(t, g, r, son.OpXor); b.LoopDepth != 0 {
		t.Errorf("arg^99 at loop depth %d, want 0", b.LoopDepth)
	}
	if b := placed(t, g, r, son.OpShl); b.LoopDepth != 1 {
		t.Errorf("i<<3 at loop depth %d, want 1", b.LoopDepth)
	}
	depths := map[int32]bool{}
	for _, b := range r.Func.Blocks {
		depths[b.LoopDepth] = true
	}
	if !depths[2] || depths[3] {
		t.Errorf("loop depths %v, want 0, 1 and 2", depths)
	}
}

// TestDivisionStaysBelowItsCheck: a loop-invariant division whose check is
// in the loop cannot leave the loop above its check.
func TestDivisionStaysBelowItsCheck(t *testing.T) {
	g := optimized(t, `
		int s = 0;
		int i = 0;
		while (i < arg) {
			s = s + 100 / arg;
			i++;
		}
		return s;`)
	r := schedule(t, g)
	div := placed(t, g, r, son.OpDiv)
	check := placed(t, g, r, son.OpZeroCheck)
	if div != check {
		t.Errorf("the division is in b%d, its check in b%d", div.ID, check.ID)
	}
}

// TestInfiniteLoop: a loop kept by a Never becomes a loop that only jumps
// back; its Return of Top is not scheduled.
func TestInfiniteLoop(t *testing.T) {
	g := optimized(t, "int x = 0; while (1) { x = x + arg; }")
	r := schedule(t, g)
	for _, b := range r.Func.Blocks {
		if b.Term.Kind == cfg.TermReturn {
			t.Errorf("b%d returns", b.ID)
		}
	}
}

// TestCheckRejects breaks good schedules and wants the checker to say so.
func TestCheckRejects(t *testing.T) {
	const src = `
		int s = 0;
		int i = 0;
		while (i < 10) {
			s = s + 100 / arg;
			i++;
		}
		return s * 3;`
	find := func(f *cfg.Func, op cfg.Op) (*cfg.Block, int) {
		for _, b := range f.Blocks {
			for i, in := range b.Instrs {
				if in.Op == op {
					return b, i
				}
			}
		}
		t.Fatalf("no %v", op)
		return nil, 0
	}
	remove := func(b *cfg.Block, i int) *cfg.Instr {
		in := b.Instrs[i]
		b.Instrs = append(b.Instrs[:i:i], b.Instrs[i+1:]...)
		return in
	}
	for _, c := range []struct {
		name    string
		breakIt func(r *Result)
		want    string
	}{
		{"node dropped", func(r *Result) {
			b, i := find(r.Func, cfg.OpMul)
			remove(b, i)
		}, "is not placed"},
		{"node placed twice", func(r *Result) {
			b, i := find(r.Func, cfg.OpMul)
			b.Instrs = append(b.Instrs, b.Instrs[i])
		}, "is placed 2 times"},
		{"use before definition", func(r *Result) {
			b, i := find(r.Func, cfg.OpMul)
			in := remove(b, i)
			r.Func.Blocks[0].Instrs = append(r.Func.Blocks[0].Instrs, in)
		}, "before it is defined"},
		{"division above its check", func(r *Result) {
			b, i := find(r.Func, cfg.OpDiv)
			in := remove(b, i)
			b.Instrs = append([]*cfg.Instr{in}, b.Instrs...)
		}, "not below its check"},
		{"check moved", func(r *Result) {
			b, i := find(r.Func, cfg.OpCheck)
			in := remove(b, i)
			r.Func.Blocks[0].Instrs = append(r.Func.Blocks[0].Instrs, in)
		}, "but control passes it in b"},
		{"phi values swapped", func(r *Result) {
			for _, b := range r.Func.Blocks {
				if len(b.Phis) > 0 {
					p := b.Phis[0]
					p.Args[0], p.Args[1] = p.Args[1], p.Args[0]
					return
				}
			}
		}, "takes v"},
		{"wrong op", func(r *Result) {
			b, i := find(r.Func, cfg.OpMul)
			b.Instrs[i].Op = cfg.OpAdd
		}, "does not compute"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := optimized(t, src)
			r := schedule(t, g)
			c.breakIt(r)
			err := Check(g, r.Func)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// TestCheckHoistedCheck: a schedule that moves a check, and the division
// it guards, above the branch that guards them, and records the move in
// its own map, is rejected; the checker finds each check's block from the
// graph, not from the map. Run, that schedule divides by zero.
func TestCheckHoistedCheck(t *testing.T) {
	g := optimized(t, "if (arg % 2 == 0) return 100 / arg; return 0;")
	r := schedule(t, g)
	entry := r.Func.Blocks[0]
	if entry.Term.Kind != cfg.TermBranch {
		t.Fatalf("the entry ends with %v, want the branch", entry.Term.Kind)
	}
	// Everything in the block of the check goes up, in order: the check,
	// the division and its dividend.
	var moved []*cfg.Instr
	for _, b := range r.Func.Blocks[1:] {
		for _, in := range b.Instrs {
			if in.Op == cfg.OpCheck {
				moved = b.Instrs
				b.Instrs = nil
			}
		}
	}
	if len(moved) < 2 {
		t.Fatalf("moved %d instructions, want the check and the division at least", len(moved))
	}
	entry.Instrs = append(entry.Instrs, moved...)
	if err := cfg.Verify(r.Func); err != nil {
		t.Fatalf("the hoisted schedule is well formed, but cfg.Verify says: %v", err)
	}
	if _, err := cfg.Run(r.Func, 0, cfg.Limits{}); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("run(0) of the hoisted schedule: %v, want a division by zero", err)
	}
	err := Check(g, r.Func)
	if err == nil {
		t.Fatal("the hoisted check is accepted")
	}
	for _, want := range []string{
		"b1: check: instruction ",
		"checks for ZeroCheck#",
		"but control passes it in b",
		"check: control passes ZeroCheck#",
		"but it is not checked there",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
}

// TestCheckGarbage feeds the checker broken functions: it must name the
// block and the rule, never panic.
func TestCheckGarbage(t *testing.T) {
	const src = `
		int s = 0;
		for (int i = 0; i < arg; i++) {
			if (i == 3) s = s + 100 / (arg - i);
		}
		return s;`
	for _, c := range []struct {
		name    string
		breakIt func(f *cfg.Func)
		want    string
	}{
		{"no function", func(f *cfg.Func) { *f = cfg.Func{} }, "func: block: the function has no blocks"},
		{"nil block", func(f *cfg.Func) { f.Blocks[1] = nil }, "func: block: block 1 of the function is nil"},
		{"block listed twice", func(f *cfg.Func) { f.Blocks[2] = f.Blocks[1] }, "block: listed twice"},
		{"nil successor", func(f *cfg.Func) { f.Blocks[0].Succs()[0] = nil }, "b1: term: a successor is nil where control goes to"},
		{"successor from elsewhere", func(f *cfg.Func) { f.Blocks[0].Succs()[0] = &cfg.Block{ID: 99} }, "b1: term: successor b99 is not a block of the function"},
		{"successors swapped", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if b.Term.Kind == cfg.TermBranch {
					b.Succs()[0], b.Succs()[1] = b.Succs()[1], b.Succs()[0]
					return
				}
			}
		}, "b3: term: ends with a branch (node 21, v20), want Return#"},
		{"too few successors", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if b.Term.Kind == cfg.TermBranch {
					b.SetSuccs(b.Succs()[:1]...)
					return
				}
			}
		}, "term: 1 successors, want 2"},
		{"terminator of a dead node", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if b.Term.Kind == cfg.TermReturn {
					b.Term.Node = 100000
				}
			}
		}, "term: ends with a return (node 100000"},
		{"branch turned into a jump", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if b.Term.Kind == cfg.TermBranch {
					b.Term.Kind = cfg.TermJump
					return
				}
			}
		}, "term: ends with a jump"},
		{"extra block", func(f *cfg.Func) {
			f.Blocks = append(f.Blocks, &cfg.Block{ID: 50, Term: cfg.Term{Kind: cfg.TermReturn, Reg: 1}})
		}, "b50: block: is not a block of the graph's control flow from Start"},
		{"nil predecessor", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if len(b.Preds) > 1 {
					b.Preds[0] = nil
					return
				}
			}
		}, "preds: predecessors [nil"},
		{"instruction of a dead node", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if len(b.Instrs) > 0 {
					b.Instrs[0].Node = 100000
					return
				}
			}
		}, "op: instruction 0 (Arg) is from node 100000, which is not live"},
		{"nil instruction", func(f *cfg.Func) { f.Blocks[0].Instrs[0] = nil }, "b1: op: instruction 0 is nil"},
		{"check of a dead node", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if in.Op == cfg.OpCheck {
						in.Node = 100000
						return
					}
				}
			}
		}, "b4: check: instruction 0 checks for node 100000, which is no live ZeroCheck"},
		{"nil Phi", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if len(b.Phis) > 0 {
					b.Phis[0] = nil
					return
				}
			}
		}, "phi: Phi 0 is nil"},
		{"Phi short of values", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if len(b.Phis) > 0 {
					b.Phis[0].Args = b.Phis[0].Args[:1]
					return
				}
			}
		}, "with 1 values, want"},
		{"Phi of no node", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if len(b.Phis) > 0 {
					b.Phis[0].Node = 0
					return
				}
			}
		}, "is from node 0, which is no live Phi"},
		{"check at the wrong position", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if in.Op == cfg.OpCheck {
						in.Pos.Col++
						return
					}
				}
			}
		}, "pos: instruction 0 (Check) is at 4:"},
		{"return at the wrong position", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				if b.Term.Kind == cfg.TermReturn {
					b.Term.Pos = syntax.Pos{}
				}
			}
		}, "pos: the terminator is at ?, but Return#"},
		{"instruction with missing operands", func(f *cfg.Func) {
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if in.Op == cfg.OpAdd {
						in.Args = nil
						return
					}
				}
			}
		}, "(Add) does not compute Add#"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := optimized(t, src)
			r := schedule(t, g)
			c.breakIt(r.Func)
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("Check panics: %v", p)
					}
				}()
				err = Check(g, r.Func)
			}()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}
