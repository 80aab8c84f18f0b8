package gsa

import (
	"son/cfg"
	"son/pred"
)

// projector computes p↓x (Project) at many blocks x over predicates that
// share their subterms, as the validator's questions do: mask[p] has bit
// x%64 set when p holds an atom over a register defined at some block x,
// computed once per node, so the walk for x enters only the subterms an
// atom of x may be under and returns the others as they are. The result
// is Project's: a subterm without such an atom is unchanged by it.
type projector struct {
	defAt map[cfg.Reg]int
	mask  map[*pred.Pred]uint64
}

func newProjector(defAt map[cfg.Reg]int) *projector {
	return &projector{defAt: defAt, mask: map[*pred.Pred]uint64{}}
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
			m = 1 << (uint(at) % 64)
		}
	}
	for _, a := range p.Args {
		m |= pj.maskOf(a)
	}
	pj.mask[p] = m
	return m
}

// at returns p↓x, by pred.Project over the atoms defined at x, after
// the mask has said whether p holds any.
func (pj *projector) at(p *pred.Pred, x int) *pred.Pred {
	if p == nil || pj.maskOf(p)&(uint64(1)<<(uint(x)%64)) == 0 {
		return p
	}
	return pred.Project(p, func(r cfg.Reg) bool { at, ok := pj.defAt[r]; return ok && at == x })
}
