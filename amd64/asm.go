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
type Asm struct {
	insts  []Inst
	labels []labelDef // indexed by Label-1
	data   []Label    // the data labels, in the order their bytes follow the code
	err    error      // the first misuse (a label bound twice)
	align  []bool     // align[k]: instruction k starts on a 16-byte boundary (AlignNext); assemble grows it to len(insts)
}

type labelDef struct {
	inst  int    // the instruction the label precedes; -1 while unbound
	data  []byte // for a data label
	isDat bool
	off   int // offset in the assembled bytes
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
	case d.inst >= 0 || d.isDat:
		a.fail(fmt.Errorf("amd64: label %s bound twice", l))
	default:
		d.inst = len(a.insts)
	}
}

// AlignNext pads the code before the next instruction emitted with no-ops
// to a 16-byte boundary, when that takes at most maxPad bytes (as gcc's
// .p2align 4,,10 does for loop heads): a loop whose head starts a
// 16-byte block is fetched in fewer blocks per iteration.
func (a *Asm) AlignNext() {
	n := len(a.insts)
	if n >= len(a.align) {
		a.align = append(a.align, make([]bool, n+1-len(a.align))...)
	}
	a.align[n] = true
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

// Emit appends an instruction.
func (a *Asm) Emit(i Inst) { a.insts = append(a.insts, i) }

// Data returns a label for bytes placed after the code, for RIP-relative
// operands (lea rsi, [rip+L]).
func (a *Asm) Data(b []byte) Label {
	l := a.NewLabel()
	d := a.def(l)
	d.isDat, d.data = true, append([]byte(nil), b...)
	a.data = append(a.data, l)
	return l
}

// Len is the number of instructions emitted.
func (a *Asm) Len() int { return len(a.insts) }

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
	if d == nil || (d.inst < 0 && !d.isDat) {
		return 0, false
	}
	return d.off, true
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
	a.insts = slices.Grow(a.insts, insts)
	a.labels = slices.Grow(a.labels, labels)
}

func (a *Asm) assemble(keep bool) ([]byte, []Inst, error) {
	if a.err != nil {
		return nil, nil, a.err
	}
	n := len(a.insts)
	if len(a.align) < n {
		a.align = append(a.align, make([]bool, n-len(a.align))...)
	}
	// Where each instruction's labels point, and the size of each
	// instruction that is not a branch to a label.
	target := make([]int, n) // the instruction index a branch goes to, or -1
	long := make([]bool, n)
	size := make([]int, n)
	scratch := make([]byte, 0, 16)
	for k, in := range a.insts {
		target[k] = -1
		for _, arg := range [2]Arg{in.Dst, in.Src} {
			if arg.Kind == KindMem && arg.Mem.Base == RIP && arg.Mem.Label != 0 {
				if d := a.def(arg.Mem.Label); d == nil || (d.inst < 0 && !d.isDat) {
					return nil, nil, fmt.Errorf("amd64: %s: label %s not bound", in, arg.Mem.Label)
				}
			}
		}
		if in.Op < NumOps && opTable[in.Op].branch && in.Dst.Kind == KindLabel {
			d := a.def(in.Dst.Label)
			if d != nil && d.isDat {
				return nil, nil, fmt.Errorf("amd64: %s: branch to data", in)
			}
			if d == nil || d.inst < 0 {
				return nil, nil, fmt.Errorf("amd64: %s: label %s not bound", in, in.Dst.Label)
			}
			target[k] = d.inst
			long[k] = in.Op == CALL
			continue
		}
		enc, err := a.resolve(in, 0, 0).Encode(scratch[:0])
		if err != nil {
			return nil, nil, err
		}
		size[k], scratch = len(enc), enc
	}
	off := make([]int, n+1) // where each instruction starts, after its padding
	pad := make([]int, n)
	for {
		pos := 0
		for k := range n {
			if target[k] >= 0 {
				size[k] = branchSize(a.insts[k].Op, long[k])
			}
			if a.align[k] {
				if pad[k] = -pos & 15; pad[k] > maxPad {
					pad[k] = 0
				}
				pos += pad[k]
			}
			off[k] = pos
			pos += size[k]
		}
		off[n] = pos
		changed := false
		for k := range n {
			if target[k] >= 0 && !long[k] && !fits8(int64(off[target[k]]-(off[k]+size[k]))) {
				long[k], changed = true, true
			}
		}
		if !changed {
			break
		}
	}
	codeLen := off[n]
	dataOff := codeLen
	for _, l := range a.data {
		d := a.def(l)
		d.off = dataOff
		dataOff += len(d.data)
	}
	for k := range a.labels {
		if d := &a.labels[k]; !d.isDat && d.inst >= 0 {
			d.off = off[d.inst]
		}
	}
	out := make([]byte, 0, dataOff)
	var final []Inst
	if keep {
		final = make([]Inst, n)
	}
	for k, in := range a.insts {
		for p := pad[k]; p > 0; p -= min(p, 9) {
			out = append(out, nops[min(p, 9)]...)
		}
		if target[k] >= 0 {
			disp := int64(off[target[k]] - (off[k] + size[k]))
			if long[k] {
				in.Dst = Rel32(disp)
			} else {
				in.Dst = Rel8(disp)
			}
		} else {
			in = a.resolve(in, off[k]+size[k], 1)
		}
		var err error
		before := len(out)
		if out, err = in.Encode(out); err != nil {
			return nil, nil, err
		}
		if len(out)-before != size[k] {
			return nil, nil, fmt.Errorf("amd64: %s: size changed from %d to %d bytes", in, size[k], len(out)-before)
		}
		if keep {
			final[k] = in
		}
	}
	for _, l := range a.data {
		out = append(out, a.def(l).data...)
	}
	return out, final, nil
}

// resolve replaces a RIP-relative label by its displacement from end, the
// offset of the end of the instruction; in the sizing pass (pass 0) by 0,
// as the size does not depend on it.
func (a *Asm) resolve(in Inst, end int, pass int) Inst {
	for _, p := range [2]*Arg{&in.Dst, &in.Src} {
		if p.Kind == KindMem && p.Mem.Base == RIP && p.Mem.Label != 0 {
			disp := 0
			if d := a.def(p.Mem.Label); pass == 1 && d != nil {
				disp = d.off - end
			}
			p.Mem.Disp, p.Mem.Label = int32(disp), 0
		}
	}
	return in
}

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
// instruction indented, then the data labels with their sizes.
func (a *Asm) String() string {
	at := make(map[int][]Label)
	for k, d := range a.labels {
		if !d.isDat && d.inst >= 0 {
			at[d.inst] = append(at[d.inst], Label(k+1))
		}
	}
	var b strings.Builder
	for k := 0; k <= len(a.insts); k++ {
		for _, l := range at[k] {
			fmt.Fprintf(&b, "%s:\n", l)
		}
		if k < len(a.insts) {
			b.WriteByte('\t')
			a.insts[k].print(&b)
			b.WriteByte('\n')
		}
	}
	for _, l := range a.data {
		fmt.Fprintf(&b, "%s: %q\n", l, a.def(l).data)
	}
	return b.String()
}
