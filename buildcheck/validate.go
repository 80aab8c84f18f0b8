// Package buildcheck validates the builder (son.Build) by translation
// validation, as CompCert validates its passes (paper 003, section 5): it
// takes the resolved program and the graph the builder made with
// son.BuildOptions{Raw: true} (no peephole, no folding, no value numbering,
// nothing killed), walks the program with its own environment (variable →
// node), and checks, construct by construct, that the graph has the nodes
// docs/LANGUAGE.md requires there: the operands of each operator in order
// (a > b is b < a), each division after a ZeroCheck of its divisor and
// pinned below it, the low bit of a value stored in a bool, && || ?: and
// comparison chains as branches whose sides join with the right value on
// each path, an if's arms starting from the If's true then false
// projections with the variables from before the if, a loop's Phis taking
// the entry value first and the value at the end of the body on the back
// edge, breaks and continues merged where they go, and every return, and
// nothing else, reaching Stop.
//
// What it trusts: the parser and the resolver (the syntax tree, and the
// Assigned lists only to find which Phi of a loop is which variable's,
// with the Phi's label; that no other variable changes is checked); the
// node types son.Compute stored, for the three nodes the builder may leave
// out because a type proves them useless — a ZeroCheck of a divisor whose
// type excludes 0, the mask of a value whose type is within bool (and the
// x != 0 of a short-circuit operand), the final return 0 where the
// control's type is dead. Nothing else of the builder: not its scopes, not
// the order in which it made the nodes beyond their IDs, not its labels
// but to tell Phis apart.
//
// What it does not check: that a Phi whose values on the live paths are
// all one node is used only where its Region dominates the use. It takes
// such a Phi for that node (the builder makes one where the values differ
// on a dead path only, or are equal nodes it cannot tell apart), which is
// right below the Region and wrong elsewhere; a graph that reads it
// elsewhere (a back edge taking an exit's Phi) is accepted. Strictness is
// son.Verify's rule on the built graph, not run on the raw one.
//
// Cost: O(n + m) to index the graph, then one walk of the program, each
// step a table look-up, plus, at each if and loop, the variables it
// assigns, as the builder's.
package buildcheck

import (
	"fmt"

	"son/son"
	"son/syntax"
	"son/types"
)

// Error is a rejection: the construct at Pos, the rule it breaks, and what
// the graph has instead.
type Error struct {
	File string
	Pos  syntax.Pos // unknown for the end of the program
	Rule string     // the construct whose rule is broken: "if", ">=", "loop", "return" ...
	Msg  string
}

func (e *Error) Error() string {
	where := e.File + ":" + e.Pos.String()
	if !e.Pos.IsKnown() {
		where = e.File + ": at the end"
	}
	return fmt.Sprintf("buildcheck: %s: %s: %s", where, e.Rule, e.Msg)
}

// Validate reports whether raw, built from f with son.BuildOptions{Raw:
// true}, is a correct translation of f, or the first place it is not.
func Validate(f *syntax.File, raw *son.Graph) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok { // a bug of the validator: an error, not a crash
				err = fmt.Errorf("buildcheck: %s: internal error: %v", f.Name, r)
				return
			}
			err = e
		}
	}()
	// The index too, under the recover: it reads every node, and nodes
	// the builder never makes (a Region left with no inputs) are input.
	v := &validator{x: newIndex(raw), file: f.Name, returned: map[int]bool{}}
	v.env = make([]*son.Node, f.NumVars)
	v.seq = make([]int, f.NumVars)
	v.stamp = make([]int, f.NumVars)
	v.program(f)
	return nil
}

// validator walks the program. ctrl is the control reaching the current
// point, nil where no path of the program reaches it (after a return,
// break or continue): no node there is checked, since none runs.
type validator struct {
	x     *index
	file  string
	ctrl  *son.Node
	env   []*son.Node // by Var.ID: the canonical node of each variable's value
	seq   []int       // by Var.ID: when it was declared, in declarations seen
	decls int
	log   []assign // the assignments made, for undoing an arm's and checking Assigned
	loop  *loopCtx
	stamp []int // by Var.ID: scratch marks
	mark  int

	returned map[int]bool // canonical IDs of the Returns the program's returns make
}

// assign is one change of a variable, with its value before.
type assign struct {
	v   *syntax.Var
	old *son.Node
	pos syntax.Pos
}

// path is control arriving at a join with the values of the variables
// the join merges (or, in an expression, with the expression's value).
type path struct {
	ctrl *son.Node
	vals []*son.Node
}

// loopCtx collects the paths leaving and going round the innermost loop.
type loopCtx struct {
	outer     *loopCtx
	vars      []*syntax.Var
	breaks    []path
	continues []path
}

func (v *validator) fail(pos syntax.Pos, rule, format string, args ...any) {
	panic(&Error{File: v.file, Pos: pos, Rule: rule, Msg: fmt.Sprintf(format, args...)})
}

// want returns the node with op, aux and inputs, or fails naming it.
func (v *validator) want(pos syntax.Pos, rule string, op son.Op, aux int64, in ...*son.Node) *son.Node {
	if n := v.x.find(op, aux, in...); n != nil {
		return n
	}
	v.fail(pos, rule, "no %s", describe(op, aux, in))
	return nil
}

// describe is a node the graph should have: "Lt(nil, Proj#4, Constant#7=3)".
func describe(op son.Op, aux int64, in []*son.Node) string {
	s := op.String()
	if op == son.OpConstant || op == son.OpCProj || op == son.OpProj {
		s += fmt.Sprintf("[%d]", aux)
	}
	s += "("
	for i, n := range in {
		if i > 0 {
			s += ", "
		}
		s += name(n)
	}
	return s + ")"
}

// name is a node in messages, a constant with its value: "Constant#7=3".
func name(n *son.Node) string {
	if n == nil {
		return "nil"
	}
	if n.Op == son.OpConstant && n.Type().IsConst() {
		return fmt.Sprintf("%v#%d=%d", n.Op, n.ID, n.Aux)
	}
	return n.String()
}

func (v *validator) con(pos syntax.Pos, k int64) *son.Node {
	return v.want(pos, "constant", son.OpConstant, k)
}

// ---- the program and its statements ----

func (v *validator) program(f *syntax.File) {
	g := v.x.g
	var pos syntax.Pos // the start and the end of the program
	if g.Start == nil || g.Stop == nil {
		v.fail(pos, "start", "the graph has no Start or Stop")
	}
	if c, a, b := v.x.fork(); c != nil {
		v.fail(pos, "control", "%v passes control to both %v and %v", c, a, b)
	}
	v.ctrl = live(v.want(pos, "start", son.OpCProj, 0, g.Start))
	v.define(f.Arg, v.want(pos, "start", son.OpProj, 1, g.Start), pos)
	v.block(f.Body.List)
	if v.ctrl != nil {
		// Falling off the end (where the types do not rule it out)
		// returns 0.
		var r *son.Node
		if zero := v.x.find(son.OpConstant, 0); zero != nil {
			r = v.x.find(son.OpReturn, 0, v.ctrl, zero)
		}
		if r == nil {
			v.fail(pos, "return", "the program may fall off its end at %v, but no Return(%v, 0)", v.ctrl, v.ctrl)
		}
		v.reaches(r, pos)
	}
	for _, r := range g.Stop.In {
		switch {
		case r == nil || r.Op != son.OpReturn:
			v.fail(pos, "return", "Stop holds %v, not a Return", r)
		case !isDead(r) && !v.returned[v.x.c(r).ID]:
			v.fail(pos, "return", "Stop holds %v, %s, which no return of the program makes",
				r, describe(r.Op, 0, r.In))
		}
	}
}

// reaches checks that Return r is one of Stop's, and notes it.
func (v *validator) reaches(r *son.Node, pos syntax.Pos) {
	if !v.x.stopHas[r.ID] {
		v.fail(pos, "return", "%v is not an input of Stop", r)
	}
	v.returned[r.ID] = true
}

func (v *validator) block(list []syntax.Stmt) {
	for _, s := range list {
		v.stmt(s)
	}
}

// set assigns x to variable w, as a store: a bool keeps its low bit.
func (v *validator) set(w *syntax.Var, x *son.Node, pos syntax.Pos) {
	if w.Bool {
		x = v.mask(x, pos)
	}
	v.log = append(v.log, assign{w, v.env[w.ID], pos})
	v.env[w.ID] = x
}

func (v *validator) define(w *syntax.Var, x *son.Node, pos syntax.Pos) {
	if w.Bool {
		x = v.mask(x, pos)
	}
	v.env[w.ID] = x
	v.seq[w.ID] = v.decls
	v.decls++
}

// mask is x & 1, or x when its type is already within bool.
func (v *validator) mask(x *son.Node, pos syntax.Pos) *son.Node {
	if x.Type().IsA(types.Bool) {
		return x
	}
	return v.want(pos, "bool", son.OpAnd, 0, nil, x, v.con(pos, 1))
}

// get is the value of w.
func (v *validator) get(w *syntax.Var, pos syntax.Pos) *son.Node {
	x := v.env[w.ID]
	if x == nil {
		v.fail(pos, "name", "%s has no value", w.Name)
	}
	return x
}

func (v *validator) stmt(s syntax.Stmt) {
	if v.ctrl == nil {
		return // never runs: the builder's nodes there are not checked
	}
	switch s := s.(type) {
	case *syntax.BlockStmt:
		v.block(s.List)
	case *syntax.DeclStmt:
		for _, spec := range s.Specs {
			var x *son.Node
			if spec.Init != nil {
				x = v.expr(spec.Init)
			} else {
				x = v.con(spec.NamePos, 0)
			}
			v.define(spec.Var, x, spec.NamePos)
		}
	case *syntax.AssignStmt:
		var x *son.Node
		if s.Op == syntax.ASSIGN {
			x = v.expr(s.Value)
		} else {
			old := v.get(s.Var, s.NamePos)
			var y *son.Node
			if s.Value != nil {
				y = v.expr(s.Value)
			} else {
				y = v.con(s.OpPos, 1)
			}
			x = v.arith(s.Op.AssignOp(), old, y, s.OpPos)
		}
		v.set(s.Var, x, s.Pos())
	case *syntax.ExprStmt:
		v.expr(s.X)
	case *syntax.IfStmt:
		v.ifStmt(s)
	case *syntax.WhileStmt:
		v.loopStmt(s.Cond, s.Body, nil, s.Assigned, s.While)
	case *syntax.ForStmt:
		if s.Init != nil {
			v.stmt(s.Init)
		}
		if v.ctrl != nil {
			v.loopStmt(s.Cond, s.Body, s.Next, s.Assigned, s.For)
		}
	case *syntax.BreakStmt:
		v.loop.breaks = append(v.loop.breaks, v.save(v.loop.vars))
		v.ctrl = nil
	case *syntax.ContinueStmt:
		v.loop.continues = append(v.loop.continues, v.save(v.loop.vars))
		v.ctrl = nil
	case *syntax.ReturnStmt:
		x := v.expr(s.Value)
		v.reaches(v.want(s.Return, "return", son.OpReturn, 0, v.ctrl, x), s.Return)
		v.ctrl = nil
	case *syntax.ShowGraphStmt, *syntax.EmptyStmt:
	default:
		v.fail(s.Pos(), "statement", "unexpected statement %T", s)
	}
}

// save is the current path with the values of vars.
func (v *validator) save(vars []*syntax.Var) path {
	p := path{ctrl: v.ctrl}
	if p.ctrl != nil {
		p.vals = make([]*son.Node, len(vars))
		for i, w := range vars {
			p.vals[i] = v.env[w.ID]
		}
	}
	return p
}

// live is c, or nil if c never arrives.
func live(c *son.Node) *son.Node {
	if isDead(c) {
		return nil
	}
	return c
}

// branch finds the If on cond at the current control and its true and
// false projections.
func (v *validator) branch(cond *son.Node, pos syntax.Pos, what string) (t, f *son.Node) {
	iff := v.want(pos, what, son.OpIf, 0, v.ctrl, cond)
	t, f = v.want(pos, what, son.OpCProj, 0, iff), v.want(pos, what, son.OpCProj, 1, iff)
	if isDead(t) && isDead(f) {
		v.fail(pos, "types", "control reaches %v but neither of its sides is typed reached (its condition %v has type %v)",
			iff, cond, cond.Type())
	}
	return t, f
}

// since checks the assignments made since log position mark to variables
// declared before seq: each must be to one of vars, the variables the
// construct at pos is said to assign (the only ones its join merges).
func (v *validator) since(mark, seq int, vars []*syntax.Var, pos syntax.Pos, what string) {
	v.mark++
	for _, w := range vars {
		v.stamp[w.ID] = v.mark
	}
	for _, a := range v.log[mark:] {
		if v.seq[a.v.ID] < seq && v.stamp[a.v.ID] != v.mark {
			v.fail(a.pos, "assigned", "%s is assigned in the %s at %v, which does not merge it", a.v.Name, what, pos)
		}
	}
}

// undo puts back the values the assignments since mark changed.
func (v *validator) undo(mark int) {
	for i := len(v.log) - 1; i >= mark; i-- {
		v.env[v.log[i].v.ID] = v.log[i].old
	}
	v.log = v.log[:mark]
}

func (v *validator) ifStmt(s *syntax.IfStmt) {
	t, f := v.branch(v.expr(s.Cond), s.If, "if")
	mark, seq := len(v.log), v.decls
	v.ctrl = live(t)
	v.stmt(s.Then)
	then := v.save(s.Assigned)
	v.since(mark, seq, s.Assigned, s.If, "if")
	v.undo(mark)
	v.ctrl = live(f)
	if s.Else != nil {
		v.stmt(s.Else)
	}
	els := v.save(s.Assigned)
	v.since(mark, seq, s.Assigned, s.If, "if")
	v.undo(mark)
	v.merge([]path{then, els}, s.Assigned, s.If, "if")
}

// loopStmt checks while (cond) body, and for loops with next.
func (v *validator) loopStmt(cond syntax.Expr, body, next syntax.Stmt, assigned []*syntax.Var, pos syntax.Pos) {
	x := v.x
	entry := v.ctrl
	loop := x.loopOf[entry.ID]
	if loop == nil || loop == ambiguous || len(loop.In) != 3 {
		v.fail(pos, "loop", "no Loop (or more than one) entered from %v", entry)
	}
	// The head: a Phi for each variable the loop assigns, its first value
	// the one from before the loop.
	phis := make([]*son.Node, len(assigned))
	before := make([]*son.Node, len(assigned))
	byLabel := x.loopPhis(loop)
	for i, w := range assigned {
		before[i] = v.get(w, pos)
		for _, p := range byLabel[w.Name] { // the oldest that fits
			if len(p.In) == 3 && x.c(p.In[1]) == before[i] && (phis[i] == nil || p.ID < phis[i].ID) {
				phis[i] = p
			}
		}
		if phis[i] != nil {
			v.log = append(v.log, assign{w, v.env[w.ID], pos})
			v.env[w.ID] = phis[i]
		}
	}
	x.doneLoopPhis(loop)
	mark, seq := len(v.log), v.decls
	v.ctrl = loop
	var c *son.Node
	if cond != nil {
		c = v.expr(cond)
	} else {
		c = v.con(pos, 1)
	}
	t, f := v.branch(c, pos, "loop")
	ctx := &loopCtx{outer: v.loop, vars: assigned}
	v.loop = ctx
	v.ctrl = live(f)
	ctx.breaks = append(ctx.breaks, v.save(assigned))
	v.ctrl = live(t)
	v.stmt(body)
	if len(ctx.continues) > 0 {
		v.merge(append([]path{v.save(assigned)}, ctx.continues...), assigned, pos, "continue")
	}
	if next != nil {
		v.stmt(next)
	}
	v.loop = ctx.outer

	// The back edge: the control at the end of the body, and each Phi's
	// value there; a variable without a Phi must come back unchanged.
	back := loop.In[2]
	switch {
	case v.ctrl == nil && !isDead(back):
		v.fail(pos, "loop", "the back edge of %v is %v, but the body never comes back", loop, back)
	case v.ctrl != nil && x.c(back) != v.ctrl:
		v.fail(pos, "loop", "the back edge of %v is %v, not %v where the body ends", loop, back, v.ctrl)
	}
	if v.ctrl != nil {
		for i, w := range assigned {
			now := v.get(w, pos)
			switch {
			case phis[i] != nil && x.c(phis[i].In[2]) != now:
				v.fail(pos, "loop", "%v of %s takes %s on the back edge, not %s, its value at the end of the body",
					phis[i], w.Name, name(phis[i].In[2]), name(now))
			case phis[i] == nil && now != before[i]:
				v.fail(pos, "loop", "%s is %s at the end of the body but %s on entry, and %v has no Phi of it",
					w.Name, name(now), name(before[i]), loop)
			}
		}
	}
	v.since(mark, seq, assigned, pos, "loop")
	v.undo(mark)
	v.ctrl = loop
	v.merge(ctx.breaks, assigned, pos, "loop exit")
}

// merge checks the join of paths, the values of vars on each, and makes
// the result current. Dead paths bring nothing; one live path goes on as
// it is (a Region it shares only with dead ones is that path); two or more
// must meet at Regions — one, or a tree of them — each with a Phi for
// every variable whose values differ, the value of each path on that
// path's input.
func (v *validator) merge(paths []path, vars []*syntax.Var, pos syntax.Pos, what string) {
	vals, ok := v.join(paths, len(vars), pos, what, func(i int) string { return vars[i].Name })
	if !ok {
		v.ctrl = nil
		return
	}
	for i, w := range vars {
		v.log = append(v.log, assign{w, v.env[w.ID], pos})
		v.env[w.ID] = vals[i]
	}
}

// join merges paths, each with nv values, and returns the values after
// the join; ok is false if no path is live. v.ctrl is set to the control
// after the join. label names value i in messages.
func (v *validator) join(paths []path, nv int, pos syntax.Pos, what string, label func(int) string) (vals []*son.Node, ok bool) {
	x := v.x
	var pending []*path
	at := map[int]int{} // canonical control ID -> index in pending
	for i := range paths {
		p := &paths[i]
		if p.ctrl == nil {
			continue
		}
		if _, dup := at[p.ctrl.ID]; dup {
			v.fail(pos, what, "two paths reach the %s from %v", what, p.ctrl)
		}
		at[p.ctrl.ID] = len(pending)
		pending = append(pending, p)
	}
	left := len(pending)
	if left == 0 {
		return nil, false
	}
	used := make([]bool, len(pending))
	for next := 0; left > 1; next++ {
		if next >= len(pending) {
			v.fail(pos, what, "the paths reaching the %s do not meet", what)
		}
		if used[next] {
			continue
		}
		p := pending[next]
		r := x.mergeOf[p.ctrl.ID]
		if r == nil || r == ambiguous {
			v.fail(pos, what, "%v, one of the paths reaching the %s, flows into no Region (or more than one) with another live path", p.ctrl, what)
		}
		// Each live input of r is a pending path.
		ins := make([]*path, len(r.In))
		n := 0
		for i := 1; i < len(r.In); i++ {
			if isDead(r.In[i]) {
				continue
			}
			k, ok := at[x.c(r.In[i]).ID]
			if !ok || used[k] {
				v.fail(pos, what, "%v merges %v, which is not one of the paths reaching the %s", r, r.In[i], what)
			}
			used[k] = true
			ins[i] = pending[k]
			n++
		}
		left -= n - 1
		q := &path{ctrl: r, vals: make([]*son.Node, nv)}
		for j := 0; j < nv; j++ {
			q.vals[j] = v.phi(r, ins, j, pos, what, label(j))
		}
		at[r.ID] = len(pending)
		pending = append(pending, q)
		used = append(used, false)
	}
	for k, p := range pending {
		if !used[k] {
			v.ctrl = p.ctrl
			return p.vals, true
		}
	}
	panic("unreachable")
}

// phi is the value j after Region r, whose live inputs bring the paths
// ins: the one value if they all bring it, else the Phi of r that has
// each path's value on its input.
func (v *validator) phi(r *son.Node, ins []*path, j int, pos syntax.Pos, what, label string) *son.Node {
	in := make([]*son.Node, len(ins))
	in[0] = v.x.c(r)
	var same *son.Node
	one := true
	for i := 1; i < len(ins); i++ {
		if ins[i] == nil {
			continue
		}
		x := ins[i].vals[j]
		if x == nil {
			v.fail(pos, what, "%s has no value on the path from %v", label, ins[i].ctrl)
		}
		in[i] = x
		if same == nil {
			same = x
		} else if x != same {
			one = false
		}
	}
	if one {
		return same
	}
	if p := v.x.find(son.OpPhi, 0, in...); p != nil {
		return p
	}
	v.fail(pos, what, "no Phi of %s at %v: want %s", label, r, describe(son.OpPhi, 0, in))
	return nil
}
