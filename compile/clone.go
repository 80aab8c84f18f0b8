package compile

import "son/cfg"

// cloneFunc returns a deep copy of f, blocks, Phis and instructions, so
// that a checker sees the function as it was before a pass even if the
// pass modifies it. O(size of f). The copy's blocks, Phis, instructions
// and argument lists are cut from one array each (every list full to its
// capacity, so that an append copies it out): a few allocations instead
// of several per instruction, for a record taken before each checked pass.
func cloneFunc(f *cfg.Func) *cfg.Func {
	c := &cfg.Func{Name: f.Name, Level: f.Level, Blocks: make([]*cfg.Block, len(f.Blocks))}
	of := make(map[*cfg.Block]*cfg.Block, len(f.Blocks))
	nblocks, nphis, ninstrs, nregs, nedges := 0, 0, 0, 0, 0
	for _, b := range f.Blocks {
		if b == nil {
			continue
		}
		nblocks++
		nphis += len(b.Phis)
		ninstrs += len(b.Instrs)
		nedges += len(b.Preds)
		for _, p := range b.Phis {
			if p != nil {
				nregs += len(p.Args)
			}
		}
		for _, in := range b.Instrs {
			if in != nil {
				nregs += len(in.Args)
			}
		}
	}
	blocks := make([]cfg.Block, nblocks)
	phis := make([]cfg.Phi, nphis)
	instrs := make([]cfg.Instr, ninstrs)
	regs := make([]cfg.Reg, nregs)
	edges := make([]*cfg.Block, 0, nedges)
	phiList := make([]*cfg.Phi, 0, nphis)
	instrList := make([]*cfg.Instr, 0, ninstrs)
	args := func(a []cfg.Reg) []cfg.Reg {
		if len(a) == 0 {
			return nil
		}
		r := regs[:len(a):len(a)]
		regs = regs[len(a):]
		copy(r, a)
		return r
	}
	for i, b := range f.Blocks {
		if b != nil {
			nb := &blocks[0]
			blocks = blocks[1:]
			*nb = cfg.Block{ID: b.ID, Term: b.Term, LoopDepth: b.LoopDepth}
			c.Blocks[i] = nb
			of[b] = nb
		}
	}
	clone := func(b *cfg.Block) *cfg.Block {
		if x := of[b]; x != nil {
			return x
		}
		return b // not a block of f: keep it, so that the verifier says so
	}
	list := func(bs []*cfg.Block) []*cfg.Block {
		if bs == nil {
			return nil
		}
		start := len(edges)
		for _, b := range bs {
			edges = append(edges, clone(b))
		}
		return edges[start:len(edges):len(edges)]
	}
	for i, b := range f.Blocks {
		if b == nil {
			continue
		}
		nb := c.Blocks[i]
		nb.Preds = list(b.Preds)
		for _, x := range b.Succs() {
			nb.AddSucc(clone(x))
		}
		if b.Phis != nil {
			start := len(phiList)
			for _, p := range b.Phis {
				if p == nil {
					phiList = append(phiList, nil)
					continue
				}
				q := &phis[0]
				phis = phis[1:]
				*q = *p
				q.Args = args(p.Args)
				phiList = append(phiList, q)
			}
			nb.Phis = phiList[start:len(phiList):len(phiList)]
		}
		if b.Instrs != nil {
			start := len(instrList)
			for _, in := range b.Instrs {
				if in == nil {
					instrList = append(instrList, nil)
					continue
				}
				x := &instrs[0]
				instrs = instrs[1:]
				*x = *in
				x.Args = args(in.Args)
				instrList = append(instrList, x)
			}
			nb.Instrs = instrList[start:len(instrList):len(instrList)]
		}
	}
	return c
}
