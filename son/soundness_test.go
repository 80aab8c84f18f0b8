package son

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"son/types"
)

// TestSemanticsAgree: the soundness rule's own semantics of each op gives
// what EvalBinary and EvalUnary give, written apart, on the corners of
// int and random values; and the examples of docs/LANGUAGE.md.
func TestSemanticsAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	vals := []int64{0, 1, -1, 2, -2, 7, -7, 63, 64, 65, math.MinInt64, math.MaxInt64, math.MinInt64 + 1}
	for range 50 {
		vals = append(vals, int64(rng.Uint64()))
	}
	for op := Op(1); op < numOps; op++ {
		for _, a := range vals {
			if op.IsUnary() {
				if got, want := semUnary(op, a), EvalUnary(op, a); got != want {
					t.Errorf("%v %d: %d, EvalUnary gives %d", op, a, got, want)
				}
				continue
			}
			if !op.IsBinary() {
				break
			}
			for _, b := range vals {
				got, ok := semBinary(op, a, b)
				if (op == OpDiv || op == OpMod) && b == 0 {
					if ok {
						t.Errorf("%d %s 0 computes %d; it traps", a, op.Symbol(), got)
					}
					continue
				}
				if want := EvalBinary(op, a, b); !ok || got != want {
					t.Errorf("%d %s %d: %d (ok %v), EvalBinary gives %d", a, op.Symbol(), b, got, ok, want)
				}
			}
		}
	}
	for _, c := range []struct {
		op   Op
		a, b int64
		want int64
	}{
		{OpDiv, 7, -2, -3}, {OpDiv, -7, 2, -3}, {OpMod, -7, 2, -1}, {OpMod, 7, -2, 1},
		{OpDiv, math.MinInt64, -1, math.MinInt64}, {OpMod, math.MinInt64, -1, 0},
		{OpShl, 1, 64, 1}, {OpShl, 1, 65, 2}, {OpSar, -16, 2, -4}, {OpShr, -16, 60, 15},
		{OpAdd, math.MaxInt64, 1, math.MinInt64},
	} {
		if got, _ := semBinary(c.op, c.a, c.b); got != c.want {
			t.Errorf("%d %s %d = %d, want %d", c.a, c.op.Symbol(), c.b, got, c.want)
		}
	}
}

// TestSamplePoints: the points of a range are within it, hold its ends and
// their neighbours, the other operand's ends that fall within, and no
// duplicate; Top has none.
func TestSamplePoints(t *testing.T) {
	pts := samplePoints(nil, types.Range(0, 10), false, types.Range(5, 20))
	seen := map[int64]bool{}
	for _, p := range pts {
		if p < 0 || p > 10 || seen[p] {
			t.Errorf("point %d out of [0..10] or repeated: %v", p, pts)
		}
		seen[p] = true
	}
	for _, want := range []int64{0, 10, 1, 9, 5, 4, 6, 2} {
		if !seen[want] {
			t.Errorf("points %v lack %d", pts, want)
		}
	}
	if pts := samplePoints(nil, types.Top, true); pts != nil {
		t.Errorf("Top has points %v", pts)
	}
	shift := samplePoints(nil, types.Int, true)
	if len(shift) > maxSamples || !contains(shift, 32) || !contains(shift, math.MinInt64) {
		t.Errorf("shift points of int %v", shift)
	}
}

func contains(vs []int64, v int64) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// soundGraph is a graph with arg, arg&7 ([0..7]) and arg&7 - 8 ([-8..-1]).
func soundGraph() (g *Graph, arg, small, neg *Node) {
	g = NewGraph("t.smp")
	arg = g.NewNode(OpProj, 1, g.Start)
	small = g.NewNode(OpAnd, 0, nil, arg, g.NewNode(OpConstant, 7))
	neg = g.NewNode(OpSub, 0, nil, small, g.NewNode(OpConstant, 8))
	return g, arg, small, neg
}

// TestCheckSoundRejects: a type that leaves out a value the op computes
// at a corner of its inputs is rejected, naming the values; the right
// type is accepted. Each case is a transfer function's fault of the
// campaign.
func TestCheckSoundRejects(t *testing.T) {
	g, arg, small, neg := soundGraph()
	if small.Type() != types.Range(0, 7) || neg.Type() != types.Range(-8, -1) {
		t.Fatalf("types %v %v", small.Type(), neg.Type())
	}
	con := func(v int64) *Node { return g.NewNode(OpConstant, v) }
	cases := []struct {
		n       *Node
		claim   types.Type
		wantErr string // "" when the claim is sound
	}{
		{g.NewNode(OpAdd, 0, nil, small, small), types.Range(0, 13), "typed [0..13], but 7 + 7 is 14"},
		{g.NewNode(OpAdd, 0, nil, small, small), types.Range(0, 14), ""},
		{g.NewNode(OpLt, 0, nil, small, g.NewNode(OpAdd, 0, nil, small, con(7))), types.True, "typed 1, but 7 < 7 is 0"},
		{g.NewNode(OpEq, 0, nil, small, g.NewNode(OpAdd, 0, nil, small, con(7))), types.False, "typed 0, but 7 == 7 is 1"},
		{g.NewNode(OpMod, 0, nil, neg, con(3)), types.Range(0, 2), "typed [0..2], but -8 % 3 is -2"},
		{g.NewNode(OpMod, 0, nil, neg, con(3)), types.Range(-2, 0), ""},
		{g.NewNode(OpDiv, 0, nil, small, neg), types.Range(0, 7), "typed [0..7], but 7 / -1 is -7"},
		{g.NewNode(OpShl, 0, nil, arg, con(62)), types.Range(math.MinInt64, 0), "<< 62 is 4611686018427387904"},
		{g.NewNode(OpMinus, 0, nil, small), types.Range(-6, 0), "typed [-7..0], but -7 is -7"},
		{g.NewNode(OpNot, 0, nil, neg), types.False, ""},
		{g.NewNode(OpDiv, 0, nil, small, g.NewNode(OpAnd, 0, nil, arg, con(0))), types.Zero, ""}, // divisor 0: never computed
	}
	cases[8].wantErr = "typed [-6..0], but -7 is -7"
	for i, c := range cases {
		got := checkSound(c.n, c.claim, nil)
		if c.wantErr == "" && got != "" || !strings.Contains(got, c.wantErr) {
			t.Errorf("case %d, %s typed %v: got %q, want %q", i, exprOf(c.n), c.claim, got, c.wantErr)
		}
	}
}

// TestCheckSoundAllocatesNothing: the rule takes its sample points on
// the stack (samplePoints writes in its caller's array), so a checker that
// runs it on every node of a large graph allocates nothing for it; the
// heap buffer it had was most of the SCCP checker's allocations.
func TestCheckSoundAllocatesNothing(t *testing.T) {
	g, arg, small, neg := soundGraph()
	con := g.NewNode(OpConstant, 3)
	nodes := []*Node{
		g.NewNode(OpAdd, 0, nil, small, neg),
		g.NewNode(OpShl, 0, nil, arg, small),
		g.NewNode(OpMod, 0, nil, neg, con),
		g.NewNode(OpMinus, 0, nil, small),
	}
	for _, n := range nodes {
		if msg := checkSound(n, n.Type(), nil); msg != "" {
			t.Fatalf("%s: %s", exprOf(n), msg)
		}
		if a := testing.AllocsPerRun(20, func() { checkSound(n, n.Type(), nil) }); a != 0 {
			t.Errorf("%s: %v allocations a check, want 0", exprOf(n), a)
		}
	}
}

// TestVerifyTypeSound: the verifier's rule names the node and the values.
func TestVerifyTypeSound(t *testing.T) {
	g := buildSrc(t, "return (arg & 7) + 1;")
	var add *Node
	for _, n := range g.Live() {
		if n.Op == OpAdd {
			add = n
		}
	}
	if add == nil || Verify(g) != nil {
		t.Fatalf("no Add, or %v", Verify(g))
	}
	g.SetType(add, types.Range(1, 7))
	err := Verify(g)
	want := add.String() + ": type-sound: typed [1..7], but 7 + 1 is 8"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestCheckSoundRefine: a Refine's type must hold every value of its
// operand that the branch lets through to its side (refine-le-off-by-one
// of the campaign is the first rejected case); a fact the branch does not
// prove is not taken.
func TestCheckSoundRefine(t *testing.T) {
	g, _, small, _ := soundGraph()
	five := g.NewNode(OpConstant, 5)
	ctrl := g.NewNode(OpCProj, 0, g.Start)
	iff := g.NewNode(OpIf, 0, ctrl, g.NewNode(OpLe, 0, nil, small, five)) // if (small <= 5)
	yes, no := g.NewNode(OpCProj, 0, iff), g.NewNode(OpCProj, 1, iff)
	notIff := g.NewNode(OpIf, 0, ctrl, g.NewNode(OpNot, 0, nil, small)) // if (!small)
	for i, c := range []struct {
		side    *Node
		claim   types.Type
		wantErr string
	}{
		{yes, types.Range(0, 5), ""},
		{yes, types.Range(0, 4), "typed [0..4], but And#5 may be 5 on side 0 of If#11 (with Constant#8 = 5)"},
		{no, types.Range(6, 7), ""},
		{no, types.Const(7), "typed 7, but And#5 may be 6 on side 1 of If#11 (with Constant#8 = 5)"},
		{g.NewNode(OpCProj, 0, notIff), types.Zero, ""},
		{g.NewNode(OpCProj, 1, notIff), types.Range(2, 7), "typed [2..7], but And#5 may be 1 on side 1 of If#15"},
	} {
		r := g.NewNode(OpRefine, 0, c.side, small, five)
		got := checkSound(r, c.claim, nil)
		if c.wantErr == "" && got != "" || !strings.Contains(got, c.wantErr) {
			t.Errorf("case %d: got %q, want %q", i, got, c.wantErr)
		}
	}
}

// TestCheckSoundRefineSelf: under if (x < x) or if (x <= x) the checker
// evaluates the condition on one value of x, not on two samples (random
// seed 9303152): a side never reached takes any type, the seed's among
// them; a type that leaves out a value of x on a side reached is still
// rejected, naming the value.
func TestCheckSoundRefineSelf(t *testing.T) {
	g := NewGraph("t.smp")
	x := g.NewNode(OpProj, 1, g.Start)
	g.SetType(x, types.Range(math.MinInt64, 0))
	ctrl := g.NewNode(OpCProj, 0, g.Start)
	lt := g.NewNode(OpIf, 0, ctrl, g.NewNode(OpLt, 0, nil, x, x))
	le := g.NewNode(OpIf, 0, ctrl, g.NewNode(OpLe, 0, nil, x, x))
	seed := types.Range(math.MinInt64+1, -1)
	for i, c := range []struct {
		iff     *Node
		side    int64
		claim   types.Type
		wantErr string
	}{
		{lt, 0, seed, ""},
		{lt, 0, types.Const(5), ""},
		{lt, 1, types.Range(math.MinInt64, 0), ""},
		{lt, 1, seed, "typed [-9223372036854775807..-1], but Proj#3 may be -9223372036854775808 on side 1 of If#6"},
		{le, 0, types.Range(math.MinInt64, 0), ""},
		{le, 0, types.Range(math.MinInt64, -1), "typed [-9223372036854775808..-1], but Proj#3 may be 0 on side 0 of If#8"},
		{le, 1, seed, ""},
	} {
		r := g.NewNode(OpRefine, 0, g.NewNode(OpCProj, c.side, c.iff), x, x)
		got := checkSound(r, c.claim, nil)
		if c.wantErr == "" && got != "" || !strings.Contains(got, c.wantErr) {
			t.Errorf("case %d: got %q, want %q", i, got, c.wantErr)
		}
	}
}
