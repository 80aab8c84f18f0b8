package gsa

import (
	"fmt"

	"son/cfg"
	"son/internal/dom"
)

// facts is what the validator knows of f's control flow, computed here
// from f alone rather than taken from package loops, which the
// construction uses: a checker must not trust the pass's code. The
// dominators come from Lengauer and Tarjan's algorithm (package loops
// uses Cooper, Harvey and Kennedy's, which shares no code with it); the
// loops are natural loops found the textbook way.
type facts struct {
	pos    map[*cfg.Block]int // position of each block in f.Blocks
	tree   *dom.Tree          // dominator tree over positions
	loop   []int              // the header of the innermost loop holding each position, or -1
	parent []int              // at a header: the header of the loop around its loop, or -1
}

// newFacts computes the facts of f. A back edge is an edge u → h where h
// dominates u; the loop of h is h and the blocks that reach a source of
// such an edge without passing through h. Control flow in which a cycle
// has no back edge (irreducible) is an error: its loops are not natural.
// Linear, but for the loop bodies: a block is visited once per loop
// around it.
// f's parts the rules read are checked first (parts), so that a broken
// f is an error, not a panic.
func newFacts(f *cfg.Func) (*facts, error) {
	if f == nil || f.Level != cfg.SSA {
		return nil, fmt.Errorf("gsa: f is not an SSA function")
	}
	n := len(f.Blocks)
	if n == 0 {
		return nil, fmt.Errorf("gsa: function %s has no blocks", f.Name)
	}
	if err := parts(f); err != nil {
		return nil, err
	}
	x := &facts{pos: make(map[*cfg.Block]int, n), loop: make([]int, n), parent: make([]int, n)}
	for i, b := range f.Blocks {
		x.pos[b] = i
		x.loop[i], x.parent[i] = -1, -1
	}
	succ := make([][]int, n)
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			j, ok := x.pos[s]
			if !ok {
				return nil, fmt.Errorf("gsa: %v: successor %v is not a block of the function", b, s)
			}
			succ[i] = append(succ[i], j)
		}
	}
	x.tree = dom.NewTree(dom.LengauerTarjan(succ))
	t := x.tree

	// Reducible iff the edges that are not back edges make no cycle:
	// Kahn's topological sort of the reachable blocks over them.
	indeg := make([]int, n)
	for u := range n {
		for _, v := range succ[u] {
			if t.Reachable(u) && !t.Dominates(v, u) {
				indeg[v]++
			}
		}
	}
	work := []int{0}
	sorted := 0
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		sorted++
		for _, v := range succ[u] {
			if !t.Dominates(v, u) {
				if indeg[v]--; indeg[v] == 0 {
					work = append(work, v)
				}
			}
		}
	}
	if sorted != len(t.Preorder()) {
		for v := range n {
			if t.Reachable(v) && indeg[v] > 0 {
				return nil, fmt.Errorf("gsa: %v: irreducible control flow (a cycle without a back edge reaches it)", f.Blocks[v])
			}
		}
	}

	// Loop bodies, headers in preorder of the dominator tree: a loop
	// around another has a header that dominates the other's, so it comes
	// first, and the inner loop overwrites loop[] on its own blocks.
	mark := make([]int, n) // header + 1 of the last body walked through a block
	for _, h := range t.Preorder() {
		work = work[:0]
		for _, p := range f.Blocks[h].Preds {
			if u, ok := x.pos[p]; ok && t.Reachable(u) && t.Dominates(h, u) {
				work = append(work, u)
			}
		}
		if len(work) == 0 {
			continue
		}
		x.parent[h] = x.loop[h]
		mark[h] = h + 1
		x.loop[h] = h
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			if mark[u] == h+1 {
				continue
			}
			mark[u] = h + 1
			x.loop[u] = h
			for _, p := range f.Blocks[u].Preds {
				if v, ok := x.pos[p]; ok && t.Reachable(v) && mark[v] != h+1 {
					work = append(work, v)
				}
			}
		}
	}
	return x, nil
}

// inLoop reports whether the block at position i is in the loop of
// header h.
func (x *facts) inLoop(h, i int) bool {
	for l := x.loop[i]; l >= 0; l = x.parent[l] {
		if l == h {
			return true
		}
	}
	return false
}

// parts checks that f has what the validator reads without looking
// again: no nil block, Phi or instruction, each predecessor a block of
// f, each Phi one argument per predecessor. The rest of cfg.Verify's
// rules (critical edges, say) the validator does not need.
func parts(f *cfg.Func) error {
	in := make(map[*cfg.Block]bool, len(f.Blocks))
	for i, b := range f.Blocks {
		if b == nil {
			return fmt.Errorf("gsa: f: block %d is nil", i)
		}
		in[b] = true
	}
	for _, b := range f.Blocks {
		for k, p := range b.Preds {
			if !in[p] {
				return fmt.Errorf("gsa: f: %v: predecessor %d is not a block of the function", b, k)
			}
		}
		for k, p := range b.Phis {
			if p == nil || len(p.Args) != len(b.Preds) {
				return fmt.Errorf("gsa: f: %v: Phi %d is nil or has not one argument per predecessor", b, k)
			}
		}
		for k, x := range b.Instrs {
			if x == nil {
				return fmt.Errorf("gsa: f: %v: instruction %d is nil", b, k)
			}
		}
	}
	return nil
}
