package son

import (
	"slices"

	"son/syntax"
	"son/types"
)

// Most nodes the builder makes die at once: an operation on constants, a
// projection of a branch in dead code, a Phi of a join that one value
// reaches. The peephole replaces each by a Constant or the XCtrl node
// before anything else sees it. peepNew finds that out from the inputs'
// types, on a node in the caller's frame, and leaves out the node: no
// allocation, no edges made and taken back, no kill. What the graph keeps
// is what the made-then-killed node left, to the node ID: the ID is taken
// (Graph.nodes holds nil there, as for a killed node), the replacement is
// found or made and peepholed again as Peephole does, and the inputs are
// queued and, if nothing else uses them, killed, in Kill's order, so that
// the worklist and the IDs the fixpoint gives out are the same
// (TestFoldAtOnceChangesNothing).

// peepNew is Peephole(NewNode(op, aux, in...)) with the node at pos, but
// it makes no node that the peephole would replace at once because of
// its type.
func (g *Graph) peepNew(op Op, aux int64, pos syntax.Pos, in ...*Node) *Node {
	m, t, typed := g.foldAtOnce(op, aux, pos, in)
	if m != nil {
		return m
	}
	n := g.newNodeTyped(op, aux, t, typed, in) // with the type foldAtOnce computed
	n.Pos = pos
	return g.Peephole(n)
}

// noFoldAtOnce turns foldAtOnce off, for the tests that compare.
var noFoldAtOnce bool

// foldHook, if set, sees the type foldAtOnce computed and may change it:
// a test's wrong fold, which the rewrite checker must catch.
var foldHook func(op Op, t types.Type) types.Type

// foldAtOnce returns what Peephole(NewNode(op, aux, in...)) returns when
// the peephole would replace the new node at once by the Constant of its
// type (Top included) or, for control, by XCtrl; else nil, having
// changed nothing, and the type the node will have if it computed it
// (NewNode need not compute it again). The checker of the peepholes, when on, checks the
// fold as it checked the node made: its type twice (NewNode, then the
// peephole) and the replacement by the constant, on a node outside the
// graph with the ID, op and inputs the made node had.
func (g *Graph) foldAtOnce(op Op, aux int64, pos syntax.Pos, in []*Node) (m *Node, t types.Type, typed bool) {
	if g.raw || noFoldAtOnce || op == OpConstant || op == OpXCtrl || op == OpStop || op == OpScope || op.IsMulti() {
		return nil, types.Top, false
	}
	s := Node{ID: len(g.nodes), Op: op, Aux: aux, In: in}
	t = Compute(&s, nodeType)
	if foldHook != nil {
		t = foldHook(op, t)
	}
	switch {
	case op.IsControl():
		if !t.IsXCtrl() {
			return nil, t, true
		}
	case !t.IsConst() && !t.IsTop():
		return nil, t, true
	}
	g.takeID(nil)
	var chk *Node
	if g.check != nil {
		chk = &Node{ID: s.ID, Op: op, Aux: aux, Pos: pos, In: slices.Clone(in), Type: t}
		g.check.typed(chk, t) // as NewNode did
		g.check.typed(chk, t) // and then peepholeOpt
	}
	g.Stats.Peepholes++
	g.Stats.Rewrites++
	g.Stats.Folded++
	switch {
	case op.IsControl():
		m = g.xctrl()
	case t.IsConst():
		m = g.Con(t.Value())
		if chk != nil {
			g.rewritten(chk, m, "constant type")
		}
	default:
		m = g.topCon()
	}
	r := g.repeep(m)
	// Kill's work on the node, but for its own edges: each input is
	// queued, and killed after the others are queued if this was its
	// last use, the last input first.
	r.keep++
	var buf [4]*Node
	dying := buf[:0]
	for i, x := range in {
		if x == nil {
			continue
		}
		g.push(x)
		g.moveDeps(x)
		if x.Unused() && !slices.Contains(in[i+1:], x) {
			dying = append(dying, x)
		}
	}
	for j := len(dying) - 1; j >= 0; j-- {
		g.KillIfUnused(dying[j])
	}
	r.keep--
	g.fresh = nil
	return r, t, true
}

// repeep is Peephole(m) for the Constant or XCtrl node m that foldAtOnce
// found or made, which that peephole leaves as it is: m is in the
// value-numbering table (or the table is off) and has no rule. So it
// only counts the attempt and, with the checker on, checks m's type
// again, as Peephole does; a third of what foldAtOnce cost was that
// peephole.
func (g *Graph) repeep(m *Node) *Node {
	if !m.inGVN && !g.NoGVN {
		m.keep++
		r := g.Peephole(m)
		m.keep--
		return r
	}
	g.Stats.Peepholes++
	if g.check != nil {
		g.check.typed(m, g.Compute(m))
	}
	g.fresh = nil
	return m
}
