package loops_test

import (
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

// Irreducible control flow: a cycle entered at two blocks.
func TestIrreducible(t *testing.T) {
	f, err := cfg.Parse(`func irr level SSA
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	jump b3
b3:
	branch v1 b2 b4
b4:
	return v1
`)
	if err != nil {
		t.Fatal(err)
	}
	err = loops.Prepare(f)
	if err == nil || err.Error() != "loops: b2 -> b3: irreducible control flow (b3 does not dominate b2)" {
		t.Errorf("got %v", err)
	}
}
