package gcm

// intervals answers Check's dominance queries by the preorder numbers of
// the dominator tree: 8 bytes a block, where a dom.Tree keeps 44 (its
// jumps, depths, children and orders serve searches Check does not make:
// on the `and` shape at 1 MB, 280,000 blocks, 10 MB at the pass's peak).
type intervals struct {
	pre  []int32 // by vertex: its preorder number, -1 if unreachable
	last []int32 // by vertex: the greatest preorder number in its subtree
}

// newIntervals numbers the tree given by idom (dom.CooperHarveyKennedy's:
// idom[0] = 0, -1 for an unreachable vertex). A vertex on no path of idom
// from 0 gets -1, as an unreachable one does: a query about it answers
// false, and nothing panics. O(n).
func newIntervals(idom []int) intervals {
	n := len(idom)
	t := intervals{pre: make([]int32, n), last: make([]int32, n)}
	if n == 0 {
		return t
	}
	// Children, by counting: v's are child[start[v]:start[v+1]].
	start := make([]int32, n+1)
	for v, d := range idom {
		t.pre[v], t.last[v] = -1, -1
		if v != 0 && d >= 0 && d < n {
			start[d+1]++
		}
	}
	for v := range n {
		start[v+1] += start[v]
	}
	child := make([]int32, start[n])
	next := make([]int32, n) // by vertex: its next child to fill, then to visit
	copy(next, start[:n])
	for v, d := range idom {
		if v != 0 && d >= 0 && d < n {
			child[next[d]] = int32(v)
			next[d]++
		}
	}
	copy(next, start[:n])
	// Depth first from 0: a vertex's number on entry, its subtree's
	// greatest on exit.
	count := int32(1)
	t.pre[0] = 0
	stack := []int32{0}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		if next[v] < start[v+1] {
			c := child[next[v]]
			next[v]++
			if t.pre[c] < 0 {
				t.pre[c] = count
				count++
				stack = append(stack, c)
			}
			continue
		}
		t.last[v] = count - 1
		stack = stack[:len(stack)-1]
	}
	return t
}

// strictlyDominates reports whether a dominates b and a != b; an
// unreachable block dominates nothing and is dominated by nothing.
func (t intervals) strictlyDominates(a, b int) bool {
	pa, pb := t.pre[a], t.pre[b]
	return a != b && pa >= 0 && pb >= 0 && pa <= pb && pb <= t.last[a]
}
