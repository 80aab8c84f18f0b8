package son

import "maps"

// Clone returns a copy of g whose nodes have the IDs, ops, inputs, users
// (in the same order), types, constants, positions and labels of g's: a
// record of g as it stands, which the pipeline takes before a pass so that
// the pass's checker can compare its input with its output. IDs are never
// reused, so a node of the copy and a live node of g with the same ID are
// the same node before and after the pass. The copy shares nothing with g
// and has an empty worklist and value-numbering table: it is for reading,
// not for running passes on. Cost: linear in the nodes and edges of g.
//
// The copy's nodes, and their edge lists, are cut from a few arrays, one
// allocation each rather than five per node: a checked compilation takes a
// record of a graph of millions of nodes before each checked pass.
func (g *Graph) Clone() *Graph {
	c := &Graph{Name: g.Name, nodes: makeNodeTable(g.nodes.len(), 0), Seed: g.Seed}
	count, ins, outs := 0, 0, 0
	for _, n := range g.nodes.all() {
		if n != nil {
			count++
			ins += len(n.In)
			outs += len(n.Out)
		}
	}
	slab := make([]Node, count)
	edges := make([]*Node, ins+outs)
	pos := make([]int32, ins+outs)
	// cut returns the next k entries of edges, full to capacity so that
	// an append copies it out of the shared array, and the positions of k
	// inputs and o users.
	cut := func(k, o int) ([]*Node, []int32) {
		e, p := edges[:k:k], pos[:k+o:k+o]
		edges, pos = edges[k:], pos[k+o:]
		return e, p
	}
	for id, n := range g.nodes.all() {
		if n != nil {
			m := &slab[0]
			slab = slab[1:]
			*m = Node{ID: n.ID, Op: n.Op, Aux: n.Aux, typ: n.typ, Pos: n.Pos, keep: n.keep, dead: n.dead, flags: n.flags & hasLabel}
			c.nodes.set(id, m)
		}
	}
	at := func(n *Node) *Node {
		if n == nil || n.ID >= c.nodes.len() {
			return nil
		}
		return c.nodes.at(n.ID)
	}
	for id, n := range g.nodes.all() {
		if n == nil {
			continue
		}
		m := c.nodes.at(id)
		var mpos []int32
		m.In, mpos = cut(len(n.In), len(n.Out))
		m.setPosList(mpos)
		for i, x := range n.In {
			m.In[i] = at(x)
		}
		npos := n.posList()
		copy(mpos, npos[:len(n.In)])
		m.Out = edges[:len(n.Out):len(n.Out)]
		edges = edges[len(n.Out):]
		for i, u := range n.Out {
			m.Out[i] = at(u)
		}
		copy(mpos[len(n.In):], npos[cap(n.In):cap(n.In)+len(n.Out)])
	}
	c.Start, c.Stop = at(g.Start), at(g.Stop)
	c.labels = maps.Clone(g.labels)
	c.rets = g.rets.clone()
	return c
}
