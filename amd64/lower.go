// Compile, the whole backend, and Lower: the selected code with the
// allocator's registers, reloads, stores and frame, assembled with the
// runtime (docs/BACKEND.md). Cost: linear in the code.

package amd64

import (
	"bytes"
	"fmt"
	"strings"

	"son/cfg"
	"son/regalloc"
)

// Program is a Simple program compiled to machine code, with the runtime
// around it: the text of an executable.
type Program struct {
	Code  []byte // the code and its data (messages), from offset 0
	Entry int    // the offset of _start
	Func  *VFunc
	Alloc *regalloc.Result
	// listing holds what Listing prints, with the source its comments
	// quote; Listing makes it on first use, lowering again with the
	// instructions kept (son build never does).
	listing []listed
	src     []byte
	asm     *Asm       // the instructions listed, as emitted (branches to labels)
	stubs   []stubLine // the division stubs' lines
}

// stubLine is a division stub's line in the listing: its label and its
// message (an index in VFunc.Stubs), made into text only by Listing.
type stubLine struct {
	l   Label
	msg int32
}

// Checks chooses the checkers the backend runs on its own work.
type Checks uint8

const (
	// CheckAllocation runs regalloc.Check on the allocation: son build
	// always does (it costs about 2% of a compile).
	CheckAllocation Checks = 1 << iota
	// CheckSelected runs CheckSelection on the selected code, as son check
	// and son build -check do (about 12% of a compile at 10,000 nodes).
	CheckSelected
	// CheckAll runs both.
	CheckAll = CheckAllocation | CheckSelected
)

// Compile selects instructions for the RTL function f, allocates their
// registers, checks what checks asks for (the selection with
// CheckSelection, the allocation with regalloc.Check), and assembles the
// code with the runtime. file names the program in its runtime errors;
// src, when not nil, gives the listing its source lines.
func Compile(f *cfg.Func, file string, src []byte, checks Checks) (*Program, error) {
	return compileFunc(f, file, src, checks, true)
}

// Code is Compile for a caller that needs only the machine code (son check,
// son build): the Program keeps neither the selected code nor the source,
// so that the selected code, the largest of the backend's forms, is no
// longer live while the allocation is checked. Its Listing is empty.
func Code(f *cfg.Func, file string, checks Checks) (*Program, error) {
	return compileFunc(f, file, nil, checks, false)
}

// compileFunc is Compile, keeping in the Program what Listing needs when
// listing is set.
func compileFunc(f *cfg.Func, file string, src []byte, checks Checks, listing bool) (*Program, error) {
	vf, err := Select(f, file)
	if err != nil {
		return nil, err
	}
	if checks&CheckSelected != 0 {
		if err := CheckSelection(f, vf, file); err != nil {
			return nil, err
		}
	}
	rf := vf.RegallocFunc()
	res, err := regalloc.Allocate(rf)
	if err != nil {
		return nil, err
	}
	var c *regalloc.Checker
	if checks&CheckAllocation != 0 {
		// The checker's rules without dataflow first: then res fits vf
		// and lowering can read it. The dataflow runs after lowering, when
		// nothing holds vf unless the listing needs it; its verdict comes
		// first, as if it had run before.
		if c, err = regalloc.NewChecker(rf, res); err != nil {
			return nil, err
		}
	}
	p, lerr := lower(vf, rf, res, src, false, !listing)
	if !listing {
		// Nothing holds vf from here on: the Program lets it go, and so
		// do rf's namers. The checker's messages then name an instruction
		// by its block and index only (son asm, which keeps vf, gives its
		// text too), and registers as before, by their RTL names.
		if p != nil {
			p.Func, p.src = nil, nil
		}
		names := &VFunc{origin: vf.origin}
		rf.Describe = nil
		rf.RegName = func(r regalloc.Reg) string { return names.regName(VReg(r)) }
	}
	if c != nil {
		if err := c.Flow(); err != nil {
			return nil, err
		}
	}
	if lerr != nil {
		return nil, lerr
	}
	return p, nil
}

// slot is the memory operand of stack slot k.
func slot(k int) Arg { return M(RSP, int32(8*k)) }

// Lower assembles vf, allocated as res says, with the runtime. It trusts
// res: Compile checks it first when asked to. The listing is not made:
// Program.Listing lowers again, keeping the instructions.
func Lower(vf *VFunc, res *regalloc.Result, src []byte) (*Program, error) {
	return lower(vf, nil, res, src, false, false)
}

// lower is Lower, with the listing when listing is set; without it, the
// assembler keeps no copy of the instructions (Asm.Lean). rf, when given,
// is vf.RegallocFunc(): its lists of each instruction's registers are
// read instead of listed again. With drop, each block's code is let go
// once lowered (its VBlock emptied, vf.Blocks nil there), so that the
// selected code shrinks as the assembled code grows: for a caller that
// reads nothing of vf's blocks afterwards (Code).
func lower(vf *VFunc, rf *regalloc.Func, res *regalloc.Result, src []byte, listing, drop bool) (*Program, error) {
	n := 4 + res.NumEdits()
	for _, blk := range vf.Blocks {
		n += len(blk.Insts)
	}
	a := Asm{Lean: !listing}
	// The runtime's own labels and instructions, a label per block and
	// two per division stub (its code and its message).
	// With drop, a quarter: the selected code is let go as the code grows
	// past it, where the whole would sit beside the whole selected code.
	if r := n + 64 + 3*len(vf.Stubs); drop {
		a.Reserve(r/4, 32+(len(vf.Blocks)+2*len(vf.Stubs))/4)
	} else {
		a.Reserve(r, 32+len(vf.Blocks)+2*len(vf.Stubs))
	}
	main, rt := startRuntime(&a) // _start, copied
	nmsg := 0
	for _, m := range vf.Stubs {
		nmsg += len(m)
	}
	rt.msgs = make([]byte, 0, nmsg) // room for every stub's message
	nlines := 0
	if listing {
		nlines = bytes.Count(src, []byte("\n")) + 1
	}
	line, lastLine := int32(0), int32(0) // the instruction's line, the last listed
	var stubs []stubLine                 // the division stubs, for the listing
	var list []listed
	if listing {
		list = make([]listed, 0, n+n/4)
	}
	emit := func(in *Inst) { // an instruction that names no label
		a.emitPlain(in)
		if listing {
			list = append(list, listed{kind: listInst, n: int32(a.Len() - 1)})
		}
	}
	frame := int64(8 * res.Slots)
	a.Bind(main)
	targeted := make([]bool, len(vf.Blocks)) // blocks some branch goes to: the listing shows their labels
	loopHead := make([]bool, len(vf.Blocks)) // blocks a branch from a later one, not cold, goes back to
	for b, blk := range vf.Blocks {
		for i := range blk.Insts {
			vi := &blk.Insts[i]
			if (vi.Op == JCC || vi.Op == JMP) && !vi.ToStub {
				targeted[vi.Target] = true
				if int(vi.Target) <= b && !blk.Cold {
					loopHead[vi.Target] = true
				}
			}
		}
	}
	// A label for each block a branch goes to; for the listing, one for
	// every block, numbered as they come.
	labels := make([]Label, len(vf.Blocks))
	for b := range labels {
		if listing || targeted[b] {
			labels[b] = a.NewLabel()
		}
	}
	if frame > 0 {
		in := I2(SUB, R(RSP), Imm(frame))
		emit(&in)
	}
	var ed Inst // each edit's move, made in place
	edit := func(e regalloc.Edit) {
		ed = Inst{Op: MOV}
		switch {
		case e.Src.IsSlot():
			ed.Dst, ed.Src = R(Reg(e.Dst)), slot(e.Src.Slot())
		case e.Dst.IsSlot():
			ed.Dst, ed.Src = slot(e.Dst.Slot()), R(Reg(e.Src))
		default:
			ed.Dst, ed.Src = R(Reg(e.Dst)), R(Reg(e.Src))
		}
		emit(&ed)
	}
	stub := func(k int32) Label {
		msg := vf.Stubs[k-1]
		l := rt.DivZero(msg)
		if listing {
			stubs = append(stubs, stubLine{l, k - 1})
		}
		return l
	}
	var in Inst // each instruction, resolved in place
	at := -1    // the instruction's number in layout order (VFunc.lines)
	nextRun := 0
	for b, blk := range vf.Blocks {
		if loopHead[b] {
			a.AlignNext()
			if listing {
				list = append(list, listed{kind: listAlign})
			}
		}
		if labels[b] != 0 {
			a.Bind(labels[b])
		}
		if listing && targeted[b] {
			list = append(list, listed{kind: listLabel, n: int32(labels[b])})
		}
		insts := blk.Insts
		ps := res.Blocks[b][:len(insts)]
		var ris []regalloc.Instr // rf's instructions of the block, parallel to insts
		if rf != nil {
			ris = rf.Blocks[b].Instrs[:len(insts)]
		}
		for i := range insts {
			vi, p := &insts[i], &ps[i]
			at++
			if p.Dead {
				continue
			}
			if listing {
				for nextRun < len(vf.lines) && int(vf.lines[nextRun].at) <= at {
					line = vf.lines[nextRun].line
					nextRun++
				}
				if l := line; l > 0 && l != lastLine {
					lastLine = l
					if len(src) > 0 && int(l) <= nlines {
						list = append(list, listed{kind: listLine, n: l})
					}
				}
			}
			edits, nb := res.Edits(p)
			for k := 0; k < nb; k++ {
				edit(edits[k])
			}
			if vi.Op == JCC || vi.Op == JMP {
				// As resolve and emit make it, without the Inst.
				var l Label
				if vi.ToStub {
					l = stub(vi.Target)
				} else {
					l = labels[vi.Target]
				}
				a.emitBranch(vi.Op, vi.Cond, l)
				if listing {
					list = append(list, listed{kind: listInst, n: int32(a.Len() - 1)})
				}
			} else if locs, ops := res.Locs(p), operandsOf(rf, ris, i); ris == nil || listing || !lowerFast(&a, vi, ops, locs) {
				var err error
				if ris != nil {
					err = vi.resolveInto(&in, ops, locs, stub, labels)
				} else {
					in, err = vi.resolve(locs, stub, labels)
				}
				if err != nil {
					return nil, fmt.Errorf("amd64: block %d, instruction %d (%s): %v", b, i, vi.text(vf), err)
				}
				switch {
				case in.Op == MOV && in.Dst.Kind == KindReg && in.Src.Kind == KindReg && in.Dst.Reg == in.Src.Reg:
					// a coalesced move
				case in.Op == RET && frame > 0:
					add := I2(ADD, R(RSP), Imm(frame))
					emit(&add)
					emit(&in)
				default:
					emit(&in)
				}
			}
			for k := nb; k < len(edits); k++ {
				edit(edits[k])
			}
		}
		if drop {
			blk.Insts, blk.Succs, vf.Blocks[b] = nil, nil, nil
		}
	}
	for k := range stubs {
		list = append(list, listed{kind: listStub, n: int32(k)})
	}
	rt.Finish()
	code, err := a.Code()
	if err != nil {
		return nil, err
	}
	entry, _ := a.Offset(rt.Entry)
	p := &Program{Code: code, Entry: entry, Func: vf, Alloc: res, src: src}
	if listing {
		p.listing, p.asm, p.stubs = list, &a, stubs
	}
	return p, nil
}

// operandsOf is rf.Operands(&ris[i]), or nil without ris, cut from
// rf.Regs with no test of the offsets: rf is RegallocFunc's, which made
// them (the test took a fifth of lowering's own instructions).
func operandsOf(rf *regalloc.Func, ris []regalloc.Instr, i int) []regalloc.Reg {
	if ris == nil {
		return nil
	}
	in := &ris[i]
	k := in.Off + int32(in.NU) + int32(in.ND)
	return rf.Regs[in.Off:k:k]
}

// lowerFast emits vi when it is op r64, r64 or op r64, imm8 of encode's
// fast path (fastForm), mov r32, imm32 or lea, as resolveInto and
// emitPlain would, its registers given their locations, with no Inst
// made; a move coalesced, it emits nothing. It reports whether vi was one
// of those, with operands encode accepts; lowering emits the others
// through an Inst. The assembler is Lean: it keeps no Inst.
func lowerFast(a *Asm, vi *VInst, regs []regalloc.Reg, locs []regalloc.Loc) bool {
	if vi.Dst.Kind != KindReg {
		return false
	}
	r := resolver{regs: regs, locs: locs}
	d, ok := r.find(vi.Dst.R)
	if !ok || d >= NumRegs {
		return false
	}
	f := &fastForm[vi.Op]
	switch {
	case f.rr != 0 && vi.Src.Kind == KindReg:
		s, ok := r.find(vi.Src.R)
		switch {
		case !ok || s >= NumRegs:
			return false
		case vi.Op == MOV && d == s: // a coalesced move
		default:
			a.emitRR(vi.Op, d, s)
		}
	case f.alu && vi.Src.Kind == KindImm && fits8(vi.Src.Imm):
		a.emitRI8(vi.Op, d, vi.Src.Imm)
	case vi.Op == MOVL && vi.Src.Kind == KindImm && vi.Src.Imm >= 0 && vi.Src.Imm <= 0xFFFFFFFF:
		a.emitMovL(d, vi.Src.Imm)
	case vi.Op == LEA && vi.Src.Kind == KindMem:
		m := Arg{Kind: KindMem, Mem: Mem{Base: NoReg, Index: NoReg, Disp: vi.Src.Disp()}}
		if vi.Src.R != NoVReg {
			if m.Mem.Base, ok = r.find(vi.Src.R); !ok || m.Mem.Base >= NumRegs {
				return false
			}
		}
		if ix := vi.Src.Index(); ix != NoVReg {
			if m.Mem.Index, ok = r.find(ix); !ok || m.Mem.Index >= NumRegs {
				return false
			}
			m.Mem.Scale = vi.Src.Scale
		}
		if checkArg(&m) != "" {
			return false
		}
		a.emitLEA(d, &m)
	default:
		return false
	}
	return true
}

// listed is one line of the listing: an instruction, a label, a source
// line's comment or a division stub.
type listed struct {
	kind uint8
	n    int32 // the instruction's index in asm, the label, the line or the stub's index
}

const (
	listInst = iota
	listLabel
	listLine
	listStub
	listAlign
)

// Listing is the program's code in assembly (Intel syntax), each run of
// instructions under a comment with the source line it comes from (when
// Compile was given the source), and the labels of the branches' targets.
func (p *Program) Listing() string {
	if p.asm == nil {
		if p.Func == nil {
			return "; no listing: the program was made by amd64.Code\n"
		}
		q, err := lower(p.Func, nil, p.Alloc, p.src, true, false)
		if err != nil {
			return "; " + err.Error() + "\n"
		}
		p.listing, p.asm, p.stubs = q.listing, q.asm, q.stubs
	}
	var b strings.Builder
	lines := bytes.Split(p.src, []byte("\n"))
	for _, e := range p.listing {
		switch e.kind {
		case listInst:
			b.WriteString("\t")
			b.WriteString(p.asm.insts[e.n].String())
			b.WriteString("\n")
		case listLabel:
			fmt.Fprintf(&b, "%s:\n", Label(e.n))
		case listLine:
			fmt.Fprintf(&b, "\t; %d: %s\n", e.n, strings.TrimSpace(string(lines[e.n-1])))
		case listStub:
			st := p.stubs[e.n]
			fmt.Fprintf(&b, "%s:\t; %s\n", st.l, bytes.TrimSpace(p.Func.Stubs[st.msg]))
		case listAlign:
			fmt.Fprintf(&b, "\t.p2align 4,,%d\n", maxPad)
		}
	}
	return b.String()
}

// resolve is the machine instruction of vi with the locations of its
// uses then defs (the registers its regalloc.Placed gives, Result.Locs).
func (vi *VInst) resolve(locs []regalloc.Loc, stub func(int32) Label, labels []Label) (Inst, error) {
	var in Inst
	if vi.Op == JCC || vi.Op == JMP { // no registers: their operands are not listed
		err := vi.resolveInto(&in, nil, locs, stub, labels)
		return in, err
	}
	o := vi.operands()
	err := vi.resolveInto(&in, o.regs[:o.n], locs, stub, labels)
	return in, err
}

// resolveInto is resolve into *in, which lowering reuses from one
// instruction to the next (an Inst is about 100 bytes), with vi's
// registers, uses then defs, listed as operands lists them
// (regalloc.Func.Operands of RegallocFunc's instruction), parallel to
// their locations.
func (vi *VInst) resolveInto(in *Inst, regs []regalloc.Reg, locs []regalloc.Loc, stub func(int32) Label, labels []Label) error {
	*in = Inst{Op: vi.Op, Cond: vi.Cond}
	if vi.Op == IMUL3 {
		in.Imm = vi.Dst.Imm
	}
	switch vi.Op {
	case JCC, JMP:
		if vi.ToStub {
			in.Dst = To(stub(vi.Target))
		} else {
			in.Dst = To(labels[vi.Target])
		}
		return nil
	}
	r := resolver{regs: regs, locs: locs}
	if err := r.arg(&in.Dst, &vi.Dst); err != nil {
		return err
	}
	return r.arg(&in.Src, &vi.Src)
}

// resolver gives the virtual registers of one instruction their
// locations: regs are its uses then defs, in the order operands lists
// them, and locs theirs (a register both read and written has one
// location, its use's first).
type resolver struct {
	regs []regalloc.Reg
	locs []regalloc.Loc
}

func (r *resolver) loc(v VReg) (Reg, error) {
	if x, ok := r.find(v); ok {
		return x, nil
	}
	return 0, fmt.Errorf("no location for register %d", v)
}

// find is loc without its error, small enough to be inlined (lowerFast's
// calls were a fifth of its cost): ok is false where loc fails.
func (r *resolver) find(v VReg) (x Reg, ok bool) {
	if v >= 0 && v < FirstVirtual {
		return Reg(v), true
	}
	if len(r.locs) == len(r.regs) {
		for k, u := range r.regs {
			if VReg(u) == v {
				return Reg(r.locs[k]), true
			}
		}
	}
	return 0, false
}

// arg sets *a, which is zero, to va with its registers' locations.
func (r *resolver) arg(a *Arg, va *VArg) error {
	switch va.Kind {
	case KindReg:
		x, err := r.loc(va.R)
		a.Kind, a.Reg = KindReg, x
		return err
	case KindImm:
		a.Kind, a.Imm = KindImm, va.Imm
	case KindMem:
		base, index := NoReg, NoReg
		var err error
		if va.R != NoVReg {
			if base, err = r.loc(va.R); err != nil {
				return err
			}
		}
		if ix := va.Index(); ix != NoVReg {
			if index, err = r.loc(ix); err != nil {
				return err
			}
		}
		if index == NoReg {
			*a = M(base, va.Disp())
		} else {
			*a = MI(base, index, va.Scale, va.Disp())
		}
	}
	return nil
}

// text prints vi with the names of its registers.
func (vi *VInst) text(f *VFunc) string {
	var b strings.Builder
	b.WriteString(vi.Op.String())
	if vi.Op == JCC || vi.Op == SETCC {
		b.WriteString(vi.Cond.String())
	}
	if vi.Op == JCC || vi.Op == JMP {
		if vi.ToStub {
			b.WriteString(" divzero")
		} else {
			fmt.Fprintf(&b, " .b%d", vi.Target)
		}
		return b.String()
	}
	sep := " "
	for _, a := range [2]VArg{vi.Dst, vi.Src} {
		switch a.Kind {
		case KindReg:
			b.WriteString(sep + f.regName(a.R))
		case KindImm:
			b.WriteString(sep + signedHex(a.Imm))
		case KindMem:
			s := "["
			if a.R != NoVReg {
				s += f.regName(a.R)
			}
			if ix := a.Index(); ix != NoVReg {
				s += fmt.Sprintf("+%s*%d", f.regName(ix), a.Scale)
			}
			if d := a.Disp(); d != 0 {
				s += fmt.Sprintf("%+d", d)
			}
			b.WriteString(sep + s + "]")
		default:
			continue
		}
		sep = ", "
	}
	if vi.Op == IMUL3 {
		b.WriteString(", " + signedHex(vi.Dst.Imm))
	}
	return b.String()
}

// String prints the function before allocation.
func (f *VFunc) String() string {
	var b strings.Builder
	for k, blk := range f.Blocks {
		fmt.Fprintf(&b, ".b%d:  ; succs %v\n", k, blk.Succs)
		for i := range blk.Insts {
			fmt.Fprintf(&b, "\t%s\n", blk.Insts[i].text(f))
		}
	}
	return b.String()
}
