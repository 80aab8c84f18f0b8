package son

import "math"

// The arithmetic of Simple's integer core (ARCHITECTURE.md): 64-bit two's
// complement that wraps, division truncating toward zero with
// MinInt/-1 == MinInt and MinInt%-1 == 0, shift counts taken mod 64, and
// comparisons giving 1 or 0. Constant folding and every interpreter use
// these functions.

// EvalBinary applies a binary data op to two values. Div and Mod by zero
// are the caller's to rule out (a ZeroCheck does at run time); here they
// give 0.
func EvalBinary(op Op, a, b int64) int64 {
	switch op {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	case OpMul:
		return a * b
	case OpDiv:
		if b == 0 {
			return 0
		}
		if b == -1 {
			return -a // MinInt / -1 wraps to MinInt
		}
		return a / b
	case OpMod:
		if b == 0 || b == -1 {
			return 0
		}
		return a % b
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	case OpShl:
		return a << (uint64(b) & 63)
	case OpSar:
		return a >> (uint64(b) & 63)
	case OpShr:
		return int64(uint64(a) >> (uint64(b) & 63))
	case OpEq:
		return b2i(a == b)
	case OpNe:
		return b2i(a != b)
	case OpLt:
		return b2i(a < b)
	case OpLe:
		return b2i(a <= b)
	}
	panic("son: EvalBinary of " + op.String())
}

// EvalUnary applies a unary data op.
func EvalUnary(op Op, a int64) int64 {
	switch op {
	case OpMinus:
		return -a
	case OpNot:
		return b2i(a == 0)
	}
	panic("son: EvalUnary of " + op.String())
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// addOverflows reports whether a+b does not fit in an int64.
func addOverflows(a, b int64) bool {
	s := a + b
	return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

// subOverflows reports whether a-b does not fit in an int64.
func subOverflows(a, b int64) bool {
	s := a - b
	return (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0)
}

// mulOverflows reports whether a*b does not fit in an int64.
func mulOverflows(a, b int64) bool {
	if a == 0 || b == 0 {
		return false
	}
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return true
	}
	p := a * b
	return p/b != a
}
