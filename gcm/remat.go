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
// (shareAtJoins): a chain of && gives its join a 0 from every arm.

// constRun is where a constant with copies has its entries: the blocks of
// its copies, in order, are s.copies[at:at+n]; the first copy's register
// is the node's ID, the k-th's (k ≥ 1) reg + k - 1.
type constRun struct {
	id  int32   // the constant's node ID
	at  int32   // where its copies begin in s.copies
	n   int32   // how many copies
	reg cfg.Reg // the register of its second copy
	// The targets that read a copy in another block rather than their
	// own, with that block, by target (shareAtJoins):
	// s.aliases[aliasAt:aliasAt+aliases].
	aliasAt, aliases int32
}

// placeConstant places constant n, whose users are placed, and sets its
// late block (the common dominator of its uses): one copy in each block
// a use targets (see above), the first in block order being its place;
// but the targets that serve only Phis of one join may share one copy
// (shareAtJoins). Cost: O(log n) per use for its late block, plus
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
	at := len(s.aliases)
	t = s.shareAtJoins(t, phiOnly)
	aliases := len(s.aliases) - at
	if len(t) == 1 {
		s.aliases = s.aliases[:at] // all read the one copy, by the node's ID
		s.place[n.ID] = t[0]
		return
	}
	slices.Sort(t)
	s.place[n.ID] = t[0]
	if s.runOf == nil {
		s.runOf = make([]int32, s.g.MaxID())
	}
	s.runs = append(s.runs, constRun{id: int32(n.ID), at: int32(len(s.copies)), n: int32(len(t)), reg: s.nextReg,
		aliasAt: int32(at), aliases: int32(aliases)})
	s.copies = append(s.copies, t...)
	s.nextReg += cfg.Reg(len(t) - 1)
	s.runOf[n.ID] = int32(len(s.runs))
}

// shareAtJoins returns the blocks of a constant's copies, as numbers,
// deduplicated but not sorted, given its targets t (at least two): the
// targets, but for those whose uses are all Phis' (phiOnly, by position)
// and that end in a jump to a Region J, as the arms of a chain of && or
// || do, each giving J's Phi the constant. Those of one J share one copy
// in their common dominator d, if there are two or more, if d's loop depth
// is theirs, and if the blocks on the dominator paths from d down to them
// (d excluded) are each entered from their parent only and number at most
// 2k+2 for k targets: then those paths are exactly the blocks the one copy
// is live in, no more than twice the copies it replaces, so no long range
// through blocks that do not use it (the `cond` shape's constants are
// compared in the blocks that branch, and each returned once: never
// shared). The targets that share a copy are appended to s.aliases with
// its block, sorted by target.
func (s *scheduler) shareAtJoins(t []int32, phiOnly []bool) []int32 {
	cand := s.cand[:0] // (J's index, target, position in t)
	for i, x := range t {
		if !phiOnly[i] {
			continue
		}
		if succs := s.sk.succsOf(s.sk.blocks[x-1]); len(succs) == 1 && s.sk.blocks[succs[0]].head.Op == son.OpRegion {
			cand = append(cand, [3]int32{succs[0], x, int32(i)})
		}
	}
	s.cand = cand
	if len(cand) < 2 {
		return t
	}
	slices.SortFunc(cand, func(a, b [3]int32) int {
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		return cmp.Compare(a[1], b[1])
	})
	at, keep := len(s.aliases), s.keep[:0]
	for range t {
		keep = append(keep, true)
	}
	s.keep = keep
	var shared []int32 // the blocks of the shared copies, as numbers
	for i := 0; i < len(cand); {
		j := i + 1
		for j < len(cand) && cand[j][0] == cand[i][0] {
			j++
		}
		if d, ok := s.joinCopy(cand[i:j]); ok {
			for _, c := range cand[i:j] {
				keep[c[2]] = false
				s.aliases = append(s.aliases, [2]int32{c[1], d})
			}
			shared = append(shared, d)
		}
		i = j
	}
	if len(shared) == 0 {
		return t
	}
	slices.SortFunc(s.aliases[at:], func(a, b [2]int32) int { return cmp.Compare(a[0], b[0]) })
	rest := t[:0]
	for i, x := range t {
		if keep[i] {
			rest = append(rest, x)
		}
	}
	rest = append(rest, shared...)
	slices.Sort(rest)
	return slices.Compact(rest)
}

// joinCopy is the block, as a number, where the targets of group (each
// a Region's predecessor: J's index, target number, position) may share
// a copy, as shareAtJoins says.
func (s *scheduler) joinCopy(group [][3]int32) (int32, bool) {
	if len(group) < 2 {
		return 0, false
	}
	d := int(group[0][1] - 1)
	for _, c := range group[1:] {
		d = s.tree.LCA(d, int(c[1]-1))
	}
	s.walk-- // a mark of its own, below every constant's (positive) one
	budget := 2*len(group) + 2
	for _, c := range group {
		x := int(c[1] - 1)
		if s.loop[x] != s.loop[d] {
			return 0, false
		}
		// Up from x to d or to a block this group's walk has passed.
		for v := x; v != d && s.stamp[v] != s.walk; v = s.tree.Idom(v) {
			b := s.sk.blocks[v]
			if budget--; budget < 0 || b.numPreds() != 1 {
				return 0, false
			}
			s.stamp[v] = s.walk
		}
	}
	return int32(d) + 1, true
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

// regAt is the register a use of x in block b (by index) reads: x's ID,
// or for a constant with copies the register of the copy in the block its
// use targets. Small enough to be inlined: most arguments are not
// constants.
func (s *scheduler) regAt(x *son.Node, b int32) cfg.Reg {
	if x.Op == son.OpConstant {
		return s.copyAt(x, s.target[b]+1)
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
	if a := s.aliases[r.aliasAt : r.aliasAt+r.aliases]; len(a) > 0 {
		if k, ok := slices.BinarySearchFunc(a, b, func(x [2]int32, b int32) int { return cmp.Compare(x[0], b) }); ok {
			reg, _ := s.copyIn(r, a[k][1])
			return reg
		}
	}
	return cfg.Reg(x.ID)
}

// hasCopies reports whether n is a constant placed in several blocks.
func (s *scheduler) hasCopies(n *son.Node) bool {
	return n.Op == son.OpConstant && n.ID < len(s.runOf) && s.runOf[n.ID] != 0
}
