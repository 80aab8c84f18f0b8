package son

import "testing"

// TestGVNKeyCommutes: a commutative op's key hashes and matches with its
// two operands in either order, whatever their IDs' order, and a
// non-commutative op's does not; the key of a node with more inputs hashes
// each of them (two Phis that differ only in their last input differ).
func TestGVNKeyCommutes(t *testing.T) {
	g := NewGraph("t")
	x, y := g.NewNode(OpProj, 1, g.Start), g.Con(5)
	for _, op := range []Op{OpAdd, OpMul, OpSub} {
		for _, order := range [][2]*Node{{x, y}, {y, x}} {
			a := g.NewNode(op, 0, nil, order[0], order[1])
			b := g.NewNode(op, 0, nil, order[1], order[0])
			ka, kb, ka2 := keyOf(a), keyOf(b), keyOf(a)
			same := ka.hash() == kb.hash() && ka.matches(b) && kb.matches(a)
			if same != op.IsCommutative() {
				t.Errorf("%v(%d, %d) and %v(%d, %d): same key %v, commutative %v", op, order[0].ID, order[1].ID, op, order[1].ID, order[0].ID, same, op.IsCommutative())
			}
			if ka.hash() != ka2.hash() || !ka.matches(a) {
				t.Errorf("%v: a key does not hash the same twice or match its own node", op)
			}
		}
	}
	r := g.NewNode(OpRegion, 0, nil, g.Start, g.Start, g.Start)
	p := g.NewNode(OpPhi, 0, r, x, y, x)
	q := g.NewNode(OpPhi, 0, r, x, y, y)
	kp, kq := keyOf(p), keyOf(q)
	if kp.hash() == kq.hash() || kp.matches(q) {
		t.Errorf("Phis differing in their last input: hashes equal %v, match %v", kp.hash() == kq.hash(), kp.matches(q))
	}
}
