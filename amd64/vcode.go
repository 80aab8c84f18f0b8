package amd64

import (
	"strconv"

	"son/regalloc"
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
// memory operand of lea [R + Index*Scale + Disp], whose base is in R and
// displacement and index in Imm (16 bytes, where an Index of its own took
// 24 and separate fields 32).
type VArg struct {
	// Imm is the immediate; of IMUL3's Dst, its immediate; of a KindMem,
	// the displacement in its low 32 bits and the index (or NoVReg) in
	// its high 32 (Disp, Index; vmem makes one).
	Imm   int64
	R     VReg // the register; of a KindMem, the base or NoVReg
	Kind  Kind // KindReg, KindImm or KindMem
	Scale uint8
}

func vr(r VReg) VArg    { return VArg{Kind: KindReg, R: r} }
func vimm(c int64) VArg { return VArg{Kind: KindImm, Imm: c} }
func vmem(base, index VReg, scale uint8, disp int32) VArg {
	return VArg{Kind: KindMem, R: base, Scale: scale, Imm: int64(index)<<32 | int64(uint32(disp))}
}

// Disp is the displacement of a KindMem.
func (a *VArg) Disp() int32 { return int32(a.Imm) }

// Index is the index register of a KindMem, or NoVReg (of any other
// kind too).
func (a *VArg) Index() VReg {
	if a.Kind != KindMem {
		return NoVReg
	}
	return VReg(a.Imm >> 32)
}

// VInst is a machine instruction over virtual registers. Branches name
// their target block (Target, an index in VFunc.Blocks) or, for a jump
// to a division stub (ToStub), the stub's message (Target is then 1 +
// an index in VFunc.Stubs): 40 bytes an instruction, where a Pos of its
// own and an Index in each VArg took 64, a field of each kind 72 and a
// slice 120 (its source line is in VFunc.lines).
// IMUL3's immediate is in Dst.Imm, which a register operand does not
// use otherwise.
type VInst struct {
	Op       Op
	Cond     Cond
	ToStub   bool
	Target   int32
	Dst, Src VArg
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
	NumRegs int // registers are below NumRegs
	// origin holds, for each virtual register, the RTL register it is,
	// or 0 for a temporary, or argOrigin for the argument: its name
	// (v7, t12, arg) is made only when printed.
	origin []int64
	Stubs  [][]byte // the messages of the division stubs (VInst.ToStub)
	// lines are the source lines of the instructions, numbered in layout
	// order (every block's in turn) from 0: a run from each at to the
	// next, only where the line changes (a line an instruction took 8
	// bytes in each; only the listing reads them).
	lines []lineRun
}

// lineRun is where the instructions from at on come from: line, or 0
// where unknown.
type lineRun struct{ at, line int32 }

// opnds is what an instruction reads and writes: at most three registers
// read (idiv's rax, rdx and divisor; an add's destination and the base
// and index of its memory source) and two written, held in place so that
// listing them allocates nothing, the uses then the defs in one array (as
// regalloc.Func.Regs holds them: RegallocFunc copies them in one loop).
// listOperands lists every use before any def (late records a use listed
// after a def, which would read as a def: TestOperandsUsesFirst).
type opnds struct {
	regs  [5]regalloc.Reg
	nu, n uint8
	move  bool // a copy regs[nu] = regs[0]
	pure  bool // no effect but its defs
	late  bool // a use was listed after a def: the list is wrong
}

func (o *opnds) use(r VReg) {
	o.late = o.late || o.n != o.nu
	o.regs[o.n] = regalloc.Reg(r)
	o.n++
	o.nu++
}
func (o *opnds) def(r VReg) { o.regs[o.n] = regalloc.Reg(r); o.n++ }

// useArg adds the registers operand a reads: a register, or the base
// and index of a memory operand.
func (o *opnds) useArg(a *VArg) {
	switch a.Kind {
	case KindReg:
		o.use(a.R)
	case KindMem:
		if a.R != NoVReg {
			o.use(a.R)
		}
		if ix := a.Index(); ix != NoVReg {
			o.use(ix)
		}
	}
}

// defArg adds the register destination a writes. A destination is never
// a memory operand (memory operands are lea's source only).
func (o *opnds) defArg(a *VArg) {
	if a.Kind == KindReg {
		o.def(a.R)
	}
}

// operands lists the registers in reads and writes.
func (in *VInst) operands() opnds {
	var o opnds
	in.listOperands(&o)
	return o
}

// listOperands is operands into o, which it clears first: RegallocFunc's
// loop fills one in place instead of copying one out per instruction.
func (in *VInst) listOperands(o *opnds) {
	*o = opnds{}
	d, s := &in.Dst, &in.Src
	switch in.Op {
	case MOV:
		o.useArg(s)
		o.defArg(d)
		o.move, o.pure = s.Kind == KindReg, true
	case MOVL, MOVABS, SETCC, XORL: // xor r32,r32: zero
		o.defArg(d)
		o.pure = true
	case MOVZX, LEA, IMUL3:
		o.useArg(s)
		o.defArg(d)
		o.pure = true
	case ADD, SUB, AND, OR, XOR, IMUL, SHL, SHR, SAR:
		o.useArg(d)
		o.useArg(s)
		o.defArg(d)
		o.pure = true
	case NEG, NOT:
		o.useArg(d)
		o.defArg(d)
		o.pure = true
	case CMP, TEST:
		o.useArg(d)
		o.useArg(s)
	case CQO:
		o.use(VReg(RAX))
		o.def(VReg(RDX))
		o.pure = true
	case IDIV, DIVL:
		o.use(VReg(RAX))
		o.use(VReg(RDX))
		o.use(d.R)
		o.def(VReg(RAX))
		o.def(VReg(RDX))
	case IMUL1:
		o.use(VReg(RAX))
		o.use(d.R)
		o.def(VReg(RAX))
		o.def(VReg(RDX))
		o.pure = true
	case RET:
		o.use(VReg(RAX))
	}
}

// allocatable is every register but rsp.
var allocatable = []regalloc.Reg{
	regalloc.Reg(RAX), regalloc.Reg(RCX), regalloc.Reg(RDX), regalloc.Reg(RBX), regalloc.Reg(RSI), regalloc.Reg(RDI),
	regalloc.Reg(R8), regalloc.Reg(R9), regalloc.Reg(R10), regalloc.Reg(R11), regalloc.Reg(RBP),
	regalloc.Reg(R12), regalloc.Reg(R13), regalloc.Reg(R14), regalloc.Reg(R15),
}

// RegallocFunc is the allocator's view of f: every instruction's
// registers in one slice (regalloc.Func.Regs), the instructions of every
// block cut from another, a few allocations for the code and none per
// instruction.
func (f *VFunc) RegallocFunc() *regalloc.Func {
	rf := &regalloc.Func{NumPhys: int(NumRegs), Allocatable: allocatable, Blocks: make([]regalloc.Block, len(f.Blocks))}
	n := 0
	for _, blk := range f.Blocks {
		n += len(blk.Insts)
	}
	instrs := make([]regalloc.Instr, n)
	regs := make([]regalloc.Reg, 0, n+n/2) // about 1.4 per instruction in generated code; more grows it
	var o opnds
	for b, blk := range f.Blocks {
		rb := &rf.Blocks[b]
		rb.Succs, rb.Cold = blk.Succs, blk.Cold
		insts := blk.Insts
		ris := instrs[:len(insts):len(insts)]
		rb.Instrs, instrs = ris, instrs[len(insts):]
		var named uint64 // the successors a jump of the block names
		for i := range insts {
			vi := &insts[i]
			vi.listOperands(&o)
			// Made whole, then stored once.
			in := regalloc.Instr{Off: int32(len(regs)), NU: uint16(o.nu), ND: uint16(o.n - o.nu), Move: o.move, Pure: o.pure}
			switch op := vi.Op; {
			case op == RET:
				in.Branch, in.Jump = true, regalloc.JumpAway
			case op == JCC || op == JMP:
				in.Branch, in.Jump = true, regalloc.JumpAway
				if !vi.ToStub {
					in.Jump = jumpTo(blk.Succs, vi.Target, &named)
				}
			}
			ris[i] = in
			for _, r := range o.regs[:o.n] {
				regs = append(regs, r)
			}
		}
	}
	rf.Regs = regs
	rf.RegName = func(r regalloc.Reg) string { return f.regName(VReg(r)) }
	rf.Describe = func(b, i int) string { return f.Blocks[b].Insts[i].text(f) }
	return rf
}

// jumpTo is the regalloc.Jump of a jump to block t from a block going to
// succs: the first successor t that no jump before it named (a block
// whose jump and fall-through both go to t names t's first place). A
// target not among succs gets a successor past them, which
// regalloc.Check rejects. (A block has at most two successors, as its
// cfg block: named's 64 bits and the successor past them never run out.)
func jumpTo(succs []int, t int32, named *uint64) regalloc.Jump {
	for k, s := range succs[:min(len(succs), 64)] {
		if s == int(t) && *named&(1<<k) == 0 {
			*named |= 1 << k
			return regalloc.JumpTo(k)
		}
	}
	return regalloc.JumpTo(min(len(succs), regalloc.MaxJumpSucc-1))
}

func (f *VFunc) regName(r VReg) string {
	if r >= 0 && r < FirstVirtual {
		return Reg(r).String()
	}
	k := int(r - FirstVirtual)
	if k >= len(f.origin) {
		return "v?"
	}
	switch o := f.origin[k]; o {
	case 0:
		return "t" + strconv.Itoa(k)
	case argOrigin:
		return "arg"
	default:
		return "v" + strconv.FormatInt(o, 10)
	}
}

// argOrigin is the origin of the argument's virtual register, no RTL
// register's number (those are int32).
const argOrigin = -1 << 40
