package son

import (
	"iter"
	"math/bits"
)

// nodeTable holds a graph's nodes by ID in chunks of nodeChunk entries
// after the first: it grows by a chunk, never copying, so that the table
// of half a million IDs costs its 8 bytes an ID once (a slice doubled as
// it grew allocated twice that, and copied it). The first chunk grows by
// doubling up to nodeChunk, so that a small graph pays for a small table.
type nodeTable struct {
	chunks [][]*Node
	n      int
	held   int // the IDs that hold a node (not nil): see count
	// heldBits has bit ID%64 of word ID/64 set when the ID holds a node:
	// the scans for the nodes a walk did not find (notIn) read 64 IDs a
	// word, where IDs outnumber the nodes they hold about five to one.
	heldBits []uint64
	// room is the number of IDs the chunks have room for, and heldBits
	// bits: add takes an ID below it with no test but this one (grow
	// makes more), where it appended to a chunk and to heldBits, each
	// append with its own test.
	room int
}

const (
	nodeChunkBits = 13
	nodeChunk     = 1 << nodeChunkBits
)

// makeNodeTable returns a table of n IDs, all nil, with room for at least
// first more before it takes a new chunk.
func makeNodeTable(n, first int) nodeTable {
	t := nodeTable{n: n, heldBits: make([]uint64, (n+63)/64, (n+first+63)/64)}
	for left := n; left > 0 || len(t.chunks) == 0; left -= nodeChunk {
		if len(t.chunks) > 0 || n+first > nodeChunk {
			t.chunks = append(t.chunks, make([]*Node, min(left, nodeChunk), nodeChunk))
		} else {
			t.chunks = append(t.chunks, make([]*Node, n, max(n+first, 1)))
		}
	}
	t.setRoom()
	return t
}

// setRoom sets room from the chunks, all full but the last, and makes
// heldBits as long as room needs.
func (t *nodeTable) setRoom() {
	last := t.chunks[len(t.chunks)-1]
	t.room = (len(t.chunks)-1)*nodeChunk + cap(last)
	if w := (t.room + 63) / 64; w > len(t.heldBits) {
		t.heldBits = append(t.heldBits, make([]uint64, w-len(t.heldBits))...)
	}
}

// len is the number of IDs given out.
func (t *nodeTable) len() int { return t.n }

// at returns the node with ID id (nil if killed); 0 <= id < t.len().
func (t *nodeTable) at(id int) *Node { return t.chunks[id>>nodeChunkBits][id&(nodeChunk-1)] }

// set makes n the node with ID id; 0 <= id < t.len().
func (t *nodeTable) set(id int, n *Node) {
	e := &t.chunks[id>>nodeChunkBits][id&(nodeChunk-1)]
	if (*e == nil) != (n == nil) {
		t.heldBits[uint(id)/64] ^= 1 << (uint(id) % 64)
		if n == nil {
			t.held--
		} else {
			t.held++
		}
	}
	*e = n
}

// count is the number of IDs that hold a node (killed nodes and IDs taken
// for nodes not made hold none), kept as nodes come and go: what a scan
// of every ID would count.
func (t *nodeTable) count() int { return t.held }

// add gives the next ID to n.
func (t *nodeTable) add(n *Node) {
	if t.n >= t.room {
		t.grow()
	}
	id := uint(t.n)
	c := &t.chunks[id>>nodeChunkBits]
	k := id & (nodeChunk - 1)
	*c = (*c)[:k+1]
	(*c)[k] = n
	t.n++
	if n != nil {
		t.heldBits[id/64] |= 1 << (id % 64)
		t.held++
	}
}

// grow makes room for more IDs: the first chunk doubles until nodeChunk,
// then a chunk is added.
func (t *nodeTable) grow() {
	last := &t.chunks[len(t.chunks)-1]
	if c := cap(*last); c < nodeChunk {
		*last = append(make([]*Node, 0, min(2*c, nodeChunk)), *last...)
	} else {
		t.chunks = append(t.chunks, make([]*Node, 0, nodeChunk))
	}
	t.setRoom()
}

// all yields every ID with its node, nil ones included, in order.
func (t *nodeTable) all() iter.Seq2[int, *Node] {
	return func(yield func(int, *Node) bool) {
		for c, chunk := range t.chunks {
			base := c << nodeChunkBits
			for i, n := range chunk {
				if !yield(base+i, n) {
					return
				}
			}
		}
	}
}

// countOps adds to ops, by op, the nodes the table holds, and returns how
// many there are: a scan of every ID, chunk by chunk (all's yield cost
// about 40 instructions an ID, where compile.Stats counts after every
// pass that ends with a sweep).
func (t *nodeTable) countOps(ops *[256]int) int {
	k := 0
	for _, chunk := range t.chunks {
		for _, n := range chunk {
			if n != nil {
				ops[n.Op]++
				k++
			}
		}
	}
	return k
}

// nextDiv returns the first division or remainder (Div, Mod) with an ID
// from id on, and its ID; nil if there is none. It reads only the IDs
// that hold a node (heldBits), 64 IDs a word: most IDs hold none (killed,
// or taken for a node not made), and reading each cost about 20
// instructions.
func (t *nodeTable) nextDiv(id int) (int, *Node) {
	if id >= t.n {
		return id, nil
	}
	w := id / 64
	word := t.heldBits[w] &^ (1<<(uint(id)%64) - 1) // the IDs before id
	for {
		for word != 0 {
			id := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if n := t.at(id); n.Op == OpDiv || n.Op == OpMod {
				return id, n
			}
		}
		if w++; w >= len(t.heldBits) {
			return t.n, nil
		}
		word = t.heldBits[w]
	}
}
