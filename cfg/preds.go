package cfg

import "sort"

// The order of predecessors: by block position (see the package comment).

// predOrder returns the indices of b.Preds in block order: perm[i] is the
// index in b.Preds of the i-th predecessor by position. Predecessors that
// are not blocks of the function come last; ties keep their order. It
// returns nil when b.Preds is in block order already.
func predOrder(b *Block, pos *blockIndex) []int {
	sorted := true
	last := -1
	for _, p := range b.Preds {
		i, ok := pos.of(p)
		if !ok {
			i = len(pos.blocks)
		}
		sorted = sorted && i >= last
		last = i
	}
	if sorted {
		return nil
	}
	perm := make([]int, len(b.Preds))
	for i := range perm {
		perm[i] = i
	}
	at := func(k int) int {
		if p, ok := pos.of(b.Preds[k]); ok {
			return p
		}
		return len(pos.blocks)
	}
	sort.SliceStable(perm, func(i, j int) bool { return at(perm[i]) < at(perm[j]) })
	return perm
}

// SortPreds puts every block's Preds in block order, permuting the
// arguments of its Phis to match, so that f means what it meant. A Phi
// whose number of arguments is not the number of predecessors is left
// alone. It takes O(m log m) time for m edges.
func SortPreds(f *Func) {
	pos := positions(f)
	for _, b := range f.Blocks {
		if b == nil {
			continue
		}
		perm := predOrder(b, pos)
		if perm == nil {
			continue
		}
		preds := make([]*Block, len(perm))
		for i, k := range perm {
			preds[i] = b.Preds[k]
		}
		b.Preds = preds
		for _, p := range b.Phis {
			if p == nil || len(p.Args) != len(perm) {
				continue
			}
			args := make([]Reg, len(perm))
			for i, k := range perm {
				args[i] = p.Args[k]
			}
			p.Args = args
		}
	}
}
