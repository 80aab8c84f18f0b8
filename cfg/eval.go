package cfg

import "fmt"

// The arithmetic of Run: 64-bit two's complement that wraps, division
// truncating toward zero, shift counts taken mod 64, comparisons giving 1
// or 0 (ARCHITECTURE.md). It is written apart from package son's, and
// differently: sums and products are computed on uint64, where Go defines
// wrapping, and division on magnitudes, so that MinInt64 / -1 wraps to
// MinInt64 and MinInt64 % -1 is 0 by construction rather than by a special
// case. Differential tests between son.Run and Run test both.

// EvalBinary applies a binary op (Op.IsBinary) to a and b. Div and Mod by
// zero are the caller's to rule out (a Check does, in Run); here they give
// 0. It panics on an op that is not binary.
func EvalBinary(op Op, a, b int64) int64 {
	ua, ub := uint64(a), uint64(b)
	switch op {
	case OpAdd:
		return int64(ua + ub)
	case OpSub:
		return int64(ua - ub)
	case OpMul:
		return int64(ua * ub)
	case OpDiv:
		if b == 0 {
			return 0
		}
		q := magnitude(a) / magnitude(b)
		if (a < 0) != (b < 0) {
			q = -q
		}
		return int64(q)
	case OpMod:
		if b == 0 {
			return 0
		}
		r := magnitude(a) % magnitude(b)
		if a < 0 {
			r = -r // the remainder takes the sign of the dividend
		}
		return int64(r)
	case OpAnd:
		return int64(ua & ub)
	case OpOr:
		return int64(ua | ub)
	case OpXor:
		return int64(ua ^ ub)
	case OpShl:
		return int64(ua << (ub % 64))
	case OpSar:
		return a >> (ub % 64)
	case OpShr:
		return int64(ua >> (ub % 64))
	case OpEq:
		return truth(a == b)
	case OpNe:
		return truth(a != b)
	case OpLt:
		return truth(a < b)
	case OpLe:
		return truth(a <= b)
	}
	panic(fmt.Sprintf("cfg: EvalBinary of %v", op))
}

// EvalUnary applies Neg, Not or Copy to a. It panics on any other op.
func EvalUnary(op Op, a int64) int64 {
	switch op {
	case OpNeg:
		return int64(-uint64(a))
	case OpNot:
		return truth(a == 0)
	case OpCopy:
		return a
	}
	panic(fmt.Sprintf("cfg: EvalUnary of %v", op))
}

// magnitude is |x| as a uint64: exact even for MinInt64, whose magnitude
// 2^63 does not fit in an int64.
func magnitude(x int64) uint64 {
	if x < 0 {
		return -uint64(x)
	}
	return uint64(x)
}

func truth(c bool) int64 {
	if c {
		return 1
	}
	return 0
}
