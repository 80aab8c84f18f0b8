package son

// The variable names of Phis (and "arg" of the argument), for printing,
// are in the graph's labels, by ID: a field in every node cost 16 bytes,
// for the few that have one. A node's hasLabel flag says whether it has
// an entry, so that the others neither search nor delete. (A slice in
// order of ID, appended to as the builder names the nodes it makes, cost
// a little less time and more bytes: the entries of the Phis that fold at
// once stay until a compaction.)

// Label is the variable name of a Phi (or "arg" for the argument), for
// printing; "" for other nodes.
func (g *Graph) Label(n *Node) string {
	if n.flags&hasLabel == 0 {
		return ""
	}
	return g.labels[int32(n.ID)]
}

// SetLabel names n for printing ("" takes the name away).
func (g *Graph) SetLabel(n *Node, name string) {
	if name == "" {
		g.dropLabel(n)
		return
	}
	if g.labels == nil {
		g.labels = map[int32]string{}
	}
	g.labels[int32(n.ID)] = name
	n.flags |= hasLabel
}

// dropLabel forgets the name of n (killed, or renamed to nothing).
func (g *Graph) dropLabel(n *Node) {
	if n.flags&hasLabel != 0 {
		delete(g.labels, int32(n.ID))
		n.flags &^= hasLabel
	}
}
