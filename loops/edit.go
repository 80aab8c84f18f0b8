package loops

import "son/cfg"

// editor adds blocks and registers to a function: fresh block IDs and
// register numbers above every one in use.
type editor struct {
	f      *cfg.Func
	nextID int
	next   cfg.Reg
}

func newEditor(f *cfg.Func) *editor {
	e := &editor{f: f, nextID: 1, next: 1}
	for _, b := range f.Blocks {
		e.nextID = max(e.nextID, b.ID+1)
		see := func(r cfg.Reg) { e.next = max(e.next, r+1) }
		for _, p := range b.Phis {
			see(p.Dst)
			for _, a := range p.Args {
				see(a)
			}
		}
		for _, in := range b.Instrs {
			see(in.Dst)
			for _, a := range in.Args {
				see(a)
			}
		}
		see(b.Term.Reg)
	}
	return e
}

// reg returns a fresh register.
func (e *editor) reg() cfg.Reg {
	r := e.next
	e.next++
	return r
}

// block returns a new empty block that jumps to to, at loop depth depth,
// appended to the function; the caller links its predecessors.
func (e *editor) block(to *cfg.Block, depth int32) *cfg.Block {
	b := &cfg.Block{ID: e.nextID, Term: cfg.Term{Kind: cfg.TermJump}, LoopDepth: depth}
	b.SetSuccs(to)
	e.nextID++
	e.f.Blocks = append(e.f.Blocks, b)
	return b
}

// replace replaces the first old in list by new.
func replace(list []*cfg.Block, old, new *cfg.Block) {
	for i, b := range list {
		if b == old {
			list[i] = new
			return
		}
	}
}

// Reorder puts the blocks of f in reverse postorder, the entry first, and
// each block's predecessors in block order (cfg.SortPreds): a loop
// header's entry edge then comes before its back edge, and a μ's
// arguments in that order. Unreachable blocks are dropped.
func Reorder(f *cfg.Func) {
	pos := make(map[*cfg.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		pos[b] = i
	}
	succ := make([][]int, len(f.Blocks))
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			succ[i] = append(succ[i], pos[s])
		}
	}
	order := reversePostorder(succ)
	blocks := make([]*cfg.Block, len(order))
	for k, v := range order {
		blocks[k] = f.Blocks[v]
	}
	f.Blocks = blocks
	cfg.SortPreds(f)
}
