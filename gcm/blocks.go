package gcm

import (
	"cmp"
	"fmt"
	"slices"

	"son/son"
)

// The control skeleton as basic blocks. A block starts at a region (a
// Region or Loop), at a projection of an If or a Never, or at Start's
// control; it runs down the chain of ZeroChecks below, and ends at an If
// (a branch), a Never (a jump around the loop: its exit is never taken),
// a Return, or where control enters a region (a jump). Since every side of
// an If starts a block of its own, no edge is critical and a block with
// several predecessors is entered only by jumps: the CFG is normalized.

// block is a basic block being built. Its ZeroChecks, Phis, predecessors
// and successors are ranges of lists the skeleton holds for all blocks,
// not lists of their own, and the number of predecessors follows from its
// head: 40 bytes a block, not 128 (a program of && has a block per
// operand). Its cfg.Block is emit's, by index; emit lets the block go
// once it has made that one.
type block struct {
	head   *son.Node // the node control enters it by
	last   *son.Node // the control node it ends with (If, Never, Return, or the last of the chain)
	index  int32     // position in the function, and vertex number for dominators; -1 until reversePostorder's walk reaches it
	c0, c1 int32     // its ZeroChecks, down its chain in order: skeleton.checks[c0:c1]
	s0     int32     // its successors: skeleton.edges[s0:s0+ns]
	r0     int32     // its predecessors, in the order of the head region's inputs: skeleton.edges[r0:r0+numPreds()]
	ns     uint8     // the number of its successors: two for a branch, none for a return, one for a jump
}

// numSuccs is the number of b's successors.
func (b *block) numSuccs() int32 { return int32(b.ns) }

// numPreds is the number of b's predecessors: a region's inputs, none for
// the entry (index 0 once the blocks are in order; a region's list is the
// only one read before), else the one block that branches or jumps to b.
func (b *block) numPreds() int32 {
	switch {
	case b.head.Op.IsRegion():
		return int32(len(b.head.In) - 1)
	case b.index == 0:
		return 0
	}
	return 1
}

// number is b's number in the by-ID arrays of blocks: 1 + its index.
func (b *block) number() int32 { return b.index + 1 }

// skeleton finds the blocks of g in reverse postorder, the entry first,
// with the block each control node belongs to. Blocks are referred to by
// index (4 bytes, not an 8-byte pointer: on the `and` shape at 1 MB,
// 290,178 blocks, 866,066 edges and 441,972 node IDs, 5.3 MB of the gcm
// pass's peak, where the skeleton is live beside the function emitted).
type skeleton struct {
	blocks []*block
	of     []int32     // by node ID: a control node's block, as a number (1 + index; 0: none)
	edges  []int32     // the successors, then the predecessors, of every block, block by block, by index
	checks []*son.Node // the ZeroChecks of every block, block by block
	phis   []*son.Node // the Phis of every region block, block by block
	phiAt  []int32     // by block index: where its Phis begin in phis (findPhis)
}

// checksOf lists the ZeroChecks down b's chain, in order.
func (sk *skeleton) checksOf(b *block) []*son.Node { return sk.checks[b.c0:b.c1:b.c1] }

// succsOf lists b's successors, by index.
func (sk *skeleton) succsOf(b *block) []int32 {
	s1 := b.s0 + b.numSuccs()
	return sk.edges[b.s0:s1:s1]
}

// predsOf lists b's predecessors, by index.
func (sk *skeleton) predsOf(b *block) []int32 {
	r1 := b.r0 + b.numPreds()
	return sk.edges[b.r0:r1:r1]
}

// edgeList reserves k entries of sk.edges and returns where they begin.
func (sk *skeleton) edgeList(k int) int32 {
	start := len(sk.edges)
	sk.edges = slices.Grow(sk.edges, k)[:start+k]
	return int32(start)
}

// phisOf lists the Phis of b's region, by ID.
// It is empty until findPhis has run.
func (sk *skeleton) phisOf(b *block) []*son.Node {
	if int(b.index) >= len(sk.phiAt)-1 {
		return nil
	}
	p0, p1 := sk.phiAt[b.index], sk.phiAt[b.index+1]
	return sk.phis[p0:p1:p1]
}

// blockOf is the block of control node n, nil if it has none.
func (sk *skeleton) blockOf(n *son.Node) *block {
	if n == nil || n.ID >= len(sk.of) || sk.of[n.ID] == 0 {
		return nil
	}
	return sk.blocks[sk.of[n.ID]-1]
}

// blockLists hands out the blocks from chunks: a few allocations per
// thousand blocks instead of one per block.
type blockLists struct {
	blocks []block
}

// blockChunk is the number of blocks in a chunk of the skeleton's blocks
// in index order, and of cfg.Blocks in one of emit's: a whole number of
// the allocator's 8 KB pages for both (40 and 128 bytes a block: 5 and
// 16 pages), where 256 cfg.Blocks of 136 bytes took 5 pages for 4.25 and
// wasted a sixth of them (7 MB on the `and` shape at 1 MB).
const blockChunk = 1024

// newBlock returns a zero block.
func (l *blockLists) newBlock() *block {
	if len(l.blocks) == 0 {
		l.blocks = make([]block, 256)
	}
	b := &l.blocks[0]
	l.blocks = l.blocks[1:]
	return b
}

// ctrlSucc is the control node that control leaving n goes to, or nil for
// a Return.
func ctrlSucc(n *son.Node) (*son.Node, error) {
	var s *son.Node
	for _, u := range n.Out {
		if !u.IsControl() || u.Op == son.OpStop {
			continue
		}
		if s != nil && s != u {
			return nil, fmt.Errorf("%v has two control successors, %v and %v", n, s, u)
		}
		s = u
	}
	return s, nil
}

// buildSkeleton finds the blocks and their edges. Until the blocks are
// in reverse postorder, of and edges refer to them by their position in
// the order found (1 + it in of), then by their final index.
func buildSkeleton(g *son.Graph) (*skeleton, error) {
	sk := &skeleton{of: make([]int32, g.MaxID())}
	entry := g.Start.Proj(0)
	if entry == nil {
		return nil, fmt.Errorf("Start has no control projection")
	}
	var found []*block
	var lists blockLists
	// get returns the position of the block headed by h, made on first
	// sight: a head's entry in of is its block from then on (no other
	// control node heads two blocks or belongs to one as a check or an
	// end).
	get := func(h *son.Node) int32 {
		if k := sk.of[h.ID]; k != 0 {
			return k - 1
		}
		b := lists.newBlock()
		b.head, b.index = h, -1
		found = append(found, b)
		sk.of[h.ID] = int32(len(found))
		return int32(len(found) - 1)
	}
	// foundOf is the block of control node n in found, nil if none.
	foundOf := func(n *son.Node) *block {
		if n == nil || n.ID >= len(sk.of) || sk.of[n.ID] == 0 {
			return nil
		}
		return found[sk.of[n.ID]-1]
	}
	get(entry)
	for i := 0; i < len(found); i++ {
		b, bk := found[i], int32(i+1)
		cur := b.head
		// The chain of one block is walked to its end before the next
		// block's: its checks are contiguous in sk.checks.
		b.c0 = int32(len(sk.checks))
		b.c1 = b.c0
		for {
			s, err := ctrlSucc(cur)
			if err != nil {
				return nil, err
			}
			if s == nil {
				return nil, fmt.Errorf("control stops at %v", cur)
			}
			switch s.Op {
			case son.OpZeroCheck:
				sk.checks = append(sk.checks, s)
				b.c1 = int32(len(sk.checks))
				sk.of[s.ID] = bk
				cur = s
				continue
			case son.OpIf:
				sk.of[s.ID] = bk
				b.last = s
				b.s0, b.ns = sk.edgeList(2), 2
				for idx := int64(0); idx < 2; idx++ {
					p := s.Proj(idx)
					if p == nil {
						return nil, fmt.Errorf("%v has no projection %d", s, idx)
					}
					sk.edges[b.s0+int32(idx)] = get(p)
				}
			case son.OpNever:
				sk.of[s.ID] = bk
				b.last = s
				p := s.Proj(0)
				if p == nil {
					return nil, fmt.Errorf("%v has no projection 0", s)
				}
				b.s0, b.ns = sk.edgeList(1), 1
				sk.edges[b.s0] = get(p)
			case son.OpReturn:
				sk.of[s.ID] = bk
				b.last = s
			case son.OpRegion, son.OpLoop:
				b.last = cur
				b.s0, b.ns = sk.edgeList(1), 1
				sk.edges[b.s0] = get(s)
			default:
				return nil, fmt.Errorf("control reaches %v after %v", s, cur)
			}
			break
		}
	}
	// Predecessors: a region's in the order of its inputs, so that a
	// Phi's k-th value comes from the k-th; a projection's is its If's.
	// The list of edges is made again to its exact size first, without
	// the headroom of growing.
	preds := 0
	for _, b := range found {
		if b.head.Op.IsRegion() {
			preds += len(b.head.In) - 1
		} else if b.head != entry {
			preds++
		}
	}
	sk.edges = append(make([]int32, 0, len(sk.edges)+preds), sk.edges...)
	for _, b := range found {
		if b.head.Op.IsRegion() {
			b.r0 = sk.edgeList(len(b.head.In) - 1)
			preds := sk.predsOf(b)
			for k, c := range b.head.In[1:] {
				if p := foundOf(c); p == nil || p.last != c {
					return nil, fmt.Errorf("%v: predecessor %v does not end a block", b.head, c)
				}
				preds[k] = sk.of[c.ID] - 1
			}
		} else if b.head != entry {
			b.r0 = sk.edgeList(1)
			sk.edges[b.r0] = sk.of[b.head.In[0].ID] - 1
		}
	}
	sk.blocks = sk.reversePostorder(found)
	if len(sk.blocks) != len(found) {
		return nil, fmt.Errorf("%d blocks, but %d are reached", len(found), len(sk.blocks))
	}
	for i, b := range sk.blocks {
		b.index = int32(i)
	}
	// From positions in found to indices.
	for k, e := range sk.edges {
		sk.edges[k] = found[e].index
	}
	// The entries of of are the blocks' heads, checks and ending
	// branches, returns and Nevers: set again from the blocks, not by a
	// walk of every node ID.
	for _, b := range found {
		k := b.number()
		sk.of[b.head.ID] = k
		for _, c := range sk.checksOf(b) {
			sk.of[c.ID] = k
		}
		if l := b.last; l != nil && (l.Op == son.OpIf || l.Op == son.OpNever || l.Op == son.OpReturn) {
			sk.of[l.ID] = k
		}
	}
	// The blocks again, from chunks of their own in index order: emit
	// lets each go once it has made its cfg.Block, and a chunk with the
	// last of its blocks (those of found are garbage once found is).
	for c := 0; c < len(sk.blocks); c += blockChunk {
		chunk := make([]block, min(blockChunk, len(sk.blocks)-c))
		for k := range chunk {
			chunk[k] = *sk.blocks[c+k]
			sk.blocks[c+k] = &chunk[k]
		}
	}
	return sk, nil
}

// reversePostorder lists the blocks reached from the entry, found[0],
// each before its successors except along back edges; the true side of a
// branch before the false side. The edges are still positions in found.
func (sk *skeleton) reversePostorder(found []*block) []*block {
	entry := found[0]
	entry.index = 0 // seen: the walk sets index to 0, the real one comes after
	post := make([]*block, 0, len(found))
	type frame struct {
		b *block
		i int
	}
	stack := []frame{{entry, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if succs := sk.succsOf(f.b); f.i < len(succs) {
			s := found[succs[len(succs)-1-f.i]] // last first, so that it comes out last
			f.i++
			if s.index < 0 {
				s.index = 0
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, f.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// succIndex lists each block's successors by index, for the dominators,
// laid out flat: block i's are succ[start[i]:start[i+1]] (4 bytes a
// block, where a list per block cost a 24-byte header).
func (sk *skeleton) succIndex() (start, succ []int32) {
	start = make([]int32, len(sk.blocks)+1)
	for i, b := range sk.blocks {
		start[i+1] = start[i] + b.numSuccs()
	}
	succ = make([]int32, start[len(sk.blocks)])
	for i, b := range sk.blocks {
		for k, x := range sk.succsOf(b) {
			succ[start[i]+int32(k)] = x
		}
	}
	return start, succ
}

// loopDepths counts, for each block, the loops around it: the body of the
// loop at Loop head h is every block from which the back edge's source can
// be reached without passing h. Rather than walk each body, which costs
// the sum of the bodies' sizes and is quadratic in the nesting, it builds
// the loop tree once, as Tarjan's algorithm for reducible graphs does
// (Havlak, "Nesting of reducible and irreducible loops", TOPLAS 1997):
// heads are taken innermost first (last in reverse postorder), and the walk
// back from a back edge jumps over each inner loop already found, through
// a union-find from a block to the outermost head found so far around it,
// so that each block is claimed once, by its innermost loop. Then one pass
// in reverse postorder, outer heads first, gives the depths. O(n log n)
// at worst, with path compression.
func (sk *skeleton) loopDepths() []int32 {
	n := len(sk.blocks)
	parent := make([]int32, n) // the head of the innermost loop around a block (or around a head's loop), -1 if none
	up := make([]int32, n)     // union-find: towards the outermost head found so far around a block
	for i := range parent {
		parent[i], up[i] = -1, int32(i)
	}
	find := func(i int) int {
		r := int32(i)
		for up[r] != r {
			r = up[r]
		}
		for up[i] != r { // path compression
			up[i], i = r, int(up[i])
		}
		return int(r)
	}
	var work []int
	for h := n - 1; h >= 0; h-- {
		hb := sk.blocks[h]
		if hb.head.Op != son.OpLoop {
			continue
		}
		work = append(work[:0], int(sk.blockOf(hb.head.In[2]).index))
		for len(work) > 0 {
			b := find(work[len(work)-1])
			work = work[:len(work)-1]
			if b <= h {
				// h itself, or (never in a graph built from structured
				// code) a block h does not dominate: not in the body.
				continue
			}
			parent[b], up[b] = int32(h), int32(h)
			for _, p := range sk.predsOf(sk.blocks[b]) {
				work = append(work, int(p))
			}
		}
	}
	depth := make([]int32, n)
	for i, b := range sk.blocks {
		d := int32(0)
		if p := parent[i]; p >= 0 {
			d = depth[p]
		}
		if b.head.Op == son.OpLoop {
			d++
		}
		depth[i] = d
	}
	return depth
}

// predOrder returns, in perm's array, the permutation that sorting a
// region block's predecessors preds (by index, in the order of the head
// region's inputs) applies: its i-th entry is the position among the
// region's inputs of the i-th predecessor in block order, which is how
// cfg.Parse reads them back. emit finds it for the blocks with Phis
// before it sorts their lists, rather than keeping it for every block (on
// the `and` shape at 1 MB, 2.9 MB live beside the function emit makes,
// for 4,465 Phis) or the block of each control node to find it again.
func predOrder(preds, perm []int32) []int32 {
	perm = perm[:0]
	for k := range int32(len(preds)) {
		perm = append(perm, k)
	}
	slices.SortStableFunc(perm, func(x, y int32) int { return cmp.Compare(preds[x], preds[y]) })
	return perm
}
