package dom

// Intervals answers dominance queries in O(1) by the preorder numbers of a
// dominator tree: a dominates b when b's number lies between a's and the
// greatest in a's subtree. 8 bytes a vertex, where a Tree, which holds an
// Intervals for the same queries, keeps 44 for its searches too (jumps,
// depths, children, the preorder): a checker that only asks dominance
// (gcm.Check: on the `and` shape at 1 MB, 280,000 blocks, 10 MB at the
// pass's peak) builds this alone.
type Intervals struct {
	pre  []int32 // by vertex: its preorder number, -1 if unreachable
	last []int32 // by vertex: the greatest preorder number in its subtree
}

// NewIntervals numbers the tree given by idom (dom.CooperHarveyKennedy's:
// idom[0] = 0, -1 for an unreachable vertex). A vertex on no path of idom
// from 0 gets -1, as an unreachable one does: a query about it answers
// false, and nothing panics. O(n).
func NewIntervals[T int | int32](idom []T) Intervals {
	n := len(idom)
	t := Intervals{pre: make([]int32, n), last: make([]int32, n)}
	if n == 0 {
		return t
	}
	// Children, by counting: v's are child[start[v]:start[v+1]]. last
	// serves as each vertex's place to fill, then to visit, until its
	// subtree is numbered: the only arrays besides the result are the
	// lists (on the checkers' graphs, at the compiler's peak).
	start := make([]int32, n+1)
	for v, d := range idom {
		t.pre[v] = -1
		if v != 0 && d >= 0 && int(d) < n {
			start[d+1]++
		}
	}
	for v := range n {
		start[v+1] += start[v]
	}
	child := make([]int32, start[n])
	next := t.last // by vertex: its next child to fill, then to visit
	copy(next, start[:n])
	for v, d := range idom {
		if v != 0 && d >= 0 && int(d) < n {
			child[next[d]] = int32(v)
			next[d]++
		}
	}
	copy(next, start[:n])
	// Depth first from 0, with no stack: a child's way back up is its
	// idom. A vertex's number on entry, its subtree's greatest on exit.
	count := int32(1)
	t.pre[0] = 0
	for v := 0; ; {
		if next[v] < start[v+1] {
			c := child[next[v]]
			next[v]++
			if t.pre[c] < 0 {
				t.pre[c] = count
				count++
				v = int(c)
			}
			continue
		}
		t.last[v] = count - 1
		if v == 0 {
			break
		}
		v = int(idom[v])
	}
	for v, p := range t.pre {
		if p < 0 {
			t.last[v] = -1
		}
	}
	return t
}

// Reachable reports whether v is reachable from the entry (on a path of
// the tree from it).
func (t Intervals) Reachable(v int) bool { return t.pre[v] >= 0 }

// Pre returns the number of v in the preorder of the tree, children in
// increasing order (Tree.Preorder's order), or -1 if v is unreachable:
// a vertex comes after its dominators.
func (t Intervals) Pre(v int) int { return int(t.pre[v]) }

// Dominates reports whether a dominates b. Every reachable vertex
// dominates itself; an unreachable vertex dominates nothing and is
// dominated by nothing.
func (t Intervals) Dominates(a, b int) bool {
	pa, pb := t.pre[a], t.pre[b]
	return pa >= 0 && pb >= 0 && pa <= pb && pb <= t.last[a]
}

// StrictlyDominates reports whether a dominates b and a != b.
func (t Intervals) StrictlyDominates(a, b int) bool {
	return a != b && t.Dominates(a, b)
}
