package dom

// CooperHarveyKennedy returns the immediate dominators of the graph succ with
// entry 0, by the iterative algorithm of Cooper, Harvey and Kennedy: visit
// the vertices in reverse postorder, intersecting the dominators of their
// processed predecessors by walking up to equal postorder numbers, until
// nothing changes. Each pass is O(n + m); the number of passes is small on
// control flow graphs but O(n) in the worst case. O(n + m) memory. See the
// package comment for the contract. It panics if a successor is out of range.
//
// K. D. Cooper, T. J. Harvey and K. Kennedy, "A Simple, Fast Dominance
// Algorithm", 2001.
func CooperHarveyKennedy(succ [][]int) []int {
	return CooperHarveyKennedyFlat(flatten(succ))
}

// CooperHarveyKennedyFlat is CooperHarveyKennedy on successor lists laid
// out flat: vertex v's successors are succ[start[v]:start[v+1]], and there
// are len(start)-1 vertices. A list per vertex costs a 24-byte header
// each; this form costs 4 bytes (the checkers' graphs of hundreds of
// thousands of control nodes are made at the compiler's peak). The
// algorithm reads the flat lists directly (it took a closure per list,
// called some 5 times a vertex, a fifth of its time).
func CooperHarveyKennedyFlat(start, succ []int32) []int {
	return cooperHarveyKennedy[int](start, succ)
}

// CooperHarveyKennedyFlat32 is CooperHarveyKennedyFlat with idom as
// int32, half the bytes, for NewIntervals to read (the zerocheck pass's
// checker).
func CooperHarveyKennedyFlat32(start, succ []int32) []int32 {
	return cooperHarveyKennedy[int32](start, succ)
}

// cooperHarveyKennedy is CooperHarveyKennedyFlat, with idom's entries of
// type T.
func cooperHarveyKennedy[T int | int32](start, succ []int32) []T {
	nv := max(len(start)-1, 0)
	if nv == 0 {
		return []T{}
	}

	// Postorder of a depth-first search from 0: post[v] is the postorder
	// number of v (-1 if unreachable), order[i] the vertex numbered i. The
	// entry gets the highest number. The work arrays are of int32, half
	// the memory (in the compiler's checkers they are at its peak).
	const (
		unseen  = -1
		onStack = -2
	)
	post := make([]int32, nv)
	for v := range post {
		post[v] = unseen
	}
	order := make([]int32, 0, nv)
	// The search keeps by vertex its parent (up) and the place in succ of
	// its next edge (edge), with no stack (a stack of frames grew as deep
	// as the graph: a chain of hundreds of thousands of blocks or control
	// nodes). The two arrays then hold the dominators and the starts of
	// the predecessor lists.
	up := make([]int32, nv)
	edge := make([]int32, nv+1)
	post[0], up[0], edge[0] = onStack, -1, start[0]
	for v := int32(0); v >= 0; {
		if edge[v] < start[v+1] {
			w := succ[edge[v]]
			edge[v]++
			if post[w] == unseen {
				post[w], up[w], edge[w] = onStack, v, start[w]
				v = w
			}
			continue
		}
		post[v] = int32(len(order))
		order = append(order, v)
		v = up[v]
	}
	n := len(order)
	entry := int32(n - 1)

	// Predecessor lists by postorder number: predStart[j] counts j's,
	// then is the end of its list, then, filled backwards from there, its
	// start (no array of places to fill beside it).
	predStart := edge[:n+1]
	clear(predStart)
	for _, v := range order {
		for _, w := range succ[start[v]:start[v+1]] {
			predStart[post[w]]++
		}
	}
	for i := 1; i < n; i++ {
		predStart[i] += predStart[i-1]
	}
	predStart[n] = predStart[n-1]
	preds := make([]int32, predStart[n])
	for i := n - 1; i >= 0; i-- { // each list in increasing order
		v := order[i]
		for _, w := range succ[start[v]:start[v+1]] {
			j := post[w]
			predStart[j]--
			preds[predStart[j]] = int32(i)
		}
	}

	// doms[b] is the current dominator of b, by postorder number, or -1
	// while undefined.
	doms := up[:n]
	for i := range doms {
		doms[i] = -1
	}
	doms[entry] = entry
	for changed := true; changed; {
		changed = false
		for b := entry - 1; b >= 0; b-- { // reverse postorder
			d := int32(-1)
			for _, p := range preds[predStart[b]:predStart[b+1]] {
				if doms[p] < 0 {
					continue
				}
				if d < 0 {
					d = p
					continue
				}
				// Intersect: walk the finger with the lower
				// postorder number up until they meet.
				f := p
				for f != d {
					for f < d {
						f = doms[f]
					}
					for d < f {
						d = doms[d]
					}
				}
			}
			if doms[b] != d {
				doms[b] = d
				changed = true
			}
		}
	}

	// The result is made last, when the work arrays but order and doms
	// are garbage: in a checker at the compiler's peak it is the largest.
	idom := make([]T, nv)
	for v := range idom {
		idom[v] = -1
	}
	for i, v := range order {
		idom[v] = T(order[doms[i]])
	}
	return idom
}
