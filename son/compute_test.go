package son

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"son/types"
)

var (
	allBinaryOps = []Op{OpAdd, OpSub, OpMul, OpDiv, OpMod, OpAnd, OpOr, OpXor, OpShl, OpSar, OpShr, OpEq, OpNe, OpLt, OpLe}
	allUnaryOps  = []Op{OpMinus, OpNot}
)

const (
	minInt = math.MinInt64
	maxInt = math.MaxInt64
)

// edgeRanges are the integer types whose corners matter to some transfer
// function: the ends of int64, 0, ±1, shift counts around 63 and 64,
// negative ranges, constants.
func edgeRanges() []types.Type {
	r := types.Range
	c := types.Const
	return []types.Type{
		types.Int, types.Bool,
		c(minInt), c(minInt + 1), c(-65), c(-64), c(-63), c(-2), c(-1), c(0), c(1), c(2), c(3), c(7),
		c(63), c(64), c(65), c(maxInt - 1), c(maxInt),
		r(minInt, minInt+5), r(maxInt-5, maxInt), r(minInt, 0), r(0, maxInt), r(minInt, -1), r(1, maxInt),
		r(minInt, 5), r(-5, maxInt), r(minInt+1, maxInt), r(minInt, maxInt-1),
		r(-1, 0), r(-1, 1), r(0, 1), r(1, 2), r(-2, -1), r(0, 63), r(1, 63), r(0, 64), r(63, 64), r(64, 128),
		r(-64, -1), r(-10, 10), r(-5, -2), r(2, 5), r(-100, 3), r(-3, 100), r(0, 255), r(0, 3),
		r(-1<<32, 1<<32), r(1<<40, 1<<50), r(-(1 << 62), 1<<62), r(3037000499, 3037000500),
		r(-3037000500, -3037000499),
	}
}

// randInt draws from a mix of small, medium and full-width integers.
func randInt(rng *rand.Rand) int64 {
	switch rng.Intn(4) {
	case 0:
		return rng.Int63n(21) - 10
	case 1:
		return rng.Int63n(2001) - 1000
	case 2:
		return rng.Int63n(1<<33) - 1<<32
	}
	return int64(rng.Uint64())
}

func randRange(rng *rand.Rand) types.Type {
	a, b := randInt(rng), randInt(rng)
	if rng.Intn(6) == 0 {
		return types.Const(a)
	}
	if a > b {
		a, b = b, a
	}
	return types.Range(a, b)
}

// samplesOf lists values of integer type t: its corners, the special
// values it holds, and random interior points.
func samplesOf(t types.Type, rng *rand.Rand, random int) []int64 {
	lo, hi := t.Lo(), t.Hi()
	var vs []int64
	add := func(v int64) {
		if t.Contains(v) {
			vs = append(vs, v)
		}
	}
	add(lo)
	add(hi)
	if lo < hi {
		add(lo + 1)
		add(hi - 1)
	}
	for _, v := range []int64{-1, 0, 1, 2, 63, 64, -64, minInt, maxInt} {
		add(v)
	}
	for range random {
		// A uniform point of [lo, hi], computed in uint64 to avoid overflow.
		span := uint64(hi) - uint64(lo)
		var off uint64
		if span == math.MaxUint64 {
			off = rng.Uint64()
		} else {
			off = uint64(rng.Int63n(math.MaxInt64)) % (span + 1)
			if span > math.MaxInt64 {
				off = rng.Uint64() % (span + 1)
			}
		}
		vs = append(vs, int64(uint64(lo)+off))
	}
	return vs
}

func testRanges(rng *rand.Rand, n int) []types.Type {
	rs := edgeRanges()
	for range n {
		rs = append(rs, randRange(rng))
	}
	return rs
}

// TestBinaryTypeSound: every value an op computes on values of its input
// types is a value of the type binaryType gives it.
func TestBinaryTypeSound(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	rs := testRanges(rng, 100)
	fails := 0
	for _, op := range allBinaryOps {
		for _, a := range rs {
			xs := samplesOf(a, rng, 8)
			for _, b := range rs {
				typ := binTy(op, a, b)
				if (op == OpDiv || op == OpMod) && b.IsConst() && b.Value() == 0 {
					// Never computed (its ZeroCheck stops the program), but
					// typed 0, not Top: an If on a Top value would make the
					// check that must still trap look dead.
					if !typ.Equal(types.Zero) {
						t.Errorf("binaryType(%v, %v, 0) = %v, want 0", op, a, typ)
					}
					continue
				}
				if op.IsCompare() && !typ.IsA(types.Bool) {
					t.Errorf("binaryType(%v, %v, %v) = %v, not a bool", op, a, b, typ)
				}
				for _, y := range samplesOf(b, rng, 8) {
					if y == 0 && (op == OpDiv || op == OpMod) {
						continue
					}
					for _, x := range xs {
						if v := EvalBinary(op, x, y); !typ.Contains(v) {
							if fails++; fails <= 30 {
								t.Errorf("%v: %d %s %d = %d, not in binaryType(%v, %v) = %v", op, x, op.Symbol(), y, v, a, b, typ)
							}
						}
					}
				}
			}
		}
	}
}

func TestUnaryTypeSound(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, op := range allUnaryOps {
		for _, a := range testRanges(rng, 200) {
			typ := unaryType(op, a)
			for _, x := range samplesOf(a, rng, 20) {
				if v := EvalUnary(op, x); !typ.Contains(v) {
					t.Errorf("%v: %s%d = %d, not in unaryType(%v) = %v", op, op.Symbol(), x, v, a, typ)
				}
			}
		}
	}
}

// TestTransferMonotone: a higher (narrower) input type never gives a lower
// (wider) result.
func TestTransferMonotone(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	rs := testRanges(rng, 20)
	narrow := func(a types.Type) []types.Type {
		out := []types.Type{types.Top, a}
		xs := samplesOf(a, rng, 2)
		if len(xs) > 6 {
			xs = append(xs[:4], xs[len(xs)-2:]...)
		}
		for i, x := range xs {
			out = append(out, types.Const(x))
			y := xs[(i+1)%len(xs)]
			out = append(out, types.Range(min(x, y), max(x, y)))
		}
		return out
	}
	for _, op := range allBinaryOps {
		for _, a := range append(rs, types.Bottom) {
			for _, b := range append(rs, types.Bottom) {
				wide := binTy(op, a, b)
				for _, a2 := range narrow(a) {
					for _, b2 := range narrow(b) {
						if got := binTy(op, a2, b2); !got.IsA(wide) {
							t.Errorf("%v: binaryType(%v, %v) = %v is not IsA binaryType(%v, %v) = %v", op, a2, b2, got, a, b, wide)
						}
					}
				}
			}
		}
	}
	for _, op := range allUnaryOps {
		for _, a := range append(rs, types.Bottom) {
			wide := unaryType(op, a)
			for _, a2 := range narrow(a) {
				if got := unaryType(op, a2); !got.IsA(wide) {
					t.Errorf("%v: unaryType(%v) = %v is not IsA unaryType(%v) = %v", op, a2, got, a, wide)
				}
			}
		}
	}
}

// TestTransferTopBottom: an undefined operand gives an undefined result;
// an operand of any kind gives any integer (a bool for compares and !).
func TestTransferTopBottom(t *testing.T) {
	for _, op := range allBinaryOps {
		for _, x := range []types.Type{types.Int, types.Const(3), types.Top, types.Bottom} {
			if got := binTy(op, types.Top, x); !got.IsTop() {
				t.Errorf("binaryType(%v, Top, %v) = %v, want Top", op, x, got)
			}
			if got := binTy(op, x, types.Top); !got.IsTop() {
				t.Errorf("binaryType(%v, %v, Top) = %v, want Top", op, x, got)
			}
		}
		want := types.Int
		if op.IsCompare() {
			want = types.Bool
		}
		for _, x := range []types.Type{types.Int, types.Const(3), types.Bottom} {
			if got := binTy(op, types.Bottom, x); !got.Equal(want) {
				t.Errorf("binaryType(%v, Bot, %v) = %v, want %v", op, x, got, want)
			}
			if got := binTy(op, x, types.Bottom); !got.Equal(want) {
				t.Errorf("binaryType(%v, %v, Bot) = %v, want %v", op, x, got, want)
			}
		}
	}
	for _, op := range allUnaryOps {
		if got := unaryType(op, types.Top); !got.IsTop() {
			t.Errorf("unaryType(%v, Top) = %v, want Top", op, got)
		}
		want := types.Int
		if op == OpNot {
			want = types.Bool
		}
		if got := unaryType(op, types.Bottom); !got.Equal(want) {
			t.Errorf("unaryType(%v, Bot) = %v, want %v", op, got, want)
		}
	}
}

// TestBinaryTypePrecision pins down the exact type of cases the
// optimizations rely on.
func TestBinaryTypePrecision(t *testing.T) {
	r, c := types.Range, types.Const
	tests := []struct {
		op   Op
		a, b types.Type
		want types.Type
	}{
		{OpAdd, r(0, 10), c(5), r(5, 15)},
		{OpAdd, types.Int, c(1), types.Int},
		{OpAdd, r(maxInt-1, maxInt), c(1), types.Int}, // may wrap
		{OpAdd, r(-5, -1), r(1, 5), r(-4, 4)},
		{OpAdd, c(maxInt), c(1), c(minInt)},
		{OpSub, r(0, 10), r(0, 10), r(-10, 10)},
		{OpSub, r(0, 10), c(minInt), types.Int},
		{OpSub, c(minInt), c(1), c(maxInt)},
		{OpMul, r(-3, 4), r(2, 5), r(-15, 20)},
		{OpMul, r(-3, -2), r(-5, -4), r(8, 15)},
		{OpMul, types.Int, c(0), c(0)},
		{OpMul, r(0, 1<<32), r(0, 1<<32), types.Int},
		{OpMul, c(minInt), c(-1), c(minInt)},
		{OpDiv, r(0, 100), c(7), r(0, 14)},
		{OpDiv, r(-100, 100), c(7), r(-14, 14)},
		{OpDiv, r(-100, 100), c(-7), r(-14, 14)},
		{OpDiv, r(10, 100), c(-1), r(-100, -10)},
		{OpDiv, types.Int, c(-1), types.Int},
		{OpDiv, r(0, 100), r(1, 10), r(0, 100)},
		{OpDiv, r(-50, 20), r(-3, 3), r(-50, 50)},
		{OpDiv, types.Int, c(0), c(0)}, // never computed: see TestBinaryTypeSound
		{OpDiv, c(minInt), c(-1), c(minInt)},
		{OpMod, types.Int, c(0), c(0)},
		{OpMod, types.Top, c(0), types.Top},
		{OpMod, r(0, 100), c(10), r(0, 9)},
		{OpMod, r(0, 5), c(10), r(0, 5)},
		{OpMod, r(-100, 0), c(10), r(-9, 0)},
		// A divisor that is not a constant may be a Phi fed by the remainder
		// itself: its bound is rounded up to 2^k-1 so that the range cannot
		// narrow one value per round of the worklist.
		{OpMod, r(-100, 100), r(-10, 3), r(-15, 15)},
		{OpMod, r(0, 100), r(1, 16), r(0, 15)},
		{OpMod, types.Int, c(1), c(0)},
		{OpMod, types.Int, c(-1), c(0)},
		{OpMod, c(minInt), c(-1), c(0)},
		{OpAnd, r(0, 3), r(0, 255), r(0, 3)},
		{OpAnd, types.Int, c(255), r(0, 255)},
		{OpAnd, types.Int, types.Int, types.Int},
		{OpOr, r(4, 5), r(0, 3), r(4, 7)},
		{OpOr, types.Int, c(1), types.Bits(0, 1)}, // odd: its known bit 0
		{OpAnd, types.Bool, c(18), c(0)},          // a bool has no bit 1 or 4
		{OpShl, c(0), types.Int, c(0)},
		{OpShl, types.Bits(0x7, 0), types.Int, types.Bits(0x7, 0)},
		{OpShr, types.Int, c(60), r(0, 15)},
		{OpSar, types.Bits(0, 1<<63), c(63), c(-1)},
		{OpXor, types.Bits(0, 1), types.Bits(0, 1), types.Bits(1, 0)},
		{OpMul, types.Bits(0x1, 0), types.Bits(0x3, 0), types.Bits(0x7, 0)},
		{OpEq, types.Bits(0, 1), c(0), c(0)},
		{OpNe, types.Bits(0x1, 0), c(7), c(1)},
		{OpXor, r(0, 5), r(0, 8), r(0, 15)},
		{OpShl, r(0, 3), c(4), types.WithBits(r(0, 48), 0xf, 0)},
		{OpShl, r(-2, 3), c(1), types.WithBits(r(-4, 6), 0x1, 0)},
		{OpShl, r(0, 3), c(68), types.WithBits(r(0, 48), 0xf, 0)}, // count mod 64
		{OpShl, r(0, 3), c(64), r(0, 3)},
		{OpShl, r(0, maxInt), c(1), types.Bits(0x1, 0)},
		{OpSar, r(-16, 16), c(2), r(-4, 4)},
		{OpSar, types.Int, c(63), r(-1, 0)},
		{OpSar, r(-16, 16), types.Int, r(-16, 16)},
		{OpShr, r(0, 16), c(2), r(0, 4)},
		{OpShr, types.Int, c(63), r(0, 1)},
		{OpShr, types.Int, c(1), r(0, maxInt)},
		{OpShr, r(0, 16), types.Int, r(0, 16)},
		{OpShr, c(-1), c(60), c(15)},
		{OpEq, r(0, 5), r(6, 9), c(0)},
		{OpEq, r(0, 5), r(5, 9), types.Bool},
		{OpEq, c(3), c(3), c(1)},
		{OpNe, r(0, 5), r(6, 9), c(1)},
		{OpLt, r(0, 5), r(6, 9), c(1)},
		{OpLt, r(6, 9), r(0, 6), c(0)},
		{OpLt, r(0, 6), r(6, 9), types.Bool},
		{OpLe, r(0, 6), r(6, 9), c(1)},
		{OpLe, r(7, 9), r(0, 6), c(0)},
		{OpLe, r(6, 9), r(0, 6), types.Bool},
		{OpLt, types.Int, c(minInt), c(0)},
		{OpLe, c(minInt), types.Int, c(1)},
	}
	for _, tt := range tests {
		if got := binTy(tt.op, tt.a, tt.b); !got.Equal(tt.want) {
			t.Errorf("binaryType(%v, %v, %v) = %v, want %v", tt.op, tt.a, tt.b, got, tt.want)
		}
	}
	unary := []struct {
		op   Op
		a    types.Type
		want types.Type
	}{
		{OpNot, r(1, 9), c(0)},
		{OpNot, r(-9, -1), c(0)},
		{OpNot, r(-1, 1), types.Bool},
		{OpNot, c(0), c(1)},
		{OpNot, types.Int, types.Bool},
		{OpMinus, r(-3, 7), r(-7, 3)},
		{OpMinus, r(minInt, 0), types.Int},
		{OpMinus, r(minInt+1, 0), r(0, maxInt)},
		{OpMinus, c(minInt), c(minInt)},
	}
	for _, tt := range unary {
		if got := unaryType(tt.op, tt.a); !got.Equal(tt.want) {
			t.Errorf("unaryType(%v, %v) = %v, want %v", tt.op, tt.a, got, tt.want)
		}
	}
}

// TestIfType is paper 001, table VI: an If reached with an undefined
// condition takes neither side, a condition that cannot be 0 only the true
// side, the constant 0 only the false side; unreached, neither.
func TestIfType(t *testing.T) {
	r, c := types.Range, types.Const
	tests := []struct {
		ctrl, cond types.Type
		want       string
	}{
		{types.Ctrl, types.Top, "[XCtrl, XCtrl]"},
		{types.Ctrl, c(0), "[XCtrl, Ctrl]"},
		{types.Ctrl, c(1), "[Ctrl, XCtrl]"},
		{types.Ctrl, c(-7), "[Ctrl, XCtrl]"},
		{types.Ctrl, c(minInt), "[Ctrl, XCtrl]"},
		{types.Ctrl, r(1, 9), "[Ctrl, XCtrl]"},
		{types.Ctrl, r(-9, -1), "[Ctrl, XCtrl]"},
		{types.Ctrl, types.Bool, "[Ctrl, Ctrl]"},
		{types.Ctrl, r(-1, 0), "[Ctrl, Ctrl]"},
		{types.Ctrl, types.Int, "[Ctrl, Ctrl]"},
		{types.Ctrl, types.Bottom, "[Ctrl, Ctrl]"},
		{types.XCtrl, c(1), "[XCtrl, XCtrl]"},
		{types.XCtrl, c(0), "[XCtrl, XCtrl]"},
		{types.XCtrl, types.Int, "[XCtrl, XCtrl]"},
		{types.Top, types.Int, "[XCtrl, XCtrl]"},
	}
	for _, tt := range tests {
		if got := ifType(tt.ctrl, tt.cond).String(); got != tt.want {
			t.Errorf("ifType(%v, %v) = %s, want %s", tt.ctrl, tt.cond, got, tt.want)
		}
		// The same through Compute on an If node.
		ctrl := &Node{ID: 1, Op: OpCProj, typ: typeRef(tt.ctrl)}
		cond := &Node{ID: 2, Op: OpProj, typ: typeRef(tt.cond)}
		iff := &Node{ID: 3, Op: OpIf, In: []*Node{ctrl, cond}}
		if got := Compute(iff, nil).String(); got != tt.want {
			t.Errorf("Compute(If(%v, %v)) = %s, want %s", tt.ctrl, tt.cond, got, tt.want)
		}
	}
}

// TestComputeNodes checks the transfer functions of control and of pinned
// division through Compute, with the input types given by a table.
func TestComputeNodes(t *testing.T) {
	c := func(id int, op Op, ty types.Type) *Node { return &Node{ID: id, Op: op, typ: typeRef(ty)} }
	live, dead := c(1, OpCProj, types.Ctrl), c(2, OpXCtrl, types.XCtrl)
	x, y := c(3, OpProj, types.Range(0, 100)), c(4, OpProj, types.Range(1, 10))
	zero := c(5, OpConstant, types.Const(0))
	zero.Aux = 0
	region := &Node{ID: 10, Op: OpRegion, In: []*Node{nil, live, dead}}
	region.typ = typeRef(types.Ctrl)
	p1, p2 := c(11, OpProj, types.Const(3)), c(12, OpProj, types.Const(50))
	tests := []struct {
		n    *Node
		want string
	}{
		{&Node{Op: OpDiv, In: []*Node{live, x, y}}, "[0..100]"},
		{&Node{Op: OpDiv, In: []*Node{dead, x, y}}, "Top"},
		{&Node{Op: OpMod, In: []*Node{dead, x, y}}, "Top"},
		{&Node{Op: OpDiv, In: []*Node{nil, x, y}}, "[0..100]"},
		{&Node{Op: OpDiv, In: []*Node{live, x, zero}}, "0"},
		{&Node{Op: OpMod, In: []*Node{live, x, zero}}, "0"},
		{&Node{Op: OpAdd, In: []*Node{nil, x, y}}, "[1..110]"},
		{&Node{Op: OpMinus, In: []*Node{nil, y}}, "[-10..-1]"},
		{&Node{Op: OpRegion, In: []*Node{nil, dead, live}}, "Ctrl"},
		{&Node{Op: OpRegion, In: []*Node{nil, dead, dead}}, "XCtrl"},
		{&Node{Op: OpLoop, In: []*Node{nil, live, dead}}, "Ctrl"},
		{&Node{Op: OpLoop, In: []*Node{nil, dead, live}}, "XCtrl"},
		{&Node{Op: OpReturn, In: []*Node{live, x}}, "Ctrl"},
		{&Node{Op: OpReturn, In: []*Node{dead, x}}, "XCtrl"},
		{&Node{Op: OpZeroCheck, In: []*Node{live, zero}}, "Ctrl"},
		{&Node{Op: OpZeroCheck, In: []*Node{dead, y}}, "XCtrl"},
		{&Node{Op: OpNever, In: []*Node{live}}, "[Ctrl, Ctrl]"},
		{&Node{Op: OpNever, In: []*Node{dead}}, "[XCtrl, XCtrl]"},
		// A Phi meets only the inputs whose region input is reachable.
		{&Node{Op: OpPhi, In: []*Node{region, p1, p2}}, "3"},
		{&Node{Op: OpPhi, In: []*Node{&Node{ID: 13, Op: OpRegion, In: []*Node{nil, live, live}}, p1, p2}}, "[3..50]{0:0xc 1:0x2}"}, // 3 and 50: bit 1 is 1, bits 2 and 3 are 0
		{&Node{Op: OpPhi, In: []*Node{&Node{ID: 14, Op: OpRegion, In: []*Node{nil, dead, dead}}, p1, p2}}, "Top"},
		{&Node{Op: OpStart}, "[Ctrl, int]"},
		{&Node{Op: OpCProj, Aux: 1, In: []*Node{&Node{ID: 15, Op: OpIf, typ: typeRef(types.Tuple(types.Ctrl, types.XCtrl))}}}, "XCtrl"},
		{&Node{Op: OpCProj, Aux: 0, In: []*Node{&Node{ID: 16, Op: OpIf, typ: typeRef(types.Tuple(types.Ctrl, types.XCtrl))}}}, "Ctrl"},
		{&Node{Op: OpProj, Aux: 1, In: []*Node{&Node{ID: 17, Op: OpStart, typ: typeRef(types.Tuple(types.Ctrl, types.Int))}}}, "int"},
	}
	for i, tt := range tests {
		if got := Compute(tt.n, nil).String(); got != tt.want {
			t.Errorf("%d: Compute(%v) = %s, want %s", i, tt.n.Op, got, tt.want)
		}
	}
}

// TestEvalBinary is the arithmetic of ARCHITECTURE.md, value by value.
func TestEvalBinary(t *testing.T) {
	tests := []struct {
		op   Op
		a, b int64
		want int64
	}{
		{OpAdd, maxInt, 1, minInt},
		{OpAdd, minInt, -1, maxInt},
		{OpSub, minInt, 1, maxInt},
		{OpSub, 0, minInt, minInt},
		{OpMul, maxInt, 2, -2},
		{OpMul, minInt, -1, minInt},
		{OpMul, 1 << 32, 1 << 32, 0},
		{OpDiv, 7, 2, 3},
		{OpDiv, -7, 2, -3},
		{OpDiv, 7, -2, -3},
		{OpDiv, -7, -2, 3},
		{OpDiv, minInt, -1, minInt},
		{OpDiv, minInt, 1, minInt},
		{OpDiv, minInt, 2, minInt / 2},
		{OpDiv, 5, 0, 0},
		{OpMod, 7, 2, 1},
		{OpMod, -7, 2, -1},
		{OpMod, 7, -2, 1},
		{OpMod, -7, -2, -1},
		{OpMod, minInt, -1, 0},
		{OpMod, minInt, maxInt, -1},
		{OpMod, 5, 0, 0},
		{OpAnd, -1, 0xf0, 0xf0},
		{OpOr, 0x0f, 0xf0, 0xff},
		{OpXor, -1, 0x0f, -16},
		{OpShl, 1, 3, 8},
		{OpShl, 1, 63, minInt},
		{OpShl, 5, 64, 5},
		{OpShl, 5, 65, 10},
		{OpShl, 1, -1, minInt}, // -1 mod 64 = 63
		{OpShl, 1, -63, 2},     // -63 mod 64 = 1
		{OpShl, 3, minInt, 3},  // MinInt mod 64 = 0
		{OpSar, -16, 2, -4},
		{OpSar, -1, 63, -1},
		{OpSar, minInt, 63, -1},
		{OpSar, -16, 64, -16},
		{OpSar, 16, -62, 4},
		{OpShr, -16, 2, 0x3ffffffffffffffc},
		{OpShr, -1, 63, 1},
		{OpShr, minInt, 63, 1},
		{OpShr, -16, 64, -16},
		{OpShr, 16, 2, 4},
		{OpEq, 3, 3, 1},
		{OpEq, 3, 4, 0},
		{OpNe, 3, 4, 1},
		{OpNe, 3, 3, 0},
		{OpLt, -1, 0, 1},
		{OpLt, 0, 0, 0},
		{OpLt, minInt, maxInt, 1},
		{OpLe, 0, 0, 1},
		{OpLe, 1, 0, 0},
	}
	for _, tt := range tests {
		if got := EvalBinary(tt.op, tt.a, tt.b); got != tt.want {
			t.Errorf("EvalBinary(%v, %d, %d) = %d, want %d", tt.op, tt.a, tt.b, got, tt.want)
		}
	}
	unary := []struct {
		op      Op
		a, want int64
	}{
		{OpMinus, 5, -5},
		{OpMinus, minInt, minInt},
		{OpMinus, maxInt, minInt + 1},
		{OpNot, 0, 1},
		{OpNot, 1, 0},
		{OpNot, -1, 0},
		{OpNot, minInt, 0},
	}
	for _, tt := range unary {
		if got := EvalUnary(tt.op, tt.a); got != tt.want {
			t.Errorf("EvalUnary(%v, %d) = %d, want %d", tt.op, tt.a, got, tt.want)
		}
	}
}

// TestOverflowHelpers compares the overflow tests with exact arithmetic.
func TestOverflowHelpers(t *testing.T) {
	vals := []int64{minInt, minInt + 1, -3037000500, -3037000499, -2, -1, 0, 1, 2, 3037000499, 3037000500, maxInt - 1, maxInt}
	for _, a := range vals {
		for _, b := range vals {
			x, y := big.NewInt(a), big.NewInt(b)
			overflows := func(z *big.Int) bool { return !z.IsInt64() }
			if got, want := addOverflows(a, b), overflows(new(big.Int).Add(x, y)); got != want {
				t.Errorf("addOverflows(%d, %d) = %v, want %v", a, b, got, want)
			}
			if got, want := subOverflows(a, b), overflows(new(big.Int).Sub(x, y)); got != want {
				t.Errorf("subOverflows(%d, %d) = %v, want %v", a, b, got, want)
			}
			if got, want := mulOverflows(a, b), overflows(new(big.Int).Mul(x, y)); got != want {
				t.Errorf("mulOverflows(%d, %d) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// binTy is binaryType of operands given by value.
func binTy(op Op, a, b types.Type) types.Type { return binaryType(op, &a, &b) }

// TestScopeTypeIsBottom: the builder's save gives its Scopes the type
// Bottom without computing it (newNodeTyped, typed); that is Compute's
// type of a Scope, whatever its inputs.
func TestScopeTypeIsBottom(t *testing.T) {
	g := NewGraph("t")
	x := g.Con(3)
	for _, in := range [][]*Node{{g.Start}, {g.Start, x}, {g.Start, x, g.Con(-1)}} {
		made := g.NewNode(OpScope, 0, in...)
		typed := g.newNodeTyped(OpScope, 0, types.Bottom, true, in)
		if !made.Type().Equal(types.Bottom) || !typed.Type().Equal(made.Type()) {
			t.Errorf("Scope of %d inputs: computed %v, given %v; want Bottom", len(in), made.Type(), typed.Type())
		}
	}
}
