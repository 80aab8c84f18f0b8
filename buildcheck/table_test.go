package buildcheck

import (
	"testing"

	"son/son"
)

// TestKeyTable enters keys that differ in one word each — the op, Top, the
// number of inputs, either half of aux, an input beyond the third — into a
// table sized for fewer (so that it rehashes), and finds each one's node
// again; the keys compare equal only to themselves, a key never entered
// finds nothing, and a key entered twice keeps its first node.
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
	tb := newKeyTable(len(keys), 0)
	made := map[int]*son.Node{}
	for i, k := range append(keys, many...) {
		v := &son.Node{ID: 100 + i}
		made[i] = v
		if got := tb.enter(tb.key(k.op, k.top, k.aux, k.in), v); got != v {
			t.Fatalf("key %d: entered as new, the table gave %v", i, got)
		}
	}
	for i, k := range append(keys, many...) {
		if got := tb.get(tb.key(k.op, k.top, k.aux, k.in)); got != made[i] {
			t.Fatalf("key %d: found %v, want %v", i, got, made[i])
		}
	}
	// Keys compare word by word, not by hash alone: each of the keys
	// above against the entry of every other.
	for i := range keys {
		for j, k := range keys {
			if same := tb.same(&tb.ents[i], tb.key(k.op, k.top, k.aux, k.in)); same != (i == j) {
				t.Errorf("entry %d against key %d: same is %v", i, j, same)
			}
		}
	}
	if got := tb.enter(tb.key(son.OpAdd, false, 0, []*son.Node{nil, a, b}), nodes[7]); got != made[0] {
		t.Errorf("key 0 entered again: got %v, want the first node %v", got, made[0])
	}
	if got := tb.get(tb.key(son.OpMul, false, 0, []*son.Node{nil, a, b})); got != nil {
		t.Errorf("a key never entered found %v", got)
	}
}
