package son

import (
	"fmt"
	"slices"
	"sort"

	"son/syntax"
	"son/types"
)

// Building the graph from a resolved program, as the Simple tutorial's
// parser does (paper 002): a Scope node holds the current control and the
// value of every live variable; at an if the builder keeps the values from
// before the branch, builds each arm in turn, and merges the two at a
// Region with a Phi for each variable whose values differ; a loop puts
// Phis at its head, closes them at the back edge, and merges the exit of
// its test with every break; continues merge at the bottom of the body.
// Every node goes through the peephole as it is made.
//
// Unlike Simple's ScopeNode, which copies every live variable at each
// branch, the builder copies only the variables the if or loop assigns
// (the resolver lists them): a variable no arm touches has one value on
// every path and needs neither a copy nor a Phi. So the cost is linear in
// the program, plus, per assignment, the number of ifs and loops around
// it — not the number of live variables at each branch.

// BuildOptions configures Build.
type BuildOptions struct {
	// ShowGraph, if set, is called at each #showGraph statement with the
	// graph so far and the scopes being built, which hold nodes that
	// nothing else uses yet: the current scope first, then the saved
	// values of enclosing ifs and loops. names[k][i] is the variable in
	// input 1+i of scopes[k]; pos is the statement's.
	ShowGraph func(g *Graph, scopes []*Node, names [][]string, pos syntax.Pos)
	// NoGVN sets Graph.NoGVN from the start.
	NoGVN bool
	// Check turns on Graph.CheckRewrites from the first node.
	Check bool
	// Raw builds the graph with no rewrite at all: every node the builder
	// makes keeps its op and inputs (types are still computed), and no node
	// is killed, not even an unused one. The translation validator
	// (package buildcheck) checks that graph against the program; it is
	// for that only, not for the passes.
	Raw bool
}

// Build makes the Sea of Nodes of a resolved program.
func Build(f *syntax.File, opt BuildOptions) *Graph {
	g := NewGraph(f.Name)
	g.NoGVN = opt.NoGVN
	if opt.Check {
		g.CheckRewrites()
	}
	g.raw = opt.Raw
	g.noRecycle = opt.ShowGraph != nil // which may keep the nodes it is shown
	b := &builder{g: g, opt: opt}
	ctrl := g.Peephole(g.NewNode(OpCProj, 0, g.Start))
	arg := g.Peephole(g.NewNode(OpProj, 1, g.Start))
	g.SetLabel(arg, "arg")
	b.scope = g.NewNode(OpScope, 0, ctrl)
	b.scope.keep++
	b.define(f.Arg, arg)
	b.block(f.Body.List)
	if b.ctrl().Type().IsCtrl() { // falling off the end returns 0
		b.ret(g.Con(0), syntax.Pos{})
	}
	if !opt.Raw {
		b.mergeReturns()
	}
	b.scope.keep--
	g.Kill(b.scope)
	if !opt.Raw {
		// What lives is decided before the folds' divisions are counted:
		// a division that a folded side's fact guarded must get its check
		// back if it stays, and a loop with no exit (garbage until
		// keepInfiniteLoops gives it a Never) stays.
		folded := b.foldOneSidedIfs()
		// Live's walk rather than the set's alone: the order is the one
		// the peephole pass's PushAll walks for (liveOrder).
		order, live := g.liveOrderSet()
		added, live := g.keepInfiniteLoops(live)
		if folded && !g.guardFolded(live) {
			order, live = g.liveOrderSet() // the checks' nodes are new
		}
		g.sweep(live)
		g.giveMarks(live)
		if !added { // the sweep changes no node's inputs
			g.walks.order, g.walks.orderAt = order, g.version()
		}
		// The sweep may take an unreachable side's projection. Its If
		// folded, what only that side used may be a cycle that nothing
		// live uses (a loop's Phi and its increment, when the side was
		// the loop's exit): swept again, until nothing folds.
		//
		// These rounds need no keepInfiniteLoops: after the first, every
		// Loop that Start reaches is live (Stop reaches it). A fold
		// replaces an If's one projection by the If's control, so a
		// control path from Start, or back from Stop, through that
		// projection runs through the control instead: no node but the
		// If, its projection, their Refines and data only the condition
		// used stops being live, and none becomes reachable from Start
		// that was not. A sweep takes only nodes not live, and no round
		// makes a Loop. So no Loop that Start reaches loses its last
		// way to Stop, and keepInfiniteLoops would find nothing to do.
		for b.foldOneSidedIfs() {
			live := g.liveSet()
			if !g.guardFolded(live) {
				live = g.liveSet()
			}
			g.sweep(live)
			g.giveMarks(live)
		}
	}
	g.spare = nil
	g.packEdges() // and the arena's free lists go with it
	return g
}

type builder struct {
	g     *Graph
	opt   BuildOptions
	scope *Node         // the current scope: control, then every live variable by slot
	vars  []*syntax.Var // the live variable of each slot
	loop  *loopCtx      // the innermost loop being built
	saved []savedScope  // saved scopes alive, each at the slot its Aux holds
	free  []int64       // the slots of saved that no scope holds
	in    []*Node       // save's list of a scope's inputs, reused
	refs  []refined     // the variables refined by the branches around, innermost last
	ifs   []*Node       // every If branch made (foldOneSidedIfs)
	args  []*Node       // mergeOne's list of a new node's inputs, reused
	lists []*Node       // chainLists' lists, reused
}

// loopCtx collects the exits of the loop being built.
type loopCtx struct {
	outer     *loopCtx
	vars      []*syntax.Var // the variables the loop assigns: all that can differ between exits
	breaks    []*Node       // saved scopes leaving the loop: the exit test's, then each break's
	continues []*Node       // saved scopes going round again from a continue
}

// ---- scopes ----

// savedScope is a saved scope and the variables it holds (vars[i] in
// input 1+i). A scope's Aux, which nothing else reads, is its slot in
// builder.saved: a map by node was 2% of Build.
type savedScope struct {
	s    *Node
	vars []*syntax.Var
}

func (b *builder) ctrl() *Node             { return b.scope.In[0] }
func (b *builder) setCtrl(c *Node)         { b.g.SetIn(b.scope, 0, c) }
func (b *builder) get(v *syntax.Var) *Node { return b.scope.In[1+v.Slot] }

// set assigns x to v, keeping only the low bit for a bool.
func (b *builder) set(v *syntax.Var, x *Node) {
	if v.Bool {
		x = b.boolMask(x)
	}
	b.g.SetIn(b.scope, 1+v.Slot, x)
}

func (b *builder) define(v *syntax.Var, x *Node) {
	if len(b.scope.In) != 1+v.Slot {
		panic(fmt.Sprintf("son: %s declared in slot %d with %d live", v.Name, v.Slot, len(b.scope.In)-1))
	}
	if v.Bool {
		x = b.boolMask(x)
	}
	b.g.AddIn(b.scope, x)
	b.vars = append(b.vars[:v.Slot], v)
}

// truncate drops the variables of slots n and up, at the end of a block.
func (b *builder) truncate(n int) {
	for len(b.scope.In) > 1+n {
		b.g.DelIn(b.scope, len(b.scope.In)-1)
	}
	b.vars = b.vars[:n]
}

// save makes a Scope node holding the current control and the values of
// vars, so that they stay alive, and are rewired if a peephole replaces
// them, while the current scope moves on.
func (b *builder) save(vars []*syntax.Var) *Node {
	in := append(b.in[:0], b.ctrl())
	for _, v := range vars {
		in = append(in, b.get(v))
	}
	slot := int64(len(b.saved))
	if k := len(b.free); k > 0 {
		slot = b.free[k-1]
		b.free = b.free[:k-1]
	} else {
		b.saved = append(b.saved, savedScope{})
	}
	s := b.g.newNodeTyped(OpScope, slot, types.Bottom, true, in) // Compute's type of a Scope
	clearEdges(in)
	b.in = in[:0]
	s.keep++
	b.saved[slot] = savedScope{s, vars}
	return s
}

// restore puts back the values a save holds, and drops the save.
func (b *builder) restore(s *Node) {
	for i, v := range b.saved[s.Aux].vars {
		b.g.SetIn(b.scope, 1+v.Slot, s.In[1+i])
	}
	b.drop(s)
}

func (b *builder) drop(s *Node) {
	b.saved[s.Aux] = savedScope{}
	b.free = append(b.free, s.Aux)
	s.keep--
	b.g.Kill(s)
	b.g.recycle(s) // the builder holds no dropped scope
}

// boolMask keeps the low bit of a value stored in a bool variable, as
// Simple's u1 type does; a value that is already 0 or 1 is kept as is.
func (b *builder) boolMask(x *Node) *Node {
	if x.Type().IsA(types.Bool) {
		return x
	}
	return b.g.peepNew(OpAnd, 0, syntax.Pos{}, nil, x, b.g.Con(1))
}

// hold keeps a node alive while more of the graph is built; release
// undoes it.
func (b *builder) hold(n *Node) *Node { n.keep++; return n }
func (b *builder) release(n *Node)    { n.keep-- }

// maxJoin is the most control paths the builder joins at one Region:
// the analysis evaluates a Phi once per change of an input, each time
// over all its inputs, so a Region as wide as a long && chain or a loop
// with thousands of breaks would make it quadratic. Wider joins are
// built as a tree of Regions.
const maxJoin = 32

// merge joins saved scopes, all holding vars, at a new Region (their
// controls in order), with a Phi for every variable whose values differ,
// and makes the result current: the control and vars of the current scope
// are set, the saves dropped. More than maxJoin scopes are merged by
// groups of maxJoin first, level by level.
func (b *builder) merge(ss []*Node, vars []*syntax.Var, pos syntax.Pos) {
	for len(ss) > maxJoin {
		var next []*Node
		for i := 0; i < len(ss); i += maxJoin {
			b.mergeOne(ss[i:min(i+maxJoin, len(ss))], vars, pos)
			next = append(next, b.save(vars))
		}
		ss = next
	}
	b.mergeOne(ss, vars, pos)
}

// mergeOne is merge for at most maxJoin scopes.
func (b *builder) mergeOne(ss []*Node, vars []*syntax.Var, pos syntax.Pos) {
	g := b.g
	if len(ss) == 1 {
		c := b.hold(ss[0].In[0])
		b.restore(ss[0])
		b.setCtrl(c)
		b.release(c)
		return
	}
	// One list, reused, for the Region's inputs and then each Phi's
	// (NewNode copies them).
	args := append(b.args[:0], nil)
	for _, s := range ss {
		args = append(args, s.In[0])
	}
	var r *Node
	if g.allDead(args[1:]) && samePerVar(ss, len(vars)) {
		r = g.deadRegion(args[1:]) // no path live, and no Phi to make
	}
	if r == nil {
		r = g.NewNode(OpRegion, 0, args...)
	}
	b.hold(r)
	r.Pos = pos
	var phis []*Node
	for i, v := range vars {
		first := ss[0].In[1+i]
		same := true
		args = append(args[:0], r)
		for _, s := range ss {
			args = append(args, s.In[1+i])
			same = same && s.In[1+i] == first
		}
		x := first
		if !same {
			x = g.NewNode(OpPhi, b2i(v.Bool), args...)
			x.Pos = pos
			g.SetLabel(x, v.Name)
			phis = append(phis, x)
		}
		g.SetIn(b.scope, 1+v.Slot, x)
	}
	clearEdges(args)
	b.args = args[:0]
	for _, s := range ss {
		b.drop(s)
	}
	for _, phi := range phis {
		if p := g.Peephole(phi); p != phi {
			g.Subsume(phi, p)
			g.recycle(phi)
		}
	}
	c := g.Peephole(r)
	b.release(r)
	b.setCtrl(c)
	b.endJoin(r)
}

// samePerVar reports whether the saved scopes ss hold the same value for
// each of their n variables: merging them makes no Phi.
func samePerVar(ss []*Node, n int) bool {
	for i := 1; i <= n; i++ {
		for _, s := range ss[1:] {
			if s.In[i] != ss[0].In[i] {
				return false
			}
		}
	}
	return true
}

// ---- statements ----

func (b *builder) block(list []syntax.Stmt) {
	n := len(b.vars)
	for _, s := range list {
		b.stmt(s)
	}
	b.truncate(n)
}

func (b *builder) stmt(s syntax.Stmt) {
	g := b.g
	switch s := s.(type) {
	case *syntax.BlockStmt:
		b.block(s.List)
	case *syntax.DeclStmt:
		for _, spec := range s.Specs {
			var x *Node
			if spec.Init != nil {
				x = b.expr(spec.Init)
			} else {
				x = g.Con(0)
			}
			b.define(spec.Var, x)
		}
	case *syntax.AssignStmt:
		var x *Node
		if s.Op == syntax.ASSIGN {
			x = b.expr(s.Value)
		} else {
			old := b.hold(b.get(s.Var))
			var y *Node
			if s.Value != nil {
				y = b.expr(s.Value)
			} else {
				y = g.Con(1) // ++ and --
			}
			b.release(old)
			x = b.arith(s.Op.AssignOp(), old, y, s.OpPos)
		}
		b.set(s.Var, x)
	case *syntax.ExprStmt:
		g.KillIfUnused(b.expr(s.X))
	case *syntax.IfStmt:
		b.ifStmt(s)
	case *syntax.WhileStmt:
		b.loopStmt(s.Cond, s.Body, nil, s.Assigned, s.While)
	case *syntax.ForStmt:
		n := len(b.vars)
		if s.Init != nil {
			b.stmt(s.Init)
		}
		b.loopStmt(s.Cond, s.Body, s.Next, s.Assigned, s.For)
		b.truncate(n)
	case *syntax.BreakStmt:
		b.loop.breaks = append(b.loop.breaks, b.jump())
	case *syntax.ContinueStmt:
		b.loop.continues = append(b.loop.continues, b.jump())
	case *syntax.ReturnStmt:
		b.ret(b.expr(s.Value), s.Return)
	case *syntax.ShowGraphStmt:
		if b.opt.ShowGraph != nil {
			b.showGraph(s.Hash)
		}
	case *syntax.EmptyStmt:
	default:
		panic(fmt.Sprintf("son: unexpected statement %T", s))
	}
}

// ret ends the current path with a Return of x.
func (b *builder) ret(x *Node, pos syntax.Pos) {
	g := b.g
	r := g.peepNew(OpReturn, 0, pos, b.ctrl(), x)
	if r.Op == OpReturn {
		g.AddReturn(r)
	} else {
		g.KillIfUnused(r)
	}
	b.setCtrl(g.xctrl())
}

// foldOneSidedIfs replaces the one projection left to an If by the If's
// control. A side whose projection nothing uses leads nowhere: its code
// died on a type saying it is never reached (a loop exit whose Refine's
// value turned out to be outside its fact when the loop turned out to
// end by returning), before the If's condition, which the builder does
// not revisit, was folded. Any If the builder made can be so (random
// program seed 591: the If of a later loop on that dead exit), so branch
// lists them all. A Refine pinned to the projection left has no branch
// any more and becomes its value (seed 1148): as StripRefines does, the
// types that rested on its fact are lowered to what the inputs give, and
// a division whose check went on the side's fact gets it back.
//
// It reports whether it folded an If; guardFolded then gives the checks
// back, once Build knows what lives.
func (b *builder) foldOneSidedIfs() bool {
	g := b.g
	var work []*Node // users of the Refines replaced, whose types may fall
	folded := false
	for _, n := range b.ifs {
		if n.dead || n.Op != OpIf || len(n.Out) != 1 || n.Out[0].Op != OpCProj {
			continue
		}
		p := n.Out[0]
		p.keep++
		for _, u := range slices.Clone(p.Out) {
			if u.Op == OpRefine && !u.dead && u.In[0] == p {
				work = append(work, u.Out...)
				g.Subsume(u, u.In[1])
			}
		}
		g.Subsume(p, n.In[0])
		p.keep--
		g.KillIfUnused(p)
		folded = true
	}
	if folded {
		g.relax(work) // types only: the live set stays
	}
	return folded
}

// guardFolded gives its check back to each division whose check went on
// the fact of a side that foldOneSidedIfs folded (reguard), and reports
// whether live, the live set, still holds; if not, it has given live back.
// live must include the loops that keepInfiniteLoops keeps alive: a
// division that only such a loop's Never keeps is one that stays, and
// someUnguarded counts only the live ones.
func (g *Graph) guardFolded(live []bool) bool {
	if reguardHook != nil {
		reguardHook(g)
	}
	if !g.someUnguarded(live) {
		return true
	}
	g.giveMarks(live) // reguard walks anew
	g.reguard()
	return false
}

// mergeReturns leaves the program one Return: the paths that return join
// at a Region (a tree of them past maxJoin) and their values at a Phi, as
// in Simple's function return, so that equal returns fold into one and a
// branch that only chooses between them goes (the empty diamond).
// SplitReturns undoes what folded nothing before code is laid out. The
// Returns the statements made hold the paths until then: peepholes that
// replace a path's control or value update them. Each Region records,
// before its first peephole, where each path's return statement stands
// (setReturnPos), for the Returns SplitReturns makes.
func (b *builder) mergeReturns() {
	g := b.g
	if len(g.Stop.In) < 2 {
		return
	}
	var ctrls, vals []*Node
	var poss []syntax.Pos // where each return statement stands
	for _, r := range g.Stop.In {
		ctrls = append(ctrls, b.hold(r.In[0]))
		vals = append(vals, b.hold(r.In[1]))
		poss = append(poss, r.Pos)
	}
	pos := g.Stop.In[0].Pos
	for len(g.Stop.In) > 0 {
		g.DelIn(g.Stop, len(g.Stop.In)-1) // kills the Return
	}
	for len(ctrls) > 1 {
		var nc, nv []*Node
		var np []syntax.Pos
		for i := 0; i < len(ctrls); i += maxJoin {
			end := min(i+maxJoin, len(ctrls))
			cs, vs, ps := ctrls[i:end], vals[i:end], poss[i:end]
			if len(cs) == 1 {
				nc, nv, np = append(nc, cs[0]), append(nv, vs[0]), append(np, ps[0])
				continue
			}
			r := g.newNodeAfter(OpRegion, 0, nil, cs)
			g.setReturnPos(r, append([]syntax.Pos{{}}, ps...))
			phi := b.joinAt(r, vs, cs, pos)
			c, p := b.ctrl(), ps[0]
			if c.Op == OpRegion && c.Aux == 0 && len(c.In) == len(cs)+1 {
				c.Aux = regionOfReturns
			}
			if q := g.rets.at(c, 1); q.IsKnown() {
				p = q // r, changed by its peephole
			} else if k := slices.Index(cs, c); k >= 0 {
				p = ps[k] // the one path left
			}
			nc, nv, np = append(nc, b.hold(c)), append(nv, b.hold(phi)), append(np, p)
			for _, v := range vs {
				b.release(v)
				g.KillIfUnused(v)
			}
			for _, c := range cs {
				g.KillIfUnused(c)
			}
		}
		ctrls, vals, poss = nc, nv, np
	}
	c, x := ctrls[0], vals[0]
	b.setCtrl(c)
	b.release(c)
	b.release(x)
	b.ret(x, poss[0])
}

// showGraph hands the graph and the scopes to BuildOptions.ShowGraph.
func (b *builder) showGraph(pos syntax.Pos) {
	scopes := []*Node{b.scope}
	for _, sv := range b.saved {
		if sv.s != nil {
			scopes = append(scopes, sv.s)
		}
	}
	sort.Slice(scopes[1:], func(i, j int) bool { return scopes[1+i].ID < scopes[1+j].ID })
	names := make([][]string, len(scopes))
	for k, s := range scopes {
		vars := b.vars
		if k > 0 {
			vars = b.saved[s.Aux].vars
		}
		for _, v := range vars {
			names[k] = append(names[k], v.Name)
		}
	}
	b.opt.ShowGraph(b.g, scopes, names, pos)
}

// jump saves the control and the values of the variables the loop assigns,
// for a break or continue; the current path ends.
func (b *builder) jump() *Node {
	// A variable refined by an enclosing branch leaves with its own value:
	// the Refine adds nothing at the merge the jump goes to, where it
	// would make a Phi of the refined and the unrefined value.
	var held []refined
	for _, r := range b.refs {
		if b.scope.In[r.slot] == r.ref {
			held = append(held, r)
			b.hold(r.ref)
			b.g.SetIn(b.scope, r.slot, r.x)
		}
	}
	s := b.save(b.loop.vars)
	for _, r := range held {
		b.g.SetIn(b.scope, r.slot, r.ref)
		b.release(r.ref)
	}
	b.setCtrl(b.g.xctrl())
	return s
}

// branch makes an If on cond at the current control and returns its true
// and false projections, held.
func (b *builder) branch(cond *Node, pos syntax.Pos) (t, f *Node) {
	g := b.g
	if t, f := g.foldBranch(b.ctrl(), cond, pos); t != nil {
		return t, f // at most one side reached: no If made; both held
	}
	iff := g.NewNode(OpIf, 0, b.ctrl(), cond)
	iff.Pos = pos
	iff = b.hold(g.Peephole(iff))
	t = b.hold(g.peepNew(OpCProj, 0, syntax.Pos{}, iff))
	f = b.hold(g.peepNew(OpCProj, 1, syntax.Pos{}, iff))
	b.release(iff)
	g.KillIfUnused(iff)
	if iff.dead { // both sides dead at once (a branch in dead code)
		g.recycle(iff)
	} else {
		b.ifs = append(b.ifs, iff)
	}
	return t, f
}

func (b *builder) ifStmt(s *syntax.IfStmt) {
	cond := b.hold(b.expr(s.Cond))
	t, f := b.branch(cond, s.If)
	before := b.save(s.Assigned)
	b.setCtrl(t)
	b.release(t)
	rs := b.refine(cond, 0)
	b.stmt(s.Then)
	b.unrefine(rs)
	then := b.save(s.Assigned)
	b.restore(before)
	b.setCtrl(f)
	b.release(f)
	rs = b.refine(cond, 1)
	if s.Else != nil {
		b.stmt(s.Else)
	}
	b.unrefine(rs)
	b.release(cond)
	b.g.KillIfUnused(cond)
	b.merge([]*Node{then, b.save(s.Assigned)}, s.Assigned, s.If)
}

// refined is a variable a Refine narrowed: its slot and its value before.
type refined struct {
	slot   int
	x, ref *Node
}

// maxRefineUses bounds the users of a tested value searched for the
// variables that hold it, so that a value tested by many branches (arg in
// a long program) does not make the builder quadratic.
const maxRefineUses = 64

// refine gives every variable holding a value that cond tests, on side
// (0 true, 1 false) of the branch on cond, a Refine pinned to the current
// control: the value narrowed by what the branch proves (refine.go).
func (b *builder) refine(cond *Node, side int64) []refined {
	g := b.g
	ctrl := b.ctrl()
	if g.raw || cond.IsConst() || !ctrl.Type().IsCtrl() || ctrl.Op != OpCProj {
		return nil // a raw graph has only what the program says: no facts
	}
	type pair struct{ x, y *Node }
	var tests []pair
	switch {
	case cond.Op == OpNot:
		tests = []pair{{cond.In[1], nil}}
	case cond.Op.IsCompare():
		tests = []pair{{cond.In[1], cond.In[2]}, {cond.In[2], cond.In[1]}}
	default:
		tests = []pair{{cond, nil}}
	}
	// The refinements go on the end of b.refs as they are made, and the
	// result is that end, which unrefine takes off: no list of their own.
	// A refine nested in the statement appends after it, and is taken off
	// before it.
	start := len(b.refs)
	var buf [8]int
	for _, p := range tests {
		if p.x.IsConst() || len(p.x.Out) > maxRefineUses {
			continue
		}
		y := p.y
		if y == nil {
			y = g.Con(0)
		}
		slots := buf[:0]
		for k, u := range p.x.Out {
			if u == b.scope && p.x.UseIndex(k) > 0 {
				slots = append(slots, p.x.UseIndex(k))
			}
		}
		if len(slots) == 0 {
			continue
		}
		g.Stats.Refines++
		r := g.peepNew(OpRefine, 0, syntax.Pos{}, ctrl, p.x, y)
		if r == p.x {
			continue
		}
		for _, i := range slots {
			g.SetIn(b.scope, i, r)
			b.refs = append(b.refs, refined{i, p.x, r})
		}
	}
	return b.refs[start:len(b.refs):len(b.refs)]
}

// unrefine ends the refinements rs (the last made): the variables that
// still hold the Refine get their value back. Those the statement does
// not assign have one value on every path, and the Refine holds only on
// this one; those it assigns on other paths only would merge the refined
// and the unrefined value in a Phi where one value does.
func (b *builder) unrefine(rs []refined) {
	b.refs = b.refs[:len(b.refs)-len(rs)]
	for _, r := range rs {
		if b.scope.In[r.slot] == r.ref {
			b.g.SetIn(b.scope, r.slot, r.x)
		}
	}
}

// loopStmt builds while (cond) body, and for loops with next run after the
// body and after each continue. assigned are the variables the loop
// assigns: each gets a Phi at the loop head.
func (b *builder) loopStmt(cond syntax.Expr, body, next syntax.Stmt, assigned []*syntax.Var, pos syntax.Pos) {
	g := b.g
	loop := b.hold(g.NewNode(OpLoop, 0, nil, b.ctrl(), nil))
	loop.Pos = pos
	b.setCtrl(loop)
	phis := make([]*Node, len(assigned))
	for i, v := range assigned {
		phi := g.NewNode(OpPhi, b2i(v.Bool), loop, b.get(v), nil)
		phi.Pos = pos
		g.SetLabel(phi, v.Name)
		g.SetIn(b.scope, 1+v.Slot, phi)
		phis[i] = b.hold(phi)
	}

	var c *Node
	if cond != nil {
		c = b.expr(cond)
	} else {
		c = g.Con(1)
	}
	b.hold(c)
	t, f := b.branch(c, pos)
	ctx := &loopCtx{outer: b.loop, vars: assigned}
	b.loop = ctx
	b.setCtrl(f)
	b.release(f)
	rs := b.refine(c, 1)                              // the exit: only the loop's variables leave with the fact
	ctx.breaks = append(ctx.breaks, b.save(assigned)) // the exit when the test fails
	b.unrefine(rs)
	b.setCtrl(t)
	b.release(t)
	rs = b.refine(c, 0)
	b.release(c)
	b.g.KillIfUnused(c)

	b.stmt(body)
	b.unrefine(rs)
	if len(ctx.continues) > 0 {
		b.merge(append([]*Node{b.save(assigned)}, ctx.continues...), assigned, pos)
	}
	if next != nil {
		b.stmt(next)
	}
	b.loop = ctx.outer

	// Close the loop: the back edge and the Phis' second inputs.
	g.SetIn(loop, 2, b.ctrl())
	for i, v := range assigned {
		g.SetIn(phis[i], 2, b.get(v))
	}
	for _, phi := range phis {
		b.release(phi)
		if phi.dead {
			continue
		}
		if p := g.Peephole(phi); p != phi && !phi.dead {
			g.Subsume(phi, p)
		}
		g.recycle(phi) // if dead: the loop does not look at it again
	}
	b.release(loop)
	if l := g.Peephole(loop); l != loop && !loop.dead {
		g.Subsume(loop, l) // the body never comes back: no loop
	}
	g.KillIfUnused(loop)
	g.recycle(loop)
	b.merge(ctx.breaks, assigned, pos)
}

// ---- expressions ----

func (b *builder) expr(e syntax.Expr) *Node {
	g := b.g
	switch e := e.(type) {
	case *syntax.IntLit:
		return g.Con(e.Value)
	case *syntax.BoolLit:
		return g.Con(b2i(e.Value))
	case *syntax.Name:
		return b.get(e.Var)
	case *syntax.UnaryExpr:
		op := OpMinus
		if e.Op == syntax.NOT {
			op = OpNot
		}
		return g.peepNew(op, 0, e.OpPos, nil, b.expr(e.X))
	case *syntax.BinaryExpr:
		return b.binaryExpr(e)
	case *syntax.ChainExpr:
		return b.chain(e)
	case *syntax.CondExpr:
		return b.condExpr(e)
	}
	panic(fmt.Sprintf("son: unexpected expression %T", e))
}

// binaryExpr walks a left-nested chain such as a+b+c+... with a loop, so
// that a long sum does not recurse once per term.
func (b *builder) binaryExpr(e *syntax.BinaryExpr) *Node {
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
		return b.logical(e)
	}
	acc := b.expr(x)
	for i := len(spine) - 1; i >= 0; i-- {
		be := spine[i]
		b.hold(acc)
		y := b.expr(be.Y)
		b.release(acc)
		acc = b.arith(be.Op, acc, y, be.OpPos)
	}
	return acc
}

// binaryOps is the op of each binary source operator, OpInvalid for the
// other tokens: an array, where a map's lookup cost 1.4% of Build.
var binaryOps = [256]Op{
	syntax.ADD: OpAdd, syntax.SUB: OpSub, syntax.MUL: OpMul, syntax.QUO: OpDiv, syntax.REM: OpMod,
	syntax.AND: OpAnd, syntax.OR: OpOr, syntax.XOR: OpXor,
	syntax.SHL: OpShl, syntax.SHR: OpSar, syntax.USHR: OpShr,
	syntax.EQL: OpEq, syntax.NEQ: OpNe, syntax.LSS: OpLt, syntax.LEQ: OpLe,
	syntax.GTR: OpLt, syntax.GEQ: OpLe,
}

// arith builds x op y for a source operator: a > b is b < a; a division
// or remainder by a value that may be zero first passes a ZeroCheck on the
// control path, and stays pinned below it.
func (b *builder) arith(tok syntax.Token, x, y *Node, pos syntax.Pos) *Node {
	g := b.g
	op := binaryOps[tok]
	if op == OpInvalid {
		panic("son: no op for " + tok.String())
	}
	if tok == syntax.GTR || tok == syntax.GEQ {
		x, y = y, x
	}
	var ctrl *Node
	// (A divisor whose type excludes 0 only by a Refine's fact gets its
	// check, which the peephole removes or keeps: restsOnRefine.)
	if (op == OpDiv || op == OpMod) && (!y.Type().ExcludesZero() || !g.raw && restsOnRefine(y)) {
		b.hold(x)
		b.hold(y)
		ctrl = g.peepNew(OpZeroCheck, 0, pos, b.ctrl(), y)
		b.setCtrl(ctrl)
		b.release(x)
		b.release(y)
	}
	return g.peepNew(op, 0, pos, ctrl, x, y)
}

// logical builds a && b as if (a) b!=0 else 0, and a || b as
// if (a) 1 else b!=0: control flow, not eager evaluation. A chain such as
// a && b || c && d, nested to the left, is walked with a loop: the parser
// does not bound its length, and a recursion per operator overflowed Go's
// stack on a million terms. A run of one operator, a && b && c, is one
// test after the other with every short exit going to a single Region,
// as a comparison chain is built: three nodes per operand, not five. A
// run longer than maxJoin is cut into runs of maxJoin.
func (b *builder) logical(e *syntax.BinaryExpr) *Node {
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
	acc := b.expr(x)
	for i := len(spine) - 1; i >= 0; {
		j := i
		for j > 0 && spine[j-1].Op == spine[i].Op && i-j+1 < maxJoin {
			j--
		}
		acc = b.shortCircuit(acc, spine[i].Op, spine[j:i+1])
		i = j - 1
	}
	return acc
}

// shortCircuit builds x && y1 && y2 ... (op LAND) or x || y1 || ...
// (LOR), ops the operators of the run, the innermost last.
func (b *builder) shortCircuit(x *Node, op syntax.Token, ops []*syntax.BinaryExpr) *Node {
	g := b.g
	land := op == syntax.LAND
	var exits []*Node // the short sides, held
	for k := len(ops) - 1; k >= 0; k-- {
		t, f := b.branch(x, ops[k].OpPos)
		on, short := t, f
		if !land {
			on, short = f, t
		}
		exits = append(exits, short)
		b.setCtrl(on)
		b.release(on)
		x = b.expr(ops[k].Y)
	}
	y := b.hold(b.truth(x))
	defer b.release(y)
	shortVal := g.Con(b2i(!land))
	ctrls := make([]*Node, 0, len(exits)+1)
	vals := make([]*Node, 0, len(exits)+1)
	if land {
		ctrls, vals = append(ctrls, b.ctrl()), append(vals, y)
	}
	for _, c := range exits {
		ctrls, vals = append(ctrls, c), append(vals, shortVal)
	}
	if !land {
		ctrls, vals = append(ctrls, b.ctrl()), append(vals, y)
	}
	return b.join(ctrls, vals, exits, ops[len(ops)-1].OpPos)
}

// truth is x as 0 or 1.
func (b *builder) truth(x *Node) *Node {
	if x.Type().IsA(types.Bool) {
		return x
	}
	return b.g.peepNew(OpNe, 0, syntax.Pos{}, nil, x, b.g.Con(0))
}

// chainLists is the lists a comparison chain joins: control c then the
// exits, and the value v then a 0 for each exit; both cut from one list
// the builder reuses (clear it after use), where each was a slice grown
// by append.
func (b *builder) chainLists(c, v *Node, exits []*Node) (ctrls, vals []*Node) {
	k := len(exits) + 1
	l := slices.Grow(b.lists[:0], 2*k)[:2*k]
	b.lists = l
	ctrls, vals = l[:k:k], l[k:2*k:2*k]
	ctrls[0], vals[0] = c, v
	copy(ctrls[1:], exits)
	for i := 1; i < k; i++ {
		vals[i] = b.g.Con(0) // (none when there is no exit: Con may make a node)
	}
	return ctrls, vals
}

// join merges the control paths of an expression at a Region and returns
// the Phi of their values; held (projections still held by the caller)
// are released once the Region uses them.
func (b *builder) join(ctrls, vals []*Node, held []*Node, pos syntax.Pos) *Node {
	return b.joinAt(b.newJoin(ctrls), vals, held, pos)
}

// newJoin is the Region of ctrls for join and chain, not yet peepholed:
// the graph's stand-in for it if every path is dead (deadRegion), else a
// new node.
func (b *builder) newJoin(ctrls []*Node) *Node {
	if r := b.g.deadRegion(ctrls); r != nil {
		return r
	}
	return b.g.newNodeAfter(OpRegion, 0, nil, ctrls)
}

// endJoin drops the Region r of a join or merge once its peephole has run and
// the current control is what it gave: killed if unused, and its memory
// offered to the next node; a stand-in is dropped as the Region's kill
// would have been (dropDeadRegion).
func (b *builder) endJoin(r *Node) {
	if r == b.g.xjoin {
		b.g.dropDeadRegion(r)
		return
	}
	b.g.KillIfUnused(r)
	b.g.recycle(r)
}

// joinAt is join at r, a Region of the paths made but not yet peepholed
// (mergeReturns records where each path returns before the peephole).
func (b *builder) joinAt(r *Node, vals []*Node, held []*Node, pos syntax.Pos) *Node {
	g := b.g
	r.Pos = pos
	for _, h := range held {
		b.release(h)
	}
	b.hold(r)
	phi := b.hold(b.newPhi(r, vals, pos))
	c := g.Peephole(r)
	b.release(r)
	b.setCtrl(c)
	b.endJoin(r)
	b.release(phi)
	return phi
}

// newPhi is the peepholed Phi at Region r of vals, listed in the
// builder's reused buffer.
func (b *builder) newPhi(r *Node, vals []*Node, pos syntax.Pos) *Node {
	args := append(append(b.args[:0], r), vals...)
	phi := b.g.peepNew(OpPhi, 0, pos, args...)
	clearEdges(args)
	b.args = args[:0]
	return phi
}

// condExpr builds c ? x : y as an if whose arms join at a Region with a
// Phi. A chain c1 ? x1 : c2 ? x2 : ... : y is walked with a loop, as the
// parser reads it: each condition branches from the false side of the one
// before, and the joins are made innermost first once the last else is
// built, giving the graph the recursive definition gives.
func (b *builder) condExpr(e *syntax.CondExpr) *Node {
	type arm struct {
		e    *syntax.CondExpr
		x    *Node // the value of the then arm, held
		ctrl *Node // the control at its end, held
	}
	var arms []arm
	var x syntax.Expr = e
	for {
		c, ok := x.(*syntax.CondExpr)
		if !ok {
			break
		}
		t, f := b.branch(b.expr(c.Cond), c.Question)
		b.setCtrl(t)
		b.release(t)
		v := b.hold(b.expr(c.Then))
		ct := b.hold(b.ctrl())
		b.setCtrl(f)
		b.release(f)
		arms = append(arms, arm{c, v, ct})
		x = c.Else
	}
	y := b.expr(x)
	for i := len(arms) - 1; i >= 0; i-- {
		a := arms[i]
		b.hold(y)
		b.release(a.ctrl)
		j := b.join([]*Node{a.ctrl, b.ctrl()}, []*Node{a.x, y}, nil, a.e.Question)
		b.release(a.x)
		b.release(y)
		y = j
	}
	return y
}

// chain builds a < b <= c as a < b && b <= c, evaluating b once: every
// false comparison jumps to one Region whose Phi is 0 on those inputs
// (one per maxJoin comparisons on a long chain).
func (b *builder) chain(e *syntax.ChainExpr) *Node {
	g := b.g
	left := b.hold(b.expr(e.X[0]))
	var exits []*Node // false projections, held
	var cmp *Node
	for i, tok := range e.Ops {
		right := b.hold(b.expr(e.X[i+1]))
		cmp = b.arith(tok, left, right, e.OpPos[i])
		b.release(left)
		left = right // the next comparison's left operand, still held
		if i == len(e.Ops)-1 {
			break
		}
		t, f := b.branch(cmp, e.OpPos[i])
		exits = append(exits, f)
		b.setCtrl(t)
		b.release(t)
		if len(exits) == maxJoin-1 {
			// Close this group (1 if every comparison held) and go on
			// if it is 1, so that no Region is wider than maxJoin.
			ctrls, vals := b.chainLists(b.ctrl(), g.Con(1), exits)
			ok := b.join(ctrls, vals, exits, e.OpPos[i])
			clear(b.lists)
			t, f := b.branch(ok, e.OpPos[i])
			exits = []*Node{f}
			b.setCtrl(t)
			b.release(t)
		}
	}
	b.hold(cmp)
	ctrls, vals := b.chainLists(b.ctrl(), cmp, exits)
	r := b.newJoin(ctrls)
	for _, f := range exits {
		b.release(f)
	}
	b.release(cmp)
	b.release(left)
	r.Pos = e.OpPos[0]
	b.hold(r)
	phi := b.hold(b.newPhi(r, vals, syntax.Pos{}))
	clear(b.lists)
	c := g.Peephole(r)
	b.release(r)
	b.setCtrl(c)
	b.endJoin(r)
	b.release(phi)
	return phi
}
