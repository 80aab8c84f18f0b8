package loops_test

import (
	"strings"
	"testing"

	"son/cfg"
	"son/loops"
)

// A loop entered from two blocks and closed by two back edges (a
// continue): Normalize gives it a preheader and a single latch, with Phis
// for what they merge; Pads a pad on its exit; Close a copy there of the
// value used after it.
const twoEntries = `func two level SSA
b1:
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:
	jump b4
b3:
	jump b4
b4:
	v3 = Phi v1 v2 v5 v6
	v4 = Lt v3 v2
	branch v4 b5 b8
b5:
	v5 = Add v3 v2
	branch v5 b6 b7
b6:
	jump b4
b7:
	v6 = Sub v3 v2
	jump b4
b8:
	return v3
`

func TestNormalizeHand(t *testing.T) {
	f, err := cfg.Parse(twoEntries)
	if err != nil {
		t.Fatal(err)
	}
	if err := loops.Prepare(f); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Verify(f); err != nil {
		t.Fatal(err)
	}
	want := `func two level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	jump b10
b3:  ; preds b1, depth 0
	jump b10
b10:  ; preds b2 b3, depth 0
	v8 = Phi v1 v2
	jump b4
b4:  ; preds b10 b9, depth 0
	v3 = Phi v8 v7
	v4 = Lt v3 v2
	branch v4 b5 b11
b5:  ; preds b4, depth 0
	v5 = Add v3 v2
	branch v5 b6 b7
b6:  ; preds b5, depth 0
	jump b9
b7:  ; preds b5, depth 0
	v6 = Sub v3 v2
	jump b9
b9:  ; preds b6 b7, depth 0
	v7 = Phi v5 v6
	jump b4
b11:  ; preds b4, depth 0
	v9 = Phi v3
	jump b8
b8:  ; preds b11, depth 0
	return v9
`
	if got := cfg.Print(f); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Each pass a second time changes nothing.
	for _, pass := range []func(*cfg.Func) error{loops.Normalize, loops.Pads, loops.Close} {
		if err := pass(f); err != nil {
			t.Fatal(err)
		}
		if got := cfg.Print(f); got != want {
			t.Errorf("a second time:\n%s", got)
		}
	}
}

// Irreducible control flow: a cycle entered at two blocks, b4 and b5,
// in a function cfg.Verify accepts (Prepare checks that first).
func TestIrreducible(t *testing.T) {
	f, err := cfg.Parse(`func irr level SSA
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	jump b4
b3:
	jump b5
b4:  ; preds b2 b7
	branch v1 b8 b9
b8:
	jump b5
b9:
	return v1
b5:  ; preds b3 b8
	branch v1 b7 b10
b7:
	jump b4
b10:
	return v1
`)
	if err != nil {
		t.Fatal(err)
	}
	err = loops.Prepare(f)
	if err == nil || err.Error() != "loops: b8 -> b5: irreducible control flow (b5 does not dominate b8)" {
		t.Errorf("got %v", err)
	}
}

// TestPrepareRejectsBroken: Prepare checks its input with cfg.Verify
// first, and reports a broken function rather than following its nil
// parts (a panic) or its broken edges (Close could loop forever).
func TestPrepareRejectsBroken(t *testing.T) {
	for _, c := range []struct {
		name    string
		breakIt func(f *cfg.Func)
		want    string
	}{
		{"nil function", nil, "loops: not an SSA function"},
		{"a nil instruction", func(f *cfg.Func) { f.Blocks[0].Instrs[0] = nil },
			"loops: cfg: function t is not well formed:\n\tb1: instr 0: instr: the instruction is nil"},
		{"a nil block", func(f *cfg.Func) { f.Blocks[2] = nil },
			"loops: cfg: function t is not well formed:\n\tfunc: block: Blocks[2] is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f *cfg.Func
			if c.breakIt != nil {
				var err error
				f, err = cfg.Parse(`func t level SSA
b1:
	v1 = Arg
	jump b2
b2:  ; preds b1 b3
	v2 = Phi v1 v3
	branch v2 b3 b4
b3:
	v3 = Sub v2 v1
	jump b2
b4:
	return v2
`)
				if err != nil {
					t.Fatal(err)
				}
				c.breakIt(f)
			}
			err := loops.Prepare(f)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
