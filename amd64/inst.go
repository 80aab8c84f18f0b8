package amd64

import "fmt"

// Op is a machine operation. The form of an instruction (which encoding)
// follows from its op and the kinds of its operands: ADD with a register
// source is add r64,r/m64; with an immediate, the imm8 form when it fits,
// else imm32; with memory, add r64,m64.
type Op uint8

const (
	OpInvalid Op = iota
	MOV          // mov r64,r64 | r64,imm32 (sign-extended) | r64,m64 | m64,r64
	MOVABS       // mov r64,imm64
	MOVL         // mov r32,imm32: zero-extends, for constants in [0, 2^32)
	MOVB         // mov m8,r8: store the low byte
	MOVZX        // movzx r32,r8 | r32,m8: zero-extends to 64 bits
	ADD          // add r64, r64|imm8|imm32|m64
	SUB          // sub r64, r64|imm8|imm32|m64
	AND          // and r64, r64|imm8|imm32|m64
	OR           // or r64, r64|imm8|imm32|m64
	XOR          // xor r64, r64|imm8|imm32|m64
	CMP          // cmp r64, r64|imm8|imm32|m64
	XORL         // xor r32,r32: zeroes a register in two or three bytes
	TEST         // test r64, r64|imm32
	IMUL         // imul r64,r64
	IMUL3        // imul r64,r64,imm8|imm32 (the immediate in Inst.Imm)
	NEG          // neg r64
	NOT          // not r64
	SHL          // shl r64, imm8|cl
	SHR          // shr r64, imm8|cl
	SAR          // sar r64, imm8|cl
	LEA          // lea r64,m
	CQO          // sign-extends rax into rdx:rax
	IDIV         // idiv r64: rdx:rax / r64, quotient in rax, remainder in rdx
	SETCC        // setcc r8
	JCC          // jcc rel8|rel32
	JMP          // jmp rel8|rel32
	CALL         // call rel32
	RET          // ret
	PUSH         // push r64
	POP          // pop r64
	SYSCALL      // syscall
	IMUL1        // imul r64: rdx:rax = rax * r64, signed (the high half of a product, for division by a constant)
	DIVL         // div r32: edx:eax / r32, unsigned, quotient in eax, remainder in edx (both zero-extended)
	NumOps
)

// opInfo is what the printer and the checks need to know of an op.
type opInfo struct {
	name   string
	alu    byte // the ModRM reg field (/digit) of the group-1, F7 and shift forms
	nargs  int  // operands: Dst only (1), Dst and Src (2), none (0)
	branch bool // the operand is a branch target (a label or a displacement)
}

var opTable = [NumOps]opInfo{
	MOV:     {name: "mov", nargs: 2},
	MOVABS:  {name: "movabs", nargs: 2},
	MOVL:    {name: "mov", nargs: 2},
	MOVB:    {name: "mov", nargs: 2},
	MOVZX:   {name: "movzx", nargs: 2},
	ADD:     {name: "add", alu: 0, nargs: 2},
	OR:      {name: "or", alu: 1, nargs: 2},
	AND:     {name: "and", alu: 4, nargs: 2},
	SUB:     {name: "sub", alu: 5, nargs: 2},
	XOR:     {name: "xor", alu: 6, nargs: 2},
	CMP:     {name: "cmp", alu: 7, nargs: 2},
	XORL:    {name: "xor", nargs: 2},
	TEST:    {name: "test", nargs: 2},
	IMUL:    {name: "imul", nargs: 2},
	IMUL3:   {name: "imul", nargs: 2},
	NEG:     {name: "neg", alu: 3, nargs: 1},
	NOT:     {name: "not", alu: 2, nargs: 1},
	SHL:     {name: "shl", alu: 4, nargs: 2},
	SHR:     {name: "shr", alu: 5, nargs: 2},
	SAR:     {name: "sar", alu: 7, nargs: 2},
	LEA:     {name: "lea", nargs: 2},
	CQO:     {name: "cqo"},
	IDIV:    {name: "idiv", alu: 7, nargs: 1},
	SETCC:   {name: "set", nargs: 1},
	JCC:     {name: "j", nargs: 1, branch: true},
	JMP:     {name: "jmp", nargs: 1, branch: true},
	CALL:    {name: "call", nargs: 1, branch: true},
	RET:     {name: "ret"},
	PUSH:    {name: "push", nargs: 1},
	POP:     {name: "pop", nargs: 1},
	SYSCALL: {name: "syscall"},
	IMUL1:   {name: "imul", alu: 5, nargs: 1},
	DIVL:    {name: "div", alu: 6, nargs: 1},
}

func (op Op) String() string {
	if op == OpInvalid || op >= NumOps {
		return fmt.Sprintf("Op(%d)", uint8(op))
	}
	return opTable[op].name
}

// Kind is what an operand is.
type Kind uint8

const (
	KindNone  Kind = iota
	KindReg        // a register
	KindImm        // an immediate
	KindMem        // memory: [base + index*scale + disp]
	KindRel8       // a branch displacement from the end of the instruction, rel8 form
	KindRel32      // the same, rel32 form
	KindLabel      // a branch target the assembler resolves (Asm), short form when it fits
)

var kindNames = [...]string{"none", "reg", "imm", "mem", "rel8", "rel32", "label"}

func (k Kind) String() string {
	if int(k) >= len(kindNames) {
		return "?"
	}
	return kindNames[k]
}

// Mem is a memory operand [Base + Index*Scale + Disp]. Base is NoReg for
// [Index*Scale + disp32], RIP for [rip + disp32]; Index is NoReg when
// there is none (rsp cannot be an index). Label, when not zero, is a
// RIP-relative target the assembler resolves into Disp.
type Mem struct {
	Base, Index Reg
	Scale       uint8 // 1, 2, 4 or 8 with an index
	Disp        int32
	Label       Label
}

// Arg is one operand.
type Arg struct {
	Kind  Kind
	Reg   Reg
	Imm   int64 // the immediate, or the displacement of KindRel8/KindRel32
	Mem   Mem
	Label Label
}

// Inst is one machine instruction. Instructions of one operand (neg, not,
// idiv, setcc, push, pop, branches) hold it in Dst.
type Inst struct {
	Op       Op
	Cond     Cond // of JCC and SETCC
	Dst, Src Arg
	Imm      int64 // IMUL3's immediate
}

// R is a register operand.
func R(r Reg) Arg { return Arg{Kind: KindReg, Reg: r} }

// Imm is an immediate operand.
func Imm(v int64) Arg { return Arg{Kind: KindImm, Imm: v} }

// M is the memory operand [base + disp].
func M(base Reg, disp int32) Arg {
	return Arg{Kind: KindMem, Mem: Mem{Base: base, Index: NoReg, Disp: disp}}
}

// MI is the memory operand [base + index*scale + disp]; base may be NoReg.
func MI(base, index Reg, scale uint8, disp int32) Arg {
	return Arg{Kind: KindMem, Mem: Mem{Base: base, Index: index, Scale: scale, Disp: disp}}
}

// RIPLabel is the memory operand [rip + l], the address of label l.
func RIPLabel(l Label) Arg {
	return Arg{Kind: KindMem, Mem: Mem{Base: RIP, Index: NoReg, Label: l}}
}

// Rel8 and Rel32 are branch displacements, counted from the end of the
// branch, in the short and the near form.
func Rel8(d int64) Arg  { return Arg{Kind: KindRel8, Imm: d} }
func Rel32(d int64) Arg { return Arg{Kind: KindRel32, Imm: d} }

// To is a branch target for the assembler.
func To(l Label) Arg { return Arg{Kind: KindLabel, Label: l} }

// I0, I1 and I2 are instructions of no, one and two operands.
func I0(op Op) Inst           { return Inst{Op: op} }
func I1(op Op, a Arg) Inst    { return Inst{Op: op, Dst: a} }
func I2(op Op, d, s Arg) Inst { return Inst{Op: op, Dst: d, Src: s} }

// Jcc is a conditional branch to a (a label or a displacement).
func Jcc(c Cond, a Arg) Inst { return Inst{Op: JCC, Cond: c, Dst: a} }

// Setcc sets the low byte of r to 1 when c holds, else 0.
func Setcc(c Cond, r Reg) Inst { return Inst{Op: SETCC, Cond: c, Dst: R(r)} }

// Imul3 is imul dst, src, imm.
func Imul3(dst, src Reg, imm int64) Inst {
	return Inst{Op: IMUL3, Dst: R(dst), Src: R(src), Imm: imm}
}

// MovConst is the shortest move of a constant into r: xor r32,r32 for
// zero (which also clobbers the flags), mov r32,imm32 for [0, 2^32),
// mov r64,imm32 for other values that fit 32 bits signed, else movabs.
func MovConst(r Reg, c int64) Inst {
	switch {
	case c == 0:
		return I2(XORL, R(r), R(r))
	case c > 0 && c <= 0xFFFFFFFF:
		return I2(MOVL, R(r), Imm(c))
	case c == int64(int32(c)):
		return I2(MOV, R(r), Imm(c))
	}
	return I2(MOVABS, R(r), Imm(c))
}
