package dom

import "fmt"

// flatten lays successor lists out flat, as the algorithms read them:
// vertex v's successors are succ[start[v]:start[v+1]]. Plumbing, not
// part of either algorithm: each reads the flat lists its own way. It
// panics if a successor is out of range.
func flatten(lists [][]int) (start, succ []int32) {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	start, succ = make([]int32, len(lists)+1), make([]int32, 0, n)
	for v, l := range lists {
		for _, w := range l {
			if w < 0 || w >= len(lists) {
				panic(fmt.Sprintf("dom: successor %d of vertex %d is not a vertex of the %d", w, v, len(lists)))
			}
			succ = append(succ, int32(w))
		}
		start[v+1] = int32(len(succ))
	}
	return start, succ
}
