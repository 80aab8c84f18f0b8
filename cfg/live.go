package cfg

import (
	"cmp"
	"slices"
)

// LiveIn is the number of registers live on entry to a block, summed over
// the blocks of f, which is at the SSA level: the size of the live sets
// that a pass listing them (out of SSA's checker, a register allocator)
// pays for. A value used far from its definition is live in every block
// between, so this is where a schedule that stretches live ranges shows.
// A register is live on entry to b if a path from b reaches a use without
// passing its definition; a Phi's k-th argument is used at the end of the
// block's k-th predecessor. It walks back from each use to the definition
// (path exploration), each block once per register: the cost is the
// result plus the uses, and a sort of the uses. Registers used but never
// defined, blocks that are not in f, and nil blocks, Phis and
// instructions are skipped: it measures, it does not verify.
func LiveIn(f *Func) int {
	pos := positions(f)
	def := map[Reg]int32{} // register -> its block's position
	for i, b := range f.Blocks {
		if b == nil {
			continue
		}
		for _, p := range b.Phis {
			if p != nil {
				def[p.Dst] = int32(i)
			}
		}
		for _, in := range b.Instrs {
			if in != nil && in.Op.HasDst() {
				def[in.Dst] = int32(i)
			}
		}
	}
	// use is a register used in a block (a Phi argument at the end of its
	// predecessor): in SSA form, a use in the block of the definition
	// comes after it, and the walk back stops there at once.
	type use struct {
		reg   Reg
		block int32
	}
	var uses []use
	for i, b := range f.Blocks {
		if b == nil {
			continue
		}
		for _, p := range b.Phis {
			if p == nil {
				continue
			}
			for k, a := range p.Args {
				if k < len(b.Preds) {
					if j, ok := pos.of(b.Preds[k]); ok {
						uses = append(uses, use{a, int32(j)})
					}
				}
			}
		}
		for _, ins := range b.Instrs {
			if ins == nil {
				continue
			}
			for _, a := range ins.Args {
				uses = append(uses, use{a, int32(i)})
			}
		}
		if b.Term.Kind == TermBranch || b.Term.Kind == TermReturn {
			uses = append(uses, use{b.Term.Reg, int32(i)})
		}
	}
	slices.SortFunc(uses, func(x, y use) int { return cmp.Compare(x.reg, y.reg) })
	mark := make([]int32, len(f.Blocks)) // the group (1, 2, ...: one per register) last found live into the block
	total, group := 0, int32(0)
	var work []int32
	for i, u := range uses {
		if i == 0 || u.reg != uses[i-1].reg {
			group++
		}
		d, ok := def[u.reg]
		if !ok {
			continue
		}
		work = append(work[:0], u.block)
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if b == d || mark[b] == group {
				continue
			}
			mark[b] = group
			total++
			for _, p := range f.Blocks[b].Preds {
				if j, ok := pos.of(p); ok {
					work = append(work, int32(j))
				}
			}
		}
	}
	return total
}
