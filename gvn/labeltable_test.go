package gvn

import (
	"testing"

	"son/cfg"
)

// TestLabelTable numbers labels in the order first met, through the
// table's growth, and gives a label met again its first number.
func TestLabelTable(t *testing.T) {
	tab := newLabelTable()
	var ls []label
	for i := range 500 {
		// Labels that differ in one field each, and constants whose
		// fields could collide in the hash.
		ls = append(ls,
			label{kind: 1, op: cfg.OpConst, aux: int64(i)},
			label{kind: 1, op: cfg.OpAdd, n: int32(i)},
			label{kind: 2, block: int32(i), n: 2},
			label{kind: 1, op: cfg.OpConst, aux: int64(i)<<24 | 1<<50})
	}
	for pass := range 2 {
		for k, l := range ls {
			if got := tab.number(l); got != int32(k) {
				t.Fatalf("pass %d: label %d %+v got number %d, want %d", pass, k, l, got, k)
			}
		}
		if tab.len() != len(ls) {
			t.Fatalf("pass %d: %d labels, want %d", pass, tab.len(), len(ls))
		}
	}
}
