package son

import "son/internal/dom"

// ctrlTree is the dominator tree of the control nodes that control reaches
// from Start, along the edges execution follows: from each control node to
// its control users (Stop aside). Verify checks strictness with it and Run
// the dominance of a division by its ZeroCheck. Building it takes
// O(m log n) (Lengauer–Tarjan); each query O(1).
type ctrlTree struct {
	vertex []int32 // vertex of each node by ID; -1 if control does not reach it
	node   []*Node // node of each vertex
	tree   *dom.Tree
}

// newCtrlTree walks the control nodes from Start and computes their
// dominator tree. Start is vertex 0.
func newCtrlTree(g *Graph) *ctrlTree {
	t := &ctrlTree{vertex: make([]int32, g.MaxID())}
	for i := range t.vertex {
		t.vertex[i] = -1
	}
	// Successor lists cut from one array: vertex v's successors are
	// edges[start[v]:start[v+1]]. Vertices are numbered in the order the
	// walk finds them, and each one's users are listed when it is popped,
	// so the lists are filled vertex by vertex, in order.
	var nodes []*Node
	var edges []int
	var start []int
	add := func(n *Node) int {
		if v := t.vertex[n.ID]; v >= 0 {
			return int(v)
		}
		t.vertex[n.ID] = int32(len(nodes))
		nodes = append(nodes, n)
		return len(nodes) - 1
	}
	add(g.Start)
	for v := 0; v < len(nodes); v++ {
		start = append(start, len(edges))
		for _, u := range nodes[v].Out {
			if u.IsControl() && u.Op != OpStop && !u.dead && u.ID < len(t.vertex) {
				edges = append(edges, add(u))
			}
		}
	}
	start = append(start, len(edges))
	succ := make([][]int, len(nodes))
	for v := range succ {
		succ[v] = edges[start[v]:start[v+1]:start[v+1]]
	}
	t.node = nodes
	t.tree = dom.NewTree(dom.LengauerTarjan(succ))
	return t
}

// reached reports whether control reaches n from Start.
func (t *ctrlTree) reached(n *Node) bool {
	return n != nil && n.ID < len(t.vertex) && t.vertex[n.ID] >= 0
}

// dominates reports whether every control path from Start to b passes
// through a; false when control reaches either of them from nowhere.
func (t *ctrlTree) dominates(a, b *Node) bool {
	if !t.reached(a) || !t.reached(b) {
		return false
	}
	return t.tree.Dominates(int(t.vertex[a.ID]), int(t.vertex[b.ID]))
}
