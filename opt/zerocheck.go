package opt

import (
	"son/internal/dom"
	"son/son"
)

// Redundant zero-check elimination, Demange, Fernández de Retana and
// Pichardie, "Semantic Reasoning about the Sea of Nodes" (paper 000,
// section 4, figure 6). A ZeroCheck of a value is redundant when a
// ZeroCheck of the same value node strictly dominates it: by their
// corollary 4.2 the value cannot have changed in between, so it is still
// not zero. One walk of the dominator tree of the control nodes (computed
// by Lengauer–Tarjan) remembers, for each value, the check that dominates
// the current node; a check of a value already checked is removed,
// control flows on from its predecessor, and the divisions it guarded are
// pinned to the dominating check, below which they may float as before
// (a division by another value, pinned below the check by a branch's
// fact, stays where it was: pinned to the check's predecessor).
// A check is redundant too when a side of an If that strictly dominates it
// proves its value is not 0 (son.ProvedNonZero: if (x), x != 0, x > 0
// against constants, Refines looked through): the divisions it guarded
// stay pinned where it was, to the control node above it, which that side
// dominates, so that they can never move above the branch.
// CheckZeroCheckElim verifies the pass from its input and output alone,
// with dominators computed by another algorithm. Cost: linear in the
// control nodes, plus the dominators.

// Removal is one redundant check taken out, with its witness.
type Removal struct {
	Check   *son.Node   // the removed ZeroCheck (killed; its ID and Pos remain)
	Value   *son.Node   // the divisor it checked
	Pred    *son.Node   // the control node it followed, which control now leaves directly
	Witness *son.Node   // the ZeroCheck of the same value that strictly dominates it, or nil
	Side    *son.Node   // else the side of an If that strictly dominates it and proves Value is not 0
	Divs    []*son.Node // the divisions moved from Check to Witness, or to Pred
}

// ctrlGraph numbers the control nodes that control reaches from Start
// (Start is 0) and lists each one's control successors: the graph of
// section 3.2's dominance, at the grain of control nodes. The lists share
// one array, and the numbers are by node ID: no allocation per node. The
// nodes are kept by ID (4 bytes each, not a pointer's 8), found again
// through the graph's table; ZeroCheckElim kills none while it reads them.
type ctrlGraph struct {
	g     *son.Graph
	ids   []int32 // by number: the node's ID
	index []int32 // by node ID: 1 + the node's number, 0 if not numbered (ZeroCheckElim then numbers its values here too)
	start []int32 // node i's successors are succ[start[i]:start[i+1]] (nil once the dominators are made)
	succ  []int32
}

// newCtrlGraph numbers the control nodes of g. Its index is g's scratch
// array by ID (son.Graph.TakeIDs), for the caller to give back.
func newCtrlGraph(g *son.Graph) *ctrlGraph {
	c := &ctrlGraph{g: g, index: g.TakeIDs()}
	add := func(n *son.Node) {
		c.index[n.ID] = int32(len(c.ids)) + 1
		c.ids = append(c.ids, int32(n.ID))
	}
	add(g.Start)
	// Breadth first: the successors of node i are found while numbering
	// it, so they are contiguous in succ, from start[i] to start[i+1].
	c.start = append(c.start, 0)
	for i := 0; i < len(c.ids); i++ {
		for _, u := range c.node(i).Out {
			if !u.IsControl() || u.Op == son.OpStop {
				continue
			}
			if c.index[u.ID] == 0 {
				add(u)
			}
			c.succ = append(c.succ, c.index[u.ID]-1)
		}
		c.start = append(c.start, int32(len(c.succ)))
	}
	return c
}

// node returns the control node numbered v.
func (c *ctrlGraph) node(v int) *son.Node { return c.g.Node(int(c.ids[v])) }

// ZeroCheckElim removes the redundant ZeroChecks of g and returns what it
// removed, for people reading: the checker does not trust it.
func ZeroCheckElim(g *son.Graph) []Removal {
	c := newCtrlGraph(g)
	defer g.GiveIDs(c.index)
	// The walk below reads only the tree's children: their lists, two
	// int32 arrays (8 bytes a control node), not a dom.Tree (44, beside
	// the graph at the pass's peak: issue 12), made from the immediate
	// dominators as int32 once the control graph's edges are let go.
	idom := dom.LengauerTarjanFlat32(c.start, c.succ)
	c.start, c.succ = nil, nil
	tree := dom.NewChildren(idom)

	// Figure 6's DepthFirst, without recursion: checking[x] is the check
	// of x that dominates the node being visited, if any; proving[x] is
	// the side of an If that dominates it and proves x (unrefined) is not
	// 0, if any. Both hold 1 + a control number (0: none) and are indexed
	// by value number: the values the walk meets are numbered as it meets
	// them, in c.index beside the control nodes' numbers (a value is a
	// data node, never numbered as control), so that only one array of
	// four bytes goes by node ID, of which a graph holds about six per
	// live node.
	vnum := c.index
	var checking, proving []int32
	// number numbers data node x if it is not yet; -1 for a control node.
	number := func(x *son.Node) int32 {
		if x.IsControl() {
			return -1
		}
		if vnum[x.ID] == 0 {
			checking = append(checking, 0)
			proving = append(proving, 0)
			vnum[x.ID] = int32(len(checking))
		}
		return vnum[x.ID] - 1
	}
	// lookup is a fact about data node x, or 0 if x was never numbered.
	lookup := func(facts []int32, x *son.Node) int32 {
		if k := vnum[x.ID]; k > 0 && !x.IsControl() {
			return facts[k-1]
		}
		return 0
	}
	var found []Removal
	// The values each side of an If on the path proves are not 0, and
	// the sides that proved them before, to restore on the way back: one
	// stack for the whole walk, each frame holding where its own entries
	// start.
	var provedX, provedBefore []int32
	// A frame is 16 bytes, its children read from the tree when needed
	// (a slice of them kept in each made it 56, on a stack as deep as the
	// dominator tree).
	type frame struct {
		v      int32
		i      int32 // the next child to visit
		x      int32 // 1 + the value this node's check made non-zero, to forget on the way back
		proved int32 // the frame's start in provedX and provedBefore
	}
	enter := func(v int) frame {
		f := frame{v: int32(v), proved: int32(len(provedX))}
		n := c.node(v)
		if n.Op == son.OpCProj && n.In[0] != nil && n.In[0].Op == son.OpIf {
			son.ProvedNonZero(n.In[0].In[1], n.Aux, func(x *son.Node) {
				k := number(x)
				if k < 0 {
					return
				}
				provedX = append(provedX, k)
				provedBefore = append(provedBefore, proving[k])
				proving[k] = int32(v) + 1
			})
		}
		if n.Op != son.OpZeroCheck {
			return f
		}
		x := n.In[1]
		if s := lookup(proving, son.NonZeroKey(x)); s != 0 && lookup(checking, x) == 0 {
			found = append(found, Removal{Check: n, Value: x, Side: c.node(int(s - 1))})
			return f
		}
		k := number(x)
		if k < 0 {
			return f
		}
		if w := checking[k]; w != 0 {
			found = append(found, Removal{Check: n, Value: x, Witness: c.node(int(w - 1))})
		} else {
			checking[k] = int32(v) + 1
			f.x = k + 1
		}
		return f
	}
	stack := []frame{enter(0)}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if kids := tree.Of(int(f.v)); int(f.i) < len(kids) {
			k := kids[f.i]
			f.i++
			stack = append(stack, enter(int(k)))
			continue
		}
		if f.x != 0 {
			checking[f.x-1] = 0
		}
		for i := len(provedX) - 1; i >= int(f.proved); i-- {
			proving[provedX[i]] = provedBefore[i]
		}
		provedX, provedBefore = provedX[:f.proved], provedBefore[:f.proved]
		stack = stack[:len(stack)-1]
	}

	for i := range found {
		r := &found[i]
		if r.Side != nil {
			// The divisions stay where the check was: pinned to the
			// control node above it (now, after earlier removals).
			r.Pred = r.Check.In[0]
			for _, u := range append([]*son.Node(nil), r.Check.Out...) {
				if u.In[0] == r.Check && (u.Op == son.OpDiv || u.Op == son.OpMod) {
					g.SetIn(u, 0, r.Pred)
					r.Divs = append(r.Divs, u)
				}
			}
			g.Subsume(r.Check, r.Pred)
			continue
		}
		for _, u := range append([]*son.Node(nil), r.Check.Out...) {
			if (u.Op == son.OpDiv || u.Op == son.OpMod) && u.In[0] == r.Check {
				if son.Unrefined(u.In[2]) != son.Unrefined(r.Value) {
					// Not a division it guarded, but one pinned below it
					// by a branch's fact: it stays where it was, with the
					// check's other users (Subsume below).
					continue
				}
				g.SetIn(u, 0, r.Witness)
				r.Divs = append(r.Divs, u)
			}
		}
		r.Pred = r.Check.In[0] // now, after earlier removals: it may follow one
		g.Subsume(r.Check, r.Pred)
	}
	return found
}
