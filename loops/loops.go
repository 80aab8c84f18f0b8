package loops

import (
	"fmt"

	"son/cfg"
	"son/internal/dom"
)

// Forest is what Analyze finds in a function: block positions, the
// dominator tree over them, reverse postorder, and the natural loops.
type Forest struct {
	F     *cfg.Func
	Pos   map[*cfg.Block]int // position of each block in F.Blocks
	Tree  *dom.Tree          // over positions
	RPO   []int              // reachable positions in reverse postorder
	Loops []*Loop            // by header, in reverse postorder: outer loops before inner ones
	Of    []*Loop            // the innermost loop of each position, or nil
	rpo   []int              // rpo[pos] is the index in RPO, -1 if unreachable
}

// Loop is a natural loop: its header, which dominates it, and the blocks
// from which a back edge reaches the header.
type Loop struct {
	Header  *cfg.Block
	Latches []*cfg.Block // sources of the back edges, in the order of Header.Preds
	Parent  *Loop        // the innermost loop around it, or nil
	Depth   int          // 1 for an outermost loop
	Blocks  []int        // positions of its blocks, header first, then in reverse postorder
}

// Analyze computes the loop forest of f. Control flow that is not
// reducible (a retreating edge to a block that does not dominate its
// source) is an error naming the edge.
func Analyze(f *cfg.Func) (*Forest, error) {
	n := len(f.Blocks)
	a := &Forest{F: f, Pos: make(map[*cfg.Block]int, n), Of: make([]*Loop, n), rpo: make([]int, n)}
	for i, b := range f.Blocks {
		a.Pos[b] = i
	}
	succ := make([][]int, n)
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			j, ok := a.Pos[s]
			if !ok {
				return nil, fmt.Errorf("loops: %v: successor %v is not a block of the function", b, s)
			}
			succ[i] = append(succ[i], j)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("loops: function %s has no blocks", f.Name)
	}
	a.Tree = dom.NewTree(dom.CooperHarveyKennedy(succ))
	a.RPO = reversePostorder(succ)
	for i := range a.rpo {
		a.rpo[i] = -1
	}
	for k, v := range a.RPO {
		a.rpo[v] = k
	}

	// Back edges, and the check that every retreating edge is one.
	isHeader := make([]bool, n)
	for _, u := range a.RPO {
		for _, v := range succ[u] {
			if a.rpo[v] > a.rpo[u] {
				continue
			}
			if !a.Tree.Dominates(v, u) {
				return nil, fmt.Errorf("loops: %v -> %v: irreducible control flow (%v does not dominate %v)", f.Blocks[u], f.Blocks[v], f.Blocks[v], f.Blocks[u])
			}
			isHeader[v] = true
		}
	}

	// Bodies, inner loops first (headers in decreasing reverse postorder):
	// walk back from the latches; a block already in an inner loop stands
	// for that whole loop, entered at its header.
	stamp := make([]int, n)
	for k := len(a.RPO) - 1; k >= 0; k-- {
		h := a.RPO[k]
		if !isHeader[h] {
			continue
		}
		hb := f.Blocks[h]
		l := &Loop{Header: hb}
		var work []int
		for _, p := range hb.Preds {
			if j := a.Pos[p]; a.Tree.Dominates(h, j) {
				l.Latches = append(l.Latches, p)
				work = append(work, j)
			}
		}
		stamp[h] = k + 1
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if stamp[x] == k+1 {
				continue
			}
			stamp[x] = k + 1
			if in := a.Of[x]; in != nil {
				for in.Parent != nil {
					in = in.Parent
				}
				if in == l {
					continue
				}
				in.Parent = l
				hx := a.Pos[in.Header]
				stamp[hx] = k + 1
				for _, p := range in.Header.Preds {
					if j := a.Pos[p]; !a.Tree.Dominates(hx, j) {
						work = append(work, j)
					}
				}
				continue
			}
			a.Of[x] = l
			for _, p := range f.Blocks[x].Preds {
				if j, ok := a.Pos[p]; ok && a.Tree.Reachable(j) {
					work = append(work, j)
				}
			}
		}
		a.Of[h] = l
		a.Loops = append(a.Loops, l)
	}
	// Loops in reverse postorder of their headers, depths, block lists.
	for i, j := 0, len(a.Loops)-1; i < j; i, j = i+1, j-1 {
		a.Loops[i], a.Loops[j] = a.Loops[j], a.Loops[i]
	}
	for _, l := range a.Loops {
		l.Depth = 1
		if l.Parent != nil {
			l.Depth = l.Parent.Depth + 1
		}
	}
	for _, v := range a.RPO {
		for l := a.Of[v]; l != nil; l = l.Parent {
			l.Blocks = append(l.Blocks, v)
		}
	}
	return a, nil
}

// Contains reports whether the block at position pos is in l.
func (a *Forest) Contains(l *Loop, pos int) bool {
	if pos < 0 || pos >= len(a.Of) {
		return false
	}
	for in := a.Of[pos]; in != nil; in = in.Parent {
		if in == l {
			return true
		}
	}
	return false
}

// IsBackEdge reports whether the edge from position u to position v
// closes a loop: v is a header that dominates u.
func (a *Forest) IsBackEdge(u, v int) bool {
	l := a.Of[v]
	return l != nil && l.Header == a.F.Blocks[v] && a.Tree.Dominates(v, u)
}

// reversePostorder returns the vertices reachable from 0 in reverse
// postorder of a depth-first search that takes successors last first, so
// that a branch's true side comes before its false side; without
// recursion.
func reversePostorder(succ [][]int) []int {
	n := len(succ)
	seen := make([]bool, n)
	type frame struct{ v, next int }
	stack := []frame{{0, 0}}
	seen[0] = true
	var post []int
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(succ[top.v]) {
			w := succ[top.v][len(succ[top.v])-1-top.next]
			top.next++
			if !seen[w] {
				seen[w] = true
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		post = append(post, top.v)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}
