package cfg

import (
	"math"
	"math/rand"
	"testing"
)

func TestEvalBinary(t *testing.T) {
	const min, max = math.MinInt64, math.MaxInt64
	tests := []struct {
		op   Op
		a, b int64
		want int64
	}{
		{OpAdd, max, 1, min},
		{OpAdd, -3, 5, 2},
		{OpSub, min, 1, max},
		{OpSub, 3, 5, -2},
		{OpMul, max, 2, -2},
		{OpMul, min, -1, min},
		{OpMul, -4, 5, -20},
		{OpDiv, 7, 2, 3},
		{OpDiv, -7, 2, -3}, // truncating toward zero
		{OpDiv, 7, -2, -3},
		{OpDiv, -7, -2, 3},
		{OpDiv, min, -1, min},
		{OpDiv, min, 1, min},
		{OpDiv, min, 2, min / 2},
		{OpDiv, min, min, 1},
		{OpDiv, max, min, 0},
		{OpDiv, 5, 0, 0}, // ruled out by a Check; defined anyway
		{OpMod, 7, 2, 1},
		{OpMod, -7, 2, -1}, // the sign of the dividend
		{OpMod, 7, -2, 1},
		{OpMod, -7, -2, -1},
		{OpMod, min, -1, 0},
		{OpMod, min, max, -1},
		{OpMod, max, min, max},
		{OpMod, 5, 0, 0},
		{OpAnd, 12, 10, 8},
		{OpOr, 12, 10, 14},
		{OpXor, 12, 10, 6},
		{OpXor, -1, 0, -1},
		{OpShl, 1, 63, min},
		{OpShl, 1, 64, 1}, // counts mod 64
		{OpShl, 1, 65, 2},
		{OpShl, 1, -1, min}, // -1 mod 64 = 63
		{OpShl, 3, -62, 12},
		{OpSar, -8, 1, -4},
		{OpSar, -1, 63, -1},
		{OpSar, min, 63, -1},
		{OpSar, min, 64, min},
		{OpSar, 16, -60, 1}, // -60 mod 64 = 4
		{OpShr, -8, 1, max - 3},
		{OpShr, -1, 63, 1},
		{OpShr, min, 64, min},
		{OpShr, -1, -1, 1},
		{OpShr, 16, 4, 1},
		{OpEq, 3, 3, 1},
		{OpEq, 3, 4, 0},
		{OpNe, 3, 4, 1},
		{OpNe, 3, 3, 0},
		{OpLt, min, max, 1},
		{OpLt, 3, 3, 0},
		{OpLt, -1, 0, 1},
		{OpLe, 3, 3, 1},
		{OpLe, 4, 3, 0},
	}
	for _, tt := range tests {
		if got := EvalBinary(tt.op, tt.a, tt.b); got != tt.want {
			t.Errorf("EvalBinary(%v, %d, %d) = %d, want %d", tt.op, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestEvalUnary(t *testing.T) {
	tests := []struct {
		op      Op
		a, want int64
	}{
		{OpNeg, 5, -5},
		{OpNeg, math.MinInt64, math.MinInt64},
		{OpNeg, 0, 0},
		{OpNot, 0, 1},
		{OpNot, 7, 0},
		{OpNot, math.MinInt64, 0},
		{OpCopy, -9, -9},
	}
	for _, tt := range tests {
		if got := EvalUnary(tt.op, tt.a); got != tt.want {
			t.Errorf("EvalUnary(%v, %d) = %d, want %d", tt.op, tt.a, got, tt.want)
		}
	}
}

// TestEvalAgainstGo compares with Go's own operators on random values,
// where Go defines the result the same way: wrapping, truncating
// division (Go's MinInt64 / -1 is MinInt64 too), and shifts whose count
// is reduced mod 64 first.
func TestEvalAgainstGo(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	edge := []int64{0, 1, -1, 2, -2, 63, 64, 65, math.MinInt64, math.MaxInt64, math.MinInt64 + 1}
	pick := func() int64 {
		if r.Intn(3) == 0 {
			return edge[r.Intn(len(edge))]
		}
		return r.Int63() - r.Int63()
	}
	for range 100000 {
		a, b := pick(), pick()
		c := uint64(b) & 63
		want := map[Op]int64{
			OpAdd: a + b, OpSub: a - b, OpMul: a * b,
			OpAnd: a & b, OpOr: a | b, OpXor: a ^ b,
			OpShl: a << c, OpSar: a >> c, OpShr: int64(uint64(a) >> c),
			OpEq: truth(a == b), OpNe: truth(a != b), OpLt: truth(a < b), OpLe: truth(a <= b),
		}
		if b != 0 {
			want[OpDiv], want[OpMod] = a/b, a%b
		}
		for op, w := range want {
			if got := EvalBinary(op, a, b); got != w {
				t.Fatalf("EvalBinary(%v, %d, %d) = %d, want %d", op, a, b, got, w)
			}
		}
	}
}

func TestEvalPanics(t *testing.T) {
	for _, f := range []func(){
		func() { EvalBinary(OpNeg, 1, 2) },
		func() { EvalBinary(OpConst, 1, 2) },
		func() { EvalUnary(OpAdd, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}
