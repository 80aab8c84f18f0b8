package son

import (
	"math/bits"
	"unsafe"
)

// Every edge is kept twice, as n.In[i] and as an entry of n.In[i].Out, and
// each side records where the other is (Node.pos), so that taking
// an edge away is O(1) however many users a node has: a constant used by
// ten thousand scopes is common while building a large program.

// posList is n's list of positions, cap(In)+cap(Out) entries (Node.pos).
func (n *Node) posList() []int32 { return unsafe.Slice(n.pos, cap(n.In)+cap(n.Out)) }

// setPosList makes p n's list of positions; it has cap(In)+cap(Out)
// entries, for In and Out as they are or as the caller sets them next.
func (n *Node) setPosList(p []int32) {
	n.pos = nil
	if len(p) > 0 {
		n.pos = &p[0]
	}
}

// posAt is entry i of n's list of positions, for the hot paths: the
// bound checked as a slice's index would be, without making the slice
// (posList: unsafe.Slice's own checks cost about 1% of the pipeline).
func (n *Node) posAt(i int) *int32 {
	if uint(i) >= uint(cap(n.In)+cap(n.Out)) {
		panic("son: edge position out of range")
	}
	return (*int32)(unsafe.Add(unsafe.Pointer(n.pos), uintptr(i)*4))
}

// slot is which input of its k-th user n is.
func (n *Node) slot(k int) int32 { return *n.posAt(cap(n.In) + k) }

// setSlot records that n is input i of its k-th user.
func (n *Node) setSlot(k int, i int32) { *n.posAt(cap(n.In) + k) = i }

// addOut records that u uses n as its input i.
func (g *Graph) addOut(n, u *Node, i int) {
	if len(n.Out) == cap(n.Out) {
		g.growOut(n)
	}
	*u.posAt(i) = int32(len(n.Out))
	n.Out = append(n.Out, u)
	n.setSlot(len(n.Out)-1, int32(i))
}

// clearEdges sets every entry of s to nil, and copyEdges copies src to
// the start of dst: loops, for the short lists of edges, where clear and
// copy of pointers are calls of the runtime (memclrHasPointers,
// typedslicecopy), each calling in turn for the write barrier, about 40
// instructions a list: 1.4% of Build's. (A range loop that stores nil is
// compiled as clear.)
func clearEdges(s []*Node) {
	for i := 0; i < len(s); i++ {
		s[i] = nil
	}
}

func copyEdges(dst, src []*Node) {
	for i := 0; i < len(src); i++ {
		dst[i] = src[i]
	}
}

// growOut gives n's users and their slots lists of twice the capacity
// (two at first), cut from chunks like the input lists (edgeArena): most
// nodes have one to four users, and growing two slices by append cost
// more than one allocation per node made. The old lists go back to the
// arena.
func (g *Graph) growOut(n *Node) {
	k := max(2, 2*cap(n.Out))
	out := g.edges.nodes(k)
	pos := g.edges.positions(cap(n.In) + k)
	copyEdges(out, n.Out)
	old := n.posList()
	copy(pos, old[:cap(n.In)+len(n.Out)])
	g.edges.free(n.Out, old)
	n.Out = out[:len(n.Out)]
	n.setPosList(pos)
}

// delOut removes the edge from n to input i of u, moving n's last user
// into the hole.
func (n *Node) delOut(u *Node, i int) {
	k := *u.posAt(i)
	last := int32(len(n.Out) - 1)
	if k != last {
		mu, mi := n.Out[last], n.slot(int(last))
		n.Out[k] = mu
		n.setSlot(int(k), mi)
		*mu.posAt(int(mi)) = k
	}
	n.Out[last] = nil
	n.Out = n.Out[:last]
}

// UseIndex is which input of its k-th user, n.Out[k], n is: a pass that
// walks the users of a value needs no search of a wide Phi's inputs.
func (n *Node) UseIndex(k int) int { return int(n.slot(k)) }

// swapIn exchanges inputs i and j of n, edges and all.
func (n *Node) swapIn(i, j int) {
	a, b := n.In[i], n.In[j]
	pos := n.posList()
	if a != nil {
		a.setSlot(int(pos[i]), int32(j))
	}
	if b != nil {
		b.setSlot(int(pos[j]), int32(i))
	}
	n.In[i], n.In[j] = b, a
	pos[i], pos[j] = pos[j], pos[i]
}

// edgesOK reports whether the recorded positions of n's edges agree with
// In and Out: for the verifier.
func (n *Node) edgesOK() bool {
	if (n.pos == nil) != (cap(n.In)+cap(n.Out) == 0) {
		return false
	}
	pos := n.posList()
	for i, x := range n.In {
		if x == nil {
			continue
		}
		k := pos[i]
		if k < 0 || int(k) >= len(x.Out) || x.Out[k] != n || x.slot(int(k)) != int32(i) {
			return false
		}
	}
	for k, u := range n.Out {
		i := n.slot(k)
		if i < 0 || int(i) >= len(u.In) || u.In[i] != n || u.posList()[i] != int32(k) {
			return false
		}
	}
	return true
}

// packEdges moves the edge lists of every node the table holds into new
// arrays, each list at its length (no room to grow: an AddIn or a new
// user copies it out, as from a full list of the arena), in ID order, and
// lets the arena's chunks go. The builder leaves two users' room in every
// node, doubles the lists that outgrow it, and frees a list into a chunk
// that lives while any list in it does: at 100k nodes the edge arrays
// after Build held 602k edges for 413k. Cost: one scan of the IDs, one
// copy of the edges, and the arrays it allocates.
//
// The arrays are one pair per chunk of the node table, and the arena's
// free lists go first: a chunk of the arena that packing has emptied is
// garbage while the rest is packed, so that a collection then finds the
// old lists and the new not all live together (issue 12: the peak of
// son check on some shapes).
func (g *Graph) packEdges() {
	g.edges = edgeArena{}
	// Only the IDs that hold a node, by the table's bits (heldBits), 64
	// IDs a word: after the sweep about one ID in five holds one, and a
	// scan of every ID cost about 9 instructions an ID, twice.
	t := &g.nodes
	for c, chunk := range t.chunks {
		lo := c * nodeChunk / 64
		hi := min(len(t.heldBits), (c*nodeChunk+len(chunk)+63)/64)
		edges := 0
		for w := lo; w < hi; w++ {
			for word := t.heldBits[w]; word != 0; word &= word - 1 {
				n := t.at(w*64 + bits.TrailingZeros64(word))
				edges += len(n.In) + len(n.Out)
			}
		}
		in := make([]*Node, edges)
		pos := make([]int32, edges)
		for w := lo; w < hi; w++ {
			for word := t.heldBits[w]; word != 0; word &= word - 1 {
				in, pos = t.at(w*64+bits.TrailingZeros64(word)).pack(in, pos)
			}
		}
		if packedChunk != nil {
			packedChunk(g, c)
		}
	}
}

// packedChunk, if set (by tests), is called by packEdges after it has
// packed chunk c of the node table.
var packedChunk func(g *Graph, c int)

// pack moves n's edge lists and positions to the start of in and pos, at
// their lengths, and returns what is left of in and pos (packEdges).
func (n *Node) pack(in []*Node, pos []int32) ([]*Node, []int32) {
	i, o := len(n.In), len(n.Out)
	old := n.posList()
	p := pos[: i+o : i+o]
	// Loops, not copy: the lists are short, and a call of memmove
	// cost more than the copy.
	for k := range i {
		p[k] = old[k]
	}
	for k, at := 0, cap(n.In); k < o; k++ {
		p[i+k] = old[at+k]
	}
	var nin, nout []*Node // nil when empty, as a node made without
	if i > 0 {
		nin = in[:i:i]
		copyEdges(nin, n.In)
	}
	if o > 0 {
		nout = in[i : i+o : i+o]
		copyEdges(nout, n.Out)
	}
	n.In, n.Out = nin, nout
	n.setPosList(p)
	return in[i+o:], pos[i+o:]
}
