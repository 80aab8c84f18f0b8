package amd64

import (
	"strconv"
	"strings"
)

// The text form is Intel syntax, as the Intel manual (which defines the
// encodings) and x86asm.IntelSyntax write it: destination first, then
// source, "qword ptr [base+index*scale+disp]", immediates in signed hex.
// It keeps operands in the order Inst holds them, and tests compare it with
// x86asm's output for the same bytes. Where x86asm's Intel text is
// unusual this printer follows the assembler's habits instead: the
// conditions named e/ne/l/ge/le/g/b/ae/be/a (not z/nz/nl/nle/nb/nbe), lea
// without "ptr", movabs for the 64-bit immediate, displacements signed
// ("[rip-0x10]"), and a label name as a branch target before assembly.

// String prints the instruction in Intel syntax.
func (i Inst) String() string {
	var b strings.Builder
	i.print(&b)
	return b.String()
}

func (i Inst) print(b *strings.Builder) {
	if i.Op == OpInvalid || i.Op >= NumOps {
		b.WriteString(i.Op.String())
		return
	}
	info := opTable[i.Op]
	b.WriteString(info.name)
	if i.Op == JCC || i.Op == SETCC {
		b.WriteString(i.Cond.String())
	}
	if info.nargs == 0 {
		return
	}
	dsize, ssize := 8, 8
	switch i.Op {
	case MOVL, XORL:
		dsize, ssize = 4, 4
	case DIVL:
		dsize = 4
	case MOVZX:
		dsize, ssize = 4, 1
	case MOVB, SETCC:
		dsize, ssize = 1, 1
	case SHL, SHR, SAR:
		ssize = 1 // the count is cl
	}
	b.WriteByte(' ')
	printArg(b, i.Dst, dsize, i.Op == LEA)
	if info.nargs == 2 {
		b.WriteString(", ")
		printArg(b, i.Src, ssize, i.Op == LEA)
	}
	if i.Op == IMUL3 {
		b.WriteString(", ")
		b.WriteString(signedHex(i.Imm))
	}
}

func printArg(b *strings.Builder, a Arg, size int, noPtr bool) {
	switch a.Kind {
	case KindReg:
		b.WriteString(a.Reg.Name(size))
	case KindImm:
		b.WriteString(signedHex(a.Imm))
	case KindMem:
		if !noPtr {
			switch size {
			case 1:
				b.WriteString("byte ptr ")
			case 4:
				b.WriteString("dword ptr ")
			default:
				b.WriteString("qword ptr ")
			}
		}
		printMem(b, a.Mem)
	case KindRel8, KindRel32:
		b.WriteByte('.')
		if a.Imm >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(signedHex(a.Imm))
	case KindLabel:
		b.WriteString(a.Label.String())
	default:
		b.WriteString("?")
	}
}

func printMem(b *strings.Builder, m Mem) {
	b.WriteByte('[')
	sep := ""
	if m.Base != NoReg {
		b.WriteString(m.Base.String())
		sep = "+"
	}
	if m.Index != NoReg {
		b.WriteString(sep)
		b.WriteString(m.Index.String())
		b.WriteByte('*')
		b.WriteString(strconv.Itoa(int(m.Scale)))
		sep = "+"
	}
	switch {
	case m.Label != 0:
		b.WriteString(sep)
		b.WriteString(m.Label.String())
	case m.Disp < 0:
		b.WriteString(signedHex(int64(m.Disp)))
	case m.Disp > 0 || sep == "":
		b.WriteString(sep)
		b.WriteString(signedHex(int64(m.Disp)))
	}
	b.WriteByte(']')
}

// signedHex is v in signed hexadecimal, as x86asm prints immediates: 0x2a, -0x1.
func signedHex(v int64) string {
	if v < 0 {
		return "-0x" + strconv.FormatUint(uint64(-v), 16)
	}
	return "0x" + strconv.FormatUint(uint64(v), 16)
}
