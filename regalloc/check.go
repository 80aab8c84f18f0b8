package regalloc

import (
	"fmt"
	"math"
)

// Check proves that res is a correct allocation of f, trusting nothing of
// the allocator (Rideau and Leroy, "Validating register allocation and
// spilling", CC 2010, in the forward form): a dataflow over the allocated
// code computes, at each point, which register of f each location
// certainly holds the current value of, running the reloads and stores of
// res and the instructions' writes; every operand must then read a
// location that holds its register. At a block with several predecessors
// a location keeps a register only if it holds it on every incoming path.
// A write of register r makes every other location that held r stale.
// A block's state flows to each successor from where control leaves for
// it: from a jump to it (Instr.Jump), the moves after the jump excluded,
// as they run only on the ways on; from the block's end to the successors
// no jump names; from a jump away (a stub), nowhere. The checker trusts
// the input's instructions as selected, their jumps' targets with them.
//
// Besides, each physical register of f must be allocated to itself (the
// machine reads it implicitly), virtual ones to allocatable registers, a
// register read and written by one instruction to one location, and each
// stack slot must hold a single register of f throughout (which makes the
// invalidation of stale slots cheap). An instruction res drops must be
// Pure, and the registers it would have written count as overwritten.
// The slots a state knows are a persistent set (pset.go): a block shares
// its predecessor's set until it stores or kills, and a meet costs what
// differs between the two sets, so the cost is linear in the code times
// the machine's registers, times the depth of the set's tree, plus the
// differences met at joins; not the slots times the blocks.
func Check(f *Func, res *Result) error {
	c, err := NewChecker(f, res)
	if err != nil {
		return err
	}
	return c.Flow()
}

// A Checker is Check in two steps: NewChecker checks the rules that need
// no dataflow (each instruction's locations exist and fit it), after which
// res is safe to read, then Flow runs the dataflow. amd64.Compile
// assembles between the two, so that the selected code is no longer live
// while the dataflow runs.
type Checker struct{ c checker }

// NewChecker checks the rules of Check that need no dataflow.
func NewChecker(f *Func, res *Result) (*Checker, error) {
	k := &Checker{c: checker{f: f, res: res}}
	if err := k.c.static(); err != nil {
		return nil, err
	}
	return k, nil
}

// Flow runs the dataflow of Check on the allocation NewChecker accepted.
func (k *Checker) Flow() error { return k.c.run() }

type checker struct {
	f        *Func
	res      *Result
	slotName []Reg // the register of f each slot holds, -1 before any store
	// The slots named r are slotHead[r], then slotNext of it, each
	// stored plus one (0 ends the chain): kill finds them without a map.
	slotHead, slotNext []int32
	// only[r]: the one location any state has ever held register r of f
	// in (put it there, or r's own for a physical one), noLoc before
	// any, manyLocs once two. Before any, kill has nothing to forget: a
	// register's first write costs no walk of the machine's registers.
	// A write of r to only[r], a machine register, needs no kill either:
	// no other location, of any state, can hold r. That is most writes
	// of a register written again (the destination of a two-address
	// instruction), as the allocator gives a register one location
	// unless it spills it.
	only []Loc
	// The dataflow's blocks: in[b] is the state on entry to block b once
	// known[b]; dirty[b], b is to run (again); again, a block to run
	// again comes before the one running (a back edge).
	in           []state
	known, dirty []bool
	again        bool
}

// state: regs[p] is the register of f physical register p holds, or -1;
// slot k holds slotName[k] when k is in slots. The dataflow keeps one
// working state and the entry states of all blocks in one array, so
// that running a block allocates nothing but the paths of slots changed.
type state struct {
	regs  []Reg
	slots pset
}

// meet keeps in s what t also holds, and reports whether s changed.
func (s *state) meet(t *state) bool {
	changed := false
	tr := t.regs[:len(s.regs)] // one bounds check, not one a register
	for p, r := range s.regs {
		if r != tr[p] && r != -1 {
			s.regs[p], changed = -1, true
		}
	}
	if n := s.slots.and(t.slots); n.root != s.slots.root {
		s.slots, changed = n, true
	}
	return changed
}

func (c *checker) where(b, i int) string {
	if c.f.Describe != nil {
		return fmt.Sprintf("block %d, instruction %d (%s)", b, i, c.f.Describe(b, i))
	}
	return fmt.Sprintf("block %d, instruction %d", b, i)
}

func (c *checker) name(r Reg) string {
	if r < 0 {
		return "nothing known"
	}
	if c.f.RegName != nil {
		return c.f.RegName(r)
	}
	return fmt.Sprintf("v%d", r)
}

func (c *checker) locName(l Loc) string {
	if !l.IsSlot() && c.f.RegName != nil && int(l) < c.f.NumPhys {
		return c.f.RegName(Reg(l))
	}
	return l.String()
}

// run is the dataflow, once static has accepted the allocation.
func (c *checker) run() error {
	f, res := c.f, c.res
	if len(f.Blocks) == 0 {
		return nil
	}
	c.slotName = make([]Reg, res.Slots)
	for k := range c.slotName {
		c.slotName[k] = -1
	}
	c.slotNext = make([]int32, res.Slots)
	// A register of f named by a slot is one an instruction writes, or a
	// physical one (held on entry).
	top := Reg(f.NumPhys)
	for _, r := range f.Regs {
		top = max(top, r+1)
	}
	c.slotHead = make([]int32, top)
	c.only = make([]Loc, top)
	for r := range c.only {
		c.only[r] = noLoc
	}
	// The entry states' registers are one array, NumPhys per block.
	np := f.NumPhys
	in := make([]state, len(f.Blocks))
	regs := make([]Reg, len(f.Blocks)*np)
	for b := range in {
		in[b].regs = regs[b*np : (b+1)*np : (b+1)*np]
	}
	c.in = in
	c.known = make([]bool, len(f.Blocks))
	for p := range in[0].regs {
		in[0].regs[p] = Reg(p) // on entry each physical register holds its own value
		c.only[p] = Loc(p)
	}
	in[0].slots = newPset(res.Slots)
	c.known[0] = true
	s := state{regs: make([]Reg, np)}
	// Sweeps over the blocks in layout order, each running the blocks whose
	// entry state changed: a forward edge is taken in the same sweep, a
	// back edge in the next, so the sweeps are about the loop nesting
	// depth (a worklist taken last-in first-out walked each loop's body
	// again for each change at its head).
	dirty := make([]bool, len(f.Blocks))
	dirty[0] = true
	c.dirty = dirty
	for c.again = true; c.again; {
		c.again = false
		for b := range f.Blocks {
			if !dirty[b] {
				continue
			}
			dirty[b] = false
			copy(s.regs, in[b].regs)
			s.slots = in[b].slots
			if err := c.block(b, &s); err != nil {
				return err
			}
		}
	}
	return nil
}

// flow makes s flow from block b to its successor t: t's entry state is
// s, or what it and s agree on, and t runs (again) if that changed.
func (c *checker) flow(b, t int, s *state) {
	switch {
	case !c.known[t]:
		copy(c.in[t].regs, s.regs)
		c.in[t].slots, c.known[t] = s.slots, true
	case !c.in[t].meet(s):
		return
	}
	c.dirty[t] = true
	c.again = c.again || t <= b
}

// static checks the rules that need no dataflow.
func (c *checker) static() error {
	f, res := c.f, c.res
	if len(res.Blocks) != len(f.Blocks) {
		return fmt.Errorf("regalloc check: %d blocks allocated, the function has %d", len(res.Blocks), len(f.Blocks))
	}
	if res.Slots < 0 || res.Slots > maxSlots {
		return fmt.Errorf("regalloc check: %d slots", res.Slots)
	}
	alloc := make([]bool, f.NumPhys)
	for _, r := range f.Allocatable {
		if r < 0 || int(r) >= f.NumPhys {
			return fmt.Errorf("regalloc check: allocatable register %d is not physical", r)
		}
		alloc[r] = true
	}
	for b, blk := range f.Blocks {
		if len(res.Blocks[b]) != len(blk.Instrs) {
			return fmt.Errorf("regalloc check: block %d: %d instructions allocated, it has %d", b, len(res.Blocks[b]), len(blk.Instrs))
		}
		placed := res.Blocks[b]
		lastSucc := JumpTo(min(len(blk.Succs), MaxJumpSucc) - 1) // the last a jump may name
		for i := range blk.Instrs {
			in, p := &blk.Instrs[i], &placed[i]
			// The edits before and after, one run of res.edits.
			if p.nb+p.na != 0 {
				for _, e := range res.edits[p.edit : p.edit+p.nb+p.na] {
					if !c.isLoc(e.Dst) || !c.isLoc(e.Src) {
						l := e.Dst
						if c.isLoc(l) {
							l = e.Src
						}
						return fmt.Errorf("regalloc check: %s: %v", c.where(b, i), c.validLoc(l))
					}
				}
			}
			if !f.validRegs(in) {
				return fmt.Errorf("regalloc check: %s: registers %d to %d, of %d", c.where(b, i), in.Off, int(in.Off)+int(in.NU)+int(in.ND), len(f.Regs))
			}
			if in.Jump > lastSucc && in.Jump != JumpAway {
				return fmt.Errorf("regalloc check: %s: jumps to successor %d, the block has %d", c.where(b, i), in.Jump.Succ(), len(blk.Succs))
			}
			if p.Dead {
				switch {
				case !in.Pure:
					return fmt.Errorf("regalloc check: %s: dropped, but it is not pure", c.where(b, i))
				case in.Jump != NoJump:
					return fmt.Errorf("regalloc check: %s: dropped, but it jumps", c.where(b, i))
				case p.nb+p.na != 0:
					// lowering emits nothing of a dropped instruction
					return fmt.Errorf("regalloc check: %s: dropped, but it has moves", c.where(b, i))
				}
				continue
			}
			nu, n := int(in.NU), int(in.NU)+int(in.ND)
			if int(p.nu) != nu || int(p.nd) != int(in.ND) {
				return fmt.Errorf("regalloc check: %s: %d uses and %d defs allocated, it has %d and %d",
					c.where(b, i), p.nu, p.nd, in.NU, in.ND)
			}
			// Uses then defs, in both: one walk of the two runs.
			regs := f.Regs[in.Off:][:n]
			locs := res.locs[p.loc:][:n]
			for k, r := range regs {
				l := locs[k]
				switch {
				case l.IsSlot() || int(l) >= f.NumPhys:
					return fmt.Errorf("regalloc check: %s: %s is in %s, not a register", c.where(b, i), c.name(r), l)
				case int(r) < f.NumPhys && Loc(r) != l:
					return fmt.Errorf("regalloc check: %s: physical %s allocated to %s", c.where(b, i), c.name(r), c.locName(l))
				case int(r) >= f.NumPhys && !alloc[l]:
					return fmt.Errorf("regalloc check: %s: %s allocated to %s, which is not allocatable", c.where(b, i), c.name(r), c.locName(l))
				}
			}
			for k := 0; k < nu; k++ {
				for j := nu; j < n; j++ {
					if regs[k] == regs[j] && locs[k] != locs[j] {
						return fmt.Errorf("regalloc check: %s: %s is read from %s and written to %s by one operand",
							c.where(b, i), c.name(regs[k]), c.locName(locs[k]), c.locName(locs[j]))
					}
				}
			}
		}
	}
	return nil
}

// isLoc reports whether l is a register of the machine or a slot of res.
func (c *checker) isLoc(l Loc) bool {
	if l.IsSlot() {
		return l.Slot() < c.res.Slots
	}
	return int(l) < c.f.NumPhys
}

// validLoc says why l is not a location, or nil.
func (c *checker) validLoc(l Loc) error {
	if l.IsSlot() {
		if l.Slot() >= c.res.Slots {
			return fmt.Errorf("%s: only %d slots", l, c.res.Slots)
		}
		return nil
	}
	if int(l) >= c.f.NumPhys {
		return fmt.Errorf("location %s is no register", l)
	}
	return nil
}

// get is the register of f that l holds in s, or -1. get and put are
// inlined for a machine register, most operands; a slot takes a call.
func (c *checker) get(s *state, l Loc) Reg {
	if l.IsSlot() {
		return c.getSlot(s, l)
	}
	return s.regs[l]
}

// getSlot is get of slot l.
func (c *checker) getSlot(s *state, l Loc) Reg {
	k := l.Slot()
	if s.slots.has(k) {
		return c.slotName[k]
	}
	return -1
}

// put records that l holds r (-1: nothing known).
func (c *checker) put(s *state, l Loc, r Reg) error {
	if r >= 0 {
		c.hold(r, l)
	}
	if !l.IsSlot() {
		s.regs[l] = r
		return nil
	}
	k := l.Slot()
	if r < 0 {
		s.slots = s.slots.with(k, false)
		return nil
	}
	switch c.slotName[k] {
	case -1:
		c.slotName[k] = r
		c.slotNext[k] = c.slotHead[r]
		c.slotHead[r] = int32(k) + 1
	case r:
	default:
		return fmt.Errorf("%s holds both %s and %s", l, c.name(c.slotName[k]), c.name(r))
	}
	s.slots = s.slots.with(k, true)
	return nil
}

// noLoc and manyLocs are the marks of checker.only: no location, and
// more than one. Neither is a location: static accepts at most maxSlots
// slots, whose locations are above both.
const (
	noLoc    Loc = math.MinInt32
	manyLocs Loc = math.MinInt32 + 1
	maxSlots     = -int(manyLocs) - 1
)

// hold records in only that a state holds r in l.
func (c *checker) hold(r Reg, l Loc) {
	switch o := c.only[r]; {
	case o == l:
	case o == noLoc:
		c.only[r] = l
	default:
		c.only[r] = manyLocs
	}
}

// kill forgets every location that holds r.
func (c *checker) kill(s *state, r Reg) {
	if r < 0 || int(r) >= len(c.only) || c.only[r] == noLoc {
		return // no location holds it (put records registers of f only)
	}
	for p, x := range s.regs {
		if x == r {
			s.regs[p] = -1
		}
	}
	for k := c.slotHead[r]; k != 0; k = c.slotNext[k-1] {
		s.slots = s.slots.with(int(k-1), false)
	}
}

func (c *checker) edits(b, i int, s *state, es []Edit) error {
	for _, e := range es {
		if err := c.put(s, e.Dst, c.get(s, e.Src)); err != nil {
			return fmt.Errorf("regalloc check: %s: %v", c.where(b, i), err)
		}
	}
	return nil
}

// block runs block b from s, and makes its states flow to its
// successors: at each jump to one, the moves after the jump left out; at
// the end, to those no jump names. static has checked every offset it
// reads and every successor a jump names.
func (c *checker) block(b int, s *state) error {
	f, res := c.f, c.res
	instrs := f.Blocks[b].Instrs
	succs := f.Blocks[b].Succs
	placed := res.Blocks[b]
	var named [(MaxJumpSucc + 63) / 64]uint64 // the successors a jump names
	for i := range instrs {
		in, p := &instrs[i], &placed[i]
		nu := int(in.NU)
		regs := f.Regs[in.Off:][:nu+int(in.ND)]
		if p.nb > 0 {
			if err := c.edits(b, i, s, res.Before(p)); err != nil {
				return err
			}
		}
		if !p.Dead {
			locs := res.locs[p.loc:][:len(regs)]
			for k, u := range regs[:nu] {
				if got := c.get(s, locs[k]); got != u {
					return fmt.Errorf("regalloc check: %s: reads %s from %s, which holds %s",
						c.where(b, i), c.name(u), c.locName(locs[k]), c.name(got))
				}
			}
			for k, d := range regs[nu:] {
				if d < 0 || int(d) >= len(c.only) || c.only[d] != locs[nu+k] {
					c.kill(s, d) // else only its new location can hold d
				}
			}
			for k := nu; k < len(regs); k++ {
				// whatever the location held is overwritten: static
				// made it a machine register, put's first case, here
				// without the call
				if l, r := locs[k], regs[k]; !l.IsSlot() && r >= 0 {
					c.hold(r, l)
					s.regs[l] = r
				} else if err := c.put(s, l, r); err != nil {
					return fmt.Errorf("regalloc check: %s: %v", c.where(b, i), err)
				}
			}
		} else {
			for _, d := range regs[nu:] {
				c.kill(s, d)
			}
		}
		if j := in.Jump; j != NoJump && j != JumpAway {
			k := uint(j) - 1
			c.flow(b, succs[k], s)
			named[k/64] |= 1 << (k % 64)
		}
		if p.na > 0 {
			if err := c.edits(b, i, s, res.After(p)); err != nil {
				return err
			}
		}
	}
	for k, t := range succs {
		if k >= MaxJumpSucc || named[uint(k)/64]&(1<<(uint(k)%64)) == 0 {
			c.flow(b, t, s)
		}
	}
	return nil
}
