package regalloc

import (
	"fmt"
	"reflect"
	"slices"
)

// Folding the last round. On generated code the rounds after the first
// spill nothing but loops' copies (splitLoops), and the round after
// such a one only undoes them: the rewrite drops a copy's reloads, and
// each of its reads reloads from the slot into a temporary of its own,
// live from just before the instruction to its read. That round's scan
// needs no liveness of its own: the other intervals and the physical
// registers' segments are the round before's, at positions relive would
// only move monotonely, and a temporary's interval [r', R'] at the read R
// of its instruction compares with every other position as [R, R] does
// (nothing lies between R and the write before it, R-1), so that it
// comes before the intervals that start at R or later and after the
// others. foldLast runs that scan on the round before's positions, from
// the state the round before's scan had at the first copy spilled (the
// intervals before it are the same), and the allocation ends if it
// spills nothing; else the round runs as before. Under checkRelive, Allocate compares every result of more
// than one round, folded or not, with the unfolded one's (compareUnfolded).

// onlyCopies reports whether the round just scanned spilled loops'
// copies only, so that the next round may be folded.
func (a *alloc) onlyCopies() bool {
	if a.noFold || a.newFrom == 0 {
		return false
	}
	for v, sp := range a.spill {
		if sp && !a.split[v] {
			return false
		}
	}
	return true
}

// foldLast runs the next round's scan after the rewrite of a round that
// spilled copies only (onlyCopies), on this round's positions, and
// reports whether it spilled nothing: then a.assign is the allocation.
// Else it leaves the state as the next round's relive expects it.
func (a *alloc) foldLast() bool {
	n2 := len(a.spill) // the registers before the rewrite: the rest are its temporaries
	a.start = extend(a.start, a.nregs)
	a.end = extend(a.end, a.nregs)
	for r := n2; r < a.nregs; r++ {
		a.start[r], a.end[r] = -1, -1
	}
	// Each temporary is read by one instruction of the round before (its
	// rel is this round's), in a block the rewrite changed.
	for b, ch := range a.changed {
		if !ch {
			continue
		}
		for _, wi := range a.blocks[b] {
			w := &a.w[wi]
			if w.dead || w.orig < 0 {
				continue
			}
			for _, u := range a.uses(w) {
				if int(u) < n2 {
					continue
				}
				r := a.bstart[b] + w.rel - 1
				if a.start[u] >= 0 && a.start[u] != r {
					return false
				}
				a.start[u], a.end[u] = r, r
			}
		}
	}
	// The temporaries are numbered in the order of their reads, and come
	// before the intervals that start at their read or later.
	fresh := a.order[:0:0]
	for r := n2; r < a.nregs; r++ {
		if a.start[r] < 0 || len(fresh) > 0 && a.start[r] < a.start[fresh[len(fresh)-1]] {
			return false
		}
		fresh = append(fresh, int32(r))
	}
	// The scan before the first copy spilled is the round before's, and
	// starts from its state then (a.ckpt).
	np := a.f.NumPhys
	from := len(a.order)
	var ck []int32
	for c := 0; c < len(a.ckpt); c += 1 + np {
		if i := a.ckpt[c]; a.spill[a.order[i]] {
			from, ck = int(i), a.ckpt[c+1:c+1+np]
			break
		}
	}
	if ck == nil {
		return false
	}
	// In the array of the order before the last, which the next round,
	// if it comes, makes again (mergedOrder).
	order := append(a.spare[:0], a.order[:from]...)
	k := 0
	for _, v := range a.order[from:] {
		if a.spill[v] {
			continue
		}
		for k < len(fresh) && a.start[fresh[k]] <= a.start[v] {
			order = append(order, fresh[k])
			k++
		}
		order = append(order, v)
	}
	order = append(order, fresh[k:]...)
	a.moveHints() // as relive would make them: the Moves reading a copy read its temporary
	// The registers before the first copy spilled keep their registers;
	// the others, and the temporaries, have none yet.
	for _, v := range a.order[from:] {
		a.assign[v] = -1
	}
	for range a.nregs - len(a.assign) {
		a.assign = append(a.assign, -1)
	}
	spill := a.spill
	a.spill = make([]bool, a.nregs)
	occ := slices.Clone(ck)
	clear(a.segCur)
	if spilled, err := a.scanFrom(order, from, occ, false); err != nil || spilled {
		a.spill = spill // relive's: the registers the rewrite renamed
		return false
	}
	return true
}

// compareUnfolded allocates f again without folding and reports whether
// the results differ (checkRelive): res's last round folded, or a fold
// tried and given up, or none tried.
func compareUnfolded(f *Func, res *Result) error {
	ref, err := allocate(f, false)
	if err != nil {
		return fmt.Errorf("regalloc: unfolded: %v", err)
	}
	got := *res
	got.Folded = 0
	if !reflect.DeepEqual(&got, ref) {
		return fmt.Errorf("regalloc: the folded round's allocation differs from the unfolded one's")
	}
	return nil
}
