package son

// Clone returns a copy of g whose nodes have the IDs, ops, inputs, users
// (in the same order), types, constants, positions and labels of g's: a
// record of g as it stands, which the pipeline takes before a pass so that
// the pass's checker can compare its input with its output. IDs are never
// reused, so a node of the copy and a live node of g with the same ID are
// the same node before and after the pass. The copy shares nothing with g
// and has an empty worklist and value-numbering table: it is for reading,
// not for running passes on. Cost: linear in the nodes and edges of g.
func (g *Graph) Clone() *Graph {
	c := &Graph{Name: g.Name, nodes: make([]*Node, len(g.nodes)), gvn: map[gvnKey]*Node{}, Seed: g.Seed}
	for id, n := range g.nodes {
		if n != nil {
			c.nodes[id] = &Node{ID: n.ID, Op: n.Op, Aux: n.Aux, Type: n.Type, Pos: n.Pos, Label: n.Label, keep: n.keep, dead: n.dead}
		}
	}
	at := func(n *Node) *Node {
		if n == nil || n.ID >= len(c.nodes) {
			return nil
		}
		return c.nodes[n.ID]
	}
	for id, n := range g.nodes {
		if n == nil {
			continue
		}
		m := c.nodes[id]
		m.In = make([]*Node, len(n.In))
		for i, x := range n.In {
			m.In[i] = at(x)
		}
		m.Out = make([]*Node, len(n.Out))
		for i, u := range n.Out {
			m.Out[i] = at(u)
		}
		m.inPos = append([]int32(nil), n.inPos...)
		m.outSlot = append([]int32(nil), n.outSlot...)
	}
	c.Start, c.Stop = at(g.Start), at(g.Stop)
	return c
}
