package dom

// Children is the dominator tree as lists of children only, in increasing
// vertex order, with four bytes a vertex and four an edge: for a walk of
// the tree that needs nothing else (the zerocheck pass, gvn), where a Tree
// holds 44 bytes a vertex.
type Children struct {
	start []int32 // the children of v are child[start[v]:start[v+1]]
	child []int32
}

// NewChildren returns the children lists of the tree idom describes, as
// LengauerTarjan or CooperHarveyKennedy return it (-1 for an unreachable
// vertex, which has no children and is no one's child).
func NewChildren[T int | int32](idom []T) Children {
	n := len(idom)
	c := Children{start: make([]int32, n+1)}
	for v, d := range idom {
		if v != 0 && d >= 0 {
			c.start[d+1]++
		}
	}
	for v := range n {
		c.start[v+1] += c.start[v]
	}
	c.child = make([]int32, c.start[n])
	fill := make([]int32, n)
	copy(fill, c.start[:n])
	for v, d := range idom {
		if v != 0 && d >= 0 {
			c.child[fill[d]] = int32(v)
			fill[d]++
		}
	}
	return c
}

// Of returns the children of v, in increasing order.
func (c Children) Of(v int) []int32 {
	return c.child[c.start[v]:c.start[v+1]:c.start[v+1]]
}
