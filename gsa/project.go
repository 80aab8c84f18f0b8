package gsa

import (
	"son/cfg"
	"son/pred"
)

// projector computes p↓x (Project) at many blocks x over predicates that
// share their subterms, as the validator's questions do. mask[p] has a
// bit set for each block some atom under p is defined at, computed once
// per node, so the projection at x enters only the predicates an atom of
// x may be under and returns the others as they are. Bits go to blocks as
// their atoms are met (most blocks define no atom), the 65th such block
// sharing the first one's bit: a shared bit costs a useless projection,
// never a wrong one. The result is Project's: a subterm without an atom
// of x is unchanged by it. The projections at x themselves share their
// work through one pred.Projection per block.
type projector struct {
	defAt   map[cfg.Reg]int
	defines []bool // whether a block defines a register: if not, ↓x is the identity
	mask    map[*pred.Pred]uint64
	bit     map[int]uint64 // the bit of each block an atom met is defined at
	at      map[int]*pred.Projection
}

func newProjector(defAt map[cfg.Reg]int, blocks int) *projector {
	pj := &projector{defAt: defAt, defines: make([]bool, blocks), mask: map[*pred.Pred]uint64{}, bit: map[int]uint64{}, at: map[int]*pred.Projection{}}
	for _, at := range defAt {
		pj.defines[at] = true
	}
	return pj
}

func (pj *projector) maskOf(p *pred.Pred) uint64 {
	if p == nil {
		return 0
	}
	if m, ok := pj.mask[p]; ok {
		return m
	}
	var m uint64
	if p.Kind == pred.Atom {
		if at, ok := pj.defAt[p.Reg]; ok {
			b, ok := pj.bit[at]
			if !ok {
				b = uint64(1) << (uint(len(pj.bit)) % 64)
				pj.bit[at] = b
			}
			m = b
		}
	}
	for _, a := range p.Args {
		m |= pj.maskOf(a)
	}
	pj.mask[p] = m
	return m
}

// project returns p↓x, pred.Project over the atoms defined at x, after
// the mask has said whether p holds any.
func (pj *projector) project(p *pred.Pred, x int) *pred.Pred {
	if p == nil || !pj.defines[x] {
		return p
	}
	m := pj.maskOf(p) // first: it gives x its bit if p has an atom of x
	if b, ok := pj.bit[x]; !ok || m&b == 0 {
		return p
	}
	j, ok := pj.at[x]
	if !ok {
		bx := pj.bit[x]
		j = pred.NewProjectionFiltered(func(r cfg.Reg) bool { at, ok := pj.defAt[r]; return ok && at == x },
			func(p *pred.Pred) bool { return pj.maskOf(p)&bx != 0 })
		pj.at[x] = j
	}
	return j.Of(p)
}
