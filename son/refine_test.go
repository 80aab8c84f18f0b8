package son

import (
	"math"
	"testing"

	"son/types"
)

// boundaryPoints are the values refineType's facts are tested at: the
// ends of int and their neighbours, and the points around 0.
var boundaryPoints = []int64{math.MinInt64, math.MinInt64 + 1, -2, -1, 0, 1, 2, math.MaxInt64 - 1, math.MaxInt64}

// refineUnder returns a Refine of x by y below side of an If on op(a, b),
// in g.
func refineUnder(g *Graph, op Op, a, b *Node, side int64, x, y *Node) *Node {
	iff := g.NewNode(OpIf, 0, g.NewNode(OpCProj, 0, g.Start), g.NewNode(op, 0, nil, a, b))
	return g.NewNode(OpRefine, 0, g.NewNode(OpCProj, side, iff), x, y)
}

// TestRefineTypeSelf: x compared with itself (if (v - z < v) once z is 0:
// random seed 9303152) proves nothing on a side it reaches, and its
// Refine's type there is x's; on a side it never reaches any type is
// sound, and the soundness rule accepts the one refineType gives, which
// takes both facts x < x and x > x. Every boundary value of x that
// passes the condition lies in the type.
func TestRefineTypeSelf(t *testing.T) {
	xtypes := []types.Type{
		types.Range(math.MinInt64, 0), // Refine#47 of the seed
		types.Range(0, math.MaxInt64),
		types.Range(math.MinInt64, math.MinInt64+1),
		types.Range(math.MaxInt64-1, math.MaxInt64),
		types.Const(math.MinInt64),
		types.Const(math.MaxInt64),
		types.Int,
	}
	for _, tx := range xtypes {
		for _, op := range []Op{OpEq, OpNe, OpLt, OpLe} {
			for side := int64(0); side < 2; side++ {
				g := NewGraph("t.smp")
				x := g.NewNode(OpProj, 1, g.Start)
				g.SetType(x, tx)
				r := refineUnder(g, op, x, x, side, x, x)
				got := refineType(r, nil)
				reached := false
				for _, a := range boundaryPoints {
					if !tx.Contains(a) {
						continue
					}
					v, _ := semBinary(op, a, a)
					if (v != 0) != (side == 0) {
						continue
					}
					reached = true
					if !got.Contains(a) {
						t.Errorf("x %v, x %s x, side %d: typed %v, but x = %d gets through", tx, op.Symbol(), side, got, a)
					}
				}
				if reached && !got.Equal(tx) {
					t.Errorf("x %v, x %s x, side %d: typed %v, want x's type", tx, op.Symbol(), side, got)
				}
				if msg := checkSound(r, got, nil); msg != "" {
					t.Errorf("x %v, x %s x, side %d: %s", tx, op.Symbol(), side, msg)
				}
			}
		}
	}
	// The seed's case, exactly: the type the checker named.
	g := NewGraph("t.smp")
	x := g.NewNode(OpProj, 1, g.Start)
	g.SetType(x, types.Range(math.MinInt64, 0))
	if got, want := refineType(refineUnder(g, OpLt, x, x, 0, x, x), nil), types.Range(math.MinInt64+1, -1); !got.Equal(want) {
		t.Errorf("x < x, side 0: typed %v, want %v", got, want)
	}
}

// TestRefineTypeWraps: the fact of if (x - z < x) is x > (x - z), not
// z > 0: where the subtraction wraps (x = MinInt, z = 1 gives MaxInt) it
// does not hold, and the Refine's type is narrowed only by the type of
// x - z. Likewise x < x + z at MaxInt. Every boundary pair (x, z) that
// takes a side leaves x within its Refine's type there.
func TestRefineTypeWraps(t *testing.T) {
	for _, c := range []struct {
		op       Op // y = x op z
		tx       types.Type
		xFirst   bool // the condition is x < y, else y < x
		wantSide [2]types.Type
	}{
		{OpSub, types.Range(math.MinInt64, 0), false, [2]types.Type{types.Range(math.MinInt64+1, 0), types.Range(math.MinInt64, 0)}},
		{OpAdd, types.Range(0, math.MaxInt64), true, [2]types.Type{types.Range(0, math.MaxInt64-1), types.Range(0, math.MaxInt64)}},
	} {
		for side := int64(0); side < 2; side++ {
			g := NewGraph("t.smp")
			x := g.NewNode(OpProj, 1, g.Start)
			g.SetType(x, c.tx)
			z := g.NewNode(OpAnd, 0, nil, g.NewNode(OpProj, 1, g.Start), g.NewNode(OpConstant, 1)) // [0..1]
			y := g.NewNode(c.op, 0, nil, x, z)
			a, b := y, x
			if c.xFirst {
				a, b = x, y
			}
			r := refineUnder(g, OpLt, a, b, side, x, y)
			got := refineType(r, nil)
			if !got.Equal(c.wantSide[side]) {
				t.Errorf("x %v, y = x %s z, side %d: typed %v, want %v", c.tx, c.op.Symbol(), side, got, c.wantSide[side])
			}
			for _, xv := range boundaryPoints {
				for _, zv := range []int64{0, 1} {
					if !c.tx.Contains(xv) {
						continue
					}
					yv, _ := semBinary(c.op, xv, zv)
					av, bv := yv, xv
					if c.xFirst {
						av, bv = xv, yv
					}
					if lt, _ := semBinary(OpLt, av, bv); (lt != 0) == (side == 0) && !got.Contains(xv) {
						t.Errorf("x %v, y = x %s z, side %d: typed %v, but x = %d, z = %d gets through", c.tx, c.op.Symbol(), side, got, xv, zv)
					}
				}
			}
			if msg := checkSound(r, got, nil); msg != "" {
				t.Errorf("x %v, y = x %s z, side %d: %s", c.tx, c.op.Symbol(), side, msg)
			}
		}
	}
}
