package son

import "math/rand"

// Live returns the nodes reachable from Stop through inputs, and Start,
// in a depth-first post order: every node after its non-Phi inputs where
// the graph allows, Stop last. This is the graph's content; anything else
// is garbage.
func (g *Graph) Live() []*Node {
	seen := make([]bool, g.MaxID())
	// Every live node is in g.nodes: sized once, the order is not copied
	// as it grows (Live runs after every pass, and in every checker).
	n := 0
	for _, x := range g.nodes {
		if x != nil {
			n++
		}
	}
	order := make([]*Node, 0, n)
	type frame struct {
		n *Node
		i int
	}
	stack := []frame{{g.Start, 0}, {g.Stop, 0}}
	seen[g.Start.ID], seen[g.Stop.ID] = true, true
	// Start first, so the order begins at the entry.
	order = append(order, g.Start)
	stack = stack[1:]
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < len(f.n.In) {
			x := f.n.In[f.i]
			f.i++
			if x != nil && !seen[x.ID] {
				seen[x.ID] = true
				stack = append(stack, frame{x, 0})
			}
			continue
		}
		if f.n != g.Start {
			order = append(order, f.n)
		}
		stack = stack[:len(stack)-1]
	}
	return order
}

// liveSet reports, for every ID, whether the node is in Live(): the same
// walk, as a set only, with no order to build (keepInfiniteLoops and the
// sweep need no order, and run twice in every fixpoint).
func (g *Graph) liveSet() []bool {
	live := make([]bool, g.MaxID())
	live[g.Start.ID], live[g.Stop.ID] = true, true
	stack := []*Node{g.Stop}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range n.In {
			if x != nil && !live[x.ID] {
				live[x.ID] = true
				stack = append(stack, x)
			}
		}
	}
	return live
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

// sweep kills every node that Stop does not reach (live is g.liveSet()):
// cycles of nodes that use each other (a Phi and its increment in a loop
// whose value nothing reads) never lose their last use, so peephole
// dead-code elimination alone leaves them attached. Only for when the
// builder holds nothing.
func (g *Graph) sweep(live []bool) {
	var garbage []*Node
	for _, n := range g.nodes {
		if n != nil && !n.dead && !live[n.ID] {
			garbage = append(garbage, n)
		}
	}
	for _, n := range garbage {
		g.unlock(n)
		for i, x := range n.In {
			if x != nil && live[x.ID] {
				x.delOut(n, i)
				g.push(x)
			}
		}
	}
	for _, n := range garbage {
		g.edges.free(n.In, n.pos) // cleared, so that its inputs may go
		g.edges.free(n.Out, nil)
		n.In, n.Out, n.pos = nil, nil, nil
		g.dropDeps(n)
		n.dead = true
		g.nodes[n.ID] = nil
	}
}
