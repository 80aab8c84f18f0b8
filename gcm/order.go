package gcm

import "son/son"

// orderer makes the local schedule of each block in turn. Its arrays are
// made once for the function and reused from block to block: by node ID,
// a node's position in the list of the block being ordered, which holds
// only if the list has the node there (a sparse set: nothing by node ID is
// cleared between blocks, and a constant with copies in several blocks
// needs no search); by position in the
// block, the dependences still to wait for and the users to release.
// Nothing is allocated per block once the arrays have grown to the largest
// block.
type orderer struct {
	g   *son.Graph
	sk  *skeleton // a block's checks
	pos []int32   // by node ID: its position in its block's list, if it is there

	all   []*son.Node // the block's checks then data nodes
	deps  [][2]int32  // (before, after) positions, one per dependence
	waits []int32     // by position: dependences not yet satisfied
	start []int32     // by position: where its users begin in users
	users []int32     // positions, grouped by the position they wait for
	ready []int32     // a min-heap of positions, by node ID
	out   []*son.Node
}

// newOrderer returns an orderer for the blocks of g whose array by node
// ID is pos's, if pos has one for every ID: its entries need no clearing.
func newOrderer(g *son.Graph, sk *skeleton, pos []int32) *orderer {
	if len(pos) < g.MaxID() {
		pos = make([]int32, g.MaxID())
	}
	return &orderer{g: g, sk: sk, pos: pos}
}

// order is the local schedule of block b, whose data nodes are given by
// ID: its ZeroChecks in the order of the control chain, and its data
// nodes, each after its inputs in the block and a division after the
// check it is pinned to; among the nodes ready, the oldest (smallest ID,
// roughly source order) first. The list returned is valid until the next
// call.
func (o *orderer) order(b *block, nodes []int32) []*son.Node {
	all := append(o.all[:0], o.sk.checksOf(b)...)
	for _, id := range nodes {
		all = append(all, o.g.Node(int(id)))
	}
	o.all = all
	if len(all) <= 1 {
		return all // most blocks of a long && chain
	}
	for i, n := range all {
		o.pos[n.ID] = int32(i)
	}
	// in says whether x is in all (one of b's checks, a data node placed
	// in b, a copy of a constant in b; not a Phi, which is not in the
	// list): a sparse-set test, pos[x.ID] pointing back at x, so that
	// nothing by node ID needs clearing between blocks.
	in := func(x *son.Node) bool {
		if x.ID >= len(o.pos) {
			return false
		}
		p := o.pos[x.ID]
		return int(p) < len(all) && all[p] == x
	}
	deps := o.deps[:0]
	for i, n := range all {
		if n.Op == son.OpZeroCheck {
			if i > 0 {
				deps = append(deps, [2]int32{int32(i - 1), int32(i)}) // the checks keep the order of the chain
			}
			if x := n.In[1]; in(x) {
				deps = append(deps, [2]int32{o.pos[x.ID], int32(i)})
			}
			continue
		}
		for j, x := range n.In {
			if x != nil && in(x) && (j > 0 || x.Op == son.OpZeroCheck) {
				deps = append(deps, [2]int32{o.pos[x.ID], int32(i)})
			}
		}
	}
	o.deps = deps

	// The users of each position, grouped by counting.
	k := len(all)
	o.waits = grow(o.waits, k)
	o.start = grow(o.start, k+1)
	o.users = grow(o.users, len(deps))
	waits, start, users := o.waits, o.start, o.users
	for _, d := range deps {
		waits[d[1]]++
		start[d[0]+1]++
	}
	for i := range k {
		start[i+1] += start[i]
	}
	for _, d := range deps {
		users[start[d[0]]] = d[1]
		start[d[0]]++
	}
	// start[i] is now where the users of i end, those of i-1 too begin.

	ready := o.ready[:0]
	for i := range k {
		if waits[i] == 0 {
			ready = o.push(ready, int32(i))
		}
	}
	out := o.out[:0]
	for len(ready) > 0 {
		var p int32
		ready, p = o.pop(ready)
		out = append(out, all[p])
		from := int32(0)
		if p > 0 {
			from = start[p-1]
		}
		for _, u := range users[from:start[p]] {
			if waits[u]--; waits[u] == 0 {
				ready = o.push(ready, u)
			}
		}
	}
	o.ready, o.out = ready, out
	return out
}

// grow returns s with length k, all zeros, reusing its array if it can.
func grow(s []int32, k int) []int32 {
	if cap(s) < k {
		return make([]int32, k, max(k, 2*cap(s)))
	}
	s = s[:k]
	clear(s)
	return s
}

// less orders positions in the ready heap by node ID.
func (o *orderer) less(p, q int32) bool { return o.all[p].ID < o.all[q].ID }

// push adds p to the heap h.
func (o *orderer) push(h []int32, p int32) []int32 {
	h = append(h, p)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !o.less(h[i], h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	return h
}

// pop removes the least element of the heap h.
func (o *orderer) pop(h []int32) ([]int32, int32) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h) && o.less(h[l], h[m]) {
			m = l
		}
		if r := l + 1; r < len(h) && o.less(h[r], h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return h, top
}
