package buildcheck

import (
	"testing"

	"son/son"
)

// TestKeyTable enters keys that differ in one word each — the op, Top, the
// number of inputs, either half of aux, an input beyond the third — into a
// table sized for fewer (so that it rehashes), and finds each one's node
// again; the keys, made again from their node's ID as the index does,
// compare equal only to themselves, a key never entered finds nothing, and
// a key entered twice keeps its first node.
func TestKeyTable(t *testing.T) {
	nodes := make([]*son.Node, 8)
	for i := range nodes {
		nodes[i] = &son.Node{ID: i + 1}
	}
	a, b := nodes[0], nodes[1]
	type entry struct {
		op  son.Op
		top bool
		aux int64
		in  []*son.Node
	}
	keys := []entry{
		{son.OpAdd, false, 0, []*son.Node{nil, a, b}},
		{son.OpSub, false, 0, []*son.Node{nil, a, b}},
		{son.OpAdd, false, 0, []*son.Node{nil, b, a}},
		{son.OpAdd, false, 0, []*son.Node{nil, a}},
		{son.OpConstant, false, 0, []*son.Node{nil}},
		{son.OpConstant, true, 0, []*son.Node{nil}},
		{son.OpConstant, false, 1 << 32, []*son.Node{nil}},
		{son.OpConstant, false, 1, []*son.Node{nil}},
		{son.OpPhi, false, 0, []*son.Node{a, b, a, b, a}},
		{son.OpPhi, false, 0, []*son.Node{a, b, a, b, b}},
	}
	var many []entry // enough to rehash a table sized for len(keys)
	for i := range 1000 {
		many = append(many, entry{son.OpConstant, false, int64(i) + 2, nil})
	}
	all := append(keys, many...)
	// The key of node 100+i is all[i]'s, made again as the index makes an
	// entry's key from its node.
	keyOf := func(dst []int32, id int32) []int32 {
		k := all[id-100]
		dst = keyStart(dst, k.op, k.top, k.aux, len(k.in))
		for _, x := range k.in {
			y := int32(0)
			if x != nil {
				y = int32(x.ID)
			}
			dst = append(dst, y)
		}
		return dst
	}
	// IDs under 2^11 leave 21 bits of the hash in a slot; under 2^31, one;
	// up to 2^32, none: then every entry on the way is compared.
	for _, maxID := range []int{100 + len(all), 1<<31 - 1, 1 << 32} {
		tb := newKeyTable(len(keys), maxID, keyOf)
		for i, k := range all {
			id := int32(100 + i)
			if got := tb.enter(tb.key(k.op, k.top, k.aux, k.in), id); got != id {
				t.Fatalf("maxID %d, key %d: entered as new, the table gave %d", maxID, i, got)
			}
		}
		if len(tb.slots) < 2*len(all) {
			t.Errorf("%d slots for %d entries: the table did not grow", len(tb.slots), len(all))
		}
		for i, k := range all {
			if got := tb.get(tb.key(k.op, k.top, k.aux, k.in)); got != int32(100+i) {
				t.Fatalf("maxID %d, key %d: found %d, want %d", maxID, i, got, 100+i)
			}
		}
		// Keys compare word by word, not by hash alone: each of the keys
		// above against the entry of every other.
		for i := range keys {
			for j, k := range keys {
				if same := tb.same(int32(100+i), tb.key(k.op, k.top, k.aux, k.in)); same != (i == j) {
					t.Errorf("entry %d against key %d: same is %v", i, j, same)
				}
			}
		}
		if got := tb.enter(tb.key(son.OpAdd, false, 0, []*son.Node{nil, a, b}), int32(nodes[7].ID)); got != 100 {
			t.Errorf("key 0 entered again: got %d, want the first node 100", got)
		}
		if got := tb.get(tb.key(son.OpMul, false, 0, []*son.Node{nil, a, b})); got != 0 {
			t.Errorf("a key never entered found %d", got)
		}
	}
}
