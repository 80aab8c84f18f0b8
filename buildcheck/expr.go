// Expressions: each operator's node with its operands in order, the
// ZeroCheck before a division, and && || ?: and comparison chains as
// branches that join with the right value on each path.

package buildcheck

import (
	"son/son"
	"son/syntax"
	"son/types"
)

func (v *validator) expr(e syntax.Expr) *son.Node {
	switch e := e.(type) {
	case *syntax.IntLit:
		return v.con(e.ValuePos, e.Value)
	case *syntax.BoolLit:
		if e.Value {
			return v.con(e.ValuePos, 1)
		}
		return v.con(e.ValuePos, 0)
	case *syntax.Name:
		return v.get(e.Var, e.NamePos)
	case *syntax.UnaryExpr:
		op, what := son.OpMinus, "-"
		if e.Op == syntax.NOT {
			op, what = son.OpNot, "!"
		}
		return v.want(e.OpPos, what, op, 0, nil, v.expr(e.X))
	case *syntax.BinaryExpr:
		return v.binaryExpr(e)
	case *syntax.ChainExpr:
		return v.chain(e)
	case *syntax.CondExpr:
		return v.condExpr(e)
	}
	v.fail(e.Pos(), "expression", "unexpected expression %T", e)
	return nil
}

// binaryExpr walks a left-nested chain such as a+b+c with a loop, as the
// parser nests it, without a recursion per operator.
func (v *validator) binaryExpr(e *syntax.BinaryExpr) *son.Node {
	var spine []*syntax.BinaryExpr
	var x syntax.Expr = e
	for {
		be, ok := x.(*syntax.BinaryExpr)
		if !ok || be.Op == syntax.LAND || be.Op == syntax.LOR {
			break
		}
		spine = append(spine, be)
		x = be.X
	}
	if len(spine) == 0 {
		return v.logical(e)
	}
	acc := v.expr(x)
	for i := len(spine) - 1; i >= 0; i-- {
		be := spine[i]
		acc = v.arith(be.Op, acc, v.expr(be.Y), be.OpPos)
	}
	return acc
}

// ops are the nodes of the source's binary operators (LANGUAGE.md,
// Operators); a > b and a >= b are b < a and b <= a.
var ops = map[syntax.Token]son.Op{
	syntax.ADD: son.OpAdd, syntax.SUB: son.OpSub, syntax.MUL: son.OpMul, syntax.QUO: son.OpDiv, syntax.REM: son.OpMod,
	syntax.AND: son.OpAnd, syntax.OR: son.OpOr, syntax.XOR: son.OpXor,
	syntax.SHL: son.OpShl, syntax.SHR: son.OpSar, syntax.USHR: son.OpShr,
	syntax.EQL: son.OpEq, syntax.NEQ: son.OpNe, syntax.LSS: son.OpLt, syntax.LEQ: son.OpLe,
	syntax.GTR: son.OpLt, syntax.GEQ: son.OpLe,
}

// arith is x tok y. A division or remainder first passes a ZeroCheck of
// its divisor on the control path and is pinned below it; the check may
// be missing only where the divisor's type excludes 0.
func (v *validator) arith(tok syntax.Token, x, y *son.Node, pos syntax.Pos) *son.Node {
	op, ok := ops[tok]
	if !ok {
		v.fail(pos, "operator", "no node for the operator %v", tok)
	}
	what := tok.String()
	if tok == syntax.GTR || tok == syntax.GEQ {
		x, y = y, x
	}
	var ctrl *son.Node
	if op == son.OpDiv || op == son.OpMod {
		if zc := v.x.find(son.OpZeroCheck, 0, v.ctrl, y); zc != nil {
			ctrl = zc
			v.ctrl = zc
		} else if !y.Type().ExcludesZero() {
			v.fail(pos, what, "no %s before the division: its divisor may be 0",
				describe(son.OpZeroCheck, 0, []*son.Node{v.ctrl, y}))
		}
	}
	return v.want(pos, what, op, 0, ctrl, x, y)
}

// truth is x as 0 or 1: x != 0, or x if its type is within bool.
func (v *validator) truth(x *son.Node, pos syntax.Pos, what string) *son.Node {
	if x.Type().IsA(types.Bool) {
		return x
	}
	return v.want(pos, what, son.OpNe, 0, nil, x, v.con(pos, 0))
}

// logicalRun is the most operators of one run, a && b && c ..., whose
// short exits the builder joins at one Region: a longer run is cut into
// runs of logicalRun, each testing the value of the one before. A shape,
// not a meaning, as chainGroup.
const logicalRun = 32

// logical checks a && b and a || b: an If on a; && goes on to b on the
// true side and leaves with 0 on the false side, || the reverse with 1;
// the paths join with b != 0 from the side that went on. A run of one
// operator, a && b && c, tests each operand in turn, all the short exits
// joining once: the meaning of the left-nested (a && b) && c. A side the
// types rule out is not followed.
func (v *validator) logical(e *syntax.BinaryExpr) *son.Node {
	var spine []*syntax.BinaryExpr
	var x syntax.Expr = e
	for {
		be, ok := x.(*syntax.BinaryExpr)
		if !ok || (be.Op != syntax.LAND && be.Op != syntax.LOR) {
			break
		}
		spine = append(spine, be)
		x = be.X
	}
	acc := v.expr(x)
	for i := len(spine) - 1; i >= 0; {
		op := spine[i].Op
		j := i
		for j > 0 && spine[j-1].Op == op && i-j+1 < logicalRun {
			j--
		}
		land := op == syntax.LAND
		what := op.String()
		short := int64(1)
		if land {
			short = 0
		}
		var paths []path
		cur := acc
		for k := i; k >= j && v.ctrl != nil; k-- {
			t, f := v.branch(cur, spine[k].OpPos, what)
			on, off := t, f
			if !land {
				on, off = f, t
			}
			if off = live(off); off != nil {
				paths = append(paths, path{ctrl: off, vals: []*son.Node{v.con(spine[k].OpPos, short)}})
			}
			if v.ctrl = live(on); v.ctrl != nil {
				cur = v.expr(spine[k].Y)
			}
		}
		if v.ctrl != nil {
			paths = append(paths, path{ctrl: v.ctrl, vals: []*son.Node{v.truth(cur, spine[j].OpPos, what)}})
		}
		vals, ok := v.join(paths, 1, spine[j].OpPos, what, func(int) string { return "the value of " + what })
		if !ok {
			v.fail(spine[j].OpPos, what, "no side of the %s is reached", what)
		}
		acc = vals[0]
		i = j - 1
	}
	return acc
}

// condExpr checks c ? a : b: an If on c, a on the true side, b on the
// false side, joined with a Phi of a and b. A chain c1 ? a : c2 ? b : d
// is walked with a loop, the innermost join first. A side the types rule
// out is not followed.
func (v *validator) condExpr(e *syntax.CondExpr) *son.Node {
	type arm struct {
		pos syntax.Pos
		p   path
	}
	var arms []arm
	var x syntax.Expr = e
	for v.ctrl != nil {
		c, ok := x.(*syntax.CondExpr)
		if !ok {
			break
		}
		t, f := v.branch(v.expr(c.Cond), c.Question, "?:")
		a := path{ctrl: live(t)}
		if a.ctrl != nil {
			v.ctrl = a.ctrl
			a.vals = []*son.Node{v.expr(c.Then)}
			a.ctrl = v.ctrl
		}
		arms = append(arms, arm{c.Question, a})
		v.ctrl = live(f)
		x = c.Else
	}
	var y *son.Node
	if v.ctrl != nil {
		y = v.expr(x)
	}
	for i := len(arms) - 1; i >= 0; i-- {
		a := arms[i]
		vals, ok := v.join([]path{a.p, {ctrl: v.ctrl, vals: []*son.Node{y}}}, 1, a.pos, "?:",
			func(int) string { return "the value of ?:" })
		if !ok {
			v.fail(a.pos, "?:", "no side of the ?: is reached")
		}
		y = vals[0]
	}
	return y
}

// chainGroup is the most comparisons of a chain whose false sides the
// builder joins at one Region: a longer chain closes each group (1 if
// every comparison held, else 0) and tests it. A shape, not a meaning:
// the validator follows it to know where the groups end.
const chainGroup = 31

// chain checks a < b <= c as a < b && b <= c with b evaluated once: each
// comparison but the last branches, its false side leaving with 0, and the
// last comparison's value joins them. Where the types say control never
// gets past a comparison, the rest of the chain is not followed (its exits
// are dead) but still counted for the groups.
func (v *validator) chain(e *syntax.ChainExpr) *son.Node {
	left := v.expr(e.X[0])
	var exits []path
	var cmp *son.Node
	zero := func(p syntax.Pos) []*son.Node { return []*son.Node{v.con(p, 0)} }
	for i, tok := range e.Ops {
		if v.ctrl != nil {
			right := v.expr(e.X[i+1])
			cmp = v.arith(tok, left, right, e.OpPos[i])
			left = right
		}
		if i == len(e.Ops)-1 {
			break
		}
		if v.ctrl == nil {
			exits = append(exits, path{})
		} else {
			t, f := v.branch(cmp, e.OpPos[i], "chain")
			ex := path{ctrl: live(f)}
			if ex.ctrl != nil {
				ex.vals = zero(e.OpPos[i])
			}
			exits = append(exits, ex)
			v.ctrl = live(t)
		}
		if len(exits) == chainGroup {
			paths := append([]path{{ctrl: v.ctrl, vals: []*son.Node{v.con(e.OpPos[i], 1)}}}, exits...)
			vals, ok := v.join(paths, 1, e.OpPos[i], "chain", func(int) string { return "the value of the chain" })
			exits = nil
			if !ok {
				exits = append(exits, path{})
				continue
			}
			t, f := v.branch(vals[0], e.OpPos[i], "chain")
			exits = []path{{ctrl: live(f), vals: zero(e.OpPos[i])}}
			v.ctrl = live(t)
		}
	}
	paths := append([]path{{ctrl: v.ctrl, vals: []*son.Node{cmp}}}, exits...)
	vals, ok := v.join(paths, 1, e.OpPos[0], "chain", func(int) string { return "the value of the chain" })
	if !ok {
		v.fail(e.OpPos[0], "chain", "no exit of the chain is reached")
	}
	return vals[0]
}
