package son

import (
	"testing"
	"unsafe"

	"son/types"
)

// TestNodeSize holds Node to the 96-byte size class: the type is a
// pointer into the graph's table, not a 40-byte value, and the positions
// of the edges a pointer, not a slice (Node.pos).
func TestNodeSize(t *testing.T) {
	if got := unsafe.Sizeof(Node{}); got != 96 {
		t.Errorf("Node is %d bytes, want 96", got)
	}
}

// TestTypesInterned checks that equal types share one slot, that giving a
// node a type changes no other node's, that the zero node reads as Top,
// and that a clone's nodes read the same types.
func TestTypesInterned(t *testing.T) {
	if got := (&Node{}).Type(); !got.IsTop() {
		t.Errorf("zero Node's type is %v, want Top", got)
	}
	g := NewGraph("t")
	a := g.NewNode(OpConstant, 7)
	b := g.NewNode(OpConstant, 7)
	c := g.NewNode(OpConstant, 8)
	if a.typ != b.typ {
		t.Errorf("two Constants 7 hold different slots")
	}
	if a.typ == c.typ || !c.Type().Equal(types.Const(8)) {
		t.Errorf("Constant 8 reads %v, want 8 in a slot of its own", c.Type())
	}
	slots := g.types.count
	g.SetType(a, types.Range(1, 9))
	if !a.Type().Equal(types.Range(1, 9)) || !b.Type().Equal(types.Const(7)) {
		t.Errorf("after SetType: a %v, b %v; want [1..9] and 7", a.Type(), b.Type())
	}
	g.SetType(b, types.Range(1, 9))
	if a.typ != b.typ || g.types.count != slots+1 {
		t.Errorf("[1..9] given twice: shared %v, %d new slots; want shared, 1", a.typ == b.typ, g.types.count-slots)
	}
	for _, ct := range commonTypes {
		g.SetType(c, ct)
		if !c.Type().Equal(ct) {
			t.Errorf("SetType %v reads %v", ct, c.Type())
		}
	}
	if g.types.count != slots+1 {
		t.Errorf("the common types took %d new slots, want none", g.types.count-slots-1)
	}
	cl := g.Clone()
	for _, n := range []*Node{a, b, c, g.Start} {
		if m := cl.Node(n.ID); !m.Type().Equal(n.Type()) {
			t.Errorf("clone of %v reads %v, want %v", n, m.Type(), n.Type())
		}
	}
}

// TestSameTypeAgrees checks the shortcut sameType and SetType rely on:
// Same is ==, and for every type but a tuple Equal is Same (a kind
// without bounds sets none), so that only tuples need Equal. The types
// are the lattice's constants and what Meet and Join make of them.
func TestSameTypeAgrees(t *testing.T) {
	base := []types.Type{types.Top, types.Bottom, types.Ctrl, types.XCtrl, types.Int, types.Bool,
		types.Const(0), types.Const(-1), types.Const(7), types.Range(-3, 12), types.Range(0, 1<<40)}
	all := append([]types.Type(nil), base...)
	for _, x := range base {
		for _, y := range base {
			all = append(all, types.Meet(x, y), types.Join(x, y))
		}
	}
	tup := types.Tuple(types.Ctrl, types.XCtrl)
	all = append(all, tup, types.Tuple(types.Ctrl, types.XCtrl), types.Tuple(types.XCtrl, types.Ctrl))
	for _, x := range all {
		for _, y := range all {
			if x.Same(&y) != (x == y) {
				t.Fatalf("%v.Same(%v) = %v, == says %v", x, y, x.Same(&y), x == y)
			}
			if got, want := sameType(x, y), x.Equal(y); got != want {
				t.Fatalf("sameType(%v, %v) = %v, Equal says %v", x, y, got, want)
			}
		}
	}
	if u := types.Tuple(types.Ctrl, types.XCtrl); tup.Same(&u) || !sameType(tup, u) {
		t.Errorf("two equal tuples: Same %v (want false: two descriptors), sameType %v (want true)", tup.Same(&u), sameType(tup, u))
	}
}
