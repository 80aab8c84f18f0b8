package loops

import "son/cfg"

// Normalize gives every loop one entry edge and one back edge (paper 004,
// section 6.2), so that the Phis of its header become μ(init, next):
//
//   - a header entered from several blocks outside the loop gets a
//     preheader, a new block that those blocks jump to and that jumps to
//     the header; the header's Phis take the entry values through new Phis
//     of the preheader;
//   - a header reached by several back edges gets a single latch, a new
//     block in the loop that the old latches jump to, with new Phis for
//     the values they brought.
//
// Both new blocks are joins entered by jumps (the sources were jumps into a
// join already), so the function stays normalized. The blocks are then
// put in reverse postorder (Reorder): the header's predecessors are its
// entry, then its latch.
func Normalize(f *cfg.Func) error {
	a, err := Analyze(f)
	if err != nil {
		return err
	}
	e := newEditor(f)
	for _, l := range a.Loops {
		h := l.Header
		var latches []int // indices in h.Preds
		for k, p := range h.Preds {
			if a.Tree.Dominates(a.Pos[h], a.Pos[p]) {
				latches = append(latches, k)
			}
		}
		merge := func(ks []int, depth int32) {
			if len(ks) < 2 {
				return
			}
			nb := e.block(h, depth)
			for _, k := range ks {
				p := h.Preds[k]
				replace(p.Succs(), h, nb)
				nb.Preds = append(nb.Preds, p)
			}
			for _, phi := range h.Phis {
				np := &cfg.Phi{Dst: e.reg(), Pos: phi.Pos}
				for _, k := range ks {
					np.Args = append(np.Args, phi.Args[k])
				}
				nb.Phis = append(nb.Phis, np)
			}
			// The merged predecessors give way to nb, in the slot of the first.
			drop := make(map[int]bool, len(ks))
			for _, k := range ks[1:] {
				drop[k] = true
			}
			preds := h.Preds[:0:0]
			for k, p := range h.Preds {
				if k == ks[0] {
					p = nb
				}
				if !drop[k] {
					preds = append(preds, p)
				}
			}
			for i, phi := range h.Phis {
				args := phi.Args[:0:0]
				for k, r := range phi.Args {
					if k == ks[0] {
						r = nb.Phis[i].Dst
					}
					if !drop[k] {
						args = append(args, r)
					}
				}
				phi.Args = args
			}
			h.Preds = preds
		}
		// Latches first: their indices are computed on the Preds as they are.
		latch := map[*cfg.Block]bool{}
		for _, k := range latches {
			latch[h.Preds[k]] = true
		}
		merge(latches, h.LoopDepth)
		if len(latches) > 1 {
			latch = map[*cfg.Block]bool{h.Preds[latches[0]]: true}
		}
		var entries []int
		for k, p := range h.Preds {
			if !latch[p] {
				entries = append(entries, k)
			}
		}
		merge(entries, max(h.LoopDepth-1, 0))
	}
	Reorder(f)
	return nil
}
