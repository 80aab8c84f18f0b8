package regalloc

import (
	"fmt"
	"slices"
)

// relive is the liveness of a round after the first, made from the round
// before's instead of a walk of every instruction. A rewrite inserts
// reloads and stores of new registers and renames a spilled register's
// reads and writes, in the blocks it marks changed; every other register
// keeps the instructions that read and write it, only moved, in the same
// order, to new positions. So the positions of the round before are
// mapped to the new ones (remap, monotone), and with them the intervals
// of the registers that were not spilled (widened ones too: widen's
// choices are comparisons of positions, which the map keeps) and the
// physical registers' segments; only the changed blocks are walked, for
// the hulls of the new registers, which alone are widened.
func (a *alloc) relive() {
	nb := len(a.blocks)
	np, oldN := a.f.NumPhys, a.oldNregs
	a.oldBstart = append(a.oldBstart[:0], a.bstart...)
	a.oldBend = append(a.oldBend[:0], a.bend...)
	ob, oe := a.oldBstart, a.oldBend
	bstart, bend := a.bstart, a.bend
	pos := int32(0)
	for b := range nb {
		if a.changed[b] {
			n := int32(0)
			for _, wi := range a.blocks[b] {
				if !a.w[wi].dead {
					n++
				}
			}
			a.nlive[b] = n
		}
		bstart[b] = pos
		pos += 1 + 2*a.nlive[b]
		bend[b] = pos
		pos++
	}
	// The intervals so far are kept (resize would drop them).
	a.start = extend(a.start, a.nregs)
	a.end = extend(a.end, a.nregs)
	a.sblk = extend(a.sblk, a.nregs)
	a.eblk = extend(a.eblk, a.nregs)
	for r := oldN; r < a.nregs; r++ {
		a.start[r], a.end[r] = -1, -1
	}
	// A position of the round before in a block the rewrite did not
	// change moves by the block's shift (newPos); those of a changed
	// block are mapped one by one, in cm[cmOff[b]:] (from ob[b] on; -1
	// for an unchanged block), so the work is the changed blocks', not
	// every position's.
	a.cmOff = resize(a.cmOff, nb)
	cm := a.first[:0] // in the radix sort's array, which the later rounds do not use (mergedOrder)
	for b := range nb {
		if !a.changed[b] {
			a.cmOff[b] = -1
			continue
		}
		a.changed[b] = false
		o := int32(len(cm))
		a.cmOff[b] = o
		cm = slices.Grow(cm, int(oe[b]-ob[b]+1))[:int(o+oe[b]-ob[b]+1)]
		cm[o], cm[o+oe[b]-ob[b]] = bstart[b], bend[b]
		rel := int32(0)
		for _, wi := range a.blocks[b] {
			w := &a.w[wi]
			if w.dead {
				continue
			}
			rel += 2
			// An instruction of the round before: an input's, or a
			// reload or store of a register made before it (a reload
			// dropped by the rewrite was a spilled register's alone).
			if w.orig >= 0 || int(a.regs[w.off]) < oldN {
				cm[o+w.rel-1] = bstart[b] + rel - 1
				cm[o+w.rel] = bstart[b] + rel
			}
			w.rel = rel
			for _, u := range a.uses(w) {
				if int(u) >= oldN {
					a.hull(u, bstart[b]+rel-1, b)
				}
			}
			for _, d := range a.defs(w) {
				if int(d) >= oldN {
					a.hull(d, bstart[b]+rel, b)
				}
			}
		}
	}
	a.first = cm
	for r := np; r < oldN; r++ {
		switch {
		case a.start[r] < 0:
		case a.spill[r]: // renamed everywhere by the rewrite
			a.start[r], a.end[r] = -1, -1
		default:
			a.start[r], a.end[r] = a.newPos(a.start[r], a.sblk[r]), a.newPos(a.end[r], a.eblk[r])
		}
	}
	// A physical register's segments each lie in one block, kept beside
	// them.
	for _, segs := range a.fixed {
		for k := range segs {
			b := segs[k][2]
			segs[k][0], segs[k][1] = a.newPos(segs[k][0], b), a.newPos(segs[k][1], b)
		}
	}
	for k := range a.loops {
		g := &a.loops[k]
		g.s, g.e = bstart[g.head], bend[g.last]
	}
	if len(a.loops) > 0 {
		for r := oldN; r < a.nregs; r++ {
			a.widenReg(Reg(r))
		}
	}
	a.moveHints()
	a.newFrom, a.oldNregs = oldN, a.nregs
}

// newPos is the position in this round of position p of the round
// before, in block b (relive).
func (a *alloc) newPos(p, b int32) int32 {
	if o := a.cmOff[b]; o >= 0 {
		return a.first[o+p-a.oldBstart[b]]
	}
	return p + a.bstart[b] - a.oldBstart[b]
}

// moveHints makes the hints from the Moves of the first round's walk
// (the rewrites make none and drop none, only rename their registers),
// in the order of the code, as liveness does.
func (a *alloc) moveHints() {
	// The arrays in locals: written through a's fields, each store would
	// make the compiler load the others again.
	a.hoff = resize(a.hoff, a.nregs+1)
	hoff, regs, ws := a.hoff, a.regs, a.w
	clear(hoff)
	for _, wi := range a.moves {
		w := &ws[wi]
		hoff[regs[w.off+int32(w.nu)]+1]++
		hoff[regs[w.off]+1]++
	}
	for r := 1; r < len(hoff); r++ {
		hoff[r] += hoff[r-1]
	}
	n := hoff[len(hoff)-1]
	a.hints = slices.Grow(a.hints[:0], int(n))[:n]
	hints := a.hints
	fill := append(a.first[:0], hoff[:len(hoff)-1]...) // free once the positions are mapped
	for _, wi := range a.moves {
		w := &ws[wi]
		d, u := regs[w.off+int32(w.nu)], regs[w.off]
		hints[fill[u]] = d
		fill[u]++
		hints[fill[d]] = u
		fill[d]++
	}
	a.first = fill
}

// compareLiveness runs the whole liveness after relive (checkRelive) and
// reports the first difference between their results.
func (a *alloc) compareLiveness() error {
	start, end := slices.Clone(a.start), slices.Clone(a.end)
	sblk, eblk := slices.Clone(a.sblk), slices.Clone(a.eblk)
	bstart, bend := slices.Clone(a.bstart), slices.Clone(a.bend)
	hints, hoff := slices.Clone(a.hints), slices.Clone(a.hoff)
	fixed := make([][][3]int32, len(a.fixed))
	for p, segs := range a.fixed {
		fixed[p] = slices.Clone(segs)
	}
	a.liveness()
	for r := a.f.NumPhys; r < a.nregs; r++ {
		if start[r] != a.start[r] || end[r] != a.end[r] ||
			start[r] >= 0 && (sblk[r] != a.sblk[r] || eblk[r] != a.eblk[r]) {
			return fmt.Errorf("regalloc: relive: v%d: [%d,%d] in blocks %d..%d, liveness [%d,%d] in %d..%d",
				r, start[r], end[r], sblk[r], eblk[r], a.start[r], a.end[r], a.sblk[r], a.eblk[r])
		}
	}
	switch {
	case !slices.Equal(bstart, a.bstart) || !slices.Equal(bend, a.bend):
		return fmt.Errorf("regalloc: relive: block positions differ")
	case !slices.Equal(hints, a.hints) || !slices.Equal(hoff, a.hoff):
		return fmt.Errorf("regalloc: relive: hints differ")
	}
	for p := range fixed {
		if !slices.Equal(fixed[p], a.fixed[p]) {
			return fmt.Errorf("regalloc: relive: segments of r%d: %v, liveness %v", p, fixed[p], a.fixed[p])
		}
	}
	return nil
}

// extend returns s with length n >= len(s), its elements kept.
func extend(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return append(make([]int32, 0, n+n/8), s...)[:n]
}

// checkMentions checks that the block of every live instruction that
// reads or writes a virtual register is among the blocks listed for it
// (mhead, ment), which a rewrite walks instead of the whole code.
func (a *alloc) checkMentions() error {
	np := a.f.NumPhys
	listed := map[[2]int32]bool{} // {register, block}
	var in []int32
	for r := np; r < a.nregs; r++ {
		in = a.mentionedIn(Reg(r), in[:0])
		for _, b := range in {
			listed[[2]int32{int32(r), b}] = true
		}
	}
	for b, ws := range a.blocks {
		for i, wi := range ws {
			w := &a.w[wi]
			if w.dead {
				continue
			}
			for _, r := range a.regs[w.off : w.off+int32(w.nu)+int32(w.nd)] {
				if int(r) >= np && !listed[[2]int32{int32(r), int32(b)}] {
					return fmt.Errorf("regalloc: block %d instruction %d: v%d is mentioned, and the block is not listed for it", b, i, r)
				}
			}
		}
	}
	return nil
}
