package son

import "son/internal/dom"

// ctrlTree is the dominator tree of the control nodes that control reaches
// from Start, along the edges execution follows: from each control node to
// its control users (Stop aside). Verify checks strictness with it and Run
// the dominance of a division by its ZeroCheck. Building it takes
// O(m log n) (Lengauer–Tarjan); each query O(1).
type ctrlTree struct {
	vertex []int32 // 1 + the vertex of each node by ID; 0 if control does not reach it
	node   []*Node // node of each vertex; nil from newCtrlDoms
	doms   dom.Intervals
	tree   *dom.Tree // the whole tree, for nonZeroBelow's walk; nil from newCtrlDoms
}

// newCtrlTree walks the control nodes from Start and computes their
// dominator tree. Start is vertex 0. Its vertex array is the graph's
// scratch (TakeIDs): release gives it back.
func newCtrlTree(g *Graph) *ctrlTree {
	t, idom := walkCtrl(g, 0, 0)
	t.tree = dom.NewTree(idom)
	t.doms = t.tree.Intervals
	return t
}

// newCtrlDoms is newCtrlTree for dominance queries only (reached,
// dominates): it numbers the tree (dom.Intervals, 8 bytes a vertex) and
// keeps none of the rest (36 bytes a vertex more), which the verifier,
// after every pass, and the interpreter do not read. nodes and edges, if
// not 0, are about the control nodes and edges it will find, for its
// lists to be allocated once (the verifier counts them in its walk).
func newCtrlDoms(g *Graph, nodes, edges int) *ctrlTree {
	t, idom := walkCtrl(g, nodes, edges)
	t.doms = dom.NewIntervals(idom)
	t.node = nil // read by nonZeroBelow's walk of the whole tree only
	return t
}

// walkCtrl numbers the control nodes from Start and returns their
// immediate dominators by vertex. nodes and edges size its lists.
func walkCtrl(g *Graph, nodes, edges int) (*ctrlTree, []int) {
	t := &ctrlTree{vertex: g.TakeIDs()}
	// Successor lists cut from one array: vertex v's successors are
	// succ[start[v]:start[v+1]]. Vertices are numbered in the order the
	// walk finds them, and each one's users are listed when it is popped,
	// so the lists are filled vertex by vertex, in order.
	order := make([]*Node, 0, nodes)
	succ := make([]int32, 0, edges)
	start := make([]int32, 0, nodes+1)
	add := func(n *Node) int32 {
		if v := t.vertex[n.ID]; v > 0 {
			return v - 1
		}
		order = append(order, n)
		t.vertex[n.ID] = int32(len(order))
		return int32(len(order) - 1)
	}
	add(g.Start)
	for v := 0; v < len(order); v++ {
		start = append(start, int32(len(succ)))
		for _, u := range order[v].Out {
			if u.IsControl() && u.Op != OpStop && !u.dead && u.ID < len(t.vertex) {
				succ = append(succ, add(u))
			}
		}
	}
	start = append(start, int32(len(succ)))
	t.node = order
	return t, dom.LengauerTarjanFlat(start, succ)
}

// release gives the vertex array back to g's scratch; t is not used after.
func (t *ctrlTree) release(g *Graph) {
	g.GiveIDs(t.vertex)
	t.vertex = nil
}

// reached reports whether control reaches n from Start.
func (t *ctrlTree) reached(n *Node) bool {
	return n != nil && n.ID < len(t.vertex) && t.vertex[n.ID] > 0
}

// dominates reports whether every control path from Start to b passes
// through a; false when control reaches either of them from nowhere.
func (t *ctrlTree) dominates(a, b *Node) bool {
	if !t.reached(a) || !t.reached(b) {
		return false
	}
	return t.doms.Dominates(int(t.vertex[a.ID]-1), int(t.vertex[b.ID]-1))
}
