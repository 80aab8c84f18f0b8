package son

import "slices"

// Divisions without a ZeroCheck by the facts of a branch. Below the true
// side of if (d != 0), d is not 0: a ZeroCheck of d, or of a Refine of
// d, there is redundant (dominatedNonZero, or the zerocheck pass further
// down), and the peephole removes it, leaving the division pinned where
// the check was, a control node the branch's side dominates. Nothing else
// is needed to keep it there: a pinned division is placed at or below its
// control input (gcm), and son.Verify accepts a
// division without a check only when its divisor's type excludes 0 or its
// control input is dominated by a side of an If whose condition proves the
// divisor is not 0 (nonZeroBelow). The fact is read from the condition,
// about the value a chain of Refines stands for (Unrefined), so it holds
// before and after StripRefines replaces the Refines by their values.

// Unrefined is the value x stands for: x without the Refines around it (a
// Refine's value is its input's; son.Run checks it).
func Unrefined(x *Node) *Node {
	for x != nil && x.Op == OpRefine {
		x = x.In[1]
	}
	return x
}

// NonZeroKey is the value whose being 0 x's being 0 stands for: x
// without its Refines (Unrefined), and past a comparison with 0, x != 0,
// which is 0 exactly when x is. The facts of the branches are keyed by
// it, as the peephole turns if (x != 0) into if (x) while a division by
// the comparison itself may have lost its check on the first form's fact
// (random program seed 64 of TestViaRTLRandom). The walk is bounded, for
// a broken graph that son.Verify is looking at.
func NonZeroKey(x *Node) *Node {
	for k := 0; k < maxWalkUp; k++ {
		x = Unrefined(x)
		if x == nil || x.Op != OpNe || len(x.In) != 3 || x.In[1] == nil || x.In[2] == nil {
			return x
		}
		switch {
		case x.In[2].IsConst() && x.In[2].Aux == 0:
			x = x.In[1]
		case x.In[1].IsConst() && x.In[1].Aux == 0:
			x = x.In[2]
		default:
			return x
		}
	}
	return x
}

// sideExcludesZero reports whether the side (0: true, 1: false) of an If
// on cond proves that x is not 0. Only facts against constants count,
// starting from all of int: the types of x and of a compared value may
// rest on Refines that StripRefines takes away, while a division stays
// pinned below the side.
//
// Each fact narrows int to a range (narrow) that holds 0 or does not, and
// ranges that all hold 0 meet in one that does: the side excludes 0 when
// one fact's range does (excludesZero), or the fact is x != 0, which no
// range can hold. That is read off the relation and the constant, with no
// type made: ZeroChecks ask at every peephole, for each side on the walk
// up (dominatedNonZero), and narrow's joins were most of the cost.
func sideExcludesZero(cond *Node, side int64, x *Node) bool {
	found := false
	branchFacts(cond, side, x, func(r rel, z *Node) {
		c := int64(0)
		if z != nil {
			if !z.IsConst() {
				return
			}
			c = z.Type().Value()
		}
		found = found || excludesZero(r, c)
	})
	return found
}

// excludesZero reports whether x REL c proves x is not 0: narrow(r,
// types.Int, types.Const(c)) excludes 0 or is Top (no such x), or the
// fact is x != 0.
func excludesZero(r rel, c int64) bool {
	switch r {
	case relEq:
		return c != 0
	case relNe:
		return c == 0
	case relLt:
		return c <= 0
	case relLe:
		return c < 0
	case relGt:
		return c >= 0
	}
	return c > 0 // relGe
}

// ProvedNonZero calls f with each value, keyed by NonZeroKey, that side
// (0: true, 1: false) of an If on cond proves is not 0: the condition
// itself (if (x)), the operand of a Not, the operands of a comparison with
// a constant. son.Verify, StripRefines and opt.ZeroCheckElim read the
// facts of the branches by it.
func ProvedNonZero(cond *Node, side int64, f func(x *Node)) {
	if cond == nil {
		return
	}
	try := func(x *Node) {
		if x != nil && !x.IsConst() && sideExcludesZero(cond, side, x) {
			f(NonZeroKey(x))
		}
	}
	try(cond)
	if cond.Op == OpNot {
		try(cond.In[1])
	}
	if _, ok := relOf(cond.Op); ok {
		try(cond.In[1])
		if cond.In[2] != cond.In[1] {
			try(cond.In[2])
		}
	}
}

// sideProves reports whether side p, a projection of an If, proves that
// x (keyed by NonZeroKey) is not 0.
func sideProves(p *Node, side int64, x *Node) bool {
	if p == nil || p.Op != OpCProj || p.In[0] == nil || p.In[0].Op != OpIf {
		return false
	}
	found := false
	ProvedNonZero(p.In[0].In[1], side, func(v *Node) { found = found || v == x })
	return found
}

// maxWalkUp bounds the control nodes dominatedNonZero walks up, so that
// a peephole costs O(1): a branch further up leaves the check to the
// zerocheck pass, which walks the whole dominator tree.
const maxWalkUp = 8

// dominatedNonZero reports whether a side of an If above control node c
// proves that y (unrefined) is not 0 (if (d != 0) on an int d, where no
// range can say so): a ZeroCheck of y at c is redundant, and the division
// it guarded is left pinned to c, below that side.
func dominatedNonZero(c, y *Node) bool {
	x := NonZeroKey(y)
	return sideAbove(c, func(p *Node) bool { return sideProves(p, p.Aux, x) })
}

// sideAbove reports whether ok holds for a projection on the walk up from
// control node c. The walk goes up through ZeroChecks, projections, Ifs
// and a Loop's entry, each of which dominates the node below it, for at
// most maxWalkUp nodes; it stops at a Region, whose inputs do not.
func sideAbove(c *Node, ok func(p *Node) bool) bool {
	for k := 0; c != nil && k < maxWalkUp; k++ {
		switch c.Op {
		case OpCProj:
			if ok(c) {
				return true
			}
			c = c.In[0]
		case OpZeroCheck, OpIf, OpNever:
			c = c.In[0]
		case OpLoop:
			c = c.In[1]
		default:
			return false
		}
	}
	return false
}

// neverTaken reports whether p, a projection of an If, is the side of
// an If on a constant that control never takes.
func neverTaken(p *Node) bool {
	if p.In[0] == nil || p.In[0].Op != OpIf {
		return false
	}
	c := p.In[0].In[1]
	return c != nil && c.IsConst() && (c.Aux != 0) != (p.Aux == 0)
}

// nonZeroBelow reports, by node ID, the divisions and remainders whose
// control input is dominated by a side of an If that proves their
// divisor (NonZeroKey) is not 0, or that an If on a constant never
// takes. One walk of the dominator tree of the control nodes, counting
// for each value the sides on the path from Start that prove it is not 0:
// linear in the graph, plus the tree.
//
// The counts are kept by value ID in t's own array of vertex numbers, as
// zerocheck's walk keeps its facts: a value is a data node, which has no
// vertex, so no array by ID of their own. They are all 0 again on return.
// The set it returns is g's scratch (takeMarks): giveMarks hands it back.
func (t *ctrlTree) nonZeroBelow(g *Graph) []bool {
	maxID := g.MaxID()
	safe := g.takeMarks()
	proved := t.vertex // by value ID: sides on the path proving it is not 0
	counted := func(x *Node) bool { return x.ID < len(proved) && !x.IsControl() }
	type mark struct {
		v    int
		vals []*Node
	}
	var path []mark
	never := 0 // sides on the path that control never takes
	pop := func() {
		for _, x := range path[len(path)-1].vals {
			if x == nil {
				never--
			} else {
				proved[x.ID]--
			}
		}
		path = path[:len(path)-1]
	}
	for _, v := range t.tree.Preorder() {
		for len(path) > 0 && !t.tree.Dominates(path[len(path)-1].v, v) {
			pop()
		}
		n := t.node[v]
		if n.Op == OpCProj && n.In[0] != nil && n.In[0].Op == OpIf {
			var vals []*Node
			if neverTaken(n) {
				// A side an If on a constant never takes (not yet
				// folded after build): nothing below it runs.
				vals = append(vals, nil)
				never++
			}
			ProvedNonZero(n.In[0].In[1], n.Aux, func(x *Node) {
				if counted(x) {
					vals = append(vals, x)
					proved[x.ID]++
				}
			})
			if vals != nil {
				path = append(path, mark{v, vals})
			}
		}
		for _, d := range n.Out {
			if (d.Op == OpDiv || d.Op == OpMod) && d.In[0] == n && d.ID < maxID {
				if x := NonZeroKey(d.In[2]); never > 0 || x != nil && counted(x) && proved[x.ID] > 0 {
					safe[d.ID] = true
				}
			}
		}
	}
	for len(path) > 0 {
		pop() // the values' counts back to 0: t's vertex array is read after
	}
	return safe
}

// reguard gives a ZeroCheck back to each division whose check went on a
// branch's fact when that branch is no longer there to prove it: an If is
// folded once its condition's type is constant, and that type may have
// rested on a Refine's fact (random program seed 348 of TestNativeRandom:
// if (v), v = w+1 with w >= 0 by a loop's Refine). Once StripRefines has
// lowered the types, such a division's divisor may be 0 as far as the
// graph can tell, so it passes a check again, placed just below its
// control input: it never stops the program (the fact held), but the
// graph says why the division is safe. One walk of the dominator tree,
// and only when some division needs it.
func (g *Graph) reguard() {
	var need []*Node
	for _, n := range g.Live() {
		if unguarded(n) {
			need = append(need, n)
		}
	}
	if len(need) == 0 {
		return
	}
	t := newCtrlTree(g)
	safe := t.nonZeroBelow(g)
	t.release(g)
	defer g.giveMarks(safe)
	type key struct{ c, y *Node }
	checks := map[key]*Node{}
	for _, d := range need {
		c, y := d.In[0], d.In[2]
		if safe[d.ID] || !c.IsControl() || c.Op == OpIf || c.Op == OpNever || c.Op == OpReturn || c.Op == OpStop {
			continue // safe, or not a place a check can follow (son.Verify says so)
		}
		zc := checks[key{c, y}]
		if zc == nil {
			users := slices.Clone(c.Out)
			zc = g.NewNode(OpZeroCheck, 0, c, y)
			zc.Pos = d.Pos
			checks[key{c, y}] = zc
			for _, u := range users {
				if u.IsControl() && u.Op != OpStop && !u.dead {
					for i, x := range u.In {
						if x == c {
							g.SetIn(u, i, zc)
						}
					}
				}
			}
		}
		g.SetIn(d, 0, zc)
	}
}

// unguarded reports whether n is a division or remainder whose divisor's
// type does not exclude 0 and which does not hang right below a check of
// it: one that reguard may have to guard.
func unguarded(n *Node) bool {
	return (n.Op == OpDiv || n.Op == OpMod) && n.In[0] != nil && !n.In[2].Type().ExcludesZero() &&
		(n.In[0].Op != OpZeroCheck || n.In[0].In[1] != n.In[2])
}

// walkShowsSafe reports whether the walk up from the control input of
// unguarded division n (sideAbove) passes a side that proves its divisor
// is not 0 or that control never takes: safe, if Start reaches n's control.
func walkShowsSafe(n *Node) bool {
	x := NonZeroKey(n.In[2])
	return sideAbove(n.In[0], func(p *Node) bool { return sideProves(p, p.Aux, x) || neverTaken(p) })
}

// reguardHook, if set, sees the graph of the builder's foldOneSidedIfs
// before its reguard: for tests.
var reguardHook func(*Graph)

// someUnguarded reports whether reguard might guard a division, for the
// builder, whose graph has just been peepholed: whether some node that
// live (a set by ID) holds is unguarded and not shown safe by the walk up
// from its control input that the peephole's dominatedNonZero makes
// (sideAbove), counting the sides never taken too. A control node that
// Start reaches is dominated by every node of that walk, so nonZeroBelow
// finds the same side above it and marks it safe too. Usually every
// division is so (813 of them after building the 100k-node scaling
// program, and none to guard), and reguard need not list the graph in
// order nor build the dominator tree: a scan of the divisions by ID and,
// if the walk up shows a live unguarded one safe, a walk of the control
// nodes from Start (ctrlReached), made once.
// Anything else goes the exact way. (After the zerocheck pass, which
// removes checks on branches further up than the walk goes, the walk
// rarely shows a division safe: StripRefines calls reguard directly.)
func (g *Graph) someUnguarded(live []bool) bool {
	var reached []bool
	some := false
	// The divisions found by a loop of their own (nextDiv), not the
	// table's iterator (nodes.all), whose state and this loop's kept in
	// memory across each call of the body cost 50 instructions an ID.
	for id, n := g.nodes.nextDiv(0); n != nil; id, n = g.nodes.nextDiv(id + 1) {
		// Before the build's sweep, garbage that Stop does not reach
		// has divisions too: they do not count.
		if !live[n.ID] || !unguarded(n) {
			continue
		}
		if walkShowsSafe(n) {
			if reached == nil {
				reached = g.ctrlReached()
			}
			if c := n.In[0]; c.ID < len(reached) && reached[c.ID] {
				continue
			}
		}
		some = true
		break
	}
	if reached != nil {
		g.giveMarks(reached)
	}
	return some
}

// ctrlReached reports, by node ID, the control nodes that control reaches
// from Start, along the edges newCtrlTree follows.
func (g *Graph) ctrlReached() []bool {
	reached := g.takeMarks()
	reached[g.Start.ID] = true
	stack := []*Node{g.Start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range n.Out {
			if u.IsControl() && u.Op != OpStop && !u.dead && u.ID < len(reached) && !reached[u.ID] {
				reached[u.ID] = true
				stack = append(stack, u)
			}
		}
	}
	return reached
}
