package ref

import (
	"fmt"

	"son/syntax"
)

// binary computes x op y for a binary operator other than && and ||, as
// the table of docs/LANGUAGE.md "Operators" says. A division or remainder
// by zero is a *RuntimeError at pos, the operator's position.
func binary(op syntax.Token, x, y int64, pos syntax.Pos) (int64, error) {
	switch op {
	case syntax.ADD:
		return x + y, nil // Go's integer arithmetic wraps, as Simple's
	case syntax.SUB:
		return x - y, nil
	case syntax.MUL:
		return x * y, nil
	case syntax.QUO, syntax.REM:
		if y == 0 {
			return 0, &RuntimeError{Pos: pos, Msg: "division by zero"}
		}
		if y == -1 {
			// The one quotient that does not fit: MinInt / -1 wraps to
			// MinInt, and every remainder by -1 is 0.
			if op == syntax.QUO {
				return -x, nil
			}
			return 0, nil
		}
		if op == syntax.QUO {
			return x / y, nil // truncates toward zero
		}
		return x % y, nil // has the sign of x
	case syntax.AND:
		return x & y, nil
	case syntax.OR:
		return x | y, nil
	case syntax.XOR:
		return x ^ y, nil
	case syntax.SHL:
		return x << shiftCount(y), nil
	case syntax.SHR:
		return x >> shiftCount(y), nil // arithmetic: copies the sign bit
	case syntax.USHR:
		return int64(uint64(x) >> shiftCount(y)), nil // logical: shifts in zeros
	case syntax.EQL:
		return b2i(x == y), nil
	case syntax.NEQ:
		return b2i(x != y), nil
	case syntax.LSS:
		return b2i(x < y), nil
	case syntax.LEQ:
		return b2i(x <= y), nil
	case syntax.GTR:
		return b2i(x > y), nil
	case syntax.GEQ:
		return b2i(x >= y), nil
	}
	return 0, fmt.Errorf("ref.Run: %s: unknown binary operator %v", pos, op)
}

// shiftCount is a shift count taken mod 64: its low 6 bits.
func shiftCount(y int64) uint64 { return uint64(y) & 63 }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
