package dom

import (
	"math/rand"
	"slices"
	"testing"
)

// TestChildrenAgreeWithTree: on random graphs, some of whose vertices are
// unreachable, Children lists every vertex's children as Tree does, in
// the same order; and on a fixed tree, the lists by hand.
func TestChildrenAgreeWithTree(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	for iter := range 300 {
		n := 1 + r.Intn(40)
		start := make([]int32, n+1)
		var succ []int32
		for v := range n {
			for range r.Intn(3) {
				succ = append(succ, int32(r.Intn(n)))
			}
			start[v+1] = int32(len(succ))
		}
		idom := LengauerTarjanFlat(start, succ)
		tree := NewTree(append([]int(nil), idom...))
		c := NewChildren(idom)
		for v := range n {
			var got []int
			for _, k := range c.Of(v) {
				got = append(got, int(k))
			}
			if want := tree.Children(v); !slices.Equal(got, want) {
				t.Fatalf("graph %d, %d vertices: children of %d %v, Tree's %v", iter, n, v, got, want)
			}
		}
	}
	// 0 → 1, 2; 2 → 4; 3 unreachable.
	c := NewChildren([]int{0, 0, 0, -1, 2})
	want := [][]int32{{1, 2}, nil, {4}, nil, nil}
	for v, w := range want {
		if got := c.Of(v); !slices.Equal(got, w) {
			t.Errorf("children of %d: %v, want %v", v, got, w)
		}
	}
}
