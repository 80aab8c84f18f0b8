package gcm

import (
	"cmp"
	"slices"

	"son/cfg"
	"son/son"
)

// Rematerialization of constants. The Sea of Nodes has one Constant node
// per value, shared by every use in the function: placed once, at the
// common dominator of its uses, it would be live from there to the
// farthest use (on a chain of `?:` whose arms return the values that
// later arms compare with, across the whole chain: quadratic live sets).
// A constant is cheaper to compute again than to keep in a register, so
// each use targets the block schedule late's search picks for that use
// alone — the block of least loop depth on the dominator path from the
// use up to the constant's early block, the latest among equals — and
// the constant gets one Const per distinct target: a loop-invariant
// constant still leaves its loop, and no copy enters a loop its use is
// not in. The first copy, in block order, keeps the node's ID as its
// register; the others get fresh registers from g.MaxID() up. Each use
// reads the copy of its own target, which dominates it: the register is
// noted by the block of the use when the constant is placed (useRegs), so
// that emit searches only the constant's own run, by block, not the
// dominator tree, which is garbage before the function is made.

// constReg is a register of a constant placed in several blocks, keyed
// by the constant's ID and a block: in the scheduler's list of copies, the
// block of a copy and the register it defines; in its list of uses, the
// block of some uses and the register of the copy they read.
type constReg struct {
	id    int32   // the constant's node ID
	block int32   // the block's number, 1 + index
	reg   cfg.Reg // the register
}

// constRegs is a list of constReg, each constant's entries in one run
// sorted by block.
type constRegs []constReg

// constRun is where a constant with copies has its entries: its copies in
// s.copies[copies[0]:copies[1]], its uses' registers in
// s.useRegs[uses[0]:uses[1]].
type constRun struct{ copies, uses [2]int32 }

// find is the position in c of the entry for block number b in the run
// c[r[0]:r[1]], or -1.
func (c constRegs) find(r [2]int32, b int32) int {
	run := c[r[0]:r[1]]
	i, ok := slices.BinarySearchFunc(run, b, func(x constReg, b int32) int { return cmp.Compare(x.block, b) })
	if !ok {
		return -1
	}
	return int(r[0]) + i
}

// run returns the run of constant id, if it has copies.
func (s *scheduler) run(id int) (constRun, bool) {
	if id >= len(s.runOf) || s.runOf[id] == 0 {
		return constRun{}, false
	}
	return s.runs[s.runOf[id]-1], true
}

// placeConstant places constant n, whose users are placed: one copy in
// each block a use targets (see above), the first in block order being
// its place. Cost: O(log n) per use, plus sorting its targets.
func (s *scheduler) placeConstant(n *son.Node, early *block) {
	if s.stamp == nil {
		s.stamp = make([]int32, s.n)
		s.nextReg = cfg.Reg(s.g.MaxID())
	}
	mark := int32(n.ID) + 1
	t, uses := s.targets[:0], s.uses[:0]
	for k, u := range n.Out {
		if b := s.useBlock(n, k, u); b != nil {
			x := s.shallowest(b, early)
			uses = append(uses, [2]int32{b.number(), x.number()})
			if s.stamp[x.index] != mark {
				s.stamp[x.index] = mark
				t = append(t, x.number())
			}
		}
	}
	s.targets, s.uses = t, uses
	switch len(t) {
	case 0: // used only where control never goes
		s.place[n.ID] = early.number()
	case 1:
		s.place[n.ID] = t[0]
	default:
		slices.Sort(t)
		s.place[n.ID] = t[0]
		first := s.nextReg // the register of t[1]'s copy, t[2]'s the next...
		if s.runOf == nil {
			s.runOf = make([]int32, s.g.MaxID())
		}
		r := constRun{copies: [2]int32{int32(len(s.copies)), 0}, uses: [2]int32{int32(len(s.useRegs)), 0}}
		s.copies = append(s.copies, constReg{id: int32(n.ID), block: t[0], reg: cfg.Reg(n.ID)})
		for _, b := range t[1:] {
			s.copies = append(s.copies, constReg{id: int32(n.ID), block: b, reg: s.nextReg})
			s.nextReg++
		}
		// One entry per block of a use: the uses in one block all
		// target the same block, the search's for that block.
		slices.SortFunc(uses, func(x, y [2]int32) int { return cmp.Compare(x[0], y[0]) })
		for i, u := range uses {
			if i > 0 && u[0] == uses[i-1][0] {
				continue
			}
			reg := cfg.Reg(n.ID)
			if k, _ := slices.BinarySearch(t, u[1]); k > 0 {
				reg = first + cfg.Reg(k-1)
			}
			s.useRegs = append(s.useRegs, constReg{id: int32(n.ID), block: u[0], reg: reg})
		}
		r.copies[1], r.uses[1] = int32(len(s.copies)), int32(len(s.useRegs))
		s.runs = append(s.runs, r)
		s.runOf[n.ID] = int32(len(s.runs))
	}
}

// regAt is the register a use of x in block b reads: x's ID, or for a
// constant with copies the register of the copy its use targets, as
// placeConstant noted it.
func (s *scheduler) regAt(x *son.Node, b *block) cfg.Reg {
	if x.Op != son.OpConstant {
		return cfg.Reg(x.ID)
	}
	if r, ok := s.run(x.ID); ok {
		if i := s.useRegs.find(r.uses, b.number()); i >= 0 {
			return s.useRegs[i].reg
		}
	}
	return cfg.Reg(x.ID)
}

// dstAt is the register n defines in block b: its ID, or the register of
// a constant's copy there.
func (s *scheduler) dstAt(n *son.Node, b *block) cfg.Reg {
	if n.Op == son.OpConstant {
		if r, ok := s.run(n.ID); ok {
			if i := s.copies.find(r.copies, b.number()); i >= 0 {
				return s.copies[i].reg
			}
		}
	}
	return cfg.Reg(n.ID)
}

// hasCopies reports whether n is a constant placed in several blocks.
func (s *scheduler) hasCopies(n *son.Node) bool {
	_, ok := s.run(n.ID)
	return ok && n.Op == son.OpConstant
}
