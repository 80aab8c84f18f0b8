package son

import (
	"fmt"
	"strings"

	"son/types"
)

// The peephole, run on every node the builder makes and on every node the
// worklist revisits (Simple's peepholeOpt): compute the type; a constant
// type makes a Constant, dead control the XCtrl node; else look the node up
// by value; else ask for an idealized replacement. Nodes left without
// users die at once.

// Peephole optimizes n and returns the node that stands for it from now
// on: n itself, or a replacement. n is killed if it was replaced and is
// unused.
func (g *Graph) Peephole(n *Node) *Node {
	if g.raw {
		if g.sealed { // Seal sets raw too: one test on the hot path
			g.editSealed("Peephole")
		}
		return n
	}
	// n was made last: only the caller, who takes the result instead,
	// knows it (Peephole(NewNode(...))).
	newest := n.ID == g.nodes.len()-1
	m := g.peepholeOpt(n)
	if m == nil {
		return n
	}
	if m != n {
		m.keep++ // m may have no users yet: do not let a kill take it
	}
	r := g.Peephole(m)
	if m != n {
		m.keep--
	}
	if r != n && !n.dead && n.Unused() {
		r.keep++
		g.Kill(n)
		r.keep--
		if newest {
			g.recycle(n)
		}
	}
	return r
}

// peepholeOpt returns nil when nothing changed, n when n changed in place
// or got a new type, or a replacement node.
func (g *Graph) peepholeOpt(n *Node) *Node {
	if n.Op == OpScope || n.dead {
		return nil
	}
	g.Stats.Peepholes++
	old := n.Type()
	fresh := n == g.fresh
	var t types.Type
	if fresh {
		t = old // just computed by NewNode, and nothing changed since
	} else {
		t = g.Compute(n)
	}
	g.fresh = nil
	if g.check != nil {
		g.check.typed(n, t)
	}
	if !fresh { // a fresh node's type is its own: no change to set
		if n.Op == OpPhi && !sameType(t, old) && t.IsInt() && !t.IsConst() {
			// A loop Phi's range may narrow step by step around its cycle;
			// after maxNarrow steps it keeps the (sound) type it has.
			if n.narrowed >= maxNarrow {
				t = old
			} else {
				n.narrowed++
			}
		}
		g.setType(n, t)
	}

	// A constant value needs no computation; dead control no node.
	switch {
	case n.Op == OpConstant || n.Op == OpXCtrl || n.Op == OpStop || n.Op.IsMulti():
	case n.IsControl():
		if t.IsXCtrl() {
			g.Stats.Rewrites++
			return g.xctrl()
		}
	case t.IsConst():
		g.Stats.Rewrites++
		return g.rewritten(n, g.Con(t.Value()), "constant type")
	case t.IsTop():
		g.Stats.Rewrites++
		return g.topCon()
	}

	// Global value numbering.
	if !g.NoGVN && n.flags&inGVN == 0 && hashable(n) {
		m, h := g.gvn.get(keyOf(n))
		if m != nil {
			if j := types.Join(m.Type(), n.Type()); !j.Equal(m.Type()) {
				g.setType(m, j)
			}
			g.Stats.Rewrites++
			return g.rewritten(n, m, "value numbering")
		}
		g.gvn.putHashed(n, h)
		n.flags |= inGVN
	}

	n.keep++ // a rule may take away n's last use; n must live until replaced
	var m *Node
	if g.check != nil {
		m = g.check.idealize(n) // the rules, checked
	} else {
		m = g.idealize(n)
	}
	n.keep--
	if m != nil {
		g.Stats.Rewrites++
		return m
	}
	if !old.Same(&t) && !sameType(old, t) {
		return n
	}
	return nil
}

// maxNarrow bounds how often a Phi's integer range may narrow. A loop
// counter tested against a constant narrows by one value per round from
// the far end of int (a Refine below the test: [MinInt+k..1]), and each
// round re-runs the peepholes of the loop and its users: 64 rounds made the
// fixpoint 13 peepholes per live node, 4 make it under 2 (TestNarrowingIsBounded).
const maxNarrow = 4

// Iterate runs peepholes from the worklist until nothing changes (Simple
// chapter 9's IterPeeps), then makes sure every infinite loop is reachable
// from Stop. Each rewrite makes the graph smaller or its types higher, so
// the work is bounded; should a bug make two rules undo each other, Iterate
// gives up after a generous budget and says which nodes kept changing.
func (g *Graph) Iterate() error {
	if g.sealed {
		g.editSealed("Iterate")
	}
	defer g.edges.dropFree()
	g.work.rng = nil
	if g.Seed != 0 {
		g.work.rng = newRand(g.Seed)
	}
	budget := 1000 + 100*g.nodes.len()
	var recent []string
	swept := false // the last walk swept the graph, and nothing changed since
	for {
		changed := false
		for n := g.pop(); n != nil; n = g.pop() {
			if n.Unused() && n != g.Stop {
				g.Kill(n)
				changed = true
				continue
			}
			before := ""
			if budget < 20 {
				before = g.ListNode(n)
			}
			x := g.peepholeOpt(n)
			if x == nil || x.dead {
				changed = changed || x != nil
				continue
			}
			changed = true
			if budget--; budget < 20 {
				recent = append(recent, before+"  =>  "+g.ListNode(x))
				if budget < 0 {
					return fmt.Errorf("peepholes do not converge; the last rewrites:\n\t%s", strings.Join(recent, "\n\t"))
				}
			}
			for _, u := range n.Out {
				g.push(u)
			}
			g.push(x)
			if x != n {
				for _, in := range n.In {
					g.push(in)
				}
				g.Subsume(n, x)
			}
			g.moveDeps(n)
		}
		// After a sweep every node is live and every loop has an exit;
		// if the nodes it left to revisit changed nothing, that still
		// holds, and the walks of the graph need not run again.
		if swept && !changed {
			return nil
		}
		added, live := g.keepInfiniteLoops(nil)
		if added {
			g.giveMarks(live)
			swept = false // the new exits' nodes go through the worklist first
			continue
		}
		g.sweep(live) // may leave nodes with fewer users, to revisit
		g.giveMarks(live)
		swept = true
		if len(g.work.list) == 0 {
			return nil
		}
	}
}

// Progress returns a node on which a peephole would still change
// something, or nil at a fixpoint. Tests use it to check that Iterate
// really ends at a fixpoint; it may change the graph it finds progress in.
func (g *Graph) Progress() *Node {
	for _, n := range g.Live() {
		if x := g.peepholeOpt(n); x != nil {
			return n
		}
	}
	return nil
}

// PushAll puts every live node on the worklist, for a pass that changed
// the graph without telling it.
func (g *Graph) PushAll() {
	if g.sealed {
		g.editSealed("PushAll")
	}
	for _, n := range g.liveOrder() {
		g.push(n)
	}
}

// ---- value numbering ----

// hashable: data nodes and dead control can be shared; other control
// nodes are unique by nature.
func hashable(n *Node) bool {
	switch {
	case n.Op == OpXCtrl:
		return true
	case n.Op.IsControl(), n.Op == OpScope:
		return false
	case n.Op == OpPhi:
		return !n.InProgress() && n.In[0] != nil && !n.In[0].InProgress()
	}
	return true
}

// unlock takes n out of the value-numbering table before its inputs
// change.
func (g *Graph) unlock(n *Node) {
	g.fresh = nil
	g.walks.edits++
	if n.flags&inGVN != 0 {
		g.unlockGVN(n)
	}
}

// unlockGVN is unlock's removal from the table, apart so that unlock
// inlines: not inlined itself, or unlock would be over the budget again
// (cost 85 of 80 with it).
//
//go:noinline
func (g *Graph) unlockGVN(n *Node) {
	g.gvn.remove(n)
	n.flags &^= inGVN
}
