package dom

import "fmt"

// A Tree is a dominator tree, numbered so that dominance queries take O(1).
//
// The arrays the queries alone read are of int32, half the memory of int:
// trees of millions of vertices are built several times per compilation.
type Tree struct {
	Intervals  // preorder numbers (pre, -1 if unreachable) and subtree ends (last): Dominates
	idom       []int
	childStart []int32 // children of v are child[childStart[v]:childStart[v+1]]
	child      []int
	depth      []int32 // depth of v; 0 for the entry, -1 if unreachable
	jump       []int32 // an ancestor of v, for O(log n) climbs (see Jump)
	preorder   []int   // reachable vertices in preorder
}

// NewTree returns the dominator tree described by idom, as returned by
// LengauerTarjan or CooperHarveyKennedy. It takes O(n) time and panics if
// idom is not a tree rooted at 0.
func NewTree(idom []int) *Tree {
	n := len(idom)
	t := &Tree{
		idom:       idom,
		Intervals:  Intervals{pre: make([]int32, n), last: make([]int32, n)},
		childStart: make([]int32, n+1),
		depth:      make([]int32, n),
		jump:       make([]int32, n),
	}
	if n > 0 && idom[0] != 0 {
		panic(fmt.Sprintf("dom: idom[0] = %d, want 0", idom[0]))
	}

	// Children, in increasing vertex order.
	reachable := 0
	for v, d := range idom {
		if d < -1 || d >= n || (d == -1 && v == 0) || (d >= 0 && idom[d] < 0) {
			panic(fmt.Sprintf("dom: bad idom[%d] = %d", v, d))
		}
		if d >= 0 {
			reachable++
			if v != 0 {
				t.childStart[d+1]++
			}
		}
	}
	for v := range n {
		t.childStart[v+1] += t.childStart[v]
	}
	t.child = make([]int, t.childStart[n])
	fill := t.depth // scratch until the depths are set below
	copy(fill, t.childStart[:n])
	for v, d := range idom {
		if v != 0 && d >= 0 {
			t.child[fill[d]] = v
			fill[d]++
		}
	}

	// Preorder, with children in increasing order: push them reversed.
	for v := range n {
		t.pre[v] = -1
		t.last[v] = -1
		t.depth[v] = -1
		t.jump[v] = -1
	}
	t.preorder = make([]int, 0, reachable)
	var stack []int
	if n > 0 {
		stack = append(stack, 0)
		t.depth[0] = 0
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.pre[v] = int32(len(t.preorder))
		t.preorder = append(t.preorder, v)
		t.jump[v] = int32(t.skewJump(v))
		kids := t.Children(v)
		for i := len(kids) - 1; i >= 0; i-- {
			c := kids[i]
			t.depth[c] = t.depth[v] + 1
			stack = append(stack, c)
		}
	}
	if len(t.preorder) != reachable {
		panic("dom: idom has a cycle not through 0")
	}

	// Subtree ends, children before parents.
	for i := len(t.preorder) - 1; i >= 0; i-- {
		v := t.preorder[i]
		if t.last[v] < 0 {
			t.last[v] = int32(i) // a leaf
		}
		if v != 0 {
			if d := idom[v]; t.last[v] > t.last[d] {
				t.last[d] = t.last[v]
			}
		}
	}
	return t
}

// skewJump computes the jump pointer of v from those of its ancestors
// (Myers' skew-binary scheme): if the jumps of v's parent p and of p's jump
// span the same number of levels, v jumps over both, else to p.
func (t *Tree) skewJump(v int) int {
	if v == 0 {
		return 0
	}
	p := t.idom[v]
	if j := t.jump[p]; t.depth[p]-t.depth[j] == t.depth[j]-t.depth[t.jump[j]] {
		return int(t.jump[j])
	}
	return p
}

// Len returns the number of vertices of the graph, reachable or not.
func (t *Tree) Len() int { return len(t.idom) }

// Idom returns the immediate dominator of v: 0 for the entry, -1 if v is
// unreachable.
func (t *Tree) Idom(v int) int { return t.idom[v] }

// Children returns the vertices immediately dominated by v, in increasing
// order. The caller must not modify the slice.
func (t *Tree) Children(v int) []int {
	return t.child[t.childStart[v]:t.childStart[v+1]:t.childStart[v+1]]
}

// Depth returns the depth of v in the tree: 0 for the entry, -1 if v is
// unreachable.
func (t *Tree) Depth(v int) int { return int(t.depth[v]) }

// Preorder returns the reachable vertices in preorder of the tree, children
// in increasing order: every vertex comes after its dominators. The caller
// must not modify the slice.
func (t *Tree) Preorder() []int { return t.preorder }

// Jump returns an ancestor of v, strictly above it except for the entry
// (whose jump is itself), or -1 if v is unreachable. The jumps follow the
// skew-binary scheme of Myers ("An applicative random-access stack",
// 1983): from any vertex, the highest ancestor satisfying a property that
// holds of all ancestors above some depth is found in O(log depth) steps
// by taking the jump when it does not overshoot and the parent otherwise,
// with O(1) space per vertex.
func (t *Tree) Jump(v int) int { return int(t.jump[v]) }

// LCA returns the nearest common dominator of the reachable vertices a and
// b, in O(log n) steps.
func (t *Tree) LCA(a, b int) int {
	for !t.Dominates(a, b) {
		if j := int(t.jump[a]); !t.Dominates(j, b) {
			a = j
		} else {
			a = t.idom[a]
		}
	}
	return a
}
