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
// that emit needs no search, and the dominator tree is garbage before the
// function is made.

// constReg is a register of a constant placed in several blocks, keyed
// by the constant's ID and a block: in the scheduler's list of copies, the
// block of a copy and the register it defines; in its list of uses, the
// block of some uses and the register of the copy they read.
type constReg struct {
	id    int32   // the constant's node ID
	block int32   // the block's number, 1 + index
	reg   cfg.Reg // the register
}

// constRegs is a list of constReg sorted by node ID then block, found by
// binary search, with no map or array by node ID (most programs have no
// constant with copies).
type constRegs []constReg

func compareConstRegs(x, y constReg) int {
	if x.id != y.id {
		return cmp.Compare(x.id, y.id)
	}
	return cmp.Compare(x.block, y.block)
}

func (c constRegs) sort() { slices.SortFunc(c, compareConstRegs) }

// find is the position of the entry of constant id for block number b, or -1.
func (c constRegs) find(id int, b int32) int {
	i, ok := slices.BinarySearchFunc(c, constReg{id: int32(id), block: b}, compareConstRegs)
	if !ok {
		return -1
	}
	return i
}

// has reports whether constant id has an entry.
func (c constRegs) has(id int) bool {
	i, _ := slices.BinarySearchFunc(c, int32(id), func(x constReg, id int32) int { return cmp.Compare(x.id, id) })
	return i < len(c) && c[i].id == int32(id)
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
	}
}

// regAt is the register a use of x in block b reads: x's ID, or for a
// constant with copies the register of the copy its use targets, as
// placeConstant noted it.
func (s *scheduler) regAt(x *son.Node, b *block) cfg.Reg {
	if x.Op != son.OpConstant || len(s.useRegs) == 0 {
		return cfg.Reg(x.ID)
	}
	if i := s.useRegs.find(x.ID, b.number()); i >= 0 {
		return s.useRegs[i].reg
	}
	return cfg.Reg(x.ID)
}

// dstAt is the register n defines in block b: its ID, or the register of
// a constant's copy there.
func (s *scheduler) dstAt(n *son.Node, b *block) cfg.Reg {
	if len(s.copies) > 0 && n.Op == son.OpConstant {
		if i := s.copies.find(n.ID, b.number()); i >= 0 {
			return s.copies[i].reg
		}
	}
	return cfg.Reg(n.ID)
}

// hasCopies reports whether n is a constant placed in several blocks.
func (s *scheduler) hasCopies(n *son.Node) bool {
	return len(s.copies) > 0 && n.Op == son.OpConstant && s.copies.has(n.ID)
}
