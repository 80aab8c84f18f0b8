package amd64

import (
	"son/regalloc"
	"son/syntax"
)

// VReg is a register of the code before allocation: 0..15 are the
// physical registers (as Reg numbers them), used where the machine
// requires one (rax and rdx around idiv, cl for a shift, rdi for the
// argument, rax for the result); from FirstVirtual up, virtual registers.
type VReg int32

// FirstVirtual is the first virtual register.
const FirstVirtual = VReg(NumRegs)

// NoVReg is the absent base or index of a VArg's memory operand.
const NoVReg VReg = -1

// VArg is an operand before allocation: a register, an immediate, or the
// memory operand of lea [Base + Index*Scale + Disp].
type VArg struct {
	Kind        Kind // KindReg, KindImm or KindMem
	R           VReg
	Imm         int64
	Base, Index VReg
	Scale       uint8
	Disp        int32
}

func vr(r VReg) VArg    { return VArg{Kind: KindReg, R: r} }
func vimm(c int64) VArg { return VArg{Kind: KindImm, Imm: c} }
func vmem(base, index VReg, scale uint8, disp int32) VArg {
	return VArg{Kind: KindMem, Base: base, Index: index, Scale: scale, Disp: disp}
}

// VInst is a machine instruction over virtual registers. Branches name
// their target block (Target, an index in VFunc.Blocks) or, for a jump
// to a division stub, the stub's message (Stub, 1 + an index in
// VFunc.Stubs; 0 for none, and 96 bytes an instruction where a slice
// took 120).
type VInst struct {
	Op       Op
	Cond     Cond
	Stub     int32
	Dst, Src VArg
	Imm      int64 // IMUL3's immediate
	Target   int
	Pos      syntax.Pos // the source position it comes from, where known
}

// VBlock is a block of machine code: it ends with its branches, and falls
// through to the next block when its last instruction is not an
// unconditional jump or a return.
type VBlock struct {
	Insts []VInst
	Succs []int
	// Cold marks a block laid out after the function's code, off the
	// common path, that touches physical registers only (regalloc.Block).
	Cold bool
}

// VFunc is a function in machine code before register allocation, its
// blocks in layout order.
type VFunc struct {
	Blocks  []*VBlock
	NumRegs int      // registers are below NumRegs
	Names   []string // the name of each virtual register (the RTL register it is, or t for a temporary)
	Stubs   [][]byte // the messages of the division stubs (VInst.Stub)
}

// operands lists the registers in reads and writes.
func (in *VInst) operands() (uses, defs []VReg, move, pure bool) {
	regOf := func(a VArg) []VReg {
		switch a.Kind {
		case KindReg:
			return []VReg{a.R}
		case KindMem:
			var rs []VReg
			if a.Base != NoVReg {
				rs = append(rs, a.Base)
			}
			if a.Index != NoVReg {
				rs = append(rs, a.Index)
			}
			return rs
		}
		return nil
	}
	d, s := in.Dst, in.Src
	switch in.Op {
	case MOV:
		return regOf(s), regOf(d), s.Kind == KindReg, true
	case MOVL, MOVABS, SETCC:
		return nil, regOf(d), false, true
	case XORL: // xor r32,r32: zero
		return nil, regOf(d), false, true
	case MOVZX, LEA, IMUL3:
		return regOf(s), regOf(d), false, true
	case ADD, SUB, AND, OR, XOR, IMUL, SHL, SHR, SAR:
		return append(regOf(d), regOf(s)...), regOf(d), false, true
	case NEG, NOT:
		return regOf(d), regOf(d), false, true
	case CMP, TEST:
		return append(regOf(d), regOf(s)...), nil, false, false
	case CQO:
		return []VReg{VReg(RAX)}, []VReg{VReg(RDX)}, false, true
	case IDIV, DIVL:
		return []VReg{VReg(RAX), VReg(RDX), d.R}, []VReg{VReg(RAX), VReg(RDX)}, false, false
	case IMUL1:
		return []VReg{VReg(RAX), d.R}, []VReg{VReg(RAX), VReg(RDX)}, false, true
	case RET:
		return []VReg{VReg(RAX)}, nil, false, false
	}
	return nil, nil, false, false
}

// allocatable is every register but rsp.
var allocatable = []regalloc.Reg{
	regalloc.Reg(RAX), regalloc.Reg(RCX), regalloc.Reg(RDX), regalloc.Reg(RBX), regalloc.Reg(RSI), regalloc.Reg(RDI),
	regalloc.Reg(R8), regalloc.Reg(R9), regalloc.Reg(R10), regalloc.Reg(R11), regalloc.Reg(RBP),
	regalloc.Reg(R12), regalloc.Reg(R13), regalloc.Reg(R14), regalloc.Reg(R15),
}

// RegallocFunc is the allocator's view of f.
func (f *VFunc) RegallocFunc() *regalloc.Func {
	rf := &regalloc.Func{NumPhys: int(NumRegs), Allocatable: allocatable, Blocks: make([]regalloc.Block, len(f.Blocks))}
	conv := func(rs []VReg) []regalloc.Reg {
		out := make([]regalloc.Reg, len(rs))
		for k, r := range rs {
			out[k] = regalloc.Reg(r)
		}
		return out
	}
	for b, blk := range f.Blocks {
		rb := &rf.Blocks[b]
		rb.Succs, rb.Cold = blk.Succs, blk.Cold
		rb.Instrs = make([]regalloc.Instr, len(blk.Insts))
		for i := range blk.Insts {
			u, d, mv, pure := blk.Insts[i].operands()
			op := blk.Insts[i].Op
			rb.Instrs[i] = regalloc.Instr{Uses: conv(u), Defs: conv(d), Move: mv, Pure: pure,
				Branch: op == JCC || op == JMP || op == RET}
		}
	}
	rf.RegName = func(r regalloc.Reg) string { return f.regName(VReg(r)) }
	rf.Describe = func(b, i int) string { return f.Blocks[b].Insts[i].text(f) }
	return rf
}

func (f *VFunc) regName(r VReg) string {
	if r >= 0 && r < FirstVirtual {
		return Reg(r).String()
	}
	if int(r-FirstVirtual) < len(f.Names) {
		return f.Names[r-FirstVirtual]
	}
	return "v?"
}
