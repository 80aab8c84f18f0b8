package amd64

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestEncodeTable checks each form's bytes and text, and that x86asm
// decodes the bytes back to the same instruction, of the same length, and
// prints it (in this package's habits) as our printer does.
func TestEncodeTable(t *testing.T) {
	for _, tt := range encodeTests {
		code, err := tt.inst.Encode(nil)
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if got := hex.EncodeToString(code); got != tt.hex {
			t.Errorf("%s: encodes as %s, want %s", tt.text, got, tt.hex)
		}
		if got := tt.inst.String(); got != tt.text {
			t.Errorf("%s: prints as %q", tt.text, got)
		}
		d := checkDecode(t, tt.inst, code)
		if got := intelText(d, tt.inst); got != tt.text {
			t.Errorf("% x: x86asm prints %q (%q), we print %q", code, got, d, tt.text)
		}
	}
}

// TestEncodeTableCovers requires the table to hold every op, every
// condition of jcc and setcc, every register as a plain operand, a base
// and an index, and every immediate size.
func TestEncodeTableCovers(t *testing.T) {
	ops := map[Op]bool{}
	jcc, setcc := map[Cond]bool{}, map[Cond]bool{}
	reg, base, index := map[Reg]bool{}, map[Reg]bool{}, map[Reg]bool{}
	sizes := map[string]bool{}
	for _, tt := range encodeTests {
		in := tt.inst
		ops[in.Op] = true
		switch in.Op {
		case JCC:
			jcc[in.Cond] = true
			sizes[in.Dst.Kind.String()+" jcc"] = true
		case SETCC:
			setcc[in.Cond] = true
		case JMP:
			sizes[in.Dst.Kind.String()+" jmp"] = true
		}
		for _, a := range []Arg{in.Dst, in.Src} {
			switch a.Kind {
			case KindReg:
				reg[a.Reg] = true
			case KindMem:
				base[a.Mem.Base] = true
				index[a.Mem.Index] = true
			case KindImm:
				sizes[immSize(in.Op, a.Imm)] = true
			}
		}
	}
	for op := OpInvalid + 1; op < NumOps; op++ {
		if !ops[op] {
			t.Errorf("no row for %s (op %d)", op, op)
		}
	}
	for c := range NumConds {
		if !jcc[c] || !setcc[c] {
			t.Errorf("no jcc or setcc row for condition %s", c)
		}
	}
	for r := range NumRegs {
		if !reg[r] || !base[r] || (r != RSP && !index[r]) {
			t.Errorf("register %s missing as operand, base or index", r)
		}
	}
	for _, s := range []string{"imm8", "imm32", "imm64", "rel8 jcc", "rel32 jcc", "rel8 jmp", "rel32 jmp"} {
		if !sizes[s] {
			t.Errorf("no row with %s", s)
		}
	}
	if !base[RIP] || !base[NoReg] {
		t.Errorf("no row with rip-relative or index-only memory")
	}
}

func immSize(op Op, v int64) string {
	switch {
	case op == MOVABS:
		return "imm64"
	case fits8(v) && op != MOV && op != MOVL && op != TEST:
		return "imm8"
	}
	return "imm32"
}

// TestEncodeErrors: forms the encoder has no encoding for are errors that
// name the instruction, never wrong bytes or a panic.
func TestEncodeErrors(t *testing.T) {
	for _, tt := range []struct {
		inst Inst
		err  string
	}{
		{I2(MOV, R(RAX), Imm(1<<31)), "amd64: mov rax, 0x80000000: immediate does not fit 32 bits signed (use movabs)"},
		{I2(MOVL, R(RAX), Imm(-1)), "amd64: mov eax, -0x1: immediate not in [0, 2^32)"},
		{I2(MOVL, R(RAX), Imm(1<<32)), "amd64: mov eax, 0x100000000: immediate not in [0, 2^32)"},
		{I2(ADD, R(RAX), Imm(1<<40)), "amd64: add rax, 0x10000000000: immediate does not fit 32 bits signed"},
		{I2(TEST, R(RAX), Imm(1<<40)), "amd64: test rax, 0x10000000000: immediate does not fit 32 bits signed"},
		{Imul3(RAX, RBX, 1<<40), "amd64: imul rax, rbx, 0x10000000000: immediate does not fit 32 bits signed"},
		{I2(SHL, R(RAX), Imm(64)), "amd64: shl rax, 0x40: shift count not in [0, 63]"},
		{I2(SAR, R(RAX), R(RDX)), "amd64: sar rax, dl: a shift by a register shifts by cl"},
		{I2(MOV, R(RAX), MI(RBX, RSP, 1, 0)), "amd64: mov rax, qword ptr [rbx+rsp*1]: rsp cannot be an index"},
		{I2(MOV, R(RAX), MI(RBX, RCX, 3, 0)), "amd64: mov rax, qword ptr [rbx+rcx*3]: scale not 1, 2, 4 or 8"},
		{I2(MOV, R(RAX), MI(NoReg, NoReg, 1, 0)), "amd64: mov rax, qword ptr [0x0]: memory operand without base or index"},
		{I2(LEA, R(RAX), MI(RIP, RCX, 1, 0)), "amd64: lea rax, [rip+rcx*1]: rip-relative with an index"},
		{I2(LEA, R(RAX), RIPLabel(3)), "amd64: lea rax, [rip+L3]: rip-relative label not resolved (assemble with Asm)"},
		{I2(MOV, R(Reg(16)), R(RAX)), "amd64: mov rip, rax: invalid register"},
		{I2(MOV, R(RAX), M(Reg(20), 0)), "amd64: mov rax, qword ptr [noreg]: invalid base register"},
		{I1(JMP, To(2)), "amd64: jmp L2: label not resolved (assemble with Asm)"},
		{I1(JMP, Rel8(128)), "amd64: jmp .+0x80: displacement does not fit 8 bits"},
		{I1(CALL, Rel8(1)), "amd64: call .+0x1: no such form"},
		{I1(JMP, Rel32(1<<31)), "amd64: jmp .+0x80000000: displacement does not fit 32 bits"},
		{Jcc(Cond(16), Rel8(0)), "amd64: j? .+0x0: invalid condition"},
		{I2(LEA, R(RAX), R(RBX)), "amd64: lea rax, rbx: no such form"},
		{I2(MOV, M(RAX, 0), M(RBX, 0)), "amd64: mov qword ptr [rax], qword ptr [rbx]: no such form"},
		{I2(NEG, R(RAX), R(RBX)), "amd64: neg rax: neg takes one operand"},
		{Inst{Op: SETCC, Dst: R(RAX), Src: Imm(1)}, "amd64: seto al: set takes one operand"},
		{Inst{Op: RET, Dst: Imm(8)}, "amd64: ret: ret takes no operand"},
		{I1(NEG, Imm(1)), "amd64: neg 0x1: no such form"},
		{Inst{Op: NumOps}, "amd64: Op(34): invalid op"},
	} {
		code, err := tt.inst.Encode([]byte{0x90})
		if err == nil || err.Error() != tt.err {
			t.Errorf("%s: error %v, want %s", tt.inst, err, tt.err)
		}
		if len(code) != 1 {
			t.Errorf("%s: appended % x on error", tt.inst, code[1:])
		}
	}
}

// TestMovConst: the shortest move of each kind of constant.
func TestMovConst(t *testing.T) {
	for _, tt := range []struct {
		c    int64
		text string
	}{
		{0, "xor r8d, r8d"},
		{1, "mov r8d, 0x1"},
		{0xFFFFFFFF, "mov r8d, 0xffffffff"},
		{-1, "mov r8, -0x1"},
		{-1 << 31, "mov r8, -0x80000000"},
		{1 << 32, "movabs r8, 0x100000000"},
		{-1<<31 - 1, "movabs r8, -0x80000001"},
	} {
		in := MovConst(R8, tt.c)
		if in.String() != tt.text {
			t.Errorf("MovConst(r8, %d) = %s, want %s", tt.c, in, tt.text)
		}
		if _, err := in.Encode(nil); err != nil {
			t.Error(err)
		}
	}
}

func TestPrintLabels(t *testing.T) {
	var a Asm
	l := a.NewLabel()
	a.Bind(l)
	a.Emit(Jcc(CondNE, To(l)))
	a.Emit(I2(LEA, R(RSI), RIPLabel(a.Data([]byte("hi\n")))))
	want := "L1:\n\tjne L1\n\tlea rsi, [rip+L2]\nL2: \"hi\\n\"\n"
	if got := a.String(); got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(a.String(), "?") {
		t.Error("unknown operand printed")
	}
}

// TestEncodeFastForms decodes, with x86asm, every instruction encode's
// fast path takes (fastForm): each op of it with every pair of registers,
// and with every register and the ends and middle of imm8; the bytes must
// decode to the same instruction, of the same length.
func TestEncodeFastForms(t *testing.T) {
	n := 0
	check := func(in Inst) {
		code, err := in.Encode(nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		checkDecode(t, in, code)
		n++
	}
	for op := range NumOps {
		f := fastForm[op]
		for d := range NumRegs {
			for s := range NumRegs {
				if f.rr != 0 {
					check(I2(op, R(d), R(s)))
				}
			}
			for _, c := range []int64{-128, -1, 0, 1, 127} {
				if f.alu {
					check(I2(op, R(d), Imm(c)))
				}
			}
		}
	}
	if n != 9*16*16+6*16*5 {
		t.Errorf("%d instructions checked, want every fast form", n)
	}
}
