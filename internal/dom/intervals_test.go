package dom

import (
	"math/rand"
	"slices"
	"testing"
)

// randomFlat returns a random graph of 1 to 40 vertices, flat (start,
// succ), each vertex with up to two successors anywhere: some vertices
// are unreachable.
func randomFlat(r *rand.Rand) (n int, start, succ []int32) {
	n = 1 + r.Intn(40)
	start = make([]int32, n+1)
	for v := range n {
		for range r.Intn(3) {
			succ = append(succ, int32(r.Intn(n)))
		}
		start[v+1] = int32(len(succ))
	}
	return n, start, succ
}

// TestIntervalsAgreeWithTree: on random graphs, some of whose vertices
// are unreachable, Intervals answers every strict-dominance query as
// Tree does, numbers the vertices in Tree's preorder, and finds reachable
// the vertices that have an idom.
func TestIntervalsAgreeWithTree(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	for iter := range 300 {
		n, start, succ := randomFlat(r)
		idom := CooperHarveyKennedyFlat(start, succ)
		tree := NewTree(append([]int(nil), idom...))
		iv := NewIntervals(idom)
		if iv32 := NewIntervals(CooperHarveyKennedyFlat32(start, succ)); !slices.Equal(iv32.pre, iv.pre) || !slices.Equal(iv32.last, iv.last) {
			t.Fatalf("graph %d, %d vertices: from int32 %v %v, from int %v %v", iter, n, iv32.pre, iv32.last, iv.pre, iv.last)
		}
		pre := make([]int, n)
		for v := range pre {
			pre[v] = -1
		}
		for k, v := range tree.Preorder() {
			pre[v] = k
		}
		for a := range n {
			if iv.Pre(a) != pre[a] {
				t.Fatalf("graph %d, %d vertices: Pre(%d) = %d, Tree's preorder %d", iter, n, a, iv.Pre(a), pre[a])
			}
			if got, want := iv.Reachable(a), idom[a] >= 0; got != want {
				t.Fatalf("graph %d, %d vertices: Reachable(%d) = %v, idom %d", iter, n, a, got, idom[a])
			}
			for b := range n {
				if got, want := iv.StrictlyDominates(a, b), tree.StrictlyDominates(a, b); got != want {
					t.Fatalf("graph %d, %d vertices: StrictlyDominates(%d, %d) = %v, Tree says %v", iter, n, a, b, got, want)
				}
			}
		}
	}
}

// TestIntervalsBrokenTree: vertices on a cycle of idom not through 0 are
// treated as unreachable, with no panic.
func TestIntervalsBrokenTree(t *testing.T) {
	iv := NewIntervals([]int{0, 0, 3, 2, 1})
	for _, c := range []struct {
		a, b int
		want bool
	}{{0, 1, true}, {0, 4, true}, {1, 4, true}, {4, 1, false}, {1, 1, false}, {0, 2, false}, {2, 3, false}, {3, 2, false}} {
		if got := iv.StrictlyDominates(c.a, c.b); got != c.want {
			t.Errorf("StrictlyDominates(%d, %d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if got := NewIntervals[int](nil); len(got.pre) != 0 {
		t.Errorf("NewIntervals(nil) has %d vertices", len(got.pre))
	}
}
