// The lowering of statements to RTL blocks: assignments to a variable's
// one register, if, loops, break and continue (paper 003's RTL).
// Cost: linear in the program.

package lower

import (
	"son/cfg"
	"son/syntax"
)

func (l *lowerer) stmts(list []syntax.Stmt) {
	for _, s := range list {
		l.stmt(s)
	}
}

// stmt lowers one statement. It recurses once per level of statement
// nesting, which the parser bounds.
func (l *lowerer) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.BlockStmt:
		l.stmts(s.List)
	case *syntax.DeclStmt:
		for _, spec := range s.Specs {
			var x cfg.Reg
			if spec.Init != nil {
				x = l.expr(spec.Init)
			} else {
				x = l.constant(0)
			}
			l.store(spec.Var, x, spec.NamePos)
		}
	case *syntax.AssignStmt:
		l.assign(s)
	case *syntax.ExprStmt:
		l.expr(s.X)
	case *syntax.IfStmt:
		c := l.expr(s.Cond)
		then, els, join := l.newBlock(), l.newBlock(), l.newBlock()
		l.branch(c, s.If, then, els)
		l.cur = then
		l.stmt(s.Then)
		l.endIn(join)
		l.cur = els
		if s.Else != nil {
			l.stmt(s.Else)
		}
		l.endIn(join)
		l.cur = join
	case *syntax.WhileStmt:
		l.loop(s.While, nil, s.Cond, s.Body, nil)
	case *syntax.ForStmt:
		l.loop(s.For, s.Init, s.Cond, s.Body, s.Next)
	case *syntax.BreakStmt:
		if len(l.loops) == 0 {
			l.fail("lower: %s: break outside a loop", s.Break)
			return
		}
		l.jump(l.loops[len(l.loops)-1].brk)
	case *syntax.ContinueStmt:
		if len(l.loops) == 0 {
			l.fail("lower: %s: continue outside a loop", s.Continue)
			return
		}
		l.jump(l.loops[len(l.loops)-1].cont)
	case *syntax.ReturnStmt:
		r := l.expr(s.Value)
		l.term(cfg.TermReturn, r, s.Return)
	case *syntax.ShowGraphStmt, *syntax.EmptyStmt:
	default:
		l.fail("lower: unexpected statement %T", s)
	}
}

// endIn ends the current block, if open, with a jump to b.
func (l *lowerer) endIn(b *cfg.Block) {
	if l.cur != nil {
		l.jump(b)
	}
}

// loop lowers init; while (cond) { body; next } where continue goes to
// next, and a nil cond is true. The loop head is a block of its own,
// entered by jumps.
func (l *lowerer) loop(pos syntax.Pos, init syntax.Stmt, cond syntax.Expr, body, next syntax.Stmt) {
	if init != nil {
		l.stmt(init)
	}
	exit := l.newBlock()
	l.depth++ // the head, the test, the body and next are in the loop
	head := l.newBlock()
	l.jumpTo(head)
	if cond != nil {
		c := l.expr(cond)
		in := l.newBlock()
		l.branch(c, pos, in, exit)
		l.cur = in
	}
	cont := head
	if next != nil {
		cont = l.newBlock()
	}
	l.loops = append(l.loops, loop{brk: exit, cont: cont})
	l.stmt(body)
	l.loops = l.loops[:len(l.loops)-1]
	if next != nil {
		l.jumpTo(cont)
		l.stmt(next)
	}
	l.endIn(head)
	l.depth--
	l.cur = exit
}

// assign lowers x = e, x op= e, x++ and x--: x op= e is x = x op (e),
// the right side evaluated first, and its division by zero is reported at
// the op=.
func (l *lowerer) assign(s *syntax.AssignStmt) {
	if s.Op == syntax.ASSIGN {
		l.store(s.Var, l.expr(s.Value), s.NamePos)
		return
	}
	var y cfg.Reg
	var lit *syntax.IntLit
	if s.Value != nil {
		y = l.expr(s.Value)
		lit, _ = s.Value.(*syntax.IntLit)
	} else {
		y = l.constant(1)
	}
	op := s.Op.AssignOp()
	x := l.varReg(s.Var)
	if s.Var != nil && !s.Var.Bool {
		l.binary(op, x, x, y, lit, s.OpPos)
		return
	}
	l.store(s.Var, l.binary(op, 0, x, y, lit, s.OpPos), s.NamePos)
}

// store assigns x to v, keeping only the low bit for a bool.
func (l *lowerer) store(v *syntax.Var, x cfg.Reg, pos syntax.Pos) {
	dst := l.varReg(v)
	if v != nil && v.Bool {
		one := l.constant(1)
		l.op(cfg.OpAnd, dst, pos, x, one)
		return
	}
	l.op(cfg.OpCopy, dst, pos, x)
}
