package ref

import (
	"fmt"

	"son/syntax"
)

// expr evaluates e. It walks the left spine of e (the left operands of
// binary operators and the first operands of chains, which the parser
// builds with a loop and does not bound) down to its leftmost leaf
// without recursing, keeping the spine on in.spine, then applies the
// spine's operators bottom-up; it recurses only into right operands and
// leaves (see the package doc). Each node counts one step, in the order a
// recursive evaluator would visit it.
func (in *interp) expr(e syntax.Expr) (int64, error) {
	base := len(in.spine)
	for {
		if err := in.step(); err != nil {
			in.spine = in.spine[:base]
			return 0, err
		}
		switch x := e.(type) {
		case *syntax.BinaryExpr:
			in.spine = append(in.spine, x)
			e = x.X
			continue
		case *syntax.ChainExpr:
			if len(x.X) == 0 {
				in.spine = in.spine[:base]
				return 0, fmt.Errorf("ref.Run: chain without operands")
			}
			in.spine = append(in.spine, x)
			e = x.X[0]
			continue
		}
		break
	}
	v, err := in.leaf(e)
	for err == nil && len(in.spine) > base {
		top := in.spine[len(in.spine)-1]
		in.spine = in.spine[:len(in.spine)-1]
		switch x := top.(type) {
		case *syntax.BinaryExpr:
			v, err = in.binaryExpr(x, v)
		case *syntax.ChainExpr:
			v, err = in.chain(x, v)
		}
	}
	in.spine = in.spine[:base]
	return v, err
}

// leaf evaluates an expression that is not on a left spine; its step has
// been counted.
func (in *interp) leaf(e syntax.Expr) (int64, error) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, nil
	case *syntax.BoolLit:
		return b2i(e.Value), nil
	case *syntax.Name:
		if err := in.checkVar(e.Var); err != nil {
			return 0, err
		}
		return in.vars[e.Var.ID], nil
	case *syntax.UnaryExpr:
		x, err := in.expr(e.X)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case syntax.SUB:
			return -x, nil // wraps: -MinInt is MinInt
		case syntax.NOT:
			return b2i(x == 0), nil
		}
		return 0, fmt.Errorf("ref.Run: %s: unknown unary operator %v", e.OpPos, e.Op)
	case *syntax.CondExpr:
		c, err := in.expr(e.Cond)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return in.expr(e.Then)
		}
		return in.expr(e.Else)
	}
	return 0, fmt.Errorf("ref.Run: unexpected expression %T", e)
}

// binaryExpr applies x's operator to x's left operand, whose value is v,
// and its right operand, which && and || evaluate only when v does not
// decide the result.
func (in *interp) binaryExpr(x *syntax.BinaryExpr, v int64) (int64, error) {
	switch x.Op {
	case syntax.LAND:
		if v == 0 {
			return 0, nil
		}
	case syntax.LOR:
		if v != 0 {
			return 1, nil
		}
	}
	y, err := in.expr(x.Y)
	if err != nil {
		return 0, err
	}
	if x.Op == syntax.LAND || x.Op == syntax.LOR {
		return b2i(y != 0), nil
	}
	return binary(x.Op, v, y, x.OpPos)
}

// chain evaluates the comparisons of x, whose first operand has the value
// v, left to right, each operand at most once, up to the first that is
// false.
func (in *interp) chain(x *syntax.ChainExpr, v int64) (int64, error) {
	if len(x.X) != len(x.Ops)+1 || len(x.OpPos) != len(x.Ops) {
		return 0, fmt.Errorf("ref.Run: chain of %d operands and %d operators", len(x.X), len(x.Ops))
	}
	left := v
	for i, op := range x.Ops {
		right, err := in.expr(x.X[i+1])
		if err != nil {
			return 0, err
		}
		holds, err := binary(op, left, right, x.OpPos[i])
		if err != nil || holds == 0 {
			return 0, err
		}
		left = right
	}
	return 1, nil
}
