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
		n, start, succ := randomFlat(r)
		idom := LengauerTarjanFlat(start, succ)
		tree := NewTree(append([]int(nil), idom...))
		c := NewChildren(idom)
		c32 := NewChildren(LengauerTarjanFlat32(start, succ))
		for v := range n {
			var got []int
			for _, k := range c.Of(v) {
				got = append(got, int(k))
			}
			if want := tree.Children(v); !slices.Equal(got, want) {
				t.Fatalf("graph %d, %d vertices: children of %d %v, Tree's %v", iter, n, v, got, want)
			}
			if got32 := c32.Of(v); !slices.Equal(got32, c.Of(v)) {
				t.Fatalf("graph %d, %d vertices: children of %d from int32 %v, from int %v", iter, n, v, got32, c.Of(v))
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
