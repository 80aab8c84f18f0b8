package compile

import "son/cfg"

// cloneFunc returns a deep copy of f, blocks, Phis and instructions, so
// that a checker sees the function as it was before a pass even if the
// pass modifies it. O(size of f).
func cloneFunc(f *cfg.Func) *cfg.Func {
	c := &cfg.Func{Name: f.Name, Level: f.Level, Blocks: make([]*cfg.Block, len(f.Blocks))}
	of := make(map[*cfg.Block]*cfg.Block, len(f.Blocks))
	for i, b := range f.Blocks {
		if b != nil {
			c.Blocks[i] = &cfg.Block{ID: b.ID, Term: b.Term, LoopDepth: b.LoopDepth}
			of[b] = c.Blocks[i]
		}
	}
	blocks := func(list []*cfg.Block) []*cfg.Block {
		out := make([]*cfg.Block, len(list))
		for i, b := range list {
			if out[i] = of[b]; out[i] == nil {
				out[i] = b // not a block of f: keep it, so that the verifier says so
			}
		}
		return out
	}
	for i, b := range f.Blocks {
		if b == nil {
			continue
		}
		nb := c.Blocks[i]
		nb.Preds, nb.Succs = blocks(b.Preds), blocks(b.Succs)
		for _, p := range b.Phis {
			if p == nil {
				nb.Phis = append(nb.Phis, nil)
				continue
			}
			q := *p
			q.Args = append([]cfg.Reg(nil), p.Args...)
			nb.Phis = append(nb.Phis, &q)
		}
		for _, in := range b.Instrs {
			if in == nil {
				nb.Instrs = append(nb.Instrs, nil)
				continue
			}
			x := *in
			x.Args = append([]cfg.Reg(nil), in.Args...)
			nb.Instrs = append(nb.Instrs, &x)
		}
	}
	return c
}
