package amd64

import (
	"math/rand/v2"
	"testing"
)

// bits reads the fuzzer's bytes as a stream of choices; past the end it
// reads zeros, so every input makes an instruction.
type bits struct {
	b []byte
	k int
}

func (r *bits) byte() byte {
	if r.k >= len(r.b) {
		return 0
	}
	r.k++
	return r.b[r.k-1]
}

func (r *bits) n(n int) int { return int(r.byte()) % n }

func (r *bits) reg() Reg { return Reg(r.n(int(NumRegs))) }

// imm is a constant of a size the stream chooses: 8, 16, 32 or 64 bits,
// so that every encoding size and its edges come up.
func (r *bits) imm() int64 {
	var v uint64
	for range 8 {
		v = v<<8 | uint64(r.byte())
	}
	switch r.n(4) {
	case 0:
		return int64(int8(v))
	case 1:
		return int64(int16(v))
	case 2:
		return int64(int32(v))
	}
	return int64(v)
}

func (r *bits) mem() Arg {
	disp := int32(r.imm())
	switch r.n(4) {
	case 0:
		return M(r.reg(), disp)
	case 1:
		return M(RIP, disp)
	case 2:
		return MI(NoReg, r.index(), 1<<r.n(4), disp)
	}
	return MI(r.reg(), r.index(), 1<<r.n(4), disp)
}

func (r *bits) index() Reg {
	x := r.reg()
	if x == RSP {
		return RBP
	}
	return x
}

// inst builds a valid instruction of a random form; immediates are cut
// to the size the form takes.
func (r *bits) inst() Inst {
	op := Op(1 + r.n(int(NumOps-1)))
	d := R(r.reg())
	switch op {
	case MOV:
		switch r.n(4) {
		case 0:
			return I2(op, d, R(r.reg()))
		case 1:
			return I2(op, d, Imm(int64(int32(r.imm()))))
		case 2:
			return I2(op, d, r.mem())
		}
		return I2(op, r.mem(), d)
	case MOVABS:
		return I2(op, d, Imm(r.imm()))
	case MOVL:
		return I2(op, d, Imm(int64(uint32(r.imm()))))
	case MOVB:
		return I2(op, r.mem(), d)
	case MOVZX:
		if r.n(2) == 0 {
			return I2(op, d, r.mem())
		}
		return I2(op, d, R(r.reg()))
	case ADD, SUB, AND, OR, XOR, CMP:
		switch r.n(3) {
		case 0:
			return I2(op, d, R(r.reg()))
		case 1:
			return I2(op, d, Imm(int64(int32(r.imm()))))
		}
		return I2(op, d, r.mem())
	case XORL, IMUL:
		return I2(op, d, R(r.reg()))
	case TEST:
		if r.n(2) == 0 {
			return I2(op, d, R(r.reg()))
		}
		return I2(op, d, Imm(int64(int32(r.imm()))))
	case IMUL3:
		return Imul3(d.Reg, r.reg(), int64(int32(r.imm())))
	case NEG, NOT, IDIV, IMUL1, DIVL, PUSH, POP:
		return I1(op, d)
	case SHL, SHR, SAR:
		if r.n(2) == 0 {
			return I2(op, d, R(RCX))
		}
		return I2(op, d, Imm(int64(r.n(64))))
	case LEA:
		return I2(op, d, r.mem())
	case SETCC:
		return Setcc(Cond(r.n(int(NumConds))), d.Reg)
	case JCC, JMP, CALL:
		in := I1(op, Rel32(int64(int32(r.imm()))))
		if op == JCC {
			in.Cond = Cond(r.n(int(NumConds)))
		}
		if op != CALL && r.n(2) == 0 {
			in.Dst = Rel8(int64(int8(r.imm())))
		}
		return in
	}
	return I0(op) // CQO, RET, SYSCALL
}

// FuzzEncode encodes random instructions and requires x86asm to decode
// the same instruction (op and operands) from exactly the bytes written.
func FuzzEncode(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 256 {
		b := make([]byte, 24)
		for k := range b {
			b[k] = byte(rng.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &bits{b: data}
		in := r.inst()
		code, err := in.Encode(nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		d := checkDecode(t, in, code)
		if got := intelText(d, in); got != in.String() {
			t.Errorf("% x: x86asm prints %q, we print %q", code, got, in)
		}
	})
}
