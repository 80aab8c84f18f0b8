// The index's table from a node's structure (op, aux, canonical inputs) to
// the node that represents it.

package buildcheck

import (
	"math/bits"

	"son/son"
)

// keyTable maps keys to node IDs by open addressing. A key is laid out flat
// in int32 words — op and whether it is the Top constant (apart from the
// constant 0), the number of inputs, aux in two halves, then each input's
// ID (0 for nil or an input that does not matter). The table keeps no key:
// a slot is one word, the node's ID and, in the bits the IDs leave free,
// the top bits of its key's hash; the key of an entry is made again from
// its node (keyOf) when those bits agree. An entry costs 8 to 16 bytes
// where keeping the keys cost about 45: the table was most of the index,
// itself a fifth of the builder's checker's peak (docs/PERFORMANCE.md,
// "Peak memory: levers").
type keyTable struct {
	slots []uint32 // id | tag<<idBits, 0 for none; a power of two long, at most half full
	n     int      // entries
	// idBits is the width of the largest ID the table may hold; the
	// other 32-idBits bits of a slot hold the hash's top bits.
	idBits uint
	buf    []int32 // the key being looked up
	other  []int32 // an entry's key, made again to compare
	// keyOf lays out in dst the key the node id was entered with.
	keyOf func(dst []int32, id int32) []int32
}

// keyHead is the number of words of a key before the inputs.
const keyHead = 4

// newKeyTable makes a table for at most entries keys of nodes with IDs
// below maxID, so that it never grows: newIndex knows both from the graph.
func newKeyTable(entries, maxID int, keyOf func(dst []int32, id int32) []int32) *keyTable {
	return &keyTable{
		slots:  make([]uint32, 1<<bits.Len(uint(2*entries+1))),
		idBits: min(uint(bits.Len(uint(maxID))), 32),
		keyOf:  keyOf,
	}
}

// keyStart lays out a key's head in dst: op, top, the number of inputs n,
// aux. The inputs' IDs follow.
func keyStart(dst []int32, op son.Op, top bool, aux int64, n int) []int32 {
	head := int32(op)
	if top {
		head |= 1 << 8
	}
	return append(dst[:0], head, int32(n), int32(aux), int32(aux>>32))
}

// key lays out the key of op, top, aux and inputs in t.buf.
func (t *keyTable) key(op son.Op, top bool, aux int64, in []*son.Node) []int32 {
	k := keyStart(t.buf, op, top, aux, len(in))
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

// tag is h's top bits, placed above the ID in a slot (0 when IDs take
// all 32 bits).
func (t *keyTable) tag(h uint32) uint32 {
	if t.idBits >= 32 {
		return 0
	}
	return h >> t.idBits << t.idBits
}

// slot returns where k is in slots, or the empty slot where it would go.
func (t *keyTable) slot(k []int32, h uint32) int {
	mask := len(t.slots) - 1
	tag, idMask := t.tag(h), uint32(1)<<t.idBits-1
	if t.idBits >= 32 {
		idMask = ^uint32(0)
	}
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return i
		}
		if s&^idMask == tag && t.same(int32(s&idMask), k) {
			return i
		}
	}
}

// same reports whether the key of entry id is k.
func (t *keyTable) same(id int32, k []int32) bool {
	t.other = t.keyOf(t.other[:0], id)
	e := t.other
	if len(e) != len(k) {
		return false
	}
	for i, w := range k {
		if e[i] != w {
			return false
		}
	}
	return true
}

// id is the node ID in slot value s.
func (t *keyTable) id(s uint32) int32 {
	if t.idBits >= 32 {
		return int32(s)
	}
	return int32(s & (1<<t.idBits - 1))
}

// get returns the node ID of k, 0 if none.
func (t *keyTable) get(k []int32) int32 {
	return t.id(t.slots[t.slot(k, hashKey(k))])
}

// enter makes id the node of k unless a node is already, and returns
// that node's ID. id must be positive and below the table's maxID.
func (t *keyTable) enter(k []int32, id int32) int32 {
	h := hashKey(k)
	i := t.slot(k, h)
	if s := t.slots[i]; s != 0 {
		return t.id(s)
	}
	t.slots[i] = uint32(id) | t.tag(h)
	t.n++
	if 2*t.n >= len(t.slots) { // more than sized for: keep half empty
		t.rehash()
	}
	return id
}

// rehash doubles the slots and places every entry again, its hash from
// its key made again.
func (t *keyTable) rehash() {
	old := t.slots
	t.slots = make([]uint32, 2*len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		t.other = t.keyOf(t.other[:0], t.id(s))
		i := int(hashKey(t.other)) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
