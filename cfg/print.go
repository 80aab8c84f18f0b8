package cfg

import (
	"fmt"
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
func (p *Phi) String() string { return phiText(p, nil) }

// phiText formats p with its arguments in the order perm gives (perm[i]
// is the index in Args of the i-th argument), or in the order of Args if
// perm is nil.
func phiText(p *Phi, perm []int) string {
	var b strings.Builder
	b.WriteString(p.Dst.String())
	b.WriteString(" = Phi")
	for i := range p.Args {
		k := i
		if perm != nil {
			k = perm[i]
		}
		b.WriteByte(' ')
		b.WriteString(p.Args[k].String())
	}
	return b.String()
}

// String formats the instruction: "vD = Op vA vB", "vD = Const N", or
// "check vA".
func (in *Instr) String() string {
	var b strings.Builder
	if in.Dst != 0 {
		b.WriteString(in.Dst.String())
		b.WriteString(" = ")
	}
	if in.Op == OpCheck {
		b.WriteString("check")
	} else {
		b.WriteString(in.Op.String())
	}
	if in.Op == OpConst {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(in.Aux, 10))
	}
	for _, a := range in.Args {
		b.WriteByte(' ')
		b.WriteString(a.String())
	}
	return b.String()
}

// TermString formats the block's terminator: "jump bS", "branch vC bT bF"
// or "return vR"; "" if it has none.
func (b *Block) TermString() string {
	var s strings.Builder
	switch b.Term.Kind {
	case TermNone:
		return ""
	case TermJump:
		s.WriteString("jump")
	case TermBranch:
		s.WriteString("branch ")
		s.WriteString(b.Term.Reg.String())
	case TermReturn:
		s.WriteString("return ")
		s.WriteString(b.Term.Reg.String())
	default:
		fmt.Fprintf(&s, "term%d", b.Term.Kind)
	}
	for _, t := range b.Succs {
		s.WriteByte(' ')
		s.WriteString(t.String())
	}
	return s.String()
}

// Print returns f as text: the "func" line, then each block in order with
// its header, Phis, instructions and terminator. Predecessors are listed,
// and Phi arguments written, in block order (see the package comment).
func Print(f *Func) string {
	var s strings.Builder
	s.WriteString("func ")
	s.WriteString(funcName(f.Name))
	s.WriteString(" level ")
	s.WriteString(f.Level.String())
	s.WriteByte('\n')
	pos := positions(f)
	for i, b := range f.Blocks {
		printBlock(&s, b, i, pos)
	}
	return s.String()
}

// printBlock writes block b, at position i of a function whose blocks have
// the positions pos.
func printBlock(s *strings.Builder, b *Block, i int, pos *blockIndex) {
	if b == nil {
		s.WriteString("; nil block\n")
		return
	}
	perm := predOrder(b, pos)
	fmt.Fprintf(s, "%v:  ; %s\n", b, header(b, i, perm))
	for _, p := range b.Phis {
		if p == nil {
			s.WriteString("\t; nil phi\n")
			continue
		}
		pp := perm
		if len(p.Args) != len(b.Preds) {
			pp = nil
		}
		line(s, phiText(p, pp), p.Pos.Line)
	}
	for _, in := range b.Instrs {
		if in == nil {
			s.WriteString("\t; nil instruction\n")
			continue
		}
		line(s, in.String(), in.Pos.Line)
	}
	if t := b.TermString(); t != "" {
		line(s, t, b.Term.Pos.Line)
	}
}

// header is the comment of block b at position i: "entry" or "preds b1
// b5" (in the order perm gives) or "no preds", then "depth N".
func header(b *Block, i int, perm []int) string {
	var s strings.Builder
	if i == 0 {
		s.WriteString("entry, ")
	}
	if len(b.Preds) > 0 {
		s.WriteString("preds")
		for _, k := range perm {
			s.WriteByte(' ')
			s.WriteString(b.Preds[k].String())
		}
		s.WriteString(", ")
	} else if i != 0 {
		s.WriteString("no preds, ")
	}
	s.WriteString("depth ")
	s.WriteString(strconv.Itoa(b.LoopDepth))
	return s.String()
}

// line writes one indented line, with a "; line N" comment when line is a
// known source line.
func line(s *strings.Builder, text string, line int32) {
	s.WriteByte('\t')
	if line <= 0 {
		s.WriteString(text)
		s.WriteByte('\n')
		return
	}
	fmt.Fprintf(s, "%-*s ; line %d\n", commentColumn, text, line)
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
