package dom

// LengauerTarjan returns the immediate dominators of the graph succ with
// entry 0, by the simple Lengauer–Tarjan algorithm (path compression, no
// balancing): O(m log n) time, O(n + m) memory. See the package comment for
// the contract. It panics if a successor is out of range.
//
// T. Lengauer and R. E. Tarjan, "A fast algorithm for finding dominators in
// a flowgraph", TOPLAS 1(1), 1979.
//
// Its arrays are of int32 (a graph has fewer than 2^31 vertices and
// edges): it runs on every graph of millions of nodes several times per
// compilation, and its dozen arrays are then a large part of the peak
// memory.
func LengauerTarjan(succ [][]int) []int {
	return LengauerTarjanFlat(flatten(succ))
}

// LengauerTarjanFlat is LengauerTarjan on successor lists laid out flat,
// as CooperHarveyKennedyFlat takes them: vertex v's successors are
// succ[start[v]:start[v+1]].
//
// The lists are read where they lie, with no call per vertex, and the
// forest is evaluated by a method on its arrays (forest.eval), not by a
// closure over them: the zerocheck pass, reguard, gcm, gvn and outssa
// each run the algorithm on every graph.
func LengauerTarjanFlat(start, succ []int32) []int { return lengauerTarjan[int](start, succ) }

// LengauerTarjanFlat32 is LengauerTarjanFlat with idom as int32, half the
// bytes, for NewChildren or NewIntervals to read (the zerocheck pass).
func LengauerTarjanFlat32(start, succ []int32) []int32 { return lengauerTarjan[int32](start, succ) }

// lengauerTarjan is LengauerTarjanFlat, with idom's entries of type T.
func lengauerTarjan[T int | int32](start, succ []int32) []T {
	nv := max(len(start)-1, 0)
	if nv == 0 {
		return []T{}
	}

	// Depth-first search from 0. Everything below works on preorder
	// numbers: num[v] is the number of vertex v (-1 if unreachable) and
	// vertex[i] the vertex numbered i.
	num := make([]int32, nv)
	for v := range num {
		num[v] = -1
	}
	vertex := make([]int32, 1, nv)
	parent := make([]int32, 1, nv) // parent[i]: preorder number of i's DFS parent
	parent[0] = -1
	num[0] = 0
	// The search's stack is the path of parents from the vertex it is at,
	// i, up to 0: fill[i] is the place in succ of i's next edge. (A stack
	// of frames grew by a quarter at a time on a graph as deep as it is
	// long, the shape `and`: five times its size allocated per call.)
	fill := make([]int32, nv)
	fill[0] = start[0]
	for i := int32(0); i >= 0; {
		if fill[i] == start[vertex[i]+1] {
			i = parent[i]
			continue
		}
		w := succ[fill[i]]
		fill[i]++
		if num[w] < 0 {
			j := int32(len(vertex))
			num[w] = j
			vertex = append(vertex, w)
			parent = append(parent, i)
			fill[j] = start[w]
			i = j
		}
	}
	n := len(vertex)

	// Predecessors, by preorder number, of the reachable vertices.
	predStart := make([]int32, n+1)
	for _, v := range vertex {
		for _, w := range succ[start[v]:start[v+1]] {
			predStart[num[w]+1]++
		}
	}
	for i := 1; i <= n; i++ {
		predStart[i] += predStart[i-1]
	}
	pred := make([]int32, predStart[n])
	fill = fill[:n]
	copy(fill, predStart[:n])
	for i, v := range vertex {
		for _, w := range succ[start[v]:start[v+1]] {
			j := num[w]
			pred[fill[j]] = int32(i)
			fill[j]++
		}
	}

	// num and fill are done with: semi and label take their arrays. The
	// forest of linked vertices lives in parent: a vertex's ancestor is
	// its parent until a compression moves it up, and the vertices linked
	// are those from f.min up (each is linked in its turn, the highest
	// first), so that no array of ancestors is needed; dom takes next's
	// array, as each vertex's dominator is written when its bucket is
	// emptied, after which its next is not read. The work arrays live at
	// once are eight, not twelve.
	semi := num[:n]            // semidominator, then its number
	label := fill[:n]          // vertex of least semi on the compressed path
	bucket := make([]int32, n) // head of the list of vertices with semi i
	next := make([]int32, n)   // next vertex in the same bucket
	dom := next                // (relative) dominator, once out of its bucket
	for i := range int32(n) {
		semi[i] = i
		label[i] = i
		bucket[i] = -1
	}
	f := forest{ancestor: parent, label: label, semi: semi}

	for w := int32(n - 1); w > 0; w-- {
		f.min = w + 1
		for _, v := range pred[predStart[w]:predStart[w+1]] {
			if u := f.eval(v); semi[u] < semi[w] {
				semi[w] = semi[u]
			}
		}
		next[w] = bucket[semi[w]]
		bucket[semi[w]] = w
		p := parent[w]
		f.min = w // link: w's ancestor is p
		for v := bucket[p]; v >= 0; {
			after := next[v] // read before dom[v], in the same array, is written
			if u := f.eval(v); semi[u] < semi[v] {
				dom[v] = u
			} else {
				dom[v] = p
			}
			v = after
		}
		bucket[p] = -1
	}
	for w := 1; w < n; w++ {
		if dom[w] != semi[w] {
			dom[w] = dom[dom[w]]
		}
	}

	// The result is made last, when the work arrays but vertex and dom
	// are garbage (in the zerocheck pass, at the compiler's peak).
	idom := make([]T, nv)
	for v := range idom {
		idom[v] = -1
	}
	idom[0] = 0
	for w := 1; w < n; w++ {
		idom[vertex[w]] = T(vertex[dom[w]])
	}
	return idom
}

// forest is the algorithm's forest of linked vertices, with the path of
// eval's compression, reused: the vertices from min up are linked, each to
// its ancestor; the others are roots.
type forest struct {
	ancestor, label, semi []int32
	min                   int32
	path                  []int32
}

// eval returns the vertex of least semidominator on the forest path from v
// up to (not including) its root, or v itself if v is a root, compressing
// the path on the way.
func (f *forest) eval(v int32) int32 {
	ancestor, label, semi, linked := f.ancestor, f.label, f.semi, f.min
	if v < linked {
		return v
	}
	if ancestor[v] < linked { // v's parent is a root: nothing to compress
		return label[v]
	}
	path := f.path[:0]
	for u := v; ancestor[u] >= linked; u = ancestor[u] {
		path = append(path, u)
	}
	for k := len(path) - 1; k >= 0; k-- {
		u := path[k]
		a := ancestor[u]
		if semi[label[a]] < semi[label[u]] {
			label[u] = label[a]
		}
		ancestor[u] = ancestor[a]
	}
	f.path = path
	return label[v]
}
