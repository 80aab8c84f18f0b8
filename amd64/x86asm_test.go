package amd64

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/arch/x86/x86asm"
)

// The encoder is checked against golang.org/x/arch/x86/x86asm, a decoder
// written by others from the Intel manual and itself tested against
// objdump and XED: an encoder checked only by our own decoder would share
// our misreadings of the manual.

var condJump = [NumConds]x86asm.Op{x86asm.JO, x86asm.JNO, x86asm.JB, x86asm.JAE, x86asm.JE, x86asm.JNE,
	x86asm.JBE, x86asm.JA, x86asm.JS, x86asm.JNS, x86asm.JP, x86asm.JNP, x86asm.JL, x86asm.JGE, x86asm.JLE, x86asm.JG}
var condSet = [NumConds]x86asm.Op{x86asm.SETO, x86asm.SETNO, x86asm.SETB, x86asm.SETAE, x86asm.SETE, x86asm.SETNE,
	x86asm.SETBE, x86asm.SETA, x86asm.SETS, x86asm.SETNS, x86asm.SETP, x86asm.SETNP, x86asm.SETL, x86asm.SETGE, x86asm.SETLE, x86asm.SETG}

var x86Ops = [NumOps]x86asm.Op{
	MOV: x86asm.MOV, MOVABS: x86asm.MOV, MOVL: x86asm.MOV, MOVB: x86asm.MOV, MOVZX: x86asm.MOVZX,
	ADD: x86asm.ADD, SUB: x86asm.SUB, AND: x86asm.AND, OR: x86asm.OR, XOR: x86asm.XOR, CMP: x86asm.CMP,
	XORL: x86asm.XOR, TEST: x86asm.TEST, IMUL: x86asm.IMUL, IMUL3: x86asm.IMUL, NEG: x86asm.NEG,
	NOT: x86asm.NOT, SHL: x86asm.SHL, SHR: x86asm.SHR, SAR: x86asm.SAR, LEA: x86asm.LEA, CQO: x86asm.CQO,
	IDIV: x86asm.IDIV, JMP: x86asm.JMP, CALL: x86asm.CALL, RET: x86asm.RET, PUSH: x86asm.PUSH,
	POP: x86asm.POP, SYSCALL: x86asm.SYSCALL, IMUL1: x86asm.IMUL, DIVL: x86asm.DIV,
}

// x86Reg is r as x86asm names it at a size in bytes.
func x86Reg(r Reg, size int) x86asm.Reg {
	switch {
	case r == RIP:
		return x86asm.RIP
	case size == 4:
		return x86asm.EAX + x86asm.Reg(r)
	case size == 1 && r < RSP:
		return x86asm.AL + x86asm.Reg(r)
	case size == 1 && r < R8:
		return x86asm.SPB + x86asm.Reg(r-RSP)
	case size == 1:
		return x86asm.R8B + x86asm.Reg(r-R8)
	}
	return x86asm.RAX + x86asm.Reg(r)
}

// x86Arg is a as x86asm decodes it; immSize is the size in bytes of the
// immediate's encoding, which x86asm sign-extends from.
func x86Arg(a Arg, size, immSize int) x86asm.Arg {
	switch a.Kind {
	case KindReg:
		return x86Reg(a.Reg, size)
	case KindImm:
		switch immSize {
		case 1:
			return x86asm.Imm(int8(a.Imm))
		case 4:
			return x86asm.Imm(int32(a.Imm))
		}
		return x86asm.Imm(a.Imm)
	case KindMem:
		m := x86asm.Mem{Disp: int64(a.Mem.Disp)}
		if a.Mem.Base != NoReg {
			m.Base = x86Reg(a.Mem.Base, 8)
		}
		if a.Mem.Index != NoReg {
			m.Index, m.Scale = x86Reg(a.Mem.Index, 8), a.Mem.Scale
		}
		return m
	case KindRel8, KindRel32:
		return x86asm.Rel(a.Imm)
	}
	return nil
}

// want is what x86asm should decode from the encoding of i: its op and
// its arguments.
func want(i Inst) (x86asm.Op, []x86asm.Arg) {
	op := x86Ops[i.Op]
	switch i.Op {
	case JCC:
		op = condJump[i.Cond]
	case SETCC:
		op = condSet[i.Cond]
	}
	dsize, ssize, immSize := 8, 8, 4
	switch i.Op {
	case MOVL, XORL:
		dsize, ssize = 4, 4
	case DIVL:
		dsize = 4
	case MOVZX:
		dsize, ssize = 4, 1
	case MOVB, SETCC:
		dsize, ssize = 1, 1
	case MOVABS:
		immSize = 8
	case SHL, SHR, SAR:
		immSize, ssize = 1, 1 // shifts by cl: x86asm names it CL
	case ADD, SUB, AND, OR, XOR, CMP:
		if fits8(i.Src.Imm) {
			immSize = 1
		}
	}
	var args []x86asm.Arg
	if opTable[i.Op].nargs >= 1 {
		args = append(args, x86Arg(i.Dst, dsize, immSize))
	}
	if opTable[i.Op].nargs == 2 {
		args = append(args, x86Arg(i.Src, ssize, immSize))
	}
	if i.Op == IMUL3 {
		n := 4
		if fits8(i.Imm) {
			n = 1
		}
		args = append(args, x86Arg(Imm(i.Imm), 8, n))
	}
	return op, args
}

// checkDecode decodes code, which must be exactly the encoding of i, and
// reports any difference of op, operands or length.
func checkDecode(t testing.TB, i Inst, code []byte) x86asm.Inst {
	t.Helper()
	d, err := x86asm.Decode(code, 64)
	if err != nil {
		t.Fatalf("%s: % x: x86asm: %v", i, code, err)
	}
	if d.Len != len(code) {
		t.Errorf("%s: % x: x86asm decodes %d bytes (%s), the encoding has %d", i, code, d.Len, d, len(code))
	}
	op, args := want(i)
	var got []x86asm.Arg
	for _, a := range d.Args {
		if a == nil {
			break
		}
		if m, ok := a.(x86asm.Mem); ok {
			// x86asm gives disp32 zero-extended, and scale 1 to a SIB without index.
			m.Disp = int64(int32(m.Disp))
			if m.Index == 0 {
				m.Scale = 0
			}
			a = m
		}
		got = append(got, a)
	}
	if d.Op != op || !reflect.DeepEqual(got, args) {
		t.Errorf("%s: % x: x86asm decodes %v %v, want %v %v", i, code, d.Op, got, op, args)
	}
	if d.MemBytes != 0 && i.Op != LEA {
		n := 8
		if i.Op == MOVZX || i.Op == MOVB {
			n = 1
		}
		if d.MemBytes != n {
			t.Errorf("%s: % x: x86asm reads %d bytes of memory, want %d", i, code, d.MemBytes, n)
		}
	}
	return d
}

var condRenames = map[string]string{"z": "e", "nz": "ne", "nl": "ge", "nle": "g", "nb": "ae", "nbe": "a"}
var disp32 = regexp.MustCompile(`\+0x([89a-f][0-9a-f]{7})\]`)

// intelText is x86asm's Intel syntax for d moved to this package's
// habits (see print.go): conditions named e/ne/ge/g/ae/a, lea without
// "ptr", movabs, signed displacements and 32-bit immediates as written.
func intelText(d x86asm.Inst, i Inst) string {
	s := x86asm.IntelSyntax(d, 0, nil)
	if mn, rest, ok := strings.Cut(s, " "); ok || mn != "" {
		for _, p := range []string{"j", "set"} {
			if c, ok := strings.CutPrefix(mn, p); ok && condRenames[c] != "" {
				mn = p + condRenames[c]
			}
		}
		if rest != "" {
			s = mn + " " + rest
		} else {
			s = mn
		}
	}
	s = strings.Replace(s, ", ptr [", ", [", 1)
	s = disp32.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[3:len(m)-1], 16, 32)
		return signedHex(int64(int32(v))) + "]"
	})
	switch i.Op {
	case MOVABS:
		// x86asm prints a 64-bit immediate below -2^32 unsigned.
		s = "movabs" + strings.TrimPrefix(s, "mov")
		if k := strings.LastIndex(s, ", "); k >= 0 && !strings.HasPrefix(s[k+2:], "-") {
			v, _ := strconv.ParseUint(s[k+2:], 0, 64)
			s = s[:k+2] + signedHex(int64(v))
		}
	case MOVL:
		// x86asm sign-extends the immediate; mov r32 zero-extends it.
		if k := strings.LastIndex(s, ", "); k >= 0 && strings.HasPrefix(s[k+2:], "-0x") {
			v, _ := strconv.ParseInt(s[k+2:], 0, 64)
			s = s[:k+2] + signedHex(int64(uint32(v)))
		}
	}
	return s
}
