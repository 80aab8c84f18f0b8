// The assembler: labels, data reached RIP-relative, and branches made long
// only where a short one does not reach, pass after pass to a fixpoint.
// Cost: each pass linear in the code; a branch only grows, so it ends.

package amd64

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Label names a position in the code or a piece of data, for branches,
// calls and RIP-relative operands. 0 is no label.
type Label int32

func (l Label) String() string { return "L" + strconv.Itoa(int(l)) }

// Asm assembles a sequence of instructions and labels into bytes, with
// constant data after the code. Branches to labels take the short form
// (rel8) when the displacement fits and the near form (rel32) otherwise:
// every branch starts short, and a pass over the code makes long each one
// that does not reach, until none changes (a branch only grows, so this
// ends; each pass is linear, and in practice two or three are needed).
//
// Emit encodes an instruction at once, into one growing byte slice, but
// for a branch to a label or a RIP-relative label, which waits for the
// offsets (pending); assembly then copies those bytes, without encoding
// anything twice.
type Asm struct {
	// Lean, set before the first Emit, keeps no copy of the instructions
	// (80 bytes each, for Assemble's result and String): Lower's code
	// for son build, whose listing is made only when asked.
	Lean   bool
	insts  []Inst     // every instruction emitted, unless Lean
	items  []item     // every instruction emitted: its bytes, or the pending one it is
	body   []byte     // the bytes of the instructions encoded at Emit
	pend   []Inst     // the pending instructions but branches
	br     []branch   // the pending branches to labels
	labels []labelDef // indexed by Label-1
	data   []Label    // the data labels, in the order their bytes follow the code
	// dataBytes are the bytes of each data label, parallel to data.
	dataBytes [][]byte
	err       error  // the first misuse (a label bound twice, an instruction with no encoding)
	align     []bool // align[k]: instruction k starts on a 16-byte boundary (AlignNext); assemble grows it to the instructions' count
	// The events of the layout: the instructions whose offsets assembly
	// needs (a pending one, one aligned, one a label is bound to; the
	// instructions' count for a label bound at the end), in order, made
	// as they come; runs[e] counts the bytes encoded at Emit between
	// event e and the one before, tail those after the last. Assembly's
	// passes and its output walk the events, not every instruction.
	evs  []int32
	runs []int32
	tail int32
}

// item is an instruction emitted: encoded, its bytes body[off:off+size];
// a branch to a label (size -1), br[off]; another pending instruction
// (size -2), pend[off].
type item struct {
	off  int32
	size int8
}

const (
	itemBranch  = -1
	itemPending = -2
)

// branch is a branch to a label, 8 bytes where its Inst takes 80.
type branch struct {
	op    Op
	cond  Cond
	label Label
}

func (b branch) inst() Inst { return Inst{Op: b.op, Cond: b.cond, Dst: To(b.label)} }

// labelDef is where a label is: 16 bytes (a label per block), the bytes
// of a data label kept apart in Asm.dataBytes.
type labelDef struct {
	inst int32 // the instruction the label precedes; -1 while unbound
	ev   int32 // the event of that instruction (Asm.evs), once bound
	off  int32 // offset in the assembled bytes
	dat  int32 // of a data label, 1 + its index in data and dataBytes; else 0
}

// NewLabel returns a new label, not yet bound.
func (a *Asm) NewLabel() Label {
	a.labels = append(a.labels, labelDef{inst: -1})
	return Label(len(a.labels))
}

// Bind places l before the next instruction emitted.
func (a *Asm) Bind(l Label) {
	d := a.def(l)
	switch {
	case d == nil:
		a.fail(fmt.Errorf("amd64: bind of unknown label %s", l))
	case d.inst >= 0 || d.dat > 0:
		a.fail(fmt.Errorf("amd64: label %s bound twice", l))
	default:
		d.inst, d.ev = int32(len(a.items)), a.event()
	}
}

// event makes the next instruction an event of the layout, if it is not
// one yet, and returns its index in evs.
func (a *Asm) event() int32 {
	k := int32(len(a.items))
	if n := len(a.evs); n > 0 && a.evs[n-1] == k {
		return int32(n - 1)
	}
	a.evs = append(a.evs, k)
	a.runs = append(a.runs, a.tail)
	a.tail = 0
	return int32(len(a.evs) - 1)
}

// AlignNext pads the code before the next instruction emitted with no-ops
// to a 16-byte boundary, when that takes at most maxPad bytes (as gcc's
// .p2align 4,,10 does for loop heads): a loop whose head starts a
// 16-byte block is fetched in fewer blocks per iteration.
func (a *Asm) AlignNext() {
	n := len(a.items)
	if n >= len(a.align) {
		a.align = append(a.align, make([]bool, n+1-len(a.align))...)
	}
	a.align[n] = true
	a.event()
}

// maxPad is the most padding AlignNext inserts.
const maxPad = 10

// nops are the recommended multi-byte no-ops (Intel SDM, NOP), by length.
var nops = [...][]byte{
	1: {0x90},
	2: {0x66, 0x90},
	3: {0x0F, 0x1F, 0x00},
	4: {0x0F, 0x1F, 0x40, 0x00},
	5: {0x0F, 0x1F, 0x44, 0x00, 0x00},
	6: {0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00},
	7: {0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00},
	8: {0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
	9: {0x66, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
}

// Emit appends an instruction, encoded at once unless it is a branch to a
// label or reads a RIP-relative label. An instruction with no encoding is
// an error of Assemble.
func (a *Asm) Emit(i Inst) { a.emit(&i) }

// emit is Emit of *i, which it does not keep: lowering emits through it
// without copying each instruction.
func (a *Asm) emit(i *Inst) {
	if !a.Lean {
		a.insts = append(a.insts, *i)
	}
	if a.pending(i) {
		a.event()
		if b := (branch{i.Op, i.Cond, i.Dst.Label}); *i == b.inst() {
			a.items = append(a.items, item{off: int32(len(a.br)), size: itemBranch})
			a.br = append(a.br, b)
		} else {
			a.items = append(a.items, item{off: int32(len(a.pend)), size: itemPending})
			a.pend = append(a.pend, *i)
		}
		return
	}
	a.encodeNow(i)
}

// emitPlain is emit of an instruction that names no label, as lowering's
// are (but branches, emitBranch's): encoded at once, with no look for a
// label first.
func (a *Asm) emitPlain(i *Inst) {
	if !a.Lean {
		a.insts = append(a.insts, *i)
	}
	a.encodeNow(i)
}

// encodeNow encodes i, which waits for no offset, at the end of the code.
func (a *Asm) encodeNow(i *Inst) {
	off := len(a.body)
	var err error
	if a.body, err = i.encode(a.body); err != nil {
		a.fail(err)
	}
	a.encoded(off)
}

// emitRR is emitPlain of op d, s, a form of encode's fast path
// (appendRR), made with no Inst, for a Lean assembler.
func (a *Asm) emitRR(op Op, d, s Reg) {
	off := len(a.body)
	a.body = appendRR(a.body, op, d, s)
	a.encoded(off)
}

// emitRI8 is emitPlain of op d, c (appendRI8), made with no Inst, for a
// Lean assembler.
func (a *Asm) emitRI8(op Op, d Reg, c int64) {
	off := len(a.body)
	a.body = appendRI8(a.body, op, d, c)
	a.encoded(off)
}

// emitMovL is emitPlain of mov r32, imm32 (appendMovL), made with no
// Inst, for a Lean assembler.
func (a *Asm) emitMovL(d Reg, c int64) {
	off := len(a.body)
	a.body = appendMovL(a.body, d, c)
	a.encoded(off)
}

// emitLEA is emitPlain of lea d, m, made with no Inst, for a Lean
// assembler: m is a memory operand Inst.check accepts.
func (a *Asm) emitLEA(d Reg, m *Arg) {
	off := len(a.body)
	a.body = modRM(a.body, true, 0x8D, d, false, m, false)
	a.encoded(off)
}

// encoded records the bytes of the code from off on, just encoded, as the
// next instruction.
func (a *Asm) encoded(off int) {
	if n := len(a.evs); n == 0 || a.evs[n-1] != int32(len(a.items)) {
		a.tail += int32(len(a.body) - off) // in the run before the next event
	}
	a.items = append(a.items, item{off: int32(off), size: int8(len(a.body) - off)})
}

// emitBranch is Emit of a jcc or jmp (op) to l, with no Inst to make
// and look at: the most common instruction after a move.
func (a *Asm) emitBranch(op Op, cond Cond, l Label) {
	if !a.Lean {
		a.insts = append(a.insts, Inst{Op: op, Cond: cond, Dst: To(l)})
	}
	a.event()
	a.items = append(a.items, item{off: int32(len(a.br)), size: itemBranch})
	a.br = append(a.br, branch{op, cond, l})
}

// kept reports whether a holds every instruction emitted: it was not
// Lean, from the first Emit on.
func (a *Asm) kept() bool { return len(a.insts) == len(a.items) }

// pending reports whether i waits for the offsets to be encoded: a branch
// to a label, or an operand at a RIP-relative label.
func (a *Asm) pending(i *Inst) bool {
	if i.Op < NumOps && opTable[i.Op].branch && i.Dst.Kind == KindLabel {
		return true
	}
	return i.Dst.Kind == KindMem && i.Dst.Mem.Base == RIP && i.Dst.Mem.Label != 0 ||
		i.Src.Kind == KindMem && i.Src.Mem.Base == RIP && i.Src.Mem.Label != 0
}

// Data returns a label for bytes placed after the code, for RIP-relative
// operands (lea rsi, [rip+L]).
func (a *Asm) Data(b []byte) Label { return a.dataOwned(append([]byte(nil), b...)) }

// dataOwned is Data for bytes that nothing changes afterwards, kept
// without a copy.
func (a *Asm) dataOwned(b []byte) Label {
	l := a.NewLabel()
	d := a.def(l)
	a.data, a.dataBytes = append(a.data, l), append(a.dataBytes, b)
	d.dat = int32(len(a.data))
	return l
}

// Len is the number of instructions emitted.
func (a *Asm) Len() int { return len(a.items) }

func (a *Asm) def(l Label) *labelDef {
	if l <= 0 || int(l) > len(a.labels) {
		return nil
	}
	return &a.labels[l-1]
}

func (a *Asm) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

// Offset is where l is in the bytes of the last Assemble.
func (a *Asm) Offset(l Label) (int, bool) {
	d := a.def(l)
	if d == nil || (d.inst < 0 && d.dat == 0) {
		return 0, false
	}
	return int(d.off), true
}

// Assemble returns the machine code followed by the data, and the
// instructions as encoded (branches with their displacements) for a
// listing.
func (a *Asm) Assemble() ([]byte, []Inst, error) { return a.assemble(true) }

// Code returns the machine code followed by the data, as Assemble does,
// without the copy of the instructions as encoded (80 bytes each).
func (a *Asm) Code() ([]byte, error) {
	code, _, err := a.assemble(false)
	return code, err
}

// Reserve makes room for n more instructions and labels, so that emitting
// them does not grow their slices step by step.
func (a *Asm) Reserve(insts, labels int) {
	if !a.Lean {
		a.insts = slices.Grow(a.insts, insts)
	}
	a.items = slices.Grow(a.items, insts)
	a.br = slices.Grow(a.br, insts/3) // about one in three is a branch in generated code
	a.body = slices.Grow(a.body, 4*insts)
	a.labels = slices.Grow(a.labels, labels)
	a.evs = slices.Grow(a.evs, insts/2) // the branches and their targets: about half in generated code
	a.runs = slices.Grow(a.runs, insts/2)
}

// appendAsm appends what t holds to a, which holds nothing yet, so that
// the offsets in t's items, labels and data stay right; t is left as it
// is (its data's bytes, which nothing changes, are shared).
func (a *Asm) appendAsm(t *Asm) {
	if !a.Lean {
		a.insts = append(a.insts, t.insts...)
	}
	a.items = append(a.items, t.items...)
	a.body = append(a.body, t.body...)
	a.pend = append(a.pend, t.pend...)
	a.br = append(a.br, t.br...)
	a.labels = append(a.labels, t.labels...)
	a.data = append(a.data, t.data...)
	a.dataBytes = append(a.dataBytes, t.dataBytes...)
	a.align = append(a.align, t.align...)
	a.evs = append(a.evs, t.evs...)
	a.runs = append(a.runs, t.runs...)
	a.tail = t.tail
	if a.err == nil {
		a.err = t.err
	}
}

func (a *Asm) assemble(keep bool) ([]byte, []Inst, error) {
	if a.err != nil {
		return nil, nil, a.err
	}
	n := len(a.items)
	if len(a.align) < n {
		a.align = append(a.align, make([]bool, n-len(a.align))...)
	}
	// Where each branch goes (the event of its target), and the size of
	// each other pending instruction; the branches among pend (a branch
	// to a label with other operands, which Encode rejects at the end) go
	// somewhere too.
	btarget := make([]int32, len(a.br))
	for k, b := range a.br {
		d := a.def(b.label)
		if d == nil || d.dat > 0 || d.inst < 0 {
			_, err := a.branchTarget(b.inst()) // says which
			return nil, nil, err
		}
		btarget[k] = d.ev
	}
	ptarget := make([]int32, len(a.pend))
	psize := make([]int8, len(a.pend))
	scratch := make([]byte, 0, 16)
	for k, in := range a.pend {
		ptarget[k] = -1
		for _, arg := range [2]Arg{in.Dst, in.Src} {
			if arg.Kind == KindMem && arg.Mem.Base == RIP && arg.Mem.Label != 0 {
				if d := a.def(arg.Mem.Label); d == nil || (d.inst < 0 && d.dat == 0) {
					return nil, nil, fmt.Errorf("amd64: %s: label %s not bound", in, arg.Mem.Label)
				}
			}
		}
		if in.Op < NumOps && opTable[in.Op].branch && in.Dst.Kind == KindLabel {
			if _, err := a.branchTarget(in); err != nil {
				return nil, nil, err
			}
			ptarget[k] = a.def(in.Dst.Label).ev
			continue
		}
		enc, err := a.resolve(in, 0, 0).Encode(scratch[:0])
		if err != nil {
			return nil, nil, err
		}
		psize[k], scratch = int8(len(enc)), enc
	}
	// sz is each event's size, fixed but for the branches, which only
	// grow; a branch's target is event tgt[e] (else -1), long[e] once it
	// is long (a call from the start). short lists the branches still
	// short, with their targets (events both). Each pass lays the events
	// out, each after the bytes of the run before it, and then looks at
	// those branches alone, dropping each that becomes long. All are
	// arrays by event, read in order, not looked up through the items.
	evs := a.evs
	ne := len(evs)
	sz := make([]int8, ne)
	tgt := make([]int32, ne)
	long := make([]bool, ne)
	aligned := make([]bool, ne) // the event is aligned (AlignNext)
	short := make([]jump, 0, len(a.br)+len(a.pend))
	for e, k := range evs {
		tgt[e] = -1
		if int(k) == n {
			continue // a label at the end
		}
		aligned[e] = a.align[k]
		it := a.items[k]
		switch {
		case it.size >= 0: // encoded at Emit: aligned, or a label's target
			sz[e] = it.size
			continue
		case it.size == itemBranch:
			tgt[e] = btarget[it.off]
		case ptarget[it.off] >= 0:
			tgt[e] = ptarget[it.off]
		default:
			sz[e] = psize[it.off]
			continue
		}
		op := a.eventOp(it)
		long[e] = op == CALL
		sz[e] = int8(branchSize(op, long[e]))
		if !long[e] {
			short = append(short, jump{int32(e), tgt[e]})
		}
	}
	off := make([]int32, ne+1) // where each event starts, after its padding; off[ne], the code's end
	for {
		pos := int32(0)
		runs := a.runs[:ne]
		for e, al := range aligned {
			pos += runs[e]
			if al {
				if pad := -pos & 15; pad <= maxPad {
					pos += pad
				}
			}
			off[e] = pos
			pos += int32(sz[e])
		}
		off[ne] = pos + a.tail
		changed := false
		keep := short[:0]
		for _, j := range short {
			if fits8(int64(off[j.t] - (off[j.k] + int32(sz[j.k])))) {
				keep = append(keep, j)
				continue
			}
			long[j.k], changed = true, true
			sz[j.k] = int8(branchSize(a.eventOp(a.items[evs[j.k]]), true))
		}
		short = keep
		if !changed {
			break
		}
	}
	codeLen := int(off[ne])
	dataOff := codeLen
	for k, l := range a.data {
		a.def(l).off = int32(dataOff)
		dataOff += len(a.dataBytes[k])
	}
	for k := range a.labels {
		if d := &a.labels[k]; d.dat == 0 && d.inst >= 0 {
			d.off = off[d.ev]
		}
	}
	out := make([]byte, 0, dataOff)
	var final []Inst
	if keep && a.kept() {
		final = make([]Inst, n)
	}
	// The instructions encoded at Emit follow one another in a.body: the
	// run before each event is copied as one, body[from:from+runs[e]],
	// then the event's padding and bytes.
	from := int32(0)
	next := 0 // the instructions before next are in final, if it is made
	for e, k := range evs {
		to := from + a.runs[e]
		out = append(out, a.body[from:to]...)
		from = to
		if final != nil {
			copy(final[next:k], a.insts[next:k])
			next = int(k) + 1
		}
		if int(k) == n {
			break
		}
		if pad := int(off[e]) - len(out); pad > 0 {
			for ; pad > 0; pad -= min(pad, 9) {
				out = append(out, nops[min(pad, 9)]...)
			}
		}
		it := a.items[k]
		if it.size >= 0 {
			from = it.off + int32(it.size)
			out = append(out, a.body[it.off:from]...)
			if final != nil {
				final[k] = a.insts[k]
			}
			continue
		}
		size, t := int(sz[e]), tgt[e]
		if it.size == itemBranch && final == nil {
			// Most of what is left to encode: its bytes directly, as
			// Encode writes them, with no Inst made and checked.
			if b := a.br[it.off]; b.op != JCC || b.cond < NumConds {
				out = appendBranch(out, b.op, b.cond, off[t]-(off[e]+int32(size)), long[e])
				continue
			}
		}
		var in Inst
		if it.size == itemBranch {
			in = a.br[it.off].inst()
		} else {
			in = a.pend[it.off]
		}
		if t >= 0 {
			disp := int64(off[t] - (off[e] + int32(size)))
			if long[e] {
				in.Dst = Rel32(disp)
			} else {
				in.Dst = Rel8(disp)
			}
		} else {
			in = a.resolve(in, int(off[e])+size, 1)
		}
		var err error
		before := len(out)
		if out, err = in.Encode(out); err != nil {
			return nil, nil, err
		}
		if len(out)-before != size {
			return nil, nil, fmt.Errorf("amd64: %s: size changed from %d to %d bytes", in, size, len(out)-before)
		}
		if final != nil {
			final[k] = in
		}
	}
	out = append(out, a.body[from:from+a.tail]...)
	if final != nil && next < n {
		copy(final[next:], a.insts[next:])
	}
	for _, b := range a.dataBytes {
		out = append(out, b...)
	}
	return out, final, nil
}

// eventOp is the op of a pending item (a branch or another instruction
// waiting for the offsets).
func (a *Asm) eventOp(it item) Op {
	if it.size == itemBranch {
		return a.br[it.off].op
	}
	return a.pend[it.off].Op
}

// branchTarget is the index of the instruction that in, a branch to a
// label, goes to.
func (a *Asm) branchTarget(in Inst) (int32, error) {
	d := a.def(in.Dst.Label)
	if d != nil && d.dat > 0 {
		return 0, fmt.Errorf("amd64: %s: branch to data", in)
	}
	if d == nil || d.inst < 0 {
		return 0, fmt.Errorf("amd64: %s: label %s not bound", in, in.Dst.Label)
	}
	return d.inst, nil
}

// resolve replaces a RIP-relative label by its displacement from end, the
// offset of the end of the instruction; in the sizing pass (pass 0) by 0,
// as the size does not depend on it.
func (a *Asm) resolve(in Inst, end int, pass int) Inst {
	for _, p := range [2]*Arg{&in.Dst, &in.Src} {
		if p.Kind == KindMem && p.Mem.Base == RIP && p.Mem.Label != 0 {
			disp := 0
			if d := a.def(p.Mem.Label); pass == 1 && d != nil {
				disp = int(d.off) - end
			}
			p.Mem.Disp, p.Mem.Label = int32(disp), 0
		}
	}
	return in
}

// appendBranch appends the bytes of a jcc, jmp or call by disp, as
// Encode makes them for a Rel8 (long false; not a call) or a Rel32. The
// assembler's layout makes disp fit.
func appendBranch(b []byte, op Op, cond Cond, disp int32, long bool) []byte {
	switch {
	case !long && op == JCC:
		return append(b, 0x70+byte(cond), byte(disp))
	case !long:
		return append(b, 0xEB, byte(disp))
	case op == JCC:
		b = append(b, 0x0F, 0x80+byte(cond))
	case op == JMP:
		b = append(b, 0xE9)
	default:
		b = append(b, 0xE8)
	}
	return imm32(b, int64(disp))
}

// jump is a branch still short in assembly's passes: its item and the
// item it goes to.
type jump struct{ k, t int32 }

func branchSize(op Op, long bool) int {
	switch {
	case op == CALL:
		return 5
	case !long:
		return 2
	case op == JCC:
		return 6
	}
	return 5
}

// String lists the code as emitted: labels on their own lines, then each
// instruction indented, then the data labels with their sizes. An Asm that
// is Lean shows the bytes of the instructions it encoded at Emit.
func (a *Asm) String() string {
	at := make(map[int32][]Label)
	for k, d := range a.labels {
		if d.dat == 0 && d.inst >= 0 {
			at[d.inst] = append(at[d.inst], Label(k+1))
		}
	}
	var b strings.Builder
	for k := 0; k <= len(a.items); k++ {
		for _, l := range at[int32(k)] {
			fmt.Fprintf(&b, "%s:\n", l)
		}
		if k == len(a.items) {
			break
		}
		b.WriteByte('\t')
		switch it := a.items[k]; {
		case a.kept():
			a.insts[k].print(&b)
		case it.size == itemBranch:
			br := a.br[it.off].inst()
			br.print(&b)
		case it.size == itemPending:
			a.pend[it.off].print(&b)
		default:
			fmt.Fprintf(&b, "% x", a.body[it.off:int(it.off)+int(it.size)])
		}
		b.WriteByte('\n')
	}
	for k, l := range a.data {
		fmt.Fprintf(&b, "%s: %q\n", l, a.dataBytes[k])
	}
	return b.String()
}
