// Package regalloc assigns machine registers to the virtual registers of a
// function, behind an interface small enough to test without any machine:
// a function is blocks of instructions that read (Uses) and write (Defs)
// registers, physical ones (numbered 0..NumPhys-1, the machine's
// constraints: an idiv's rax and rdx, a shift's cl) and virtual ones (from
// NumPhys up).
//
// Allocate is a linear scan over live intervals (Poletto and Sarkar,
// TOPLAS 1999) on the blocks in the order they are laid out, with the
// physical registers' own live segments as fixed intervals, hints that give
// both sides of a Move the same register where they do not overlap, and
// spilling to stack slots: a spilled register lives in its slot, reloaded
// into a short-lived register before each instruction that reads it and
// stored after each that writes it, and the scan runs again on the
// rewritten code. Check, in check.go, proves a result right without
// trusting the allocator.
package regalloc

import (
	"fmt"
	"sort"
)

// Reg is a register of the input: physical below Func.NumPhys, virtual
// from there up.
type Reg int32

// Loc is where a value is: a physical register (>= 0) or a stack slot
// (Slot(k) = -1-k).
type Loc int32

// SlotLoc is the location of stack slot k.
func SlotLoc(k int) Loc { return Loc(-1 - k) }

// IsSlot reports whether l is a stack slot.
func (l Loc) IsSlot() bool { return l < 0 }

// Slot is the number of the stack slot l.
func (l Loc) Slot() int { return int(-1 - l) }

func (l Loc) String() string {
	if l.IsSlot() {
		return fmt.Sprintf("slot%d", l.Slot())
	}
	return fmt.Sprintf("r%d", int32(l))
}

// Func is the input: blocks in layout order, the entry first.
type Func struct {
	NumPhys     int
	Allocatable []Reg // the physical registers virtual ones may get
	Blocks      []Block
	// Describe, if set, names instruction i of block b in errors.
	Describe func(b, i int) string
	// RegName, if set, names a register in errors.
	RegName func(Reg) string
}

// Block is a basic block: its instructions and the blocks control may go
// to after them (an exit of the function has none).
type Block struct {
	Instrs []Instr
	Succs  []int
}

// Instr is what the allocator knows of an instruction. A register both
// read and written (a two-address operand) is in Uses and in Defs and gets
// one location for both.
type Instr struct {
	Uses, Defs []Reg
	Move       bool // a copy Defs[0] = Uses[0]: the allocator hints both to one register
	Pure       bool // no effect but its Defs: dropped when none of them is read
}

// Result is an allocation: for each instruction, where each of its
// operands is, and the moves to and from stack slots around it.
type Result struct {
	Blocks [][]Placed // Blocks[b][i] for Func.Blocks[b].Instrs[i]
	Slots  int        // stack slots used
	// Moves counts the Move instructions left, whose two sides got
	// different registers; Coalesced, those that became no-ops.
	Moves, Coalesced int
	Spilled          int // virtual registers spilled
	Rounds           int // scans run (one more per round of spilling)
}

// Placed is the allocation of one instruction.
type Placed struct {
	Dead       bool  // dropped: a Pure instruction whose results are never read
	Uses, Defs []Loc // parallel to the Instr's; registers, never slots
	// Before and After are moves run before and after the instruction:
	// reloads from slots, stores to slots.
	Before, After []Edit
}

// Edit is a move from Src to Dst, one of them a stack slot.
type Edit struct{ Dst, Src Loc }

// winstr is an instruction of the working code: one of the input's
// (orig >= 0), or a reload or store of a spilled register.
type winstr struct {
	uses, defs []Reg
	move, pure bool
	dead       bool
	orig       int   // index in the input block, or -1
	slot       int32 // for a reload (defs[0] = slot) or a store (slot = uses[0])
	reload     bool
}

type alloc struct {
	f       *Func
	blocks  [][]*winstr
	preds   [][]int
	nregs   int    // virtual registers are below nregs
	tmp     []bool // tmp[v]: a reload/store temporary, never spilled
	slotOf  []int32
	slots   int
	spilled int

	// per round
	start, end []int32      // of each register's interval, -1 when none
	fixed      [][][2]int32 // fixed[p]: the live segments of physical register p, by start
	assign     []int32      // the register of each virtual register, or -1
	spill      []bool
	hints      [][]Reg
}

// Allocate assigns registers to f's virtual registers.
func Allocate(f *Func) (*Result, error) {
	a := &alloc{f: f}
	if err := a.init(); err != nil {
		return nil, err
	}
	for round := 1; ; round++ {
		a.liveness()
		spilled, err := a.scan()
		if err != nil {
			return nil, err
		}
		if !spilled {
			return a.result(round), nil
		}
		a.rewrite()
	}
}

func (a *alloc) init() error {
	f := a.f
	a.nregs = f.NumPhys
	a.blocks = make([][]*winstr, len(f.Blocks))
	a.preds = make([][]int, len(f.Blocks))
	for b, blk := range f.Blocks {
		for _, s := range blk.Succs {
			if s < 0 || s >= len(f.Blocks) {
				return fmt.Errorf("regalloc: block %d: successor %d out of range", b, s)
			}
			a.preds[s] = append(a.preds[s], b)
		}
		ws := make([]*winstr, len(blk.Instrs))
		for i, in := range blk.Instrs {
			for _, list := range [2][]Reg{in.Uses, in.Defs} {
				for _, r := range list {
					if r < 0 {
						return fmt.Errorf("regalloc: block %d instruction %d: register %d", b, i, r)
					}
					a.nregs = max(a.nregs, int(r)+1)
				}
			}
			if in.Move && (len(in.Uses) != 1 || len(in.Defs) != 1) {
				return fmt.Errorf("regalloc: block %d instruction %d: a Move has one use and one def", b, i)
			}
			ws[i] = &winstr{uses: in.Uses, defs: in.Defs, move: in.Move, pure: in.Pure, orig: i}
		}
		a.blocks[b] = ws
	}
	a.tmp = make([]bool, a.nregs)
	a.slotOf = make([]int32, a.nregs)
	for i := range a.slotOf {
		a.slotOf[i] = -1
	}
	return nil
}

func (a *alloc) newTmp() Reg {
	r := Reg(a.nregs)
	a.nregs++
	a.tmp = append(a.tmp, true)
	a.slotOf = append(a.slotOf, -1)
	return r
}

// liveness computes each register's interval on the laid-out code (for a
// physical register, its live segments), drops the Pure instructions whose
// results are dead, and collects the hints of the Moves. A position is
// given to each block's start and end, and two to each instruction: its
// reads, then its writes.
func (a *alloc) liveness() {
	nb := len(a.blocks)
	bstart, bend := make([]int32, nb), make([]int32, nb)
	for {
		// Upward-exposed uses and the blocks that write each register.
		ue := make([][]int32, a.nregs)
		defb := make([][]int32, a.nregs)
		seen := make([]int32, a.nregs) // 1+block of the last def seen, to list each once
		for b, ws := range a.blocks {
			stamp := int32(b + 1)
			for _, w := range ws {
				if w.dead {
					continue
				}
				for _, u := range w.uses {
					if seen[u] != stamp && (len(ue[u]) == 0 || ue[u][len(ue[u])-1] != int32(b)) {
						ue[u] = append(ue[u], int32(b))
					}
				}
				for _, d := range w.defs {
					if seen[d] != stamp {
						seen[d] = stamp
						defb[d] = append(defb[d], int32(b))
					}
				}
			}
		}
		// Live-in sets, register by register: from each upward-exposed
		// use back along predecessors to the blocks that write it.
		liveIn := make([][]Reg, nb)
		defStamp := make([]int32, nb)
		inStamp := make([]int32, nb)
		var work []int32
		for r := range a.nregs {
			if len(ue[r]) == 0 {
				continue
			}
			st := int32(r + 1)
			for _, b := range defb[r] {
				defStamp[b] = st
			}
			work = work[:0]
			for _, b := range ue[r] {
				if inStamp[b] != st {
					inStamp[b] = st
					liveIn[b] = append(liveIn[b], Reg(r))
					work = append(work, b)
				}
			}
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				for _, p := range a.preds[b] {
					if defStamp[p] != st && inStamp[p] != st {
						inStamp[p] = st
						liveIn[p] = append(liveIn[p], Reg(r))
						work = append(work, int32(p))
					}
				}
			}
		}
		// Positions, then each block backward from its live-out set.
		pos := int32(0)
		for b, ws := range a.blocks {
			bstart[b] = pos
			pos++
			for _, w := range ws {
				if !w.dead {
					pos += 2
				}
			}
			bend[b] = pos
			pos++
		}
		a.start = make([]int32, a.nregs)
		a.end = make([]int32, a.nregs)
		for r := range a.start {
			a.start[r], a.end[r] = -1, -1
		}
		a.fixed = make([][][2]int32, a.f.NumPhys)
		segEnd := make([]int32, a.nregs) // -1: not live at this point
		for r := range segEnd {
			segEnd[r] = -1
		}
		var live []Reg
		changed := false
		for b := nb - 1; b >= 0; b-- {
			live = live[:0]
			for _, s := range a.f.Blocks[b].Succs {
				for _, r := range liveIn[s] {
					if segEnd[r] < 0 {
						segEnd[r] = bend[b]
						live = append(live, r)
					}
				}
			}
			p := bend[b] - 1
			for k := len(a.blocks[b]) - 1; k >= 0; k-- {
				w := a.blocks[b][k]
				if w.dead {
					continue
				}
				usePos, defPos := p-1, p
				p -= 2
				if w.pure {
					dead := true
					for _, d := range w.defs {
						if segEnd[d] >= 0 {
							dead = false
						}
					}
					if dead {
						w.dead, changed = true, true
						continue
					}
				}
				for _, d := range w.defs {
					e := segEnd[d]
					if e < 0 {
						e = defPos
					}
					a.segment(d, defPos, e)
					segEnd[d] = -1
				}
				for _, u := range w.uses {
					if segEnd[u] < 0 {
						segEnd[u] = usePos
						live = append(live, u)
					}
				}
			}
			for _, r := range live {
				if segEnd[r] >= 0 {
					a.segment(r, bstart[b], segEnd[r])
					segEnd[r] = -1
				}
			}
		}
		if !changed {
			break
		}
		// A dropped instruction's reads are gone: compute again (each round
		// drops at least one instruction).
	}
	for _, segs := range a.fixed {
		sort.Slice(segs, func(i, j int) bool { return segs[i][0] < segs[j][0] })
	}
	a.hints = make([][]Reg, a.nregs)
	for _, ws := range a.blocks {
		for _, w := range ws {
			if w.move && !w.dead {
				d, u := w.defs[0], w.uses[0]
				a.hints[d] = append(a.hints[d], u)
				a.hints[u] = append(a.hints[u], d)
			}
		}
	}
}

// segment records that r is live over [s, e].
func (a *alloc) segment(r Reg, s, e int32) {
	if int(r) < a.f.NumPhys {
		a.fixed[r] = append(a.fixed[r], [2]int32{s, e})
		return
	}
	if a.start[r] < 0 || s < a.start[r] {
		a.start[r] = s
	}
	a.end[r] = max(a.end[r], e)
}

// fixedConflict reports whether physical register p is live somewhere in
// [s, e]. Its segments are disjoint (a write ends the one before it), so
// sorted by start they are sorted by end too: only the last one that
// starts by e can reach s.
func (a *alloc) fixedConflict(p int, s, e int32) bool {
	segs := a.fixed[p]
	k := sort.Search(len(segs), func(i int) bool { return segs[i][0] > e })
	return k > 0 && segs[k-1][1] >= s
}

// scan assigns a register to each virtual register's interval, in order of
// start, or spills one. It reports whether any register was spilled.
func (a *alloc) scan() (bool, error) {
	np := a.f.NumPhys
	var order []int32
	for r := np; r < a.nregs; r++ {
		if a.start[r] >= 0 {
			order = append(order, int32(r))
		}
	}
	sort.Slice(order, func(i, j int) bool {
		si, sj := a.start[order[i]], a.start[order[j]]
		return si < sj || si == sj && order[i] < order[j]
	})
	a.assign = make([]int32, a.nregs)
	for i := range a.assign {
		a.assign[i] = -1
	}
	a.spill = make([]bool, a.nregs)
	occ := make([]int32, np) // the virtual register in each physical one, or -1
	for i := range occ {
		occ[i] = -1
	}
	any := false
	for _, v := range order {
		s, e := a.start[v], a.end[v]
		pick := -1
		free := func(p int) bool {
			return (occ[p] < 0 || a.end[occ[p]] < s) && !a.fixedConflict(p, s, e)
		}
		for _, h := range a.hints[v] {
			p := int(h)
			if int(h) >= np {
				p = int(a.assign[h])
			}
			if p >= 0 && a.allocatable(p) && free(p) {
				pick = p
				break
			}
		}
		if pick < 0 {
			for _, r := range a.f.Allocatable {
				if free(int(r)) {
					pick = int(r)
					break
				}
			}
		}
		if pick < 0 {
			// The register whose occupant ends last, if that is later
			// than v and the occupant may be spilled; else v itself.
			best := -1
			for _, r := range a.f.Allocatable {
				p := int(r)
				if occ[p] >= 0 && !a.tmp[occ[p]] && !a.fixedConflict(p, s, e) &&
					(best < 0 || a.end[occ[p]] > a.end[occ[best]]) {
					best = p
				}
			}
			switch {
			case best >= 0 && (a.end[occ[best]] > e || a.tmp[v]):
				w := occ[best]
				a.spill[w], a.assign[w] = true, -1
				pick = best
			case !a.tmp[v]:
				a.spill[v] = true
				any = true
				continue
			default:
				return false, fmt.Errorf("regalloc: no register left for %s at position %d", a.regName(Reg(v)), s)
			}
			any = true
		}
		occ[pick] = v
		a.assign[v] = int32(pick)
	}
	return any, nil
}

func (a *alloc) allocatable(p int) bool {
	for _, r := range a.f.Allocatable {
		if int(r) == p {
			return true
		}
	}
	return false
}

func (a *alloc) regName(r Reg) string {
	if a.f.RegName != nil && int(r) < a.nregs && !a.tmp[r] {
		return a.f.RegName(r)
	}
	return fmt.Sprintf("v%d", r)
}

// rewrite gives each spilled register a slot and replaces it, in every
// instruction that reads or writes it, by a new temporary: loaded from
// the slot before the instruction, stored to it after.
func (a *alloc) rewrite() {
	for v, sp := range a.spill {
		if sp && a.slotOf[v] < 0 {
			a.slotOf[v] = int32(a.slots)
			a.slots++
			a.spilled++
		}
	}
	for b, ws := range a.blocks {
		var out []*winstr
		for _, w := range ws {
			if w.dead || !a.mentionsSpilled(w) {
				out = append(out, w)
				continue
			}
			uses := append([]Reg(nil), w.uses...)
			defs := append([]Reg(nil), w.defs...)
			var after []*winstr
			done := map[Reg]Reg{}
			for _, list := range [2][]Reg{uses, defs} {
				for k, r := range list {
					if !a.spill[r] {
						continue
					}
					t, ok := done[r]
					if !ok {
						t = a.newTmp()
						done[r] = t
						if contains(w.uses, r) {
							out = append(out, &winstr{defs: []Reg{t}, orig: -1, slot: a.slotOf[r], reload: true})
						}
						if contains(w.defs, r) {
							after = append(after, &winstr{uses: []Reg{t}, orig: -1, slot: a.slotOf[r]})
						}
					}
					list[k] = t
				}
			}
			w.uses, w.defs = uses, defs
			out = append(out, w)
			out = append(out, after...)
		}
		a.blocks[b] = out
	}
}

func (a *alloc) mentionsSpilled(w *winstr) bool {
	for _, list := range [2][]Reg{w.uses, w.defs} {
		for _, r := range list {
			if a.spill[r] {
				return true
			}
		}
	}
	return false
}

func contains(list []Reg, r Reg) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}

func (a *alloc) loc(r Reg) Loc {
	if int(r) < a.f.NumPhys {
		return Loc(r)
	}
	return Loc(a.assign[r])
}

// result gathers the allocation of each input instruction, with the
// reloads before it and the stores after it.
func (a *alloc) result(rounds int) *Result {
	res := &Result{Blocks: make([][]Placed, len(a.blocks)), Slots: a.slots, Spilled: a.spilled, Rounds: rounds}
	for b, ws := range a.blocks {
		ps := make([]Placed, len(a.f.Blocks[b].Instrs))
		var before []Edit
		last := -1
		for _, w := range ws {
			switch {
			case w.orig < 0 && w.reload:
				before = append(before, Edit{Dst: a.loc(w.defs[0]), Src: SlotLoc(int(w.slot))})
			case w.orig < 0:
				ps[last].After = append(ps[last].After, Edit{Dst: SlotLoc(int(w.slot)), Src: a.loc(w.uses[0])})
			default:
				p := &ps[w.orig]
				last = w.orig
				p.Before, before = before, nil
				if w.dead {
					p.Dead = true
					continue
				}
				p.Uses = make([]Loc, len(w.uses))
				for k, r := range w.uses {
					p.Uses[k] = a.loc(r)
				}
				p.Defs = make([]Loc, len(w.defs))
				for k, r := range w.defs {
					p.Defs[k] = a.loc(r)
				}
				if w.move {
					if p.Uses[0] == p.Defs[0] {
						res.Coalesced++
					} else {
						res.Moves++
					}
				}
			}
		}
		res.Blocks[b] = ps
	}
	return res
}
