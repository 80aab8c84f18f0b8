// The index's table from a node's structure (op, aux, canonical inputs) to
// the node that represents it.

package buildcheck

import (
	"math/bits"

	"son/son"
)

// keyTable maps keys to nodes by open addressing. A key is laid out flat
// in int32 words — op and whether it is the Top constant (apart from the
// constant 0), the number of inputs, aux in two halves, then each input's
// ID (0 for nil or an input that does not matter) — so an entry costs
// about 45 bytes where a Go map keyed by a 64-byte struct cost about 90:
// the table was a quarter of the peak of son check on nested loops
// (docs/PERFORMANCE.md, "Peak memory: levers").
type keyTable struct {
	slots []int32      // 1 + an index into ents, 0 for none; a power of two long
	ents  []tableEntry // in the order entered
	words []int32      // the keys: entry e's is words[e.at:e.at+keyHead+its inputs]
	buf   []int32      // the key being looked up
}

// tableEntry is one key and its node.
type tableEntry struct {
	node *son.Node
	at   int32  // where its key starts in words
	hash uint32 // of its key
}

// keyHead is the number of words of a key before the inputs.
const keyHead = 4

// newKeyTable makes a table for at most entries keys of at most words
// words in all, so that it never grows: newIndex knows both from the graph.
func newKeyTable(entries, words int) *keyTable {
	return &keyTable{
		slots: make([]int32, 1<<bits.Len(uint(2*entries+1))),
		ents:  make([]tableEntry, 0, entries),
		words: make([]int32, 0, words),
	}
}

// key lays out the key of op, top, aux and inputs in t.buf.
func (t *keyTable) key(op son.Op, top bool, aux int64, in []*son.Node) []int32 {
	head := int32(op)
	if top {
		head |= 1 << 8
	}
	k := append(t.buf[:0], head, int32(len(in)), int32(aux), int32(aux>>32))
	for _, x := range in {
		id := int32(0)
		if x != nil {
			id = int32(x.ID)
		}
		k = append(k, id)
	}
	t.buf = k
	return k
}

// hashKey is FNV-1a over the key's words, mixed at the end so that the low
// bits, which pick the slot, depend on all of them.
func hashKey(k []int32) uint32 {
	h := uint64(14695981039346656037)
	for _, w := range k {
		h = (h ^ uint64(uint32(w))) * 1099511628211
	}
	h ^= h >> 32
	return uint32(h)
}

// slot returns where k is in slots, or the empty slot where it would go.
func (t *keyTable) slot(k []int32, h uint32) int {
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return i
		}
		if e := &t.ents[s-1]; e.hash == h && t.same(e, k) {
			return i
		}
	}
}

// same reports whether e's key is k.
func (t *keyTable) same(e *tableEntry, k []int32) bool {
	at := int(e.at)
	if t.words[at+1] != k[1] {
		return false
	}
	for i, w := range k {
		if t.words[at+i] != w {
			return false
		}
	}
	return true
}

// get returns the node of k, nil if none.
func (t *keyTable) get(k []int32) *son.Node {
	if s := t.slots[t.slot(k, hashKey(k))]; s != 0 {
		return t.ents[s-1].node
	}
	return nil
}

// enter makes v the node of k unless a node is already, and returns
// that node.
func (t *keyTable) enter(k []int32, v *son.Node) *son.Node {
	h := hashKey(k)
	i := t.slot(k, h)
	if s := t.slots[i]; s != 0 {
		return t.ents[s-1].node
	}
	t.ents = append(t.ents, tableEntry{node: v, at: int32(len(t.words)), hash: h})
	t.words = append(t.words, k...)
	t.slots[i] = int32(len(t.ents))
	if 2*len(t.ents) >= len(t.slots) { // more than sized for: keep half empty
		t.rehash()
	}
	return v
}

// rehash doubles the slots and places every entry again.
func (t *keyTable) rehash() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := len(t.slots) - 1
	for e := range t.ents {
		i := int(t.ents[e].hash) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(e + 1)
	}
}
