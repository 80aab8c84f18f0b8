package cfg

import (
	"strconv"
	"strings"
	"unicode"
)

// Printing a function as text, in the form Parse reads back (see the
// package comment). Print never fails: a function that is not well formed
// prints as well as it can, so that Verify's messages and dumps of broken
// passes can show it, but it may not parse back.

// commentColumn is the width the text of a line is padded to before its
// "; line N" comment: with the leading tab, comments line up.
const commentColumn = 24

// String returns "v<N>".
func (r Reg) String() string { return "v" + strconv.Itoa(int(r)) }

// String returns "b<ID>".
func (b *Block) String() string {
	if b == nil {
		return "b?"
	}
	return "b" + strconv.Itoa(b.ID)
}

// String formats the Phi as "vD = Phi vA vB ...", arguments in the order of
// Args.
func (p *Phi) String() string {
	var w printer
	w.phi(p, nil)
	return w.String()
}

// String formats the instruction: "vD = Op vA vB", "vD = Const N", or
// "check vA".
func (in *Instr) String() string {
	var w printer
	w.instr(in)
	return w.String()
}

// TermString formats the block's terminator: "jump bS", "branch vC bT bF"
// or "return vR"; "" if it has none.
func (b *Block) TermString() string {
	var w printer
	w.term(b)
	return w.String()
}

// Print returns f as text: the "func" line, then each block in order with
// its header, Phis, instructions and terminator. Predecessors are listed,
// and Phi arguments written, in block order (see the package comment).
func Print(f *Func) string {
	var w printer
	w.WriteString("func ")
	w.WriteString(funcName(f.Name))
	w.WriteString(" level ")
	w.WriteString(f.Level.String())
	w.WriteByte('\n')
	pos := positions(f)
	for i, b := range f.Blocks {
		w.block(b, i, pos)
	}
	return w.String()
}

// printer writes the text form into a strings.Builder, numbers without
// allocating.
type printer struct {
	strings.Builder
	buf [24]byte
}

func (w *printer) int(n int64) { w.Write(strconv.AppendInt(w.buf[:0], n, 10)) }

func (w *printer) reg(r Reg) {
	w.WriteByte('v')
	w.int(int64(r))
}

func (w *printer) blockName(b *Block) {
	if b == nil {
		w.WriteString("b?")
		return
	}
	w.WriteByte('b')
	w.int(int64(b.ID))
}

// phi writes p with its arguments in the order perm gives (perm[i] is the
// index in Args of the i-th argument), or in the order of Args if perm is
// nil.
func (w *printer) phi(p *Phi, perm []int) {
	w.reg(p.Dst)
	w.WriteString(" = Phi")
	for i := range p.Args {
		k := i
		if perm != nil {
			k = perm[i]
		}
		w.WriteByte(' ')
		w.reg(p.Args[k])
	}
}

func (w *printer) instr(in *Instr) {
	if in.Dst != 0 {
		w.reg(in.Dst)
		w.WriteString(" = ")
	}
	if in.Op == OpCheck {
		w.WriteString("check")
	} else {
		w.WriteString(in.Op.String())
	}
	if in.Op == OpConst {
		w.WriteByte(' ')
		w.int(in.Aux)
	}
	for _, a := range in.Args {
		w.WriteByte(' ')
		w.reg(a)
	}
}

// term writes the terminator of b; nothing if it has none.
func (w *printer) term(b *Block) {
	switch b.Term.Kind {
	case TermNone:
		return
	case TermJump:
		w.WriteString("jump")
	case TermBranch:
		w.WriteString("branch ")
		w.reg(b.Term.Reg)
	case TermReturn:
		w.WriteString("return ")
		w.reg(b.Term.Reg)
	default:
		w.WriteString("term")
		w.int(int64(b.Term.Kind))
	}
	for _, t := range b.Succs() {
		w.WriteByte(' ')
		w.blockName(t)
	}
}

// block writes block b, at position i of a function whose blocks have the
// positions pos.
func (w *printer) block(b *Block, i int, pos *blockIndex) {
	if b == nil {
		w.WriteString("; nil block\n")
		return
	}
	perm := predOrder(b, pos)
	w.blockName(b)
	w.WriteString(":  ; ")
	w.header(b, i, perm)
	w.WriteByte('\n')
	for _, p := range b.Phis {
		if p == nil {
			w.WriteString("\t; nil phi\n")
			continue
		}
		pp := perm
		if len(p.Args) != len(b.Preds) {
			pp = nil
		}
		start := w.startLine()
		w.phi(p, pp)
		w.endLine(start, p.Pos.Line)
	}
	for _, in := range b.Instrs {
		if in == nil {
			w.WriteString("\t; nil instruction\n")
			continue
		}
		start := w.startLine()
		w.instr(in)
		w.endLine(start, in.Pos.Line)
	}
	if b.Term.Kind != TermNone {
		start := w.startLine()
		w.term(b)
		w.endLine(start, b.Term.Pos.Line)
	}
}

// header writes the comment of block b at position i: "entry" or "preds
// b1 b5" (in the order perm gives) or "no preds", then "depth N".
func (w *printer) header(b *Block, i int, perm []int) {
	if i == 0 {
		w.WriteString("entry, ")
	}
	if len(b.Preds) > 0 {
		w.WriteString("preds")
		for j := range b.Preds {
			k := j
			if perm != nil {
				k = perm[j]
			}
			w.WriteByte(' ')
			w.blockName(b.Preds[k])
		}
		w.WriteString(", ")
	} else if i != 0 {
		w.WriteString("no preds, ")
	}
	w.WriteString("depth ")
	w.int(int64(b.LoopDepth))
}

// startLine begins an indented line and returns where its text starts.
func (w *printer) startLine() int {
	w.WriteByte('\t')
	return w.Len()
}

// endLine ends the line whose text started at start, with a "; line N"
// comment when line is a known source line, the text padded to
// commentColumn characters so that the comments line up.
func (w *printer) endLine(start int, line int32) {
	if line > 0 {
		for n := w.Len() - start; n < commentColumn; n++ {
			w.WriteByte(' ')
		}
		w.WriteString(" ; line ")
		w.int(int64(line))
	}
	w.WriteByte('\n')
}

// funcName is name as Print writes it: bare if it is a word Parse reads
// back as one, else Go-quoted.
func funcName(name string) string {
	if name == "" || name[0] == '"' {
		return strconv.Quote(name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || r == ';' {
			return strconv.Quote(name)
		}
	}
	return name
}
