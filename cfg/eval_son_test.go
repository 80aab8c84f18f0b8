package cfg_test

import (
	"math"
	"math/rand"
	"testing"

	"son/cfg"
	"son/son"
)

// TestEvalAgainstSon compares cfg's arithmetic with package son's, which
// was written apart: the two interpreters must agree on every operation
// for the differential tests between them to mean anything.
func TestEvalAgainstSon(t *testing.T) {
	binary := map[cfg.Op]son.Op{
		cfg.OpAdd: son.OpAdd, cfg.OpSub: son.OpSub, cfg.OpMul: son.OpMul,
		cfg.OpDiv: son.OpDiv, cfg.OpMod: son.OpMod,
		cfg.OpAnd: son.OpAnd, cfg.OpOr: son.OpOr, cfg.OpXor: son.OpXor,
		cfg.OpShl: son.OpShl, cfg.OpSar: son.OpSar, cfg.OpShr: son.OpShr,
		cfg.OpEq: son.OpEq, cfg.OpNe: son.OpNe, cfg.OpLt: son.OpLt, cfg.OpLe: son.OpLe,
	}
	unary := map[cfg.Op]son.Op{cfg.OpNeg: son.OpMinus, cfg.OpNot: son.OpNot}
	edge := []int64{0, 1, -1, 2, -2, 3, 7, -7, 63, 64, 65, -64, 128, math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1}
	var values []int64
	values = append(values, edge...)
	r := rand.New(rand.NewSource(2))
	for range 300 {
		values = append(values, r.Int63()-r.Int63(), int64(r.Intn(200)-100))
	}
	for a := range values {
		for b := range values {
			x, y := values[a], values[b]
			for op, sop := range binary {
				if y == 0 && (op == cfg.OpDiv || op == cfg.OpMod) {
					continue // a Check stops both interpreters first
				}
				if got, want := cfg.EvalBinary(op, x, y), son.EvalBinary(sop, x, y); got != want {
					t.Fatalf("%v(%d, %d): cfg %d, son %d", op, x, y, got, want)
				}
			}
		}
		for op, sop := range unary {
			if got, want := cfg.EvalUnary(op, values[a]), son.EvalUnary(sop, values[a]); got != want {
				t.Fatalf("%v(%d): cfg %d, son %d", op, values[a], got, want)
			}
		}
	}
}
