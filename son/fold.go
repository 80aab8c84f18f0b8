package son

import (
	"fmt"
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
// (TestFoldAtOnceChangesNothing). foldBranch does the same for an If that
// its condition's type decides, and deadRegion for a Region of dead
// paths, whose stand-ins go through the rest of the builder's steps.

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
	s := Node{ID: g.nodes.len(), Op: op, Aux: aux, In: in}
	t = Compute(&s, nil)
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
		chk = &Node{ID: s.ID, Op: op, Aux: aux, Pos: pos, In: slices.Clone(in), typ: g.types.intern(t)}
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
		if g.unqueued(x) {
			g.enqueue(x) // push(x), inlined
		}
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
	if m.flags&inGVN == 0 && !g.NoGVN {
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

// foldBranch is the builder's If on cond at ctrl and its two projections
// when the If's type says that at most one side is reached: the If and
// the projections die at once, so foldBranch makes none of the three,
// takes their IDs, and does to the rest of the graph what making,
// peepholing and killing them did. The If's peephole looked at the
// condition (a dependence). A side not reached folds to XCtrl and queues
// the If. The side reached, if one is (the control is live and the
// condition's type is 0, or excludes 0), is replaced by the If's control
// (idealCProj), whose own peephole runs again, as Peephole runs it on a
// replacement; its kill queues the If. Then the If, left unused, dies: its
// kill queues its inputs and kills those it left unused. It returns what
// the projections fold to, held (the XCtrl node or the control), or nils
// if the If must be made: it would live (both sides reached), idealize's
// rule for an If would rewrite it (a condition x != 0), or the graph is
// raw. With the rewrite checker on, a branch with a side reached is made
// as before, so the checker sees every rewrite it saw (the projection
// replaced by the control); for one with no side reached it checks the
// types of the three.
//
// The If stands in the graph, for as long as it lived, as the graph's
// one stand-in node (Graph.stand): Graph.nodes holds it at the If's ID,
// so that the worklist, if it compacts meanwhile, keeps the If's entry
// as it kept the If's. It is never among its inputs' users: the If was
// their last user, added and then taken off the end of their lists, with
// no user added between, so their orders of users are the same. The
// control's peephole, run again for the side taken, may move its Phis
// among its users: a Region that a later rewrite left with one way in
// replaces them by their values, and one that flattens an input Region
// gives each Phi its inputs anew, which takes the Phi off the Region's
// users and adds it at the end. With the If among those users the order
// that leaves differs from the order without it, so a control that a Phi
// uses makes the If (phisOver; TestFoldMoreKeepsOrder).
func (g *Graph) foldBranch(ctrl, cond *Node, pos syntax.Pos) (t, f *Node) {
	if g.raw || noFoldAtOnce || cond.Op == OpNe && cond.In[2].IsConst() && cond.In[2].Aux == 0 {
		return nil, nil
	}
	if g.stand == nil {
		g.stand = &Node{In: make([]*Node, 2)}
	}
	s := g.stand
	*s = Node{ID: g.nodes.len(), Op: OpIf, In: s.In[:2], keep: 1}
	s.In[0], s.In[1] = ctrl, cond
	// An If's type is one of ifType's four tuples, itself, so the
	// comparisons are of the words (Same), not of the elements
	// (sameType, which for two tuples calls Equal).
	g.SetType(s, Compute(s, nil))
	live := int64(-1) // the side reached, if any
	switch st := s.Type(); {
	case st.Same(&tupleXX):
	case noFoldMore || g.check != nil || phisOver(ctrl, 0):
		s.In[0], s.In[1] = nil, nil
		return nil, nil
	case st.Same(&tupleCX):
		live = 0
	case st.Same(&tupleXC):
		live = 1
	default:
		s.In[0], s.In[1] = nil, nil
		return nil, nil
	}
	g.takeID(s)
	g.fresh = nil
	ctrl.keep++ // as the If's use did: neither may die before it
	cond.keep++
	var chk *Node
	if g.check != nil {
		chk = &Node{ID: s.ID, Op: OpIf, Pos: pos, In: []*Node{ctrl, cond}, typ: s.typ}
		g.check.typed(chk, s.Type()) // as NewNode did
		g.check.typed(chk, s.Type()) // and then peepholeOpt
	}
	g.Stats.Peepholes++
	g.Stats.Folded++
	g.addDep(cond, s) // the If rule's lookIn
	var sides [2]*Node
	for side := range int64(2) {
		g.takeID(nil)
		if chk != nil {
			p := &Node{ID: g.nodes.len() - 1, Op: OpCProj, Aux: side, In: []*Node{chk}, typ: g.types.intern(types.XCtrl)}
			g.check.typed(p, p.Type())
			g.check.typed(p, p.Type())
		}
		g.Stats.Peepholes++
		g.Stats.Rewrites++
		g.Stats.Folded++
		var x *Node
		if side == live {
			// Peephole of the projection: replaced by the control,
			// whose peephole runs again; then the projection's kill.
			ctrl.keep++
			x = g.Peephole(ctrl)
			ctrl.keep--
			g.walks.edits++ // the kill's unlock
		} else {
			x = g.repeep(g.xctrl())
		}
		sides[side] = x
		x.keep++ // held by the builder, as the projection's replacement was
		g.fresh = nil
		if g.unqueued(s) {
			g.enqueue(s) // the projection's kill: push(s), inlined
		}
		g.moveDeps(s)
	}
	// The If's kill: its inputs queued, then the If gone, then the
	// inputs it left unused killed, the last first.
	ctrl.keep--
	cond.keep--
	g.fresh = nil
	g.walks.edits++
	g.moveDeps(s)
	var buf [2]*Node
	dying := buf[:0]
	for _, y := range s.In {
		g.push(y)
		g.moveDeps(y)
		if y.Unused() {
			dying = append(dying, y)
		}
	}
	g.nodes.set(s.ID, nil)
	s.In[0], s.In[1] = nil, nil
	s.dead = true
	for j := len(dying) - 1; j >= 0; j-- {
		g.KillIfUnused(dying[j])
	}
	return sides[0], sides[1]
}

// phisOver reports whether more than k Phis use region n (false for
// another op), looking no further than the (k+1)-th.
func phisOver(n *Node, k int) bool {
	if !n.Op.IsRegion() {
		return false
	}
	for _, u := range n.Out {
		if u.Op == OpPhi && u.In[0] == n {
			if k--; k < 0 {
				return true
			}
		}
	}
	return false
}

// noFoldMore turns off foldBranch for a branch with a side reached, and
// deadRegion, for the tests that compare.
var noFoldMore bool

// deadRegion returns the graph's stand-in for the Region of ctrls that
// join, chain or mergeOne would make, when allDead(ctrls) and no Phi will
// have it as input but the one join and chain make, which folds at once:
// such a Region is typed XCtrl, its Phi folds to Top (foldAtOnce), its
// peephole replaces it by XCtrl, and it dies at once, unused. The
// stand-in takes the Region's ID, inputs and type but is no user of its
// inputs; the builder runs the Phi's fold and the Region's peephole on it
// as on the Region (neither adds a user to it), then drops it
// (dropDeadRegion). It returns nil if the Region must be made: some path
// is live, the graph is raw, folding is off, or the rewrite checker is on
// (which so sees the Region made, typed and replaced, as before).
//
// What differs is the order of the XCtrl node's users: the Region was
// added to them, once per path, and taken off when it died; when
// mergeOne drops its saved scopes between, each of them the XCtrl node's
// user too, the Region's entries fill their holes, and the users left
// may end in another order (in join and chain nothing is taken off
// between, and the order is the same). No code reads that order: the
// XCtrl node's type never changes and no rule replaces it (which would
// queue or move its users in order), no walk reaches it (it has no
// inputs, and no live node uses it once Build ends), and removing a
// user reads only that user's own slot.
func (g *Graph) deadRegion(ctrls []*Node) *Node {
	if !g.allDead(ctrls) {
		return nil
	}
	r := g.xjoin
	if r == nil {
		r = &Node{}
		g.xjoin = r
	}
	in := append(r.In[:0], nil)
	in = append(in, ctrls...)
	*r = Node{ID: g.nodes.len(), Op: OpRegion, In: in}
	r.typ = g.types.intern(types.XCtrl)
	g.takeID(r)
	g.xc.keep++ // as the Region's uses did: the XCtrl node lives until it dies
	g.fresh = r // as NewNode leaves it
	g.Stats.Folded++
	return r
}

// allDead reports whether every one of ctrls is the XCtrl node at hand
// (Graph.xc), and deadRegion may stand in for their Region.
func (g *Graph) allDead(ctrls []*Node) bool {
	x := g.xc
	if g.raw || noFoldAtOnce || noFoldMore || g.check != nil || x == nil || x.flags&inGVN == 0 || x.Op != OpXCtrl {
		return false
	}
	for _, c := range ctrls {
		if c != x {
			return false
		}
	}
	return true
}

// dropDeadRegion does what killing the dead Region r stood for did, r
// being unused: its inputs queued, its ID freed, then the XCtrl node,
// which deadRegion held as the Region's uses did, killed if r was its
// last user.
func (g *Graph) dropDeadRegion(r *Node) {
	if !r.Unused() || r.dead {
		panic(fmt.Sprintf("son: drop of the dead Region %v which is in use", r))
	}
	g.fresh = nil // the kill's unlock
	g.walks.edits++
	// Kill's moveDeps and dropDeps have nothing to do for r: deadRegion
	// made it with no flags, so no list, and none can be added since.
	// addDep(x, d) gives x a list only when d's rules reach x by an edge
	// (x an input of d or of d's input, a user of d's input Region, a Phi
	// of d), and r has no edge: no node uses it, nor is it a user of its
	// inputs. Only r's own rules look at it, and addDep(r, r) adds nothing.
	for _, c := range r.In[1:] {
		g.push(c)
		g.moveDeps(c)
	}
	x := r.In[1] // every input: allDead
	x.keep--
	g.nodes.set(r.ID, nil)
	clearEdges(r.In)
	r.In = r.In[:0]
	r.dead = true
	g.KillIfUnused(x)
}
