// The lowering of expressions to RTL instructions into fresh temporaries,
// with short-circuit && || ?: and comparison chains as blocks (paper 003's
// RTL). Cost: linear in the expression.

package lower

import (
	"son/cfg"
	"son/syntax"
)

// expr lowers e and returns the register that holds its value: the
// variable's own register for a name (expressions assign nothing, so it
// cannot change while the expression is evaluated), a new temporary
// otherwise. It recurses along the expression tree; Go's growable stacks
// take the long left spines the parser builds with a loop.
func (l *lowerer) expr(e syntax.Expr) cfg.Reg {
	switch e := e.(type) {
	case *syntax.IntLit:
		return l.constant(e.Value)
	case *syntax.BoolLit:
		if e.Value {
			return l.constant(1)
		}
		return l.constant(0)
	case *syntax.Name:
		return l.varReg(e.Var)
	case *syntax.UnaryExpr:
		x := l.expr(e.X)
		switch e.Op {
		case syntax.SUB:
			return l.op(cfg.OpNeg, 0, e.OpPos, x)
		case syntax.NOT:
			return l.op(cfg.OpNot, 0, e.OpPos, x)
		}
		l.fail("lower: %s: unknown unary operator %v", e.OpPos, e.Op)
		return x
	case *syntax.BinaryExpr:
		if e.Op == syntax.LAND || e.Op == syntax.LOR {
			return l.shortCircuit(e)
		}
		x := l.expr(e.X)
		y := l.expr(e.Y)
		lit, _ := e.Y.(*syntax.IntLit)
		return l.binary(e.Op, 0, x, y, lit, e.OpPos)
	case *syntax.ChainExpr:
		return l.chain(e)
	case *syntax.CondExpr:
		r := l.temp()
		c := l.expr(e.Cond)
		then, els, join := l.newBlock(), l.newBlock(), l.newBlock()
		l.branch(c, e.Question, then, els)
		l.cur = then
		l.op(cfg.OpCopy, r, e.Question, l.expr(e.Then))
		l.endIn(join)
		l.cur = els
		l.op(cfg.OpCopy, r, e.Question, l.expr(e.Else))
		l.endIn(join)
		l.cur = join
		return r
	}
	l.fail("lower: unexpected expression %T", e)
	return l.constant(0)
}

// binOps maps Simple's binary operators to cfg ops; > and >= swap their
// operands into Lt and Le.
var binOps = map[syntax.Token]cfg.Op{
	syntax.ADD: cfg.OpAdd, syntax.SUB: cfg.OpSub, syntax.MUL: cfg.OpMul,
	syntax.QUO: cfg.OpDiv, syntax.REM: cfg.OpMod,
	syntax.AND: cfg.OpAnd, syntax.OR: cfg.OpOr, syntax.XOR: cfg.OpXor,
	syntax.SHL: cfg.OpShl, syntax.SHR: cfg.OpSar, syntax.USHR: cfg.OpShr,
	syntax.EQL: cfg.OpEq, syntax.NEQ: cfg.OpNe,
	syntax.LSS: cfg.OpLt, syntax.LEQ: cfg.OpLe, syntax.GTR: cfg.OpLt, syntax.GEQ: cfg.OpLe,
}

// binary emits dst = x op y at pos (a new temporary if dst is 0), with a
// Check of y first for a division or remainder, unless y is the non-zero
// literal lit.
func (l *lowerer) binary(op syntax.Token, dst, x, y cfg.Reg, lit *syntax.IntLit, pos syntax.Pos) cfg.Reg {
	o, ok := binOps[op]
	if !ok {
		l.fail("lower: %s: unknown binary operator %v", pos, op)
		return x
	}
	if (o == cfg.OpDiv || o == cfg.OpMod) && (lit == nil || lit.Value == 0) {
		l.emit(&cfg.Instr{Op: cfg.OpCheck, Args: []cfg.Reg{y}, Pos: pos})
	}
	if op == syntax.GTR || op == syntax.GEQ {
		x, y = y, x
	}
	return l.op(o, dst, pos, x, y)
}

// shortCircuit lowers x && y and x || y: y is evaluated only when x does
// not decide, and the result is 0 or 1.
func (l *lowerer) shortCircuit(e *syntax.BinaryExpr) cfg.Reg {
	r := l.temp()
	x := l.expr(e.X)
	rhs, decided, join := l.newBlock(), l.newBlock(), l.newBlock()
	if e.Op == syntax.LAND {
		l.branch(x, e.OpPos, rhs, decided)
	} else {
		l.branch(x, e.OpPos, decided, rhs)
	}
	l.cur = decided
	if e.Op == syntax.LAND {
		l.emit(&cfg.Instr{Op: cfg.OpConst, Dst: r, Aux: 0})
	} else {
		l.emit(&cfg.Instr{Op: cfg.OpConst, Dst: r, Aux: 1})
	}
	l.endIn(join)
	l.cur = rhs
	y := l.expr(e.Y)
	z := l.constant(0)
	l.op(cfg.OpNe, r, e.OpPos, y, z)
	l.endIn(join)
	l.cur = join
	return r
}

// chain lowers x0 op0 x1 op1 x2 ...: each operand evaluated at most once,
// left to right, stopping at the first false comparison.
func (l *lowerer) chain(e *syntax.ChainExpr) cfg.Reg {
	if len(e.X) != len(e.Ops)+1 || len(e.OpPos) != len(e.Ops) {
		l.fail("lower: chain of %d operands and %d operators", len(e.X), len(e.Ops))
		return l.constant(0)
	}
	r := l.temp()
	fail, join := l.newBlock(), l.newBlock()
	left := l.expr(e.X[0])
	for i, op := range e.Ops {
		right := l.expr(e.X[i+1])
		c := l.binary(op, 0, left, right, nil, e.OpPos[i])
		if i == len(e.Ops)-1 {
			l.op(cfg.OpCopy, r, e.OpPos[i], c)
			l.endIn(join)
			break
		}
		next := l.newBlock()
		l.branch(c, e.OpPos[i], next, fail)
		l.cur = next
		left = right
	}
	l.cur = fail
	l.emit(&cfg.Instr{Op: cfg.OpConst, Dst: r, Aux: 0})
	l.endIn(join)
	l.cur = join
	return r
}
