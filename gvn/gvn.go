// Optimize, the whole of GVN in one call (Number, Validate, Apply), and the
// definition count of paper 003's Table 1. Cost: that of its parts.

package gvn

import (
	"fmt"

	"son/cfg"
)

// Optimize numbers f, validates the proposal and, only if it is valid,
// applies it. f must pass cfg.Verify, and then does after. A proposal the
// validator rejects is returned as an *Invalid, f unchanged.
func Optimize(f *cfg.Func) (Stats, error) {
	p, err := Number(f)
	if err != nil {
		return Stats{}, err
	}
	v, err := Validate(f, p)
	if err != nil {
		return Stats{}, err
	}
	return v.Apply(), nil
}

// Count returns the number of definitions of f: its Phis and its
// instructions other than Check, what Table 1 of paper 003 counts.
func Count(f *cfg.Func) int {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Phis)
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				n++
			}
		}
	}
	return n
}

func (s Stats) String() string {
	return fmt.Sprintf("%d replaced, %d copies propagated, %d removed", s.Replaced, s.Copies, s.Removed)
}
