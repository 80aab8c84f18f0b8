package gcm

import (
	"fmt"
	"strings"
	"testing"

	"son/cfg"
	"son/son"
)

// constNode finds the only live Constant of value v.
func constNode(t *testing.T, g *son.Graph, v int64) *son.Node {
	t.Helper()
	var found *son.Node
	for _, n := range g.Live() {
		if n.Op == son.OpConstant && n.Aux == v {
			if found != nil {
				t.Fatalf("two constants %d", v)
			}
			found = n
		}
	}
	if found == nil {
		t.Fatalf("no constant %d", v)
	}
	return found
}

// wantRuns checks that f returns want[arg] for each arg.
func wantRuns(t *testing.T, f *cfg.Func, want map[int64]int64) {
	t.Helper()
	for arg, w := range want {
		if got, err := cfg.Run(f, arg, cfg.Limits{}); err != nil || got != w {
			t.Errorf("run(%d) = %d, %v; want %d", arg, got, err, w)
		}
	}
}

// siblings uses the constant 5 on both sides of a branch.
const siblings = `
	if (arg < 3) return arg / 5;
	return arg * 5;`

// TestConstantCopiesInSiblings: a constant used in two sibling blocks gets
// a copy in each rather than one in their dominator, live across the
// branch; the first, in block order, keeps the node's register and is the
// node's block.
func TestConstantCopiesInSiblings(t *testing.T) {
	g := optimized(t, siblings)
	r := schedule(t, g)
	five := constNode(t, g, 5)
	want := `func t.smp level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 3
	v7 = Lt v4 v6            ; line 2
	branch v7 b2 b3          ; line 2
b2:  ; preds b1, depth 0
	v13 = Const 5
	v14 = Div v4 v13         ; line 2
	return v14               ; line 2
b3:  ; preds b1, depth 0
	v30 = Const 5
	v21 = Mul v4 v30         ; line 3
	return v21               ; line 3
`
	if got := cfg.Print(r.Func); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if five.ID != 13 || g.MaxID() != 30 {
		t.Errorf("the constant 5 is node %d of %d, want node 13 and the copy's register 30 (g.MaxID())", five.ID, g.MaxID())
	}
	if b := r.Block(five.ID); b != r.Func.Blocks[1] {
		t.Errorf("Block(5) = %v, want the first copy's b2", b)
	}
	wantRuns(t, r.Func, map[int64]int64{2: 0, 12: 60, -9: -1})
}

// TestConstantStaysOutOfLoop: a constant used in a loop body and after
// the loop stays out of the loop, its copy for the body in the block
// before the loop (not the entry: the latest block of least depth), and
// gets a second copy after the loop, where its other use is.
func TestConstantStaysOutOfLoop(t *testing.T) {
	g := optimized(t, `
		int s = arg;
		if (arg < 0) s = 0 - arg;
		while (s < 1000) s = s * 9 + 1;
		return s ^ 9;`)
	r := schedule(t, g)
	want := `func t.smp level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 0
	v7 = Lt v4 v6            ; line 3
	branch v7 b2 b3          ; line 3
b2:  ; preds b1, depth 0
	v14 = Neg v4
	jump b4
b3:  ; preds b1, depth 0
	jump b4
b4:  ; preds b2 b3, depth 0
	v19 = Phi v14 v4         ; line 3
	v22 = Const 1000
	v30 = Const 9
	v32 = Const 1
	jump b5
b5:  ; preds b4 b6, depth 1
	v21 = Phi v19 v33        ; line 4
	v23 = Lt v21 v22         ; line 4
	branch v23 b6 b7         ; line 4
b6:  ; preds b5, depth 1
	v31 = Mul v21 v30        ; line 4
	v33 = Add v31 v32        ; line 4
	jump b5
b7:  ; preds b5, depth 0
	v37 = Const 9
	v34 = Xor v21 v37        ; line 5
	return v34               ; line 5
`
	if got := cfg.Print(r.Func); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	wantRuns(t, r.Func, map[int64]int64{0: 7388, -5: 3729, 2000: 2009})
}

// TestCheckRejectsBrokenCopies: the checker accepts a constant's copies
// only as Consts of its value, each register defined once, each use
// reading a copy that dominates it.
func TestCheckRejectsBrokenCopies(t *testing.T) {
	instr := func(f *cfg.Func, b int, op cfg.Op) *cfg.Instr {
		for _, in := range f.Blocks[b].Instrs {
			if in.Op == op {
				return in
			}
		}
		t.Fatalf("no %v in b%d", op, f.Blocks[b].ID)
		return nil
	}
	for _, c := range []struct {
		name    string
		breakIt func(f *cfg.Func)
		want    string
	}{
		{"a copy of the wrong value", func(f *cfg.Func) {
			instr(f, 2, cfg.OpConst).Aux = 6
		}, "b3: op: instruction 0 (Const) does not compute Constant#13"},
		{"a copy in a register of another node", func(f *cfg.Func) {
			instr(f, 2, cfg.OpConst).Dst = 4
			instr(f, 2, cfg.OpMul).Args[1] = 4
		}, "b3: op: instruction 0 (Const) does not compute Constant#13"},
		{"a copy's register holding another constant", func(f *cfg.Func) {
			in := instr(f, 2, cfg.OpConst)
			in.Node, in.Aux = 6, 3
		}, "b3: op: Mul#21 reads v30, which is not defined as Constant#13"},
		{"a use of the sibling's copy", func(f *cfg.Func) {
			instr(f, 2, cfg.OpMul).Args[1] = 13
		}, "b3: dominance: Mul#21 uses Constant#13 (v13) before it is defined"},
		{"a use of another constant", func(f *cfg.Func) {
			instr(f, 2, cfg.OpMul).Args[1] = 6
		}, "b3: op: Mul#21 reads v6, which is not defined as Constant#13"},
		{"a return of the wrong register", func(f *cfg.Func) {
			f.Blocks[1].Term.Reg = 30
		}, "b2: op: a return (node 28, v30) reads v30, which is not defined as Div#14"},
		{"two copies in one block", func(f *cfg.Func) {
			b := f.Blocks[2]
			cp := *b.Instrs[0]
			cp.Dst = 31
			b.Instrs = append([]*cfg.Instr{&cp}, b.Instrs...)
		}, "b3: placed: Constant#13 has two copies in the block"},
		{"a register defined twice", func(f *cfg.Func) {
			instr(f, 2, cfg.OpConst).Dst = 13
			instr(f, 2, cfg.OpMul).Args[1] = 13
		}, "b3: reg: v13 is defined twice, for node 13 and node 13"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := optimized(t, siblings)
			r := schedule(t, g)
			c.breakIt(r.Func)
			err := Check(g, r.Func)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// TestCheckRejectsReturnOfSiblingsCopy: a constant returned in two
// sibling blocks has a copy in each; a return reading the other's copy,
// of the right node and value but in a block that does not dominate it,
// is rejected.
func TestCheckRejectsReturnOfSiblingsCopy(t *testing.T) {
	g := optimized(t, `
	if (arg < 3) return 7;
	if (arg < 9) return arg + 1;
	return 7;`)
	r := schedule(t, g)
	seven := constNode(t, g, 7)
	b2, b5 := r.Func.Blocks[1], r.Func.Blocks[4]
	if b2.Term.Reg != cfg.Reg(seven.ID) || b5.Term.Reg == b2.Term.Reg {
		t.Fatalf("want b2 and b5 to return their own copies of 7:\n%s", cfg.Print(r.Func))
	}
	wantRuns(t, r.Func, map[int64]int64{0: 7, 5: 6, 20: 7})
	b5.Term.Reg = b2.Term.Reg
	want := fmt.Sprintf("b5: dominance: a return (node %d, v%d) uses Constant#%d (v%d) before it is defined", b5.Term.Node, seven.ID, seven.ID, seven.ID)
	if err := Check(g, r.Func); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error saying %q", err, want)
	}
}

// TestConstantSharedAtJoin: on a chain of &&, each arm that stops the
// chain gives the join's Phi the constant 0; those copies, which only the
// Phi reads and whose blocks hang off the chain one branch each, are one
// Const in the chain's head, live down the chain, not one per arm (on a
// chain of 500,000 terms, a register and an instruction per arm). The
// last operand's comparison with 0 keeps its own copy: it is no Phi's.
func TestConstantSharedAtJoin(t *testing.T) {
	g := optimized(t, `return arg && arg && arg && arg;`)
	r := schedule(t, g)
	want := `func t.smp level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v15 = Const 0
	branch v4 b2 b7          ; line 1
b2:  ; preds b1, depth 0
	branch v4 b3 b6          ; line 1
b3:  ; preds b2, depth 0
	branch v4 b4 b5          ; line 1
b4:  ; preds b3, depth 0
	v21 = Const 0
	v16 = Ne v4 v21
	jump b8
b5:  ; preds b3, depth 0
	jump b8
b6:  ; preds b2, depth 0
	jump b8
b7:  ; preds b1, depth 0
	jump b8
b8:  ; preds b4 b5 b6 b7, depth 0
	v18 = Phi v16 v15 v15 v15 ; line 1
	return v18               ; line 1
`
	if got := cfg.Print(r.Func); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if b := r.Block(constNode(t, g, 0).ID); b != r.Func.Blocks[0] {
		t.Errorf("Block(0) = %v, want the shared copy's b1", b)
	}
	wantRuns(t, r.Func, map[int64]int64{0: 0, 1: 1, -7: 1})
	// The shared copy moved down the chain no longer dominates the arm
	// that leaves first.
	b1, b2 := r.Func.Blocks[0], r.Func.Blocks[1]
	b2.Instrs = append(b2.Instrs, b1.Instrs[1])
	b1.Instrs = b1.Instrs[:1]
	want = "b8: dominance: Phi#18's value Constant#15 is not available at the end of b7"
	if err := Check(g, r.Func); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error saying %q", err, want)
	}
}

// TestConstantNotSharedThroughLoop: the arms that give a join's Phi the
// constant 9 keep their own copies when the path from their common
// dominator down to one of them goes through a block entered from two
// sides (here a loop's head: the copy would be live around the loop);
// the 0 given by two arms below one branch is shared in that branch's
// block.
func TestConstantNotSharedThroughLoop(t *testing.T) {
	g := optimized(t, `
		int x = arg;
		int i = 0;
		if (arg < 1) { while (i < arg * arg) i = i + 1; x = 9; }
		else if (arg > 10) x = 9;
		return x + i;`)
	r := schedule(t, g)
	want := `func t.smp level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v7 = Const 1
	v8 = Lt v4 v7            ; line 4
	branch v8 b2 b6          ; line 4
b2:  ; preds b1, depth 0
	v6 = Const 0
	v48 = Const 1
	v16 = Mul v4 v4          ; line 4
	jump b3
b3:  ; preds b2 b4, depth 1
	v15 = Phi v6 v24         ; line 4
	v17 = Lt v15 v16         ; line 4
	branch v17 b4 b5         ; line 4
b4:  ; preds b3, depth 1
	v24 = Add v15 v48        ; line 4
	jump b3
b5:  ; preds b3, depth 0
	v25 = Const 9
	jump b9
b6:  ; preds b1, depth 0
	v49 = Const 0
	v28 = Const 10
	v29 = Lt v28 v4          ; line 5
	branch v29 b7 b8         ; line 5
b7:  ; preds b6, depth 0
	v47 = Const 9
	jump b9
b8:  ; preds b6, depth 0
	jump b9
b9:  ; preds b5 b7 b8, depth 0
	v42 = Phi v25 v47 v4     ; line 4
	v43 = Phi v15 v49 v49    ; line 4
	v44 = Add v42 v43        ; line 6
	return v44               ; line 6
`
	if got := cfg.Print(r.Func); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	wantRuns(t, r.Func, map[int64]int64{0: 9, -3: 18, 5: 5, 11: 9})
}

// TestConstantSharedPerJoin: the 0 that two joins' Phis take from their
// arms is shared once per join, each copy in its own arms' dominator, and
// the uses that are not a Phi's keep their own copies.
func TestConstantSharedPerJoin(t *testing.T) {
	g := optimized(t, `
		int x = arg && arg && arg;
		int y = arg || arg || arg;
		if (arg < 5) return x + y + 1;
		return x && (arg + 1) && y;`)
	r := schedule(t, g)
	want := `func t.smp level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v12 = Const 0
	v13 = Ne v4 v12
	branch v4 b2 b5          ; line 2
b2:  ; preds b1, depth 0
	branch v4 b3 b4          ; line 2
b3:  ; preds b2, depth 0
	jump b6
b4:  ; preds b2, depth 0
	jump b6
b5:  ; preds b1, depth 0
	jump b6
b6:  ; preds b3 b4 b5, depth 0
	v15 = Phi v13 v12 v12    ; line 2
	v23 = Const 1
	branch v4 b7 b8          ; line 3
b7:  ; preds b6, depth 0
	jump b11
b8:  ; preds b6, depth 0
	branch v4 b9 b10         ; line 3
b9:  ; preds b8, depth 0
	jump b11
b10:  ; preds b8, depth 0
	jump b11
b11:  ; preds b7 b9 b10, depth 0
	v25 = Phi v23 v23 v13    ; line 3
	v26 = Const 5
	v27 = Lt v4 v26          ; line 4
	branch v27 b12 b13       ; line 4
b12:  ; preds b11, depth 0
	v56 = Const 1
	v33 = Add v15 v25        ; line 4
	v34 = Add v33 v56        ; line 4
	jump b18
b13:  ; preds b11, depth 0
	v58 = Const 0
	branch v15 b14 b17       ; line 5
b14:  ; preds b13, depth 0
	v57 = Const 1
	v44 = Add v4 v57         ; line 5
	branch v44 b15 b16       ; line 5
b15:  ; preds b14, depth 0
	jump b18
b16:  ; preds b14, depth 0
	jump b18
b17:  ; preds b13, depth 0
	jump b18
b18:  ; preds b12 b15 b16 b17, depth 0
	v53 = Phi v34 v25 v58 v58 ; line 4
	return v53               ; line 4
`
	if got := cfg.Print(r.Func); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	wantRuns(t, r.Func, map[int64]int64{0: 1, 1: 3, 7: 1, -1: 3})
}
