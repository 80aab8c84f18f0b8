// The table that gives each distinct label its initial class in Number.
// Cost: O(1) expected per label.

package gvn

import "math/bits"

// labelTable numbers labels in the order they are first met, by open
// addressing with a hash of the label's fields: a Go map hashed the
// label (32 bytes then, 24 now) through the runtime's generic hash, and was a tenth of
// Number. It grows as the distinct labels do, which are far fewer than
// the values (an op and arity, a constant, a block's Phis).
type labelTable struct {
	keys  []label
	ids   []int32 // 1 + the label's number, 0 for an empty slot
	shift uint    // 64 - log2(len(keys))
	count int32
}

func newLabelTable() *labelTable {
	t := &labelTable{}
	t.resize(6)
	return t
}

// resize makes the table 1<<logSize slots, with the labels it held.
func (t *labelTable) resize(logSize int) {
	keys, ids := t.keys, t.ids
	t.keys, t.ids = make([]label, 1<<logSize), make([]int32, 1<<logSize)
	t.shift = uint(64 - logSize)
	for i, id := range ids {
		if id != 0 {
			t.put(keys[i], id)
		}
	}
}

func (t *labelTable) home(l label) int {
	h := uint64(l.aux) ^ uint64(l.block)<<24 ^ uint64(l.n)<<44 ^ uint64(l.op)<<8 ^ uint64(l.kind)
	return int((h * 0x9E3779B97F4A7C15) >> t.shift)
}

// put stores id (1 + a number) for l, which the table does not hold.
func (t *labelTable) put(l label, id int32) {
	mask := len(t.keys) - 1
	i := t.home(l)
	for t.ids[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.ids[i] = l, id
}

// number returns the number of l, giving it the next one (the count of
// labels met so far) if it has none.
func (t *labelTable) number(l label) int32 {
	mask := len(t.keys) - 1
	for i := t.home(l); t.ids[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == l {
			return t.ids[i] - 1
		}
	}
	if 4*(t.count+1) > 3*int32(len(t.keys)) {
		t.resize(bits.Len(uint(len(t.keys))))
	}
	n := t.count
	t.count++
	t.put(l, n+1)
	return n
}

// len returns the number of labels met.
func (t *labelTable) len() int { return int(t.count) }
