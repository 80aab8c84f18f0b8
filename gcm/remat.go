package gcm

import (
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
// use up to the entry (a constant's early block), the latest among equals
// — and the constant gets one Const per distinct target: a loop-invariant
// constant still leaves its loop, and no copy enters a loop its use is
// not in. That block depends on the block of the use only: it is
// computed once per block in one walk of the dominator tree (target), so
// that a use costs O(1) rather than a search, and emit finds the copy a
// use in block b reads as the one in target[b], in the constant's run,
// rather than noting a register per use. The first copy, in block order,
// keeps the node's ID as its register; the others get fresh registers
// from g.MaxID() up, in block order. The targets whose only uses are a
// join's Phis may share one copy in their common dominator
// (joinDominator): a chain of && gives its join a 0 from every arm.

// constRun is where a constant with copies has its entries: the blocks of
// its copies, in order, are s.copies[at:at+n]; the first copy's register
// is the node's ID, the k-th's (k ≥ 1) reg + k - 1.
type constRun struct {
	id  int32   // the constant's node ID
	at  int32   // where its copies begin in s.copies
	n   int32   // how many copies
	reg cfg.Reg // the register of its second copy
	// The targets that read the copy in block via rather than their own
	// (joinDominator), in order: s.aliases[aliasAt:aliasAt+aliases].
	aliasAt, aliases, via int32
}

// placeConstant places constant n, whose users are placed, and sets its
// late block (the common dominator of its uses): one copy in each block
// a use targets (see above), the first in block order being its place;
// but the targets that serve only Phis of one join may share one copy
// (joinDominator). Cost: O(log n) per use for its late block, plus
// sorting its targets and, for those that end in a jump, O(log n) each
// for their common dominator.
func (s *scheduler) placeConstant(n *son.Node, early *block) {
	if s.stamp == nil {
		s.stamp = make([]int32, s.n)
		s.slot = make([]int32, s.n)
		s.nextReg = cfg.Reg(s.g.MaxID())
	}
	mark := int32(n.ID) + 1
	t, phiOnly := s.targets[:0], s.phiOnly[:0]
	var late *block
	for k, u := range n.Out {
		b := s.useBlock(n, k, u)
		if b == nil {
			continue
		}
		late = s.lca(late, b)
		x := s.target[b.index]
		if s.stamp[x] != mark {
			s.stamp[x], s.slot[x] = mark, int32(len(t))
			t, phiOnly = append(t, x+1), append(phiOnly, true)
		}
		if u.Op != son.OpPhi {
			phiOnly[s.slot[x]] = false
		}
	}
	s.targets, s.phiOnly = t, phiOnly
	if late == nil {
		late = early // used only where control never goes (a Never's exit)
	}
	s.late[n.ID] = late.number()
	switch len(t) {
	case 0:
		s.place[n.ID] = early.number()
		return
	case 1:
		s.place[n.ID] = t[0]
		return
	}
	// The targets that share the copy in d, if any, move to the end of t
	// as aliases: no copy of their own.
	aliases, via := 0, int32(0)
	if d, group, ok := s.joinDominator(t, phiOnly, mark); ok {
		rest := t[:0]
		for i, x := range t {
			if i < len(group) && group[i] {
				s.aliases = append(s.aliases, x)
				aliases++
			} else {
				rest = append(rest, x)
			}
		}
		t = rest
		if s.stamp[d-1] != mark {
			t = append(t, d)
		}
		if len(t) == 1 {
			s.aliases = s.aliases[:len(s.aliases)-aliases]
			s.place[n.ID] = d
			return
		}
		slices.Sort(s.aliases[len(s.aliases)-aliases:])
		via = d
	}
	slices.Sort(t)
	s.place[n.ID] = t[0]
	if s.runOf == nil {
		s.runOf = make([]int32, s.g.MaxID())
	}
	s.runs = append(s.runs, constRun{id: int32(n.ID), at: int32(len(s.copies)), n: int32(len(t)), reg: s.nextReg,
		aliasAt: int32(len(s.aliases) - aliases), aliases: int32(aliases), via: via})
	s.copies = append(s.copies, t...)
	s.nextReg += cfg.Reg(len(t) - 1)
	s.runOf[n.ID] = int32(len(s.runs))
}

// joinDominator is where one copy of a constant may serve several of its
// targets t (as numbers; s.stamp[x] is mark for each): those whose uses
// are all Phis' (phiOnly) and that end in a jump to one Region J, as the
// arms of a chain of && or || do, each giving J's Phi the constant. The
// copy goes to their common dominator d, if there are two or more, if d's
// loop depth is theirs, and if the blocks on the dominator paths from d
// down to them (d excluded) are each entered from their parent only and
// number at most 2k+2 for k targets: then those paths are exactly the
// blocks the one copy is live in, no more than twice the copies it
// replaces, so no long range through blocks that do not use it (the
// `cond` shape's constants are compared in the blocks that branch, and
// each returned once: never merged). It returns d as a number and, by
// position in t, the targets that share it.
func (s *scheduler) joinDominator(t []int32, phiOnly []bool, mark int32) (int32, []bool, bool) {
	var join *block
	d, k := -1, 0
	group := s.group[:0]
	for i, x := range t {
		in := false
		if phiOnly[i] {
			b := s.sk.blocks[x-1]
			succs := s.sk.succsOf(b)
			if len(succs) == 1 && succs[0].head.Op == son.OpRegion && (join == nil || succs[0] == join) {
				in, join = true, succs[0]
				if d < 0 {
					d = int(b.index)
				} else {
					d = s.tree.LCA(d, int(b.index))
				}
				k++
			}
		}
		group = append(group, in)
	}
	s.group = group
	if k < 2 {
		return 0, nil, false
	}
	budget := 2*k + 2
	for i, x := range t {
		if !group[i] {
			continue
		}
		if s.loop[x-1] != s.loop[d] {
			return 0, nil, false
		}
		// Up from x to d or to a block already walked (marked -mark).
		for v := int(x - 1); v != d && s.stamp[v] != -mark; v = s.tree.Idom(v) {
			b := s.sk.blocks[v]
			if budget--; budget < 0 || b.r1-b.r0 != 1 {
				return 0, nil, false
			}
			s.stamp[v] = -mark
		}
	}
	return int32(d) + 1, group, true
}

// copyIn is the register of constant run r's copy in block number b, or
// false if it has none there.
func (s *scheduler) copyIn(r *constRun, b int32) (cfg.Reg, bool) {
	if k := search(s.copies[r.at:r.at+r.n], b); k >= 0 {
		if k == 0 {
			return cfg.Reg(r.id), true
		}
		return r.reg + cfg.Reg(k-1), true
	}
	return 0, false
}

// search is the position of b in the sorted list l, or -1: a plain
// binary search, inlined (slices.BinarySearch cost 140 instructions a
// call here, on lists of a few blocks).
func search(l []int32, b int32) int {
	lo, hi := 0, len(l)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l[m] < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(l) && l[lo] == b {
		return lo
	}
	return -1
}

// regAt is the register a use of x in block b reads: x's ID, or for a
// constant with copies the register of the copy in the block its use
// targets. Small enough to be inlined: most arguments are not constants.
func (s *scheduler) regAt(x *son.Node, b *block) cfg.Reg {
	if x.Op == son.OpConstant {
		return s.copyAt(x, s.target[b.index]+1)
	}
	return cfg.Reg(x.ID)
}

// dstAt is the register n defines in block b: its ID, or the register of
// a constant's copy there.
func (s *scheduler) dstAt(n *son.Node, b *block) cfg.Reg {
	if n.Op == son.OpConstant {
		return s.copyAt(n, b.number())
	}
	return cfg.Reg(n.ID)
}

// copyAt is the register of constant x's copy in block number b: x's ID
// if x has no copies, or none there.
func (s *scheduler) copyAt(x *son.Node, b int32) cfg.Reg {
	if x.ID >= len(s.runOf) || s.runOf[x.ID] == 0 {
		return cfg.Reg(x.ID)
	}
	r := &s.runs[s.runOf[x.ID]-1]
	if reg, ok := s.copyIn(r, b); ok {
		return reg
	}
	if r.aliases > 0 && search(s.aliases[r.aliasAt:r.aliasAt+r.aliases], b) >= 0 {
		reg, _ := s.copyIn(r, r.via)
		return reg
	}
	return cfg.Reg(x.ID)
}

// hasCopies reports whether n is a constant placed in several blocks.
func (s *scheduler) hasCopies(n *son.Node) bool {
	return n.Op == son.OpConstant && n.ID < len(s.runOf) && s.runOf[n.ID] != 0
}
