// Phi placement at the iterated dominance frontiers, by flavour (Cytron
// et al., figure 11; paper 003, section 5). Cost: the sum over variables of
// their iterated frontiers, the bound of Cytron et al.

package ssagen

// place puts Phis at the iterated dominance frontier of each variable's
// definitions, with a worklist per variable (Cytron et al., figure 11),
// restricted by the flavour: SemiPruned and Pruned skip the variables that
// no block uses before assigning them (Pruned removes the dead Phis after
// renaming: see pruneDead). Stamps by variable keep the per-block marks
// O(1) to reset.
func (g *gen) place(fl Flavour) {
	g.phis = make([][]int32, g.n)
	var upward [][]int32 // the blocks that use each variable before any assignment in them
	if fl != Minimal {
		upward = g.upwardExposed()
	}
	hasPhi := make([]int32, g.n) // 1 + the variable with a Phi placed at the block
	queued := make([]int32, g.n) // 1 + the variable for which the block has been queued
	var work []int32
	for x := range g.defs {
		if len(g.defs[x]) == 0 {
			continue // used, never assigned: cfg.Verify has said no
		}
		if fl != Minimal && len(upward[x]) == 0 {
			continue // never live across a block boundary
		}
		stamp := int32(x) + 1
		work = work[:0]
		for _, b := range g.defs[x] {
			queued[b] = stamp
			work = append(work, b)
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, j := range g.df[b] {
				if hasPhi[j] == stamp {
					continue
				}
				hasPhi[j] = stamp
				g.phis[j] = append(g.phis[j], int32(x))
				if queued[j] != stamp {
					queued[j] = stamp
					work = append(work, j)
				}
			}
		}
	}
}

// upwardExposed returns, for each variable, the blocks that use it before
// assigning it (a Phi's use being at the end of a predecessor does not
// arise: the RTL has no Phis).
func (g *gen) upwardExposed() [][]int32 {
	up := make([][]int32, len(g.regOf))
	seen := make([]int32, len(g.regOf)) // 1 + the block that last used or assigned the variable
	for i, b := range g.f.Blocks {
		stamp := int32(i) + 1
		touch := func(x int32, def bool) {
			if x >= 0 && seen[x] != stamp { // the first mention in the block
				seen[x] = stamp
				if !def {
					up[x] = append(up[x], int32(i))
				}
			}
		}
		m := g.mentions[i]
		for _, in := range b.Instrs {
			for range in.Args {
				touch(m[0], false)
				m = m[1:]
			}
			touch(m[0], true)
			m = m[1:]
		}
		touch(m[0], false)
	}
	return up
}
