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
// stored after each that writes it, decided in the same scan (spill.go:
// the short-lived registers are intervals of the scan too) and written in
// by one rewrite after it. Check, in check.go, proves a result right
// without trusting the allocator.
package regalloc

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
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
	// Regs holds the registers of every instruction (Instr.Off), so that
	// an Instr has no pointer and takes 12 bytes (two slices took 56).
	Regs []Reg
	// Describe, if set, names instruction i of block b in errors.
	Describe func(b, i int) string
	// RegName, if set, names a register in errors.
	RegName func(Reg) string
}

// Block is a basic block: its instructions and the blocks control may go
// to after them (an exit of the function has none). A successor some
// instruction's Jump names is reached from that instruction; the others,
// from the block's end (falling through).
type Block struct {
	Instrs []Instr
	Succs  []int
	// Cold marks a block off the common path that reads and writes
	// physical registers only (a division's case of a divisor -1), laid
	// out after the blocks it comes from and goes back to. Its jump back
	// makes no loop: the virtual registers live through it are live at
	// both ends of its detour, and get no physical register it writes as
	// those are written on the common path too (Check proves it).
	Cold bool
}

// Instr is what the allocator knows of an instruction: the registers it
// reads (its uses, Func.Uses) and writes (its defs, Func.Defs) are
// Func.Regs[Off:Off+NU+ND], the uses first. A register both read and
// written (a two-address operand) is in the uses and in the defs and gets
// one location for both. Func.NewInstr makes one.
type Instr struct {
	Off    int32
	NU, ND uint16
	Move   bool // a copy: its def (f.Defs(in)[0]) gets its use (f.Uses(in)[0]); the allocator hints both to one register
	Pure   bool // no effect but its Defs: dropped when none of them is read
	// Branch marks a jump that ends its block (with any others after it);
	// a reload at the end of a block goes before the block's jumps, which
	// must not change the flags' meaning of a load (a move). A jump to
	// code that never comes back may be marked too, anywhere in a block.
	Branch bool
	// Jump is where control may leave the block at this instruction, for
	// Check (the allocator does not read it): moves after a jump do not
	// run on the way it takes. In the byte an Instr has spare.
	Jump Jump
}

// Jump is where an instruction may send control out of its block:
// NoJump, JumpTo(k), or JumpAway.
type Jump uint8

const (
	// NoJump: control goes on to the next instruction, and from the
	// block's last to the successors no jump names (its fall-through).
	NoJump Jump = 0
	// JumpAway: a jump out of the function, to code that never comes
	// back (a division's stub; a return), which no state flows along.
	JumpAway Jump = math.MaxUint8
	// MaxJumpSucc is the most successors jumps can name (JumpTo).
	MaxJumpSucc = int(JumpAway) - 1
)

// JumpTo is a jump, taken or not, to the block's successor Succs[k]
// (k < MaxJumpSucc).
func JumpTo(k int) Jump { return Jump(k + 1) }

// Succ is the index in Succs of j's target, or -1 for NoJump and
// JumpAway.
func (j Jump) Succ() int {
	if j == NoJump || j == JumpAway {
		return -1
	}
	return int(j) - 1
}

// NewInstr adds uses and defs to f.Regs and returns an instruction that
// reads uses and writes defs, for the caller to set its flags and add to
// a block. When the lists are longer than an instruction can count, or
// f.Regs would outgrow an Off, it adds nothing and returns an instruction
// with Off -1, which Allocate rejects with a message (never one that
// silently lost its registers).
func (f *Func) NewInstr(uses, defs []Reg) Instr {
	off := len(f.Regs)
	if len(uses) > math.MaxUint16 || len(defs) > math.MaxUint16 || off+len(uses)+len(defs) > math.MaxInt32 {
		return Instr{Off: -1}
	}
	f.Regs = append(append(f.Regs, uses...), defs...)
	return Instr{Off: int32(off), NU: uint16(len(uses)), ND: uint16(len(defs))}
}

// Uses are the registers in reads; Defs, those it writes. Both are empty
// when in's registers are not within f.Regs (validRegs reports it).
func (f *Func) Uses(in *Instr) []Reg {
	if !f.validRegs(in) {
		return nil
	}
	return f.Regs[in.Off : in.Off+int32(in.NU) : in.Off+int32(in.NU)]
}

// Defs are the registers in writes.
func (f *Func) Defs(in *Instr) []Reg {
	if !f.validRegs(in) {
		return nil
	}
	k := in.Off + int32(in.NU)
	return f.Regs[k : k+int32(in.ND) : k+int32(in.ND)]
}

// Operands are in's uses then defs, in one slice (empty when they are
// not within f.Regs).
func (f *Func) Operands(in *Instr) []Reg {
	if !f.validRegs(in) {
		return nil
	}
	k := in.Off + int32(in.NU) + int32(in.ND)
	return f.Regs[in.Off:k:k]
}

// validRegs reports whether in's registers are within f.Regs.
func (f *Func) validRegs(in *Instr) bool {
	return in.Off >= 0 && int(in.Off)+int(in.NU)+int(in.ND) <= len(f.Regs)
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
	// Split counts the loops a spilled register is reloaded before,
	// once, instead of at each of its reads inside (splitting).
	Split int
	// The locations and edits of every instruction, in order: a Placed
	// holds offsets into them, so that it has no pointer (an allocation
	// makes one per instruction).
	locs  []Loc
	edits []Edit
}

// Placed is the allocation of one instruction; Result's methods give its
// locations and edits.
type Placed struct {
	Dead bool // dropped: a Pure instruction whose results are never read
	// Its locations are locs[loc:loc+nu+nd] of the Result, the uses
	// first; its edits edits[edit:edit+nb+na], those before it first.
	// 20 bytes: an instruction has at most maxOperands uses and as many
	// defs (init checks it).
	nu, nd            uint8
	loc, edit, nb, na int32
}

// maxOperands is the most uses, and the most defs, an instruction has.
const maxOperands = 255

// Uses are the locations of p's uses, parallel to the Instr's: registers,
// never slots.
func (r *Result) Uses(p *Placed) []Loc {
	return r.locs[p.loc : p.loc+int32(p.nu) : p.loc+int32(p.nu)]
}

// Defs are the locations of p's defs, parallel to the Instr's.
func (r *Result) Defs(p *Placed) []Loc {
	k := p.loc + int32(p.nu)
	return r.locs[k : k+int32(p.nd) : k+int32(p.nd)]
}

// Locs are the locations of p's uses then defs, parallel to the Instr's
// registers (Func.Operands): Uses and Defs in one slice.
func (r *Result) Locs(p *Placed) []Loc {
	k := p.loc + int32(p.nu) + int32(p.nd)
	return r.locs[p.loc:k:k]
}

// Edits are the moves run around p's instruction, Before then After in
// one slice, and how many of them run before it.
func (r *Result) Edits(p *Placed) (edits []Edit, before int) {
	k := p.edit + p.nb + p.na
	return r.edits[p.edit:k:k], int(p.nb)
}

// Before are the moves run before p's instruction: reloads from slots.
func (r *Result) Before(p *Placed) []Edit { return r.edits[p.edit : p.edit+p.nb : p.edit+p.nb] }

// After are the moves run after p's instruction: stores to slots, and
// reloads after a block's last instruction (splitting).
func (r *Result) After(p *Placed) []Edit {
	k := p.edit + p.nb
	return r.edits[k : k+p.na : k+p.na]
}

// NumEdits counts the edits of all the instructions.
func (r *Result) NumEdits() int { return len(r.edits) }

// Edit is a move from Src to Dst, one of them a stack slot.
type Edit struct{ Dst, Src Loc }

// winstr is an instruction of the working code: one of the input's (the
// first ninput of alloc.w, those of block b from bw[b] on, in order), or a
// reload or store of a spilled register. Its registers are in the
// allocator's pool (alloc.uses, alloc.defs), so that it has no pointer and
// takes 12 bytes (64 with two slices, 24 with its index in the block, its
// slot and its flags apart).
type winstr struct {
	off int32 // its registers are regs[off:off+nu+nd], the uses first
	// rel, of an input instruction: its writes' position less its
	// block's start (liveness); of a reload (defs[0] = slot) or a store
	// (slot = uses[0]): the slot.
	rel    int32
	nu, nd uint8 // at most maxOperands each (init checks it)
	flags  wflags
}

// wflags are a working instruction's flags: the input's Move, Pure and
// Branch, dead (dropDead), a reload (else, past the input's, a store),
// and late: a reload after the block's last instruction (splitting).
type wflags uint8

const (
	wMove wflags = 1 << iota
	wPure
	wBranch
	wDead
	wReload
	wLate
)

func (w *winstr) move() bool   { return w.flags&wMove != 0 }
func (w *winstr) branch() bool { return w.flags&wBranch != 0 }
func (w *winstr) dead() bool   { return w.flags&wDead != 0 }
func (w *winstr) reload() bool { return w.flags&wReload != 0 }

// slot is the slot of a reload or store (rel).
func (w *winstr) slot() int { return int(w.rel) }

type alloc struct {
	f *Func
	// The working code: the input's instructions of block b are
	// w[bw[b]:bw[b+1]], which is the block's code until the rewrite after
	// the scan appends reloads and stores to w; then a block it changed
	// lists its code as indices in w, lists[relist[b]] (code). No array
	// holds a pointer, and the blocks the rewrite leaves alone no list.
	w      []winstr
	bw     []int32
	relist []int32
	lists  [][]int32
	// regs holds the registers of every working instruction (winstr.off):
	// f.Regs itself until the scan first renames a register or the
	// rewrite adds one, then a copy (ownRegs; Check reads f's).
	regs  []Reg
	owned bool
	// The predecessors of block b are predList[predOff[b]:predOff[b+1]]
	// (preds), in the order of the blocks: 4 bytes each and no slice
	// header per block.
	predOff, predList []int32
	nregs             int    // virtual registers are below nregs
	ninstr            int    // the registers the instructions mention are below ninstr; the scan's temporaries and copies above
	tmp               []bool // tmp[v]: a reload/store temporary, never spilled
	split             []bool // split[v]: the copy of a spilled register for one loop (spill.go)
	slotOf            []int32
	reads             []int32 // the reads of each register, from init to dropDead
	ninput            int     // the input's instructions: the first ninput of w
	nlocs             int     // the registers of the live ones among them
	canUse            []bool  // canUse[p]: physical register p is in f.Allocatable
	slots             int
	spilled           int

	// The blocks that mention each virtual register (some more than
	// once; mentionedIn): none when mhead[r] is -1, block -2-mhead[r]
	// alone when it is below, else ment[e].blk for e from mhead[r] along
	// ment[e].next, until -1 (most registers live in one block, and take
	// no entry). Made by liveness, so that spilling walks only the blocks
	// of the registers it spills.
	mhead []int32
	ment  []mention

	start, end []int32      // of each register's interval, -1 when none
	sblk, eblk []int32      // the blocks holding start and end (for widen)
	fixed      [][][2]int32 // fixed[p]: the live segments of physical register p, by start: start and end
	assign     []int32      // the register of each virtual register, or -1
	spill      []bool
	hints      []Reg   // the hints of register r are hints[hoff[r]:hoff[r+1]]
	hintAt     []int32 // and the Moves that make them (indices in w), parallel
	hoff       []int32
	loops      []region // the loops, from widen
	inner      []int    // the innermost loop holding each block, or -1
	entered    []bool   // the loops entered other than through their header
	bstart     []int32  // the position of each block's start
	bend       []int32  // and of its end
	first      []int32  // scratch: the radix sort's, moveHints' counts
	segCur     []int32  // scan's cursor in each physical register's fixed segments (fixedConflict)
	moves      []int32  // the Moves, indices in w

	// The scan's spilling (spill.go): the temporaries and copies waiting
	// for their start (a heap), the instructions to rewrite (the scan
	// renames the spilled registers in them), and the loops' copies with
	// their reads and reloads.
	pend   []int32
	hits   []spillHit
	tmpAt  []int32 // tmpAt[t-ninstr]: the instruction of temporary t, or -1 for a copy
	tmpFor []Reg   // tmpFor[t-ninstr]: the register t stands for there
	copies []loopCopy
	occ    []int32 // the virtual register in each physical one, or -1
	until  []int32 // where the occupant of each physical register ends, or -1
	loopOf []int   // the loops of the copies splitLoops made last

	// Scratch: a temporary's hint, the blocks and instructions that
	// mention a register spilled, the blocks that write it.
	tmpHint   [1]Reg
	tmpHintAt [1]int32
	blks      []int32
	ms        []mentionAt
	wpos      []int32
}

// mention is a block that mentions a register, in the register's list.
type mention struct{ blk, next int32 }

// mention adds block b to r's blocks, unless it is the last added.
func (a *alloc) mention(r Reg, b int) {
	h := a.mhead[r]
	switch {
	case h == -1:
		a.mhead[r] = int32(-2 - b)
		return
	case h < -1:
		if -2-h == int32(b) {
			return
		}
		a.ment = append(a.ment, mention{-2 - h, -1})
		h = int32(len(a.ment) - 1)
	case a.ment[h].blk == int32(b):
		return
	}
	a.ment = append(a.ment, mention{int32(b), h})
	a.mhead[r] = int32(len(a.ment) - 1)
}

// mentionedIn appends to dst the blocks listed for r (mention).
func (a *alloc) mentionedIn(r Reg, dst []int32) []int32 {
	h := a.mhead[r]
	if h < -1 {
		return append(dst, -2-h)
	}
	for e := h; e >= 0; e = a.ment[e].next {
		dst = append(dst, a.ment[e].blk)
	}
	return dst
}

// Allocate assigns registers to f's virtual registers, in one scan: a
// register spilled there is finished there (spill.go), and one rewrite
// after the scan inserts the reloads and stores.
func Allocate(f *Func) (*Result, error) {
	a := &alloc{f: f}
	if err := a.init(); err != nil {
		return nil, err
	}
	a.dropDead()
	a.liveness()
	if err := a.scan(); err != nil {
		return nil, err
	}
	if a.spilled > 0 { // (a loop's copy is made only for a register spilled)
		a.rewrite()
	}
	a.release()
	return a.result(), nil
}

func (a *alloc) init() error {
	f := a.f
	a.nregs = f.NumPhys
	// The predecessors of every block, cut from one slice; the working
	// instructions, from another (the rewrites of spilling add a few
	// more one by one).
	npreds := make([]int32, len(f.Blocks))
	n, nsuccs := 0, 0
	for b, blk := range f.Blocks {
		n += len(blk.Instrs)
		for _, s := range blk.Succs {
			if s < 0 || s >= len(f.Blocks) {
				return fmt.Errorf("regalloc: block %d: successor %d out of range", b, s)
			}
			npreds[s]++
			nsuccs++
		}
	}
	// predOff[b+1] counts the predecessors of the blocks up to b; then
	// npreds[s] is where the next predecessor of s goes.
	a.predOff = make([]int32, len(f.Blocks)+1)
	for b, k := range npreds {
		a.predOff[b+1] = a.predOff[b] + k
		npreds[b] = a.predOff[b]
	}
	a.predList = make([]int32, nsuccs)
	for b, blk := range f.Blocks {
		for _, s := range blk.Succs {
			a.predList[npreds[s]] = int32(b)
			npreds[s]++
		}
	}
	a.w = make([]winstr, n, n+n/8) // and the reloads and stores: 3 to 14% more in generated code
	a.ninput = n
	a.bw = make([]int32, len(f.Blocks)+1)
	k := 0 // the index of the block's first instruction
	// The working instructions keep the input's offsets, into f.Regs
	// until a rename or a reload needs a copy (ownRegs).
	a.regs = f.Regs[:len(f.Regs):len(f.Regs)]
	a.reads = make([]int32, f.NumPhys, max(f.NumPhys, len(f.Regs)/2)) // grown to nregs
	for b, blk := range f.Blocks {
		a.bw[b] = int32(k)
		for i := range blk.Instrs {
			in := &blk.Instrs[i]
			if in.Off < 0 {
				return fmt.Errorf("regalloc: block %d instruction %d: too many registers for one instruction (NewInstr refused them)", b, i)
			}
			if !f.validRegs(in) {
				return fmt.Errorf("regalloc: block %d instruction %d: registers %d to %d, of %d", b, i, in.Off, int(in.Off)+int(in.NU)+int(in.ND), len(f.Regs))
			}
			regs := f.Regs[in.Off : int(in.Off)+int(in.NU)+int(in.ND)]
			for k, r := range regs {
				if r < 0 {
					return fmt.Errorf("regalloc: block %d instruction %d: register %d", b, i, r)
				}
				a.nregs = max(a.nregs, int(r)+1)
				if k < int(in.NU) {
					// dropDead's read counts, made here in the same walk.
					if int(r) >= len(a.reads) {
						// At least doubled: the registers come in about the
						// order of their numbers, and growing to each took
						// a call per register.
						n := max(int(r)+1, 2*len(a.reads))
						a.reads = append(a.reads, make([]int32, n-len(a.reads))...)
					}
					a.reads[r]++
				}
			}
			if in.NU > maxOperands || in.ND > maxOperands {
				return fmt.Errorf("regalloc: block %d instruction %d: more than %d uses or defs", b, i, maxOperands)
			}
			if in.Move && (in.NU != 1 || in.ND != 1) {
				return fmt.Errorf("regalloc: block %d instruction %d: a Move has one use and one def", b, i)
			}
			if blk.Cold {
				for _, r := range regs {
					if int(r) >= f.NumPhys {
						return fmt.Errorf("regalloc: block %d instruction %d: a cold block reads or writes virtual register %d", b, i, r)
					}
				}
			}
			a.nlocs += int(in.NU) + int(in.ND)
			w := winstr{off: in.Off, nu: uint8(in.NU), nd: uint8(in.ND)}
			if in.Move {
				w.flags |= wMove
			}
			if in.Pure {
				w.flags |= wPure
			}
			if in.Branch {
				w.flags |= wBranch
			}
			a.w[k+i] = w
		}
		k += len(blk.Instrs)
	}
	a.bw[len(f.Blocks)] = int32(k)
	a.reads = a.reads[:min(len(a.reads), a.nregs)] // dropDead grows it to nregs
	a.canUse = make([]bool, f.NumPhys)
	for _, r := range f.Allocatable {
		if r >= 0 && int(r) < f.NumPhys {
			a.canUse[r] = true
		}
	}
	a.tmp = make([]bool, a.nregs)
	a.split = make([]bool, a.nregs)
	a.slotOf = make([]int32, a.nregs)
	for i := range a.slotOf {
		a.slotOf[i] = -1
	}
	return nil
}

// release lets go of what the scan and the rewrite needed and result
// does not (the intervals, the physical registers' segments, the hints,
// the mentions, the loops), before result makes the Result beside the
// working code: the largest live heap of a compile was there.
func (a *alloc) release() {
	a.predOff, a.predList, a.tmp, a.slotOf, a.reads, a.canUse = nil, nil, nil, nil, nil, nil
	a.mhead, a.ment, a.start, a.end, a.sblk, a.eblk, a.fixed = nil, nil, nil, nil, nil, nil, nil
	a.spill, a.hints, a.hintAt, a.hoff, a.loops, a.inner, a.entered = nil, nil, nil, nil, nil, nil, nil
	a.bstart, a.bend, a.first, a.segCur, a.moves = nil, nil, nil, nil, nil
	a.pend, a.hits, a.tmpAt, a.tmpFor, a.copies, a.occ, a.until, a.loopOf = nil, nil, nil, nil, nil, nil, nil, nil
	a.blks, a.ms, a.wpos = nil, nil, nil
}

// code is the working code of block b, indices in w, once the rewrite
// has listed it (relist), else nil: its code is then the input's,
// w[bw[b]:bw[b+1]].
func (a *alloc) code(b int) []int32 {
	if a.relist == nil || a.relist[b] < 0 {
		return nil
	}
	return a.lists[a.relist[b]]
}

// ownRegs gives the working code its own copy of f.Regs, with room for
// the registers of reloads and stores, before the first change to it.
func (a *alloc) ownRegs() {
	if !a.owned {
		a.regs = append(make([]Reg, 0, len(a.regs)+len(a.regs)/8+16), a.regs...)
		a.owned = true
	}
}

// preds are the predecessors of block b.
func (a *alloc) preds(b int) []int32 { return a.predList[a.predOff[b]:a.predOff[b+1]] }

// uses and defs are the registers w reads and writes, in the pool.
func (a *alloc) uses(w *winstr) []Reg { return a.regs[w.off : w.off+int32(w.nu) : w.off+int32(w.nu)] }
func (a *alloc) defs(w *winstr) []Reg {
	k := w.off + int32(w.nu)
	return a.regs[k : k+int32(w.nd) : k+int32(w.nd)]
}

// transfer is a new reload (of t from the slot, reload set) or store (of
// t to it): a working instruction with the one register t, appended to
// a.w (which moves the instructions: pointers into it go stale).
func (a *alloc) transfer(t Reg, slot int32, reload bool) int32 {
	a.ownRegs()
	w := winstr{off: int32(len(a.regs)), rel: slot}
	if reload {
		w.flags, w.nd = wReload, 1
	} else {
		w.nu = 1
	}
	a.regs = append(a.regs, t)
	a.w = append(a.w, w)
	return int32(len(a.w) - 1)
}

// newReg is a new register of the scan, a temporary (tmp set) or a
// loop's copy, with the interval [s, e], no register and no slot.
func (a *alloc) newReg(tmp bool, s, e int32) Reg {
	r := Reg(a.nregs)
	a.nregs++
	a.tmp = append(a.tmp, tmp)
	a.split = append(a.split, !tmp)
	a.slotOf = append(a.slotOf, -1)
	a.start = append(a.start, s)
	a.end = append(a.end, e)
	a.sblk = append(a.sblk, -1)
	a.eblk = append(a.eblk, -1)
	a.assign = append(a.assign, -1)
	a.spill = append(a.spill, false)
	return r
}

// dropDead drops the Pure instructions that write only virtual registers
// nothing reads, until none is left (a Const folded into immediates), by
// read counts and a worklist of the writers of each register that loses
// its last read. It runs once, before the scan: spilling makes no new
// dead code, as each read it takes from a register comes with that
// register's every write, which becomes the write of a temporary that a
// store reads, and the reloads it adds are not Pure.
func (a *alloc) dropDead() {
	np := a.f.NumPhys
	// The reads of each register, counted by init.
	reads := append(a.reads, make([]int32, a.nregs-len(a.reads))...)
	a.reads = nil
	// The writers of each register, for the worklist of what may die
	// when a read goes: each instruction is looked at once, and again
	// each time a register it writes loses its last read.
	deadable := func(w *winstr) bool {
		if w.flags&(wDead|wPure) != wPure || w.nd == 0 {
			return false
		}
		for _, d := range a.defs(w) {
			if int(d) < np || reads[d] > 0 {
				return false
			}
		}
		return true
	}
	var work []int32
	for i := range a.w {
		if deadable(&a.w[i]) {
			work = append(work, int32(i))
		}
	}
	// The writers of each read virtual register, in one slice: those of
	// register r are writers[woff[r]:woff[r+1]]. Made when a register
	// first loses its last read, if one does: the dead instructions are
	// mostly constants folded into immediates, which read nothing.
	var writers []int32 // indices in w
	var woff []int32
	index := func() {
		woff = make([]int32, a.nregs+1)
		for i := range a.w {
			if w := &a.w[i]; w.flags&(wDead|wPure) == wPure {
				for _, d := range a.defs(w) {
					woff[d+1]++
				}
			}
		}
		for r := 1; r <= a.nregs; r++ {
			woff[r] += woff[r-1]
		}
		writers = make([]int32, woff[a.nregs])
		fill := slices.Clone(woff[:a.nregs])
		for i := range a.w {
			if w := &a.w[i]; w.flags&(wDead|wPure) == wPure {
				for _, d := range a.defs(w) {
					writers[fill[d]] = int32(i)
					fill[d]++
				}
			}
		}
	}
	for len(work) > 0 {
		w := &a.w[work[len(work)-1]]
		work = work[:len(work)-1]
		if !deadable(w) {
			continue
		}
		w.flags |= wDead
		a.nlocs -= int(w.nu) + int(w.nd)
		for _, u := range a.uses(w) {
			if reads[u]--; reads[u] == 0 && int(u) >= np {
				if woff == nil {
					index()
				}
				work = append(work, writers[woff[u]:woff[u+1]]...)
			}
		}
	}
}

// liveness computes each register's interval on the laid-out code and
// collects the hints of the Moves. A position is given to each block's start and end, and two
// to each instruction: its reads, then its writes.
//
// A virtual register's interval is the hull of its reads and writes,
// widened to cover each loop it is live around: a loop (the blocks from a
// header to the last block that jumps back to it) that holds one end of
// the hull and not the other is added to it. On a function whose loops
// are those of a reducible flow graph laid out in reverse postorder, and
// whose registers are written before they are read (as outssa makes
// them), this covers every point where the register is live, at a cost
// of the loop depth per register instead of the blocks it is live in;
// regalloc.Check makes sure of it on each result. A physical register's
// live segments are exact, from a per-block liveness on those registers
// alone, which are live in a few blocks at a time.
func (a *alloc) liveness() {
	nb := len(a.f.Blocks)
	np := a.f.NumPhys
	a.start = resize(a.start, a.nregs)
	a.end = resize(a.end, a.nregs)
	a.sblk = resize(a.sblk, a.nregs)
	a.eblk = resize(a.eblk, a.nregs)
	for r := range a.start {
		a.start[r], a.end[r] = -1, -1
	}
	// The physical registers: live-in sets (bitsets of nw words per
	// block) by a walk back from each upward-exposed read, then each
	// block backward.
	nw := (np + 63) / 64
	liveIn, defStamp := make([]uint64, nb*nw), make([]int32, nb)
	// One pass gives each block and instruction its positions, makes the
	// virtual registers' hulls (positions grow along it), finds for each
	// physical register the blocks that read it before writing it (ues)
	// and those that write it (defsIn), and notes the blocks that mention
	// one (physIn): the walk back, for the physical registers' segments,
	// looks at the instructions of those alone (through the others, what
	// is live out is live in).
	a.bstart, a.bend = resize(a.bstart, nb), resize(a.bend, nb)
	bstart, bend := a.bstart, a.bend
	ues, defsIn := make([][]int32, np), make([][]int32, np)
	wrote := make([]int32, np) // b+1 once block b has written the register
	physIn := make([]bool, nb)
	a.moves = a.moves[:0]
	a.mhead = resize(a.mhead, a.nregs)
	for r := range a.mhead {
		a.mhead[r] = -1
	}
	a.ment = slices.Grow(a.ment[:0], a.nlocs*5/16)
	pos := int32(0)
	for b := range nb {
		bstart[b] = pos
		pos++
		mentioned := false
		for wi := a.bw[b]; wi < a.bw[b+1]; wi++ {
			w := &a.w[wi]
			if w.dead() {
				continue
			}
			pos += 2
			usePos, defPos := pos-2, pos-1
			w.rel = defPos - bstart[b]
			if w.move() {
				a.moves = append(a.moves, wi)
			}
			// The uses at usePos, then the defs at defPos, in one walk.
			// A virtual register's mention and hull are made here, as
			// positions only grow: its first mention (mhead -1) starts
			// its interval, every mention ends it, and only a mention in
			// a block other than its one (few) calls mention. (This is
			// mention's first case and hull inlined: it holds as start
			// and mhead are reset together, above.)
			nu := int(w.nu)
			for k, r := range a.regs[w.off : w.off+int32(w.nu)+int32(w.nd)] {
				p := usePos
				if k >= nu {
					p = defPos
				}
				if int(r) >= np {
					switch h := a.mhead[r]; {
					case h == -1:
						a.mhead[r] = int32(-2 - b)
						a.start[r], a.sblk[r] = p, int32(b)
					case h != int32(-2-b):
						a.mention(r, b)
					}
					a.end[r], a.eblk[r] = p, int32(b)
					continue
				}
				mentioned = true
				switch {
				case k < nu:
					if wrote[r] != int32(b+1) && (len(ues[r]) == 0 || ues[r][len(ues[r])-1] != int32(b)) {
						ues[r] = append(ues[r], int32(b))
					}
				case wrote[r] != int32(b+1):
					wrote[r] = int32(b + 1)
					defsIn[r] = append(defsIn[r], int32(b))
				}
			}
		}
		physIn[b] = mentioned
		bend[b] = pos
		pos++
	}
	var bwork []int32
	for r := range np {
		ue := ues[r]
		st := int32(r + 1)
		word, bit := r/64, uint64(1)<<(r%64)
		for _, b := range defsIn[r] {
			defStamp[b] = st
		}
		bwork = append(bwork[:0], ue...)
		for _, b := range ue {
			liveIn[int(b)*nw+word] |= bit
		}
		for len(bwork) > 0 {
			b := bwork[len(bwork)-1]
			bwork = bwork[:len(bwork)-1]
			for _, p := range a.preds(int(b)) {
				if defStamp[p] != st && liveIn[int(p)*nw+word]&bit == 0 {
					liveIn[int(p)*nw+word] |= bit
					bwork = append(bwork, p)
				}
			}
		}
	}
	a.fixed = make([][][2]int32, np)
	// The hints of the Moves, in the order of the code.
	a.moveHints()
	// The physical registers' segments, by a walk back through the
	// blocks that mention one or have one live out.
	segEnd := make([]int32, np) // -1: not live at this point
	for r := range segEnd {
		segEnd[r] = -1
	}
	var live []Reg
	for b := nb - 1; b >= 0; b-- {
		live = live[:0]
		for _, s := range a.f.Blocks[b].Succs {
			if nw == 1 && liveIn[s] == 0 {
				continue // nothing live into s (most blocks)
			}
			for k, word := range liveIn[s*nw : (s+1)*nw] {
				for ; word != 0; word &= word - 1 {
					r := Reg(64*k + bits.TrailingZeros64(word))
					if segEnd[r] < 0 {
						segEnd[r] = bend[b]
						live = append(live, r)
					}
				}
			}
		}
		if !physIn[b] {
			// Nothing in the block changes what is live: every register
			// live out is live through it.
			for _, r := range live {
				a.fixed[r] = append(a.fixed[r], [2]int32{bstart[b], segEnd[r]})
				segEnd[r] = -1
			}
			continue
		}
		p := bend[b] - 1
		for wi := a.bw[b+1] - 1; wi >= a.bw[b]; wi-- {
			w := &a.w[wi]
			if w.dead() {
				continue
			}
			usePos, defPos := p-1, p
			p -= 2
			for _, d := range a.defs(w) {
				if int(d) >= np {
					continue
				}
				e := segEnd[d]
				if e < 0 {
					e = defPos
				}
				a.fixed[d] = append(a.fixed[d], [2]int32{defPos, e})
				segEnd[d] = -1
			}
			for _, u := range a.uses(w) {
				if int(u) < np && segEnd[u] < 0 {
					segEnd[u] = usePos
					live = append(live, u)
				}
			}
		}
		for _, r := range live {
			if segEnd[r] >= 0 {
				a.fixed[r] = append(a.fixed[r], [2]int32{bstart[b], segEnd[r]})
				segEnd[r] = -1
			}
		}
	}
	// The walk back made each register's segments by falling starts:
	// reversed, they are by start, as a sort would leave them (it sorts
	// what is not, two segments of one position).
	for _, segs := range a.fixed {
		if falling(segs) {
			slices.Reverse(segs)
		} else {
			slices.SortFunc(segs, func(x, y [2]int32) int { return cmp.Compare(x[0], y[0]) })
		}
	}
	a.widen(bstart, bend)
}

// falling reports whether the segments' starts strictly fall.
func falling(segs [][2]int32) bool {
	for k := 1; k < len(segs); k++ {
		if segs[k][0] >= segs[k-1][0] {
			return false
		}
	}
	return true
}

// resize returns s with length n, reusing its array when it is large
// enough, else with room for the temporaries of spilling (newReg).
func resize(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n, n+n/8)
}

// region is a loop: the positions from its header's start to the end of
// the last block that jumps back to it, and the loop around it, or -1.
type region struct {
	s, e   int32
	parent int
	head   int   // the header block
	last   int32 // the block that ends at e
}

// widen adds to each virtual register's interval the loops that hold one
// end of it and not the other, from the innermost loop out, until none
// does (findLoops finds the loops).
func (a *alloc) widen(bstart, bend []int32) {
	a.findLoops(bstart, bend)
	if len(a.loops) == 0 {
		return
	}
	// The block of each end of an interval is kept beside it (liveness, and
	// a loop's head and last block), so no search finds it.
	for r := a.f.NumPhys; r < a.nregs; r++ {
		a.widenReg(Reg(r))
	}
}

// widenReg widens r's interval (see widen).
func (a *alloc) widenReg(r Reg) {
	regs, inner := a.loops, a.inner
	s, e := a.start[r], a.end[r]
	if s < 0 {
		return
	}
	sb, eb := a.sblk[r], a.eblk[r]
	if inner[sb] == inner[eb] {
		// Both ends in the same innermost loop (or in none): every
		// loop around one end is around the other, and holds the
		// whole hull. Most registers are so.
		return
	}
	for grown := true; grown; {
		grown = false
		for _, end := range [2][2]int32{{s, sb}, {e, eb}} {
			p := end[0]
			for l := inner[end[1]]; l >= 0; l = regs[l].parent {
				g := regs[l]
				if g.s <= p && p <= g.e && !(g.s <= s && e <= g.e) {
					if g.s < s {
						s, sb, grown = g.s, int32(g.head), true
					}
					if g.e > e {
						e, eb, grown = g.e, g.last, true
					}
				}
			}
		}
	}
	a.start[r], a.end[r], a.sblk[r], a.eblk[r] = s, e, sb, eb
}

// findLoops finds the loops, from the back edges, and the innermost loop
// of each block. The loops are made to nest: one that overlaps another
// without nesting is widened to hold it.
func (a *alloc) findLoops(bstart, bend []int32) {
	nb := len(a.f.Blocks)
	type span struct{ s, e int }
	var spans []span
	for b := range nb {
		if a.f.Blocks[b].Cold {
			continue
		}
		for _, t := range a.f.Blocks[b].Succs {
			if t <= b {
				spans = append(spans, span{t, b})
			}
		}
	}
	a.loops, a.inner = nil, nil
	if len(spans) == 0 {
		return
	}
	slices.SortFunc(spans, func(x, y span) int {
		if c := cmp.Compare(x.s, y.s); c != 0 {
			return c
		}
		return cmp.Compare(y.e, x.e)
	})
	var regs []region
	var stack []int
	inner := make([]int, nb) // the innermost loop holding each block, or -1
	for b := range inner {
		inner[b] = -1
	}
	for _, sp := range spans {
		for len(stack) > 0 && int(regs[stack[len(stack)-1]].e) < int(bstart[sp.s]) {
			stack = stack[:len(stack)-1]
		}
		e := bend[sp.e]
		for _, k := range stack {
			if e > regs[k].e {
				regs[k].e, regs[k].last = e, int32(sp.e)
			}
		}
		if len(stack) > 0 && regs[stack[len(stack)-1]].s == bstart[sp.s] {
			continue // another back edge to the same header: one loop
		}
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		regs = append(regs, region{s: bstart[sp.s], e: e, parent: parent, head: sp.s, last: int32(sp.e)})
		stack = append(stack, len(regs)-1)
	}
	// The innermost loop of each block: a sweep with the loops by start.
	k := 0
	stack = stack[:0]
	for b := range nb {
		for len(stack) > 0 && regs[stack[len(stack)-1]].e < bstart[b] {
			stack = stack[:len(stack)-1]
		}
		for k < len(regs) && regs[k].s <= bstart[b] {
			if regs[k].e >= bstart[b] {
				stack = append(stack, k)
			}
			k++
		}
		if len(stack) > 0 {
			inner[b] = stack[len(stack)-1]
		}
	}
	a.loops, a.inner = regs, inner
}

// fixedConflict reports whether physical register p is live somewhere in
// [s, e]. Its segments are disjoint (a write ends the one before it), so
// sorted by start they are sorted by end too: the first one that ends at
// s or later is the only one to look at. The scan asks in increasing
// order of s, so segCur[p], that segment's index, only moves forward
// (it was a binary search per question).
func (a *alloc) fixedConflict(p int, s, e int32) bool {
	segs, k := a.fixed[p], a.segCur[p]
	for k < int32(len(segs)) && segs[k][1] < s {
		k++
	}
	a.segCur[p] = k
	return k < int32(len(segs)) && segs[k][0] <= e
}

// countingOrder lists the registers with an interval by start, then by
// number: a radix sort of the starts (least significant digit first, each
// pass stable), on the registers in order of number. Linear in the
// intervals and a few passes of at most 2,048 counts, where a counting
// sort over the positions was linear in the code (16,639 positions for
// 1,134 intervals at 10k). The scan's order.
func (a *alloc) countingOrder() []int32 {
	np := a.f.NumPhys
	n, last := 0, int32(0)
	for r := np; r < a.nregs; r++ {
		if s := a.start[r]; s >= 0 {
			n++
			last = max(last, s)
		}
	}
	order := make([]int32, n)
	k := 0
	for r := np; r < a.nregs; r++ {
		if a.start[r] >= 0 {
			order[k] = int32(r)
			k++
		}
	}
	nbits := bits.Len32(uint32(last))
	if nbits == 0 {
		return order
	}
	passes := (nbits + radixBits - 1) / radixBits
	width := (nbits + passes - 1) / passes
	mask := int32(1)<<width - 1
	// The passes' other array.
	if cap(a.first) < n {
		a.first = make([]int32, 0, n)
	}
	a.first = a.first[:n]
	from, to := order, a.first
	var count [1 << radixBits]int32
	odd := false // the order is in a.first's array
	for shift := 0; shift < nbits; shift += width {
		c := count[:mask+1]
		clear(c)
		for _, r := range from {
			c[a.start[r]>>shift&mask]++
		}
		sum := int32(0)
		for d, m := range c {
			c[d], sum = sum, sum+m
		}
		for _, r := range from {
			d := a.start[r] >> shift & mask
			to[c[d]] = r
			c[d]++
		}
		from, to = to, from
		odd = !odd
	}
	if odd {
		copy(order, from)
	}
	return order
}

// radixBits is the widest digit of countingOrder's passes.
const radixBits = 11

func (a *alloc) allocatable(p int) bool { return p < len(a.canUse) && a.canUse[p] }

func (a *alloc) regName(r Reg) string {
	if a.f.RegName != nil && int(r) < a.ninstr { // the input's registers only
		return a.f.RegName(r)
	}
	return fmt.Sprintf("v%d", r)
}

// enteredLoops marks the loops entered other than through their header.
func (a *alloc) enteredLoops() []bool {
	entered := make([]bool, len(a.loops))
	loops, blocks := a.loops, a.f.Blocks
	for x, l0 := range a.inner[:len(a.f.Blocks)] {
		if l0 < 0 {
			continue // in no loop: enters none
		}
		for _, p := range a.preds(x) {
			if blocks[p].Cold {
				continue
			}
			ps := a.bstart[p]
			for l := l0; l >= 0; l = loops[l].parent {
				g := &loops[l]
				if g.s <= ps && ps <= g.e {
					break // p is in l, and in the loops around it
				}
				if x != g.head {
					entered[l] = true
				}
			}
		}
	}
	return entered
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
func (a *alloc) result() *Result {
	res := &Result{Blocks: make([][]Placed, len(a.f.Blocks)), Slots: a.slots, Spilled: a.spilled}
	for v, sp := range a.split {
		if sp && a.assign[v] >= 0 {
			res.Split++
		}
	}
	// The Placed of every block, the locations and the edits of every
	// instruction are cut from one slice each. An instruction's edits
	// are contiguous: the reloads before it are held in before until
	// it comes, and what follows it up to the next reload is its After.
	// Their sizes are known without a walk: the input's instructions,
	// the locations of the live ones (init and dropDead count them), and
	// at most an edit per reload or store made (a.w past the input's).
	placed := make([]Placed, a.ninput)
	res.locs = make([]Loc, 0, a.nlocs)
	res.edits = make([]Edit, 0, len(a.w)-a.ninput)
	var before []Edit
	ninput := int32(a.ninput)
	for b := range a.f.Blocks {
		k := len(a.f.Blocks[b].Instrs)
		ps := placed[:k:k]
		placed = placed[k:]
		res.Blocks[b] = ps
		first, list := a.bw[b], a.code(b)
		if list == nil {
			// The input's instructions alone: no reload or store.
			for j := range ps {
				a.placeInstr(res, &ps[j], &a.w[first+int32(j)], nil)
			}
			continue
		}
		before = before[:0]
		last := -1
		for _, wi := range list {
			switch w := &a.w[wi]; {
			case wi >= ninput && w.flags&(wReload|wLate) == wReload|wLate:
				res.edits = append(res.edits, Edit{Dst: a.loc(a.regs[w.off+int32(w.nu)]), Src: SlotLoc(w.slot())})
				ps[last].na++
			case wi >= ninput && w.reload():
				before = append(before, Edit{Dst: a.loc(a.regs[w.off+int32(w.nu)]), Src: SlotLoc(w.slot())})
			case wi >= ninput:
				res.edits = append(res.edits, Edit{Dst: SlotLoc(w.slot()), Src: a.loc(a.regs[w.off])})
				ps[last].na++
			default:
				last = int(wi - first)
				a.placeInstr(res, &ps[last], w, before)
				before = before[:0]
			}
		}
	}
	return res
}

// placeInstr makes p, the allocation of the input's instruction w: the
// reloads before it (before), its locations, and whether a Move
// coalesced. The edits after it are counted as they come (result).
func (a *alloc) placeInstr(res *Result, p *Placed, w *winstr, before []Edit) {
	p.edit, p.nb = int32(len(res.edits)), int32(len(before))
	if len(before) > 0 { // most have no reload
		res.edits = append(res.edits, before...)
	}
	if w.dead() {
		p.Dead = true
		return
	}
	p.loc, p.nu, p.nd = int32(len(res.locs)), uint8(w.nu), uint8(w.nd)
	for _, r := range a.regs[w.off : w.off+int32(w.nu)+int32(w.nd)] {
		res.locs = append(res.locs, a.loc(r))
	}
	if w.move() {
		if res.locs[p.loc] == res.locs[p.loc+1] {
			res.Coalesced++
		} else {
			res.Moves++
		}
	}
}
