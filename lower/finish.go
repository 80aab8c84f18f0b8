// The normalization that ends lowering: unreachable blocks dropped,
// critical edges split, blocks in reverse postorder (paper 003, section
// 3.2). Cost: O(n + m).

package lower

import "son/cfg"

// finish drops the blocks the entry does not reach, splits critical edges
// (paper 003, section 3.2: a block with several predecessors is then
// entered only by jumps, since only a branch has several successors),
// orders the blocks in reverse postorder, numbers them b1, b2, ... in that
// order and sets every block's Preds in block order. A block splitting an
// edge is in the loops of both ends. It takes O(n + m) and
// does not recurse.
func (l *lowerer) finish(name string) *cfg.Func {
	order := rpo(l.blocks[0], len(l.blocks))
	npreds := make(map[*cfg.Block]int, len(order))
	for _, b := range order {
		for _, s := range b.Succs() {
			npreds[s]++
		}
	}
	// Split each edge from a branch to a join with a block of one jump.
	for _, b := range order {
		if len(b.Succs()) < 2 {
			continue
		}
		for k, s := range b.Succs() {
			if npreds[s] < 2 {
				continue
			}
			mid := &cfg.Block{Term: cfg.Term{Kind: cfg.TermJump}, LoopDepth: min(b.LoopDepth, s.LoopDepth)}
			mid.SetSuccs(s)
			b.Succs()[k] = mid
		}
	}
	order = rpo(order[0], len(order)*3)
	for i, b := range order {
		b.ID = i + 1
		b.Preds = nil
	}
	for _, b := range order {
		for _, s := range b.Succs() {
			s.Preds = append(s.Preds, b)
		}
	}
	return &cfg.Func{Name: name, Level: cfg.RTL, Blocks: order}
}

// rpo returns the blocks reachable from entry in reverse postorder of a
// depth-first search that visits successors in order, with an explicit
// stack.
func rpo(entry *cfg.Block, hint int) []*cfg.Block {
	type frame struct {
		b    *cfg.Block
		next int
	}
	seen := make(map[*cfg.Block]bool, hint)
	post := make([]*cfg.Block, 0, hint)
	stack := []frame{{entry, 0}}
	seen[entry] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.b.Succs()) {
			s := top.b.Succs()[top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}
