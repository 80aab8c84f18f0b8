package amd64

import "fmt"

// The encoder: each form is [REX] opcode [ModRM [SIB] [disp]] [imm], as in
// the Intel manual, volume 2, chapter 2. Registers r8..r15 set a REX bit
// (R for the ModRM reg field, X for the SIB index, B for the ModRM rm,
// SIB base or opcode register); byte registers spl, bpl, sil and dil need
// a REX prefix, even an empty one, or they would mean ah, ch, dh and bh.

// EncodeError is an instruction the encoder has no form for.
type EncodeError struct {
	Inst Inst
	Msg  string
}

func (e *EncodeError) Error() string { return fmt.Sprintf("amd64: %s: %s", e.Inst, e.Msg) }

// Encode appends the bytes of i to b. Branches must hold a displacement
// (KindRel8, KindRel32), not a label; a RIP-relative label must have been
// resolved into Disp (the assembler does both).
func (i Inst) Encode(b []byte) ([]byte, error) { return i.encode(b) }

// encode is Encode of *i: the assembler encodes every instruction, and an
// Inst (about 100 bytes) is not copied for it.
func (i *Inst) encode(b []byte) ([]byte, error) {
	if i.Dst.Kind == KindReg && i.Dst.Reg < NumRegs {
		// The forms of most instructions, given a fast path (the same
		// bytes as below, with nothing to check): op r64, r64 and op
		// r64, imm8 of the ALU group.
		switch f := fastForm[i.Op]; {
		case f.rr != 0 && i.Src.Kind == KindReg && i.Src.Reg < NumRegs:
			return appendRR(b, i.Op, i.Dst.Reg, i.Src.Reg), nil
		case f.alu && i.Src.Kind == KindImm && fits8(i.Src.Imm):
			return appendRI8(b, i.Op, i.Dst.Reg, i.Src.Imm), nil
		}
	}
	bad := func(format string, args ...any) ([]byte, error) {
		return b, &EncodeError{*i, fmt.Sprintf(format, args...)}
	}
	if err := i.check(); err != "" {
		return bad("%s", err)
	}
	d, s := &i.Dst, &i.Src
	switch i.Op {
	case MOV:
		switch {
		case d.Kind == KindReg && s.Kind == KindReg:
			return modRM(b, true, 0x89, s.Reg, false, d, false), nil
		case d.Kind == KindReg && s.Kind == KindImm:
			if !fits32(s.Imm) {
				return bad("immediate does not fit 32 bits signed (use movabs)")
			}
			return imm32(modRM(b, true, 0xC7, 0, false, d, false), s.Imm), nil
		case d.Kind == KindReg && s.Kind == KindMem:
			return modRM(b, true, 0x8B, d.Reg, false, s, false), nil
		case d.Kind == KindMem && s.Kind == KindReg:
			return modRM(b, true, 0x89, s.Reg, false, d, false), nil
		}
	case MOVABS:
		if d.Kind == KindReg && s.Kind == KindImm {
			b = append(b, 0x48|d.Reg.ext(), 0xB8+d.Reg.low())
			return imm64(b, s.Imm), nil
		}
	case MOVL:
		if d.Kind == KindReg && s.Kind == KindImm {
			if s.Imm < 0 || s.Imm > 0xFFFFFFFF {
				return bad("immediate not in [0, 2^32)")
			}
			return appendMovL(b, d.Reg, s.Imm), nil
		}
	case MOVB:
		if d.Kind == KindMem && s.Kind == KindReg {
			return modRM(b, false, 0x88, s.Reg, true, d, false), nil
		}
	case MOVZX:
		if d.Kind == KindReg && (s.Kind == KindReg || s.Kind == KindMem) {
			return modRM(b, false, 0x0FB6, d.Reg, false, s, true), nil
		}
	case ADD, SUB, AND, OR, XOR, CMP:
		ext := opTable[i.Op].alu
		switch {
		case d.Kind == KindReg && s.Kind == KindReg:
			return modRM(b, true, uint16(ext<<3|1), s.Reg, false, d, false), nil
		case d.Kind == KindReg && s.Kind == KindMem:
			return modRM(b, true, uint16(ext<<3|3), d.Reg, false, s, false), nil
		case d.Kind == KindReg && s.Kind == KindImm:
			if fits8(s.Imm) {
				return append(modRM(b, true, 0x83, Reg(ext), false, d, false), byte(s.Imm)), nil
			}
			if !fits32(s.Imm) {
				return bad("immediate does not fit 32 bits signed")
			}
			return imm32(modRM(b, true, 0x81, Reg(ext), false, d, false), s.Imm), nil
		}
	case XORL:
		if d.Kind == KindReg && s.Kind == KindReg {
			return modRM(b, false, 0x31, s.Reg, false, d, false), nil
		}
	case TEST:
		switch {
		case d.Kind == KindReg && s.Kind == KindReg:
			return modRM(b, true, 0x85, s.Reg, false, d, false), nil
		case d.Kind == KindReg && s.Kind == KindImm:
			if !fits32(s.Imm) {
				return bad("immediate does not fit 32 bits signed")
			}
			return imm32(modRM(b, true, 0xF7, 0, false, d, false), s.Imm), nil
		}
	case IMUL:
		if d.Kind == KindReg && s.Kind == KindReg {
			return modRM(b, true, 0x0FAF, d.Reg, false, s, false), nil
		}
	case IMUL3:
		if d.Kind == KindReg && s.Kind == KindReg {
			if fits8(i.Imm) {
				return append(modRM(b, true, 0x6B, d.Reg, false, s, false), byte(i.Imm)), nil
			}
			if !fits32(i.Imm) {
				return bad("immediate does not fit 32 bits signed")
			}
			return imm32(modRM(b, true, 0x69, d.Reg, false, s, false), i.Imm), nil
		}
	case NEG, NOT, IDIV, IMUL1:
		if d.Kind == KindReg {
			return modRM(b, true, 0xF7, Reg(opTable[i.Op].alu), false, d, false), nil
		}
	case DIVL:
		if d.Kind == KindReg {
			return modRM(b, false, 0xF7, Reg(opTable[i.Op].alu), false, d, false), nil
		}
	case SHL, SHR, SAR:
		ext := Reg(opTable[i.Op].alu)
		switch {
		case d.Kind == KindReg && s.Kind == KindImm:
			if s.Imm < 0 || s.Imm > 63 {
				return bad("shift count not in [0, 63]")
			}
			return append(modRM(b, true, 0xC1, ext, false, d, false), byte(s.Imm)), nil
		case d.Kind == KindReg && s.Kind == KindReg:
			if s.Reg != RCX {
				return bad("a shift by a register shifts by cl")
			}
			return modRM(b, true, 0xD3, ext, false, d, false), nil
		}
	case LEA:
		if d.Kind == KindReg && s.Kind == KindMem {
			return modRM(b, true, 0x8D, d.Reg, false, s, false), nil
		}
	case CQO:
		return append(b, 0x48, 0x99), nil
	case RET:
		return append(b, 0xC3), nil
	case SYSCALL:
		return append(b, 0x0F, 0x05), nil
	case SETCC:
		if d.Kind == KindReg {
			return modRM(b, false, 0x0F90+uint16(i.Cond), 0, false, d, true), nil
		}
	case JCC, JMP, CALL:
		switch {
		case d.Kind == KindRel8 && i.Op != CALL:
			if !fits8(d.Imm) {
				return bad("displacement does not fit 8 bits")
			}
			op := byte(0xEB)
			if i.Op == JCC {
				op = 0x70 + byte(i.Cond)
			}
			return append(b, op, byte(d.Imm)), nil
		case d.Kind == KindRel32:
			if !fits32(d.Imm) {
				return bad("displacement does not fit 32 bits")
			}
			switch i.Op {
			case JCC:
				b = append(b, 0x0F, 0x80+byte(i.Cond))
			case JMP:
				b = append(b, 0xE9)
			default:
				b = append(b, 0xE8)
			}
			return imm32(b, d.Imm), nil
		case d.Kind == KindLabel:
			return bad("label not resolved (assemble with Asm)")
		}
	case PUSH, POP:
		if d.Kind == KindReg {
			if d.Reg.ext() != 0 {
				b = append(b, 0x41)
			}
			op := byte(0x50)
			if i.Op == POP {
				op = 0x58
			}
			return append(b, op+d.Reg.low()), nil
		}
	}
	return bad("no such form")
}

// fastForm holds, for the ops encode's fast path takes, the opcode of
// the op r64, r64 form (op r/m, r; 0 for none) with its REX.W (8, or 0
// for a 32-bit op), and whether op r64, imm8 is 83 /alu ib.
var fastForm = [256]struct {
	rr, w byte
	alu   bool
}{
	MOV:  {rr: 0x89, w: 8},
	ADD:  {rr: 0x01, w: 8, alu: true},
	OR:   {rr: 0x09, w: 8, alu: true},
	AND:  {rr: 0x21, w: 8, alu: true},
	SUB:  {rr: 0x29, w: 8, alu: true},
	XOR:  {rr: 0x31, w: 8, alu: true},
	CMP:  {rr: 0x39, w: 8, alu: true},
	XORL: {rr: 0x31},
	TEST: {rr: 0x85, w: 8},
}

// appendRR appends op d, s, for an op of fastForm with an rr form.
func appendRR(b []byte, op Op, d, s Reg) []byte {
	f := &fastForm[op]
	if rex := f.w | s.ext()<<2 | d.ext(); rex != 0 {
		b = append(b, 0x40|rex)
	}
	return append(b, f.rr, 0xC0|s.low()<<3|d.low())
}

// appendRI8 appends op d, c, for an op of fastForm's ALU group and c
// within imm8.
func appendRI8(b []byte, op Op, d Reg, c int64) []byte {
	return append(b, 0x48|d.ext(), 0x83, 0xC0|opTable[op].alu<<3|d.low(), byte(c))
}

// appendMovL appends mov r32, imm32 (B8+r id) of d and c, in [0, 2^32).
func appendMovL(b []byte, d Reg, c int64) []byte {
	if d.ext() != 0 {
		b = append(b, 0x41)
	}
	return imm32(append(b, 0xB8+d.low()), c)
}

// check rejects operands the encoder cannot express: a register out of
// range, a bad scale, rsp as an index, an unresolved RIP label, a missing
// condition; an empty string when all is well.
func (i *Inst) check() string {
	if i.Op == OpInvalid || i.Op >= NumOps {
		return "invalid op"
	}
	if (i.Op == JCC || i.Op == SETCC) && i.Cond >= NumConds {
		return "invalid condition"
	}
	if n := opTable[i.Op].nargs; n < 2 && i.Src.Kind != KindNone || n < 1 && i.Dst.Kind != KindNone {
		return fmt.Sprintf("%s takes %s", i.Op, [...]string{"no operand", "one operand"}[n])
	}
	if err := checkArg(&i.Dst); err != "" {
		return err
	}
	return checkArg(&i.Src)
}

// checkArg is check of one operand (a function, not a loop over the two:
// the encoder checks every instruction).
func checkArg(a *Arg) string {
	switch a.Kind {
	case KindReg:
		if !a.Reg.Valid() {
			return "invalid register"
		}
	case KindMem:
		m := &a.Mem
		switch {
		case m.Base == RIP:
			if m.Index != NoReg {
				return "rip-relative with an index"
			}
			if m.Label != 0 {
				return "rip-relative label not resolved (assemble with Asm)"
			}
		case m.Base != NoReg && !m.Base.Valid():
			return "invalid base register"
		case m.Index == NoReg && m.Base == NoReg:
			return "memory operand without base or index"
		}
		if m.Index != NoReg {
			if m.Index == RSP {
				return "rsp cannot be an index"
			}
			if !m.Index.Valid() {
				return "invalid index register"
			}
			if m.Scale != 1 && m.Scale != 2 && m.Scale != 4 && m.Scale != 8 {
				return "scale not 1, 2, 4 or 8"
			}
		}
	}
	return ""
}

// modRM appends [REX] opcode ModRM [SIB] [disp] with reg in the ModRM reg
// field (a register or an opcode extension) and rm a register or memory.
// The opcode is one byte, or two for 0x0F xx (opcode > 0xFF): a number,
// where a slice of its bytes cost a copy per instruction. w sets REX.W;
// reg8 and rm8 say that register is a byte register, which needs a REX
// prefix for spl, bpl, sil and dil.
func modRM(b []byte, w bool, opcode uint16, reg Reg, reg8 bool, rm *Arg, rm8 bool) []byte {
	var rex byte
	if w {
		rex |= 8
	}
	rex |= reg.ext() << 2
	force := reg8 && reg >= RSP && reg <= RDI
	if rm.Kind == KindReg {
		rex |= rm.Reg.ext()
		force = force || rm8 && rm.Reg >= RSP && rm.Reg <= RDI
		if rex != 0 || force {
			b = append(b, 0x40|rex)
		}
		b = appendOpcode(b, opcode)
		return append(b, 0xC0|reg.low()<<3|rm.Reg.low())
	}
	m := rm.Mem
	if m.Index != NoReg {
		rex |= m.Index.ext() << 1
	}
	if m.Base != NoReg && m.Base != RIP {
		rex |= m.Base.ext()
	}
	if rex != 0 || force {
		b = append(b, 0x40|rex)
	}
	b = appendOpcode(b, opcode)
	r := reg.low() << 3
	switch {
	case m.Base == RIP:
		return imm32(append(b, r|5), int64(m.Disp))
	case m.Base == NoReg:
		// [index*scale + disp32]: SIB with base 101 and mod 00.
		b = append(b, r|4, scaleBits(m.Scale)<<6|m.Index.low()<<3|5)
		return imm32(b, int64(m.Disp))
	}
	var mod byte
	switch {
	case m.Disp == 0 && m.Base.low() != 5:
		// rbp and r13 with mod 00 mean rip or no base: they take disp8 0.
		mod = 0
	case fits8(int64(m.Disp)):
		mod = 1
	default:
		mod = 2
	}
	switch {
	case m.Index != NoReg:
		b = append(b, mod<<6|r|4, scaleBits(m.Scale)<<6|m.Index.low()<<3|m.Base.low())
	case m.Base.low() == 4:
		// rsp and r12 as rm mean "a SIB follows": a SIB with no index.
		b = append(b, mod<<6|r|4, 0x24)
	default:
		b = append(b, mod<<6|r|m.Base.low())
	}
	switch mod {
	case 1:
		b = append(b, byte(m.Disp))
	case 2:
		b = imm32(b, int64(m.Disp))
	}
	return b
}

// appendOpcode appends the one or two bytes of opcode (modRM's).
func appendOpcode(b []byte, opcode uint16) []byte {
	if opcode > 0xFF {
		return append(b, byte(opcode>>8), byte(opcode))
	}
	return append(b, byte(opcode))
}

func scaleBits(s uint8) byte {
	switch s {
	case 2:
		return 1
	case 4:
		return 2
	case 8:
		return 3
	}
	return 0
}

func fits8(v int64) bool  { return v == int64(int8(v)) }
func fits32(v int64) bool { return v == int64(int32(v)) }

func imm32(b []byte, v int64) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func imm64(b []byte, v int64) []byte {
	return imm32(imm32(b, v), v>>32)
}
