package son

import "son/internal/dom"

// ctrlTree is the dominator tree of the control nodes that control reaches
// from Start, along the edges execution follows: from each control node to
// its control users (Stop aside). Verify checks strictness with it and Run
// the dominance of a division by its ZeroCheck. Building it takes
// O(m log n) (Lengauer–Tarjan); each query O(1).
type ctrlTree struct {
	vertex []int32 // 1 + the vertex of each node by ID; 0 if control does not reach it
	node   []*Node // node of each vertex
	tree   *dom.Tree
}

// newCtrlTree walks the control nodes from Start and computes their
// dominator tree. Start is vertex 0. Its vertex array is the graph's
// scratch (TakeIDs): release gives it back.
func newCtrlTree(g *Graph) *ctrlTree {
	t := &ctrlTree{vertex: g.TakeIDs()}
	// Successor lists cut from one array: vertex v's successors are
	// edges[start[v]:start[v+1]]. Vertices are numbered in the order the
	// walk finds them, and each one's users are listed when it is popped,
	// so the lists are filled vertex by vertex, in order.
	var nodes []*Node
	var edges, start []int32
	add := func(n *Node) int32 {
		if v := t.vertex[n.ID]; v > 0 {
			return v - 1
		}
		nodes = append(nodes, n)
		t.vertex[n.ID] = int32(len(nodes))
		return int32(len(nodes) - 1)
	}
	add(g.Start)
	for v := 0; v < len(nodes); v++ {
		start = append(start, int32(len(edges)))
		for _, u := range nodes[v].Out {
			if u.IsControl() && u.Op != OpStop && !u.dead && u.ID < len(t.vertex) {
				edges = append(edges, add(u))
			}
		}
	}
	start = append(start, int32(len(edges)))
	t.node = nodes
	t.tree = dom.NewTree(dom.LengauerTarjanFlat(start, edges))
	return t
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
	return t.tree.Dominates(int(t.vertex[a.ID]-1), int(t.vertex[b.ID]-1))
}
