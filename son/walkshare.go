package son

import "math/bits"

// What a walk of the graph found, shared with the scans after it. A
// fixpoint's round ends with a walk for the live set (keepInfiniteLoops),
// then two scans of every ID for the nodes not in it: someCtrlNotLive,
// for a Loop, and the sweep, for the garbage. IDs outnumber the live
// nodes about five to one, and after a sweep or on a graph whose dead
// nodes were all killed the scans find nothing: half the sweeps of the
// pipeline's fixpoints at 10k and 100k nodes, all of cleanup's at 10k.
// When the walk counts as many live nodes as the table holds nodes, every
// node is live, and the scans need not run.

// noteLive records that a walk of the graph as it stands found n live
// nodes: if that is every node the table holds, allLive holds until the
// graph's edges change.
func (g *Graph) noteLive(n int) {
	c := &g.walks
	if n == g.nodes.count() {
		c.full, c.fullOK = g.version(), true
	}
}

// allLive reports whether every node the table holds is live (Stop
// reaches it), as the last sweep left the graph or the last walk found
// it, with no edge changed since.
func (g *Graph) allLive() bool {
	c := &g.walks
	v := g.version()
	return c.fullOK && c.full == v || c.clean && c.swept == v
}

// noteGarbage keeps the nodes a scan found not live (in the order of
// their IDs), for the sweep that follows while the graph's edges stay as
// they are: keepInfiniteLoops's scan for a Loop not live and the sweep's
// for the garbage are one scan.
func (g *Graph) noteGarbage(garbage []*Node) {
	if garbage == nil {
		garbage = []*Node{} // found none: not nil, which takeGarbage gives for "not known"
	}
	g.walks.garbage, g.walks.garbageAt = garbage, g.version()
}

// takeGarbage returns the nodes not live that noteGarbage kept, but dead
// ones, if the graph's edges did not change since (empty, not nil, if
// none), else nil: the sweep then scans for them. The graph keeps none
// after.
func (g *Graph) takeGarbage() []*Node {
	c := &g.walks
	garbage := c.garbage
	c.garbage = nil
	if garbage == nil || c.garbageAt != g.version() {
		return nil
	}
	kept := garbage[:0]
	for _, n := range garbage {
		if !n.dead {
			kept = append(kept, n)
		}
	}
	return kept
}

// notIn returns the nodes the table holds whose IDs set does not mark, in
// the order of their IDs: a scan of the words of the IDs that hold a node
// (heldBits), 64 IDs a word, reading only those IDs' marks.
func (t *nodeTable) notIn(set []bool) []*Node {
	var out []*Node
	for w, word := range t.heldBits {
		for word != 0 {
			id := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if !set[id] {
				out = append(out, t.at(id))
			}
		}
	}
	return out
}
