// Instruction selection: RTL to machine code over virtual registers, with
// immediates, two-address forms, lea and cmp+jcc fusion, division by
// constants (Granlund and Montgomery) and loop rotation (docs/BACKEND.md).
// Cost: linear in the function.

package amd64

import (
	"fmt"
	mbits "math/bits"
	"slices"
	"strconv"

	"son/cfg"
	"son/internal/numbering"
	"son/syntax"
)

// Select translates an RTL function (outssa's result) to machine code over
// virtual registers: each RTL register is one virtual register. file names
// the program in the messages of its division sites.
//
// A register with a single definition, a Const, is a constant everywhere
// (every read is reached by that definition), and operations on it take
// an immediate; the Const itself is then dropped by the allocator if
// nothing reads it. A comparison read only by the branch that ends its
// block, with nothing in between writing its operands, becomes cmp + jcc;
// other comparisons setcc + movzx. Blocks stay in the RTL order, and a
// jump to the next block is left out; a jump back to a loop's test of a
// few instructions repeats the test instead (loop rotation), so that the
// branch back to the loop's body is the only one an iteration takes.
func Select(f *cfg.Func, file string) (*VFunc, error) {
	if f == nil || f.Level != cfg.RTL {
		return nil, fmt.Errorf("amd64: Select wants a function at the RTL level")
	}
	s := &selector{f: f, file: file, vf: &VFunc{}}
	s.vf.NumRegs = int(FirstVirtual)
	n := len(f.Blocks)
	for _, b := range f.Blocks {
		n += len(b.Instrs)
	}
	// Selection makes about 1.3 (branchy code) to 1.9 (arithmetic with
	// divisions) instructions for each of these: the first chunk holds
	// n, and the chunks after it an eighth of n each, so that at most an
	// eighth of n is made and not used (a second chunk of n left up to
	// half of the instructions' array empty).
	s.insts = make([]VInst, 0, n+16)
	s.chunk = n/8 + 16
	s.fix = make([]fixup, 0, len(f.Blocks)+16)
	// The source lines' runs: about one for every four of these in
	// generated code (a statement a line); more grows it.
	s.vf.lines = make([]lineRun, 0, n/4+16)
	// The blocks: one per RTL block and the prologue, and two per
	// division's cold path, cut from slabs of that many and then an
	// eighth as many.
	s.blocks = make([]VBlock, len(f.Blocks)+16)
	s.succSlab = make([]int, 2*len(s.blocks))
	s.vf.Blocks = make([]*VBlock, 0, len(s.blocks)+len(s.blocks)/2)
	s.scanRegs()
	s.run()
	if s.err != nil {
		return nil, s.err
	}
	s.cutStubs()
	return s.vf, nil
}

type selector struct {
	f    *cfg.Func
	file string
	vf   *VFunc
	// The facts of each RTL register, by its dense number (ix): its
	// virtual register (0 until it has one), whether its only definition
	// is a Const and that Const's value, and how many times it is read.
	// The dense number of each RTL register, when the registers are not
	// small enough to be their own (outssa's, named by node ID: 550,020
	// for 12,698 registers at 100k nodes, where a Go map's look-ups were a
	// fifth of selection).
	// When they are at most about 64 times sparser than their mentions,
	// the registers are numbered by rank instead (rank: 14 KB at 10k
	// nodes where the table took 196 KB, and no hashing).
	number *numbering.Table
	rank   rankSet
	vreg   []VReg
	kok    []bool
	kval   []int64
	reads  []int32
	cur    *VBlock
	pos    syntax.Pos // of the instructions emitted (setPos)
	line   int32      // of the last run in VFunc.lines
	ndone  int        // the instructions of the blocks before the current one (blocks are laid out as made, each filled before the next)
	arg    VReg
	first  []int // the machine block each RTL block starts at
	fix    []fixup
	err    error
	// Of the block combine saw last (combined), by instruction index:
	// combo[k] is the instruction before k whose result k alone reads and
	// absorbs (lea for a*k + b, test for a % 2^k == 0), or -1; skip[k]
	// marks the instructions absorbed; checked[k], for a division by a
	// register, the Check just before it whose test of the divisor it
	// takes over (divide), or -1.
	combo, checked []int32
	skip           []bool
	// combine's: the last instruction of the block writing each register
	// (lastK), valid where lastGen is gen, the count of combine's calls.
	lastK, lastGen []int32
	gen            int32
	combined       *cfg.Block
	colds          []cold
	// insts holds the instructions of the current block, from bstart on,
	// after those of the blocks before it: each block's are cut from it
	// when the next block starts. When it is full, the current block's
	// move to a new one of chunk instructions or more; the slices of the
	// blocks before stay where they are (no slice per block, and no copy
	// of the whole code as one growing slice would make).
	insts  []VInst
	bstart int
	chunk  int
	// blocks and succs are slabs the VBlocks and their successor lists
	// (two at most, but for the prologue's) are cut from.
	blocks   []VBlock
	succSlab []int
	// The division stubs' messages, one after the other, and where each
	// ends (stub).
	stubText []byte
	stubEnd  []int32
}

// fixup is a branch to an RTL block, whose machine block is known at the
// end.
type fixup struct{ block, inst, rtl int }

// scanRegs numbers the RTL registers densely (themselves when they are
// small enough, else by rank or, sparser still, by a numbering.Table) and counts their definitions
// and reads, to find the constants. Sparse registers are numbered and
// counted in one walk, each mention looked up once. The walks over every
// mention are loops, not calls of a function per mention (which took
// three times as long).
func (s *selector) scanRegs() {
	lo, maxReg, mentions := cfg.Reg(0), cfg.Reg(0), 0
	for _, b := range s.f.Blocks {
		for _, in := range b.Instrs {
			lo, maxReg = min(lo, in.Dst), max(maxReg, in.Dst)
			for _, a := range in.Args {
				lo, maxReg = min(lo, a), max(maxReg, a)
			}
			mentions += 1 + len(in.Args)
		}
		lo, maxReg = min(lo, b.Term.Reg), max(maxReg, b.Term.Reg)
		mentions++
	}
	neg := lo < 0
	sparse := neg || int64(maxReg) > 4*int64(mentions)+1024
	ranked := sparse && !neg && int64(maxReg) <= 64*int64(mentions)+65536
	n := 0
	var defs []int32
	switch {
	case ranked:
		s.rank = newRankSet(int(maxReg))
		for _, b := range s.f.Blocks {
			for _, in := range b.Instrs {
				s.rank.add(int(in.Dst))
				for _, a := range in.Args {
					s.rank.add(int(a))
				}
			}
			s.rank.add(int(b.Term.Reg))
		}
		n = s.rank.seal()
	case sparse:
		s.number = numbering.New(mentions, int64(maxReg))
		c := mentions/4 + 16 // grown as registers are met
		s.kok, s.kval, s.reads, defs = make([]bool, 0, c), make([]int64, 0, c), make([]int32, 0, c), make([]int32, 0, c)
	default:
		n = int(maxReg) + 1
	}
	if !sparse || ranked {
		s.kok, s.kval, s.reads, defs = make([]bool, n), make([]int64, n), make([]int32, n), make([]int32, n)
	}
	// num is the dense number of r, given when r is first met (sparse).
	num := func(r cfg.Reg) int {
		switch {
		case ranked:
			return s.rank.rank(int(r))
		case !sparse:
			return int(r)
		}
		x := s.number.Lookup(int64(r))
		if x < 0 {
			x = int32(n)
			s.number.Set(int64(r), x)
			n++
			s.kok, s.kval, s.reads, defs = append(s.kok, false), append(s.kval, 0), append(s.reads, 0), append(defs, 0)
		}
		return int(x)
	}
	for _, b := range s.f.Blocks {
		for _, in := range b.Instrs {
			d := num(in.Dst) // numbered in any case, as the walks above count it
			if in.Op.HasDst() {
				defs[d]++
				if in.Op == cfg.OpConst {
					s.kok[d], s.kval[d] = true, in.Aux
				}
			}
			for _, a := range in.Args {
				s.reads[num(a)]++
			}
		}
		t := num(b.Term.Reg)
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			s.reads[t]++
		}
	}
	s.vreg = make([]VReg, n)
	s.lastK = make([]int32, n)
	s.lastGen = make([]int32, n)
	for d, n := range defs {
		s.kok[d] = s.kok[d] && n == 1
	}
}

// ix is the dense number of RTL register r.
func (s *selector) ix(r cfg.Reg) int {
	if s.rank.words != nil {
		return s.rank.rank(int(r))
	}
	if s.number != nil {
		return int(s.number.Get(int64(r)))
	}
	return int(r)
}

// konst is the value of r when its only definition is a Const.
func (s *selector) konst(r cfg.Reg) (int64, bool) {
	i := s.ix(r)
	return s.kval[i], s.kok[i]
}

func (s *selector) reg(r cfg.Reg) VReg {
	i := s.ix(r)
	if v := s.vreg[i]; v != 0 {
		return v
	}
	v := s.newReg(int64(r))
	s.vreg[i] = v
	return v
}

// newReg is a new virtual register for RTL register r, or (r = 0) a
// temporary, or (r = argOrigin) the argument.
func (s *selector) newReg(r int64) VReg {
	v := VReg(s.vf.NumRegs)
	s.vf.NumRegs++
	s.vf.origin = append(s.vf.origin, r)
	return v
}

func (s *selector) tmp() VReg { return s.newReg(0) }

func (s *selector) newBlock() int {
	s.cutBlock()
	if len(s.blocks) == 0 {
		s.blocks = make([]VBlock, max(64, len(s.f.Blocks)/8))
	}
	if len(s.succSlab) < 2 {
		s.succSlab = make([]int, 2*max(64, len(s.f.Blocks)/8))
	}
	s.cur = &s.blocks[0]
	s.blocks = s.blocks[1:]
	s.cur.Succs, s.succSlab = s.succSlab[:0:2], s.succSlab[2:]
	s.vf.Blocks = append(s.vf.Blocks, s.cur)
	s.ndone += len(s.insts) - s.bstart
	s.bstart = len(s.insts)
	return len(s.vf.Blocks) - 1
}

// cutBlock gives the current block its instructions.
func (s *selector) cutBlock() {
	if s.cur != nil {
		s.cur.Insts = s.insts[s.bstart:len(s.insts):len(s.insts)]
	}
}

// setSuccs sets the current block's successors.
func (s *selector) setSuccs(ts ...int) { s.cur.Succs = append(s.cur.Succs[:0], ts...) }

// setPos sets the position of the instructions emitted from here on,
// starting a run of VFunc.lines where their line changes.
func (s *selector) setPos(p syntax.Pos) {
	s.pos = p
	if p.Line != s.line {
		at := s.ndone + len(s.insts) - s.bstart // the next instruction's number
		s.vf.lines = append(s.vf.lines, lineRun{at: int32(at), line: p.Line})
		s.line = p.Line
	}
}

func (s *selector) emit(in VInst) {
	if len(s.insts) == cap(s.insts) {
		cur := s.insts[s.bstart:]
		s.insts = append(make([]VInst, 0, max(s.chunk, 2*len(cur)+16)), cur...)
		s.bstart = 0
	}
	s.insts = append(s.insts, in)
}

// ninsts is the number of instructions of the current block so far.
func (s *selector) ninsts() int { return len(s.insts) - s.bstart }

// inst is instruction i of block b.
func (s *selector) inst(b, i int) *VInst {
	if blk := s.vf.Blocks[b]; blk != s.cur {
		return &blk.Insts[i]
	}
	return &s.insts[s.bstart+i]
}

func (s *selector) op2(op Op, d, src VArg) { s.emit(VInst{Op: op, Dst: d, Src: src}) }
func (s *selector) op1(op Op, d VArg)      { s.emit(VInst{Op: op, Dst: d}) }

func (s *selector) mov(d, a VReg) {
	if d != a {
		s.op2(MOV, vr(d), vr(a))
	}
}

func (s *selector) movConst(d VReg, c int64) {
	switch {
	case c == 0:
		s.op2(XORL, vr(d), vr(d))
	case c > 0 && c <= 0xFFFFFFFF:
		s.op2(MOVL, vr(d), vimm(c))
	case c == int64(int32(c)):
		s.op2(MOV, vr(d), vimm(c))
	default:
		s.op2(MOVABS, vr(d), vimm(c))
	}
}

// imm32 returns the constant value of r when it fits a sign-extended
// 32-bit immediate.
func (s *selector) imm32(r cfg.Reg) (int64, bool) {
	c, ok := s.konst(r)
	return c, ok && c == int64(int32(c))
}

// blockIndex gives each block of a function its index in f.Blocks: by an
// array indexed by block ID when the IDs are distinct and dense enough
// (gcm numbers the blocks in order), else by a map. A map filled block by
// block was 1.3 MB and a rehash per doubling at 100k nodes. A block not
// in the function is 0 either way.
type blockIndex struct {
	byID []int32
	m    map[*cfg.Block]int
}

func newBlockIndex(blocks []*cfg.Block) blockIndex {
	maxID := -1
	for _, b := range blocks {
		if b.ID < 0 {
			maxID = -1
			break
		}
		maxID = max(maxID, b.ID)
	}
	if maxID >= 0 && maxID <= 4*len(blocks)+1024 {
		x := blockIndex{byID: make([]int32, maxID+1)}
		for i := range x.byID {
			x.byID[i] = -1
		}
		distinct := true
		for i, b := range blocks {
			distinct = distinct && x.byID[b.ID] < 0
			x.byID[b.ID] = int32(i)
		}
		if distinct {
			return x
		}
	}
	x := blockIndex{m: make(map[*cfg.Block]int, len(blocks))}
	for i, b := range blocks {
		x.m[b] = i
	}
	return x
}

func (x blockIndex) of(b *cfg.Block) int {
	if x.m != nil {
		return x.m[b]
	}
	if b.ID < 0 || b.ID >= len(x.byID) || x.byID[b.ID] < 0 {
		return 0
	}
	return int(x.byID[b.ID])
}

func (s *selector) run() {
	f := s.f
	s.first = make([]int, len(f.Blocks))
	index := newBlockIndex(f.Blocks)
	// The prologue: the argument from rdi.
	s.newBlock()
	s.arg = s.newReg(argOrigin)
	s.op2(MOV, vr(s.arg), vr(VReg(RDI)))
	for i, b := range f.Blocks {
		prev := len(s.vf.Blocks) - 1
		s.first[i] = s.newBlock()
		if i == 0 {
			s.vf.Blocks[prev].Succs = append(s.vf.Blocks[prev].Succs, s.first[i])
		}
		s.combine(b)
		fused := s.fusable(b)
		for k, in := range b.Instrs {
			if k == fused || s.skip[k] {
				continue
			}
			s.setPos(in.Pos)
			s.instr(in, k)
		}
		s.setPos(b.Term.Pos)
		next := -1
		if i+1 < len(f.Blocks) {
			next = i + 1
		}
		switch b.Term.Kind {
		case cfg.TermJump:
			t := index.of(b.Succs()[0])
			if t <= i && s.rotatable(f.Blocks[t]) {
				// A back edge to a loop test: the test is repeated here,
				// so that an iteration takes one branch, back to the body.
				h := f.Blocks[t]
				s.combine(h)
				hf := s.fusable(h)
				for k, in := range h.Instrs {
					if k != hf && !s.skip[k] {
						s.setPos(in.Pos)
						s.instr(in, k)
					}
				}
				s.setPos(h.Term.Pos)
				s.branch(h, hf, index.of(h.Succs()[0]), index.of(h.Succs()[1]), next)
				continue
			}
			if t != next {
				s.jump(JMP, 0, t)
			}
			s.succs(t)
		case cfg.TermBranch:
			s.branch(b, fused, index.of(b.Succs()[0]), index.of(b.Succs()[1]), next)
		case cfg.TermReturn:
			s.mov(VReg(RAX), s.reg(b.Term.Reg))
			s.emit(VInst{Op: RET})
		default:
			s.err = fmt.Errorf("amd64: block b%d has no terminator", b.ID)
			return
		}
	}
	s.emitColds()
	for _, fx := range s.fix {
		s.inst(fx.block, fx.inst).Target = int32(s.first[fx.rtl])
	}
	s.cutBlock()
	for _, b := range s.vf.Blocks {
		for k, t := range b.Succs {
			if t < 0 {
				b.Succs[k] = s.first[-1-t]
			}
		}
	}
}

// branch emits the branch that ends b (its comparison, the instruction
// fused, if any) to RTL blocks t and e, next being the RTL block laid out
// after the current one.
func (s *selector) branch(b *cfg.Block, fused, t, e, next int) {
	var c Cond
	if fused >= 0 {
		c = s.compare(b.Instrs[fused], fused)
	} else {
		v := s.reg(b.Term.Reg)
		s.op2(TEST, vr(v), vr(v))
		c = CondNE
	}
	switch {
	case e == next:
		s.jump(JCC, c, t)
	case t == next:
		s.jump(JCC, c.Invert(), e)
	default:
		s.jump(JCC, c, t)
		s.jump(JMP, 0, e)
	}
	s.succs(t, e)
}

// rotatable reports whether a jump back to h may repeat h's code: h is a
// loop test of a few instructions, none of them a division.
func (s *selector) rotatable(h *cfg.Block) bool {
	if h.Term.Kind != cfg.TermBranch || len(h.Instrs) > 4 {
		return false
	}
	for _, in := range h.Instrs {
		switch in.Op {
		case cfg.OpDiv, cfg.OpMod, cfg.OpCheck:
			return false
		}
	}
	return true
}

// jump emits a branch to RTL block t.
func (s *selector) jump(op Op, c Cond, t int) {
	s.fix = append(s.fix, fixup{len(s.vf.Blocks) - 1, s.ninsts(), t})
	s.emit(VInst{Op: op, Cond: c})
}

// succs sets the current block's successors to RTL blocks (resolved at the end).
func (s *selector) succs(ts ...int) {
	for _, t := range ts {
		s.cur.Succs = append(s.cur.Succs, -1-t)
	}
}

// fusable returns the index of the comparison that only b's branch reads,
// or -1.
func (s *selector) fusable(b *cfg.Block) int {
	if b.Term.Kind != cfg.TermBranch || len(b.Instrs) == 0 || s.reads[s.ix(b.Term.Reg)] != 1 {
		return -1
	}
	c := b.Term.Reg
	for k := len(b.Instrs) - 1; k >= 0; k-- {
		in := b.Instrs[k]
		if in.Op.HasDst() && in.Dst == c {
			switch in.Op {
			case cfg.OpEq, cfg.OpNe, cfg.OpLt, cfg.OpLe, cfg.OpNot:
			default:
				return -1
			}
			args := in.Args
			if p := s.comboOf(k); p != nil {
				args = append(append([]cfg.Reg(nil), args...), p.Args...)
			}
			for _, later := range b.Instrs[k+1:] {
				for _, a := range args {
					if later.Op.HasDst() && later.Dst == a {
						return -1
					}
				}
			}
			return k
		}
	}
	return -1
}

// condOf, aluOf and shiftOf are tables by RTL op (arrays, not maps: they
// are read for every comparison, operation and shift).
var condOf = [256]Cond{cfg.OpEq: CondE, cfg.OpNe: CondNE, cfg.OpLt: CondL, cfg.OpLe: CondLE}

// swapped is the condition of the comparison with its operands swapped.
func swapped(c Cond) Cond {
	switch c {
	case CondL:
		return CondG
	case CondLE:
		return CondGE
	}
	return c
}

// compare emits the cmp or test of a comparison (Eq, Ne, Lt, Le, or Not,
// which is == 0) and returns the condition that holds when it is true.
func (s *selector) compare(in *cfg.Instr, k int) Cond {
	if in.Op == cfg.OpNot {
		v := s.reg(in.Args[0])
		s.op2(TEST, vr(v), vr(v))
		return CondE
	}
	c := condOf[in.Op]
	if p := s.comboOf(k); p != nil { // x % ±2^k == 0 is x & (2^k-1) == 0
		m, _ := s.konst(p.Args[1])
		if m < 0 {
			m = -m
		}
		s.op2(TEST, vr(s.reg(p.Args[0])), vimm(m-1))
		return c
	}
	a, b := in.Args[0], in.Args[1]
	if _, ok := s.imm32(a); ok {
		if _, ok := s.imm32(b); !ok {
			a, b, c = b, a, swapped(c)
		}
	}
	va := s.reg(a)
	if k, ok := s.imm32(b); ok {
		if k == 0 {
			s.op2(TEST, vr(va), vr(va))
		} else {
			s.op2(CMP, vr(va), vimm(k))
		}
		return c
	}
	s.op2(CMP, vr(va), vr(s.reg(b)))
	return c
}

func (s *selector) instr(in *cfg.Instr, k int) {
	switch in.Op {
	case cfg.OpConst:
		s.movConst(s.reg(in.Dst), in.Aux)
	case cfg.OpArg:
		s.mov(s.reg(in.Dst), s.arg)
	case cfg.OpCopy:
		s.mov(s.reg(in.Dst), s.reg(in.Args[0]))
	case cfg.OpAdd, cfg.OpSub, cfg.OpAnd, cfg.OpOr, cfg.OpXor, cfg.OpMul:
		s.arith(in, k)
	case cfg.OpShl, cfg.OpSar, cfg.OpShr:
		s.shift(in)
	case cfg.OpEq, cfg.OpNe, cfg.OpLt, cfg.OpLe, cfg.OpNot:
		c := s.compare(in, k)
		t := s.tmp()
		s.emit(VInst{Op: SETCC, Cond: c, Dst: vr(t)})
		s.op2(MOVZX, vr(t), vr(t))
		s.mov(s.reg(in.Dst), t)
	case cfg.OpNeg:
		d := s.reg(in.Dst)
		s.mov(d, s.reg(in.Args[0]))
		s.op1(NEG, vr(d))
	case cfg.OpCheck:
		v := s.reg(in.Args[0])
		if c, ok := s.konst(in.Args[0]); ok && c != 0 {
			return
		}
		s.op2(TEST, vr(v), vr(v))
		s.emit(VInst{Op: JCC, Cond: CondE, ToStub: true, Target: s.stub(in.Pos)})
	case cfg.OpDiv, cfg.OpMod:
		s.divide(in, k)
	default:
		s.err = fmt.Errorf("amd64: no instruction selected for %s", in.Op)
	}
}

var aluOf = [256]Op{cfg.OpAdd: ADD, cfg.OpSub: SUB, cfg.OpAnd: AND, cfg.OpOr: OR, cfg.OpXor: XOR, cfg.OpMul: IMUL}

// arith selects a two-address operation: d = a op b.
func (s *selector) arith(in *cfg.Instr, k int) {
	op := aluOf[in.Op]
	a, b := in.Args[0], in.Args[1]
	if p := s.comboOf(k); p != nil {
		s.leaCombo(in, p)
		return
	}
	commutes := in.Op != cfg.OpSub
	if _, ok := s.konst(a); ok && commutes {
		if _, ok := s.konst(b); !ok {
			a, b = b, a
		}
	}
	d, va := s.reg(in.Dst), s.reg(a)
	if c, ok := s.konst(b); ok {
		cop := op
		if in.Op == cfg.OpSub && c != -c {
			cop, c = ADD, -c
		}
		if s.arithConst(cop, d, va, c) {
			return
		}
	}
	vb := s.reg(b)
	switch {
	case op == ADD && d != va && d != vb:
		s.op2(LEA, vr(d), vmem(va, vb, 1, 0))
	case d == vb && commutes:
		s.op2(op, vr(d), vr(va))
	case d == vb: // d = a - d
		s.op1(NEG, vr(d))
		s.op2(ADD, vr(d), vr(va))
	default:
		s.mov(d, va)
		s.op2(op, vr(d), vr(vb))
	}
}

// arithConst selects d = a op c for the forms an immediate serves; it
// reports false when c needs a register.
func (s *selector) arithConst(op Op, d, a VReg, c int64) bool {
	fits := c == int64(int32(c))
	switch op {
	case ADD:
		switch {
		case c == 0:
			s.mov(d, a)
		case !fits:
			return false
		case d == a && c < 0 && c != -1<<31:
			s.op2(SUB, vr(d), vimm(-c))
		case d == a:
			s.op2(ADD, vr(d), vimm(c))
		default:
			s.op2(LEA, vr(d), vmem(a, NoVReg, 0, int32(c)))
		}
		return true
	case AND, OR, XOR:
		switch {
		case op == AND && c == 0:
			s.movConst(d, 0)
		case op != AND && c == 0 || op == AND && c == -1:
			s.mov(d, a)
		case op == XOR && c == -1:
			s.mov(d, a)
			s.op1(NOT, vr(d))
		case !fits:
			return false
		default:
			s.mov(d, a)
			s.op2(op, vr(d), vimm(c))
		}
		return true
	case IMUL:
		switch {
		case c == 0:
			s.movConst(d, 0)
		case c == 1:
			s.mov(d, a)
		case c == -1:
			s.mov(d, a)
			s.op1(NEG, vr(d))
		case c > 0 && c&(c-1) == 0:
			s.mov(d, a)
			s.op2(SHL, vr(d), vimm(int64(mbits.TrailingZeros64(uint64(c)))))
		case c == 3 || c == 5 || c == 9:
			s.op2(LEA, vr(d), vmem(a, a, uint8(c-1), 0))
		case !fits:
			return false
		default:
			s.emit(VInst{Op: IMUL3, Dst: VArg{Kind: KindReg, R: d, Imm: c}, Src: vr(a)})
		}
		return true
	}
	return false
}

// scaled returns x and m when p computes x*m with m in {2, 3, 4, 5, 8, 9}
// (a Mul by that constant, or a Shl by 1 to 3), which a lea can do.
func (s *selector) scaled(p *cfg.Instr) (cfg.Reg, int64, bool) {
	switch p.Op {
	case cfg.OpMul:
		x, k := p.Args[0], p.Args[1]
		if _, ok := s.konst(x); ok {
			x, k = k, x
		}
		m, ok := s.konst(k)
		if _, xc := s.konst(x); ok && !xc && (m == 2 || m == 3 || m == 4 || m == 5 || m == 8 || m == 9) {
			return x, m, true
		}
	case cfg.OpShl:
		if k, ok := s.konst(p.Args[1]); ok && k >= 1 && k <= 3 {
			return p.Args[0], 1 << k, true
		}
	}
	return 0, 0, false
}

// absorbs reports whether in can absorb p, which computes its argument
// ai: an Add of x*m and a constant (any m of scaled) or a register (m of
// 2, 4 or 8) is one lea; an Eq or Ne of x % ±2^k and 0, a test.
func (s *selector) absorbs(in *cfg.Instr, ai int, p *cfg.Instr) bool {
	other := in.Args[1-ai]
	switch in.Op {
	case cfg.OpAdd:
		_, m, ok := s.scaled(p)
		if !ok {
			return false
		}
		if _, ok := s.imm32(other); ok {
			return true
		}
		_, oc := s.konst(other)
		return !oc && (m == 2 || m == 4 || m == 8)
	case cfg.OpEq, cfg.OpNe:
		if z, ok := s.konst(other); !ok || z != 0 || p.Op != cfg.OpMod {
			return false
		}
		c, ok := s.konst(p.Args[1])
		if _, xc := s.konst(p.Args[0]); !ok || xc || c == -c {
			return false
		}
		if c < 0 {
			c = -c
		}
		return c >= 2 && c <= 1<<31 && c&(c-1) == 0
	}
	return false
}

// combine finds, in b, the instructions that absorb the one computing
// their argument: that result must be read only there, and nothing in
// between may write it or the producer's own arguments.
func (s *selector) combine(b *cfg.Block) {
	n := len(b.Instrs)
	s.skip = slices.Grow(s.skip[:0], n)[:n]
	clear(s.skip)
	s.combined = b
	s.gen++
	if n < 2 {
		// One instruction absorbs nothing, and takes over no Check:
		// comboOf and checkedOf find no entry.
		s.combo, s.checked = s.combo[:0], s.checked[:0]
		return
	}
	s.combo, s.checked = filled(s.combo, n, -1), filled(s.checked, n, -1)
	for k, in := range b.Instrs {
		if in.Op == cfg.OpCheck && k+1 < len(b.Instrs) {
			next := b.Instrs[k+1]
			if (next.Op == cfg.OpDiv || next.Op == cfg.OpMod) && next.Args[1] == in.Args[0] {
				if _, ok := s.konst(in.Args[0]); !ok {
					s.checked[k+1], s.skip[k] = int32(k), true
				}
			}
		}
		if in.Op == cfg.OpAdd || in.Op == cfg.OpEq || in.Op == cfg.OpNe {
			for ai, a := range in.Args {
				j, ok := s.last(a)
				if !ok || s.reads[s.ix(a)] != 1 || s.skip[j] || !s.absorbs(in, ai, b.Instrs[j]) {
					continue
				}
				p := b.Instrs[j]
				unchanged := true
				for _, x := range p.Args {
					if lx, ok := s.last(x); ok && lx >= j {
						unchanged = false
					}
				}
				if unchanged {
					s.combo[k], s.skip[j] = int32(j), true
					break
				}
			}
		}
		if in.Op.HasDst() {
			d := s.ix(in.Dst)
			s.lastK[d], s.lastGen[d] = int32(k), s.gen
		}
	}
}

// last is the index of the last instruction writing r in the block
// combine is looking at, before the current one.
func (s *selector) last(r cfg.Reg) (int, bool) {
	i := s.ix(r)
	return int(s.lastK[i]), s.lastGen[i] == s.gen
}

// comboOf is the instruction that instruction k of the combined block
// absorbs, or nil.
func (s *selector) comboOf(k int) *cfg.Instr {
	if k < 0 || k >= len(s.combo) || s.combo[k] < 0 {
		return nil
	}
	return s.combined.Instrs[s.combo[k]]
}

// checkedOf is the Check whose test instruction k of the combined block
// (a division) takes over, or nil.
func (s *selector) checkedOf(k int) *cfg.Instr {
	if k < 0 || k >= len(s.checked) || s.checked[k] < 0 {
		return nil
	}
	return s.combined.Instrs[s.checked[k]]
}

// filled returns s with length n, every element x, reusing its array.
func filled(s []int32, n int, x int32) []int32 {
	s = slices.Grow(s[:0], n)[:n]
	for i := range s {
		s[i] = x
	}
	return s
}

// leaCombo selects d = x*m + b as one lea.
func (s *selector) leaCombo(in, p *cfg.Instr) {
	x, m, _ := s.scaled(p)
	other := in.Args[0]
	if in.Args[0] == p.Dst {
		other = in.Args[1]
	}
	d, vx := s.reg(in.Dst), s.reg(x)
	if c, ok := s.imm32(other); ok {
		switch m {
		case 2, 3, 5, 9:
			s.op2(LEA, vr(d), vmem(vx, vx, uint8(max(m-1, 1)), int32(c)))
		default:
			s.op2(LEA, vr(d), vmem(NoVReg, vx, uint8(m), int32(c)))
		}
		return
	}
	s.op2(LEA, vr(d), vmem(s.reg(other), vx, uint8(m), 0))
}

var shiftOf = [256]Op{cfg.OpShl: SHL, cfg.OpSar: SAR, cfg.OpShr: SHR}

// shift selects d = a shift b: by a constant (mod 64, as Simple and the
// hardware take it) or by cl.
func (s *selector) shift(in *cfg.Instr) {
	op := shiftOf[in.Op]
	d, va := s.reg(in.Dst), s.reg(in.Args[0])
	if c, ok := s.konst(in.Args[1]); ok {
		s.mov(d, va)
		if c&63 != 0 {
			s.op2(op, vr(d), vimm(c&63))
		}
		return
	}
	s.mov(VReg(RCX), s.reg(in.Args[1]))
	s.mov(d, va)
	s.op2(op, vr(d), vr(VReg(RCX)))
}

// divide selects d = a / b or a % b; a Check before it has made sure b
// is not 0. By a constant: 1 and -1 need no division, a power of two
// (or its negation) takes shifts with the sign fix-up, MinInt idiv, which
// cannot trap as b is not -1; others (divMagic) a multiplication. By a
// register: a 32-bit unsigned div when a and b are in [0, 2^31) and
// (0, 2^31] (faster than idiv r64, by 13% on gcdsum), else idiv out of
// line, where b = -1 and b = 0 branch further (idiv traps on MinInt / -1,
// whose result is MinInt, remainder 0).
func (s *selector) divide(in *cfg.Instr, k int) {
	mod := in.Op == cfg.OpMod
	d, va := s.reg(in.Dst), s.reg(in.Args[0])
	c, isConst := s.konst(in.Args[1])
	if isConst && s.divConst(mod, d, va, c) {
		return
	}
	vb := s.reg(in.Args[1])
	rax, rcx, rdx := VReg(RAX), VReg(RCX), VReg(RDX)
	result := rax
	if mod {
		result = rdx
	}
	if isConst { // not -1
		s.mov(rax, va)
		s.emit(VInst{Op: CQO})
		s.op1(IDIV, vr(vb))
		s.mov(d, result)
		return
	}
	// The common case, small non-negative operands, falls through to the
	// 32-bit division; the others branch to cold blocks after the
	// function's code (emitColds), which touch physical registers only,
	// hence the divisor in rcx:
	//	mov rax, a; mov rcx, b; lea rdx, [rcx-1]; cmp rdx, 0x7fffffff; ja slow
	//	cmp rax, 0x7fffffff; ja slow; xor edx, edx; div ecx; join:
	// b-1 < 2^31 and a < 2^31 unsigned hold for b in [1, 2^31] and a in
	// [0, 2^31), where the unsigned 32-bit quotient and remainder are the
	// signed 64-bit ones (zero-extended); b = 0 goes to slow, as b-1 is -1.
	// Two tests, the divisor's first, where (a | b-1) tested once took
	// three instructions on the divisor's chain: each instruction reading
	// the divisor before the div delays it (isqrt 6% slower).
	s.mov(rax, va)
	s.mov(rcx, vb)
	s.op2(LEA, vr(rdx), vmem(rcx, NoVReg, 0, -1))
	s.op2(CMP, vr(rdx), vimm(1<<31-1))
	cb := cold{mod: mod}
	s.coldBranch(&cb)
	s.op2(CMP, vr(rax), vimm(1<<31-1))
	s.coldBranch(&cb)
	if chk := s.checkedOf(k); chk != nil {
		cb.checked, cb.pos = true, chk.Pos
	}
	s.op2(XORL, vr(rdx), vr(rdx))
	s.op1(DIVL, vr(rcx))
	here := len(s.vf.Blocks) - 1
	s.setSuccs(here + 1)
	cb.join = here + 1
	s.colds = append(s.colds, cb)
	s.newBlock()
	s.mov(d, result)
}

// coldBranch ends the current block with ja to c's slow block (its index
// set by emitColds) and starts the next block, where it falls through.
func (s *selector) coldBranch(c *cold) {
	s.emit(VInst{Op: JCC, Cond: CondA})
	here := len(s.vf.Blocks) - 1
	c.branches[c.nbranches] = [2]int{here, s.ninsts() - 1}
	c.nbranches++
	s.setSuccs(0, here+1)
	s.newBlock()
}

// cold is the out-of-line path of a division by a register whose
// operands do not fit the 32-bit division (docs/BACKEND.md): the branches
// to it are instructions {block, inst}, it returns to block join.
type cold struct {
	branches  [2][2]int // the divisor's test and the dividend's
	nbranches int
	join      int
	mod       bool
	checked   bool       // a Check was merged: b = 0 goes to a stub
	pos       syntax.Pos // the Check's, when merged
}

// emitColds lays out the cold blocks after the function's code, three
// per division, the divisor in rcx and the dividend in rax:
//
//	slow: lea rdx, [rcx+1]; cmp rdx, 1; jbe rare   (cmp rcx, -1; je rare without a Check)
//	      cqo; idiv rcx; jmp join
//	rare: je stub; neg rax (xor edx, edx for %); jmp join
//
// b+1 <= 1 unsigned holds for b in {-1, 0}; in rare the flags still tell
// them apart (b = 0 when b+1 = 1).
func (s *selector) emitColds() {
	rax, rcx, rdx := VReg(RAX), VReg(RCX), VReg(RDX)
	for _, c := range s.colds {
		slow := s.newBlock()
		for _, br := range c.branches[:c.nbranches] {
			s.inst(br[0], br[1]).Target = int32(slow)
			s.vf.Blocks[br[0]].Succs[0] = slow
		}
		s.cur.Cold = true
		s.setPos(c.pos)
		rare := slow + 2
		if c.checked {
			s.op2(LEA, vr(rdx), vmem(rcx, NoVReg, 0, 1))
			s.op2(CMP, vr(rdx), vimm(1))
			s.emit(VInst{Op: JCC, Cond: CondBE, Target: int32(rare)})
		} else {
			s.op2(CMP, vr(rcx), vimm(-1))
			s.emit(VInst{Op: JCC, Cond: CondE, Target: int32(rare)})
		}
		s.setSuccs(rare, slow+1)
		s.newBlock()
		s.cur.Cold = true
		s.emit(VInst{Op: CQO})
		s.op1(IDIV, vr(rcx))
		s.emit(VInst{Op: JMP, Target: int32(c.join)})
		s.setSuccs(c.join)
		s.newBlock()
		s.cur.Cold = true
		if c.checked {
			s.emit(VInst{Op: JCC, Cond: CondE, ToStub: true, Target: s.stub(c.pos)})
		}
		if c.mod {
			s.op2(XORL, vr(rdx), vr(rdx))
		} else {
			s.op1(NEG, vr(rax))
		}
		s.emit(VInst{Op: JMP, Target: int32(c.join)})
		s.setSuccs(c.join)
	}
}

// stub records the message of a division stub for a Check at pos, for a
// VInst's Target: its text goes at the end of stubText (one array for
// all, not one each), cut into VFunc.Stubs at the end (cutStubs).
func (s *selector) stub(pos syntax.Pos) int32 {
	b := append(append(s.stubText, s.file...), ':')
	b = append(strconv.AppendInt(b, int64(pos.Line), 10), ':')
	b = strconv.AppendInt(b, int64(pos.Col), 10)
	s.stubText = append(b, ": runtime error: division by zero\n"...)
	s.stubEnd = append(s.stubEnd, int32(len(s.stubText)))
	return int32(len(s.stubEnd))
}

// cutStubs gives VFunc.Stubs the messages stub recorded.
func (s *selector) cutStubs() {
	if len(s.stubEnd) == 0 {
		return
	}
	s.vf.Stubs = make([][]byte, len(s.stubEnd))
	from := int32(0)
	for k, end := range s.stubEnd {
		s.vf.Stubs[k] = s.stubText[from:end:end]
		from = end
	}
}

// divMagic selects a / c or a % c for a constant c that is not 0, ±1,
// MinInt or ±2^k, as a multiplication by a magic number and shifts
// (Granlund and Montgomery, PLDI 1994; Warren, Hacker's Delight, 10-1):
// q = hi(M*a) (+ a or - a when M's sign differs from c's) >> s, plus
// one when a is negative (c > 0) or that is (c < 0); a % c = a - q*c.
func (s *selector) divMagic(mod bool, d, a VReg, c int64) {
	m, sh := magic(c)
	rax, rdx := VReg(RAX), VReg(RDX)
	var sign VReg
	if c > 0 {
		// For c > 0 the fix-up is a's sign, computed beside the multiply
		// instead of after it: q = (hi >> s) - (a >> 63).
		sign = s.tmp()
		s.mov(sign, a)
		s.op2(SAR, vr(sign), vimm(63))
	}
	s.movConst(rax, m)
	s.op1(IMUL1, vr(a))
	switch {
	case c > 0 && m < 0:
		s.op2(ADD, vr(rdx), vr(a))
	case c < 0 && m > 0:
		s.op2(SUB, vr(rdx), vr(a))
	}
	if sh > 0 {
		s.op2(SAR, vr(rdx), vimm(int64(sh)))
	}
	q := s.tmp()
	if c > 0 {
		s.op2(SUB, vr(rdx), vr(sign))
		s.mov(q, rdx)
	} else {
		t := s.tmp()
		s.mov(q, rdx)
		s.mov(t, rdx)
		s.op2(SHR, vr(t), vimm(63))
		s.op2(ADD, vr(q), vr(t))
	}
	if !mod {
		s.mov(d, q)
		return
	}
	s.mulSub(d, a, q, c)
}

// mulSub selects d = a - q*c, the remainder from the quotient q. For |c|
// of 3, 5 or 9 (one lea) and 2^k-1 (a - q*c = (a+q) - (q<<k)) it takes
// two cycles after q, where imul and sub take four: recurrence's s % 7
// is on its loop's critical path.
func (s *selector) mulSub(d, a, q VReg, c int64) {
	abs := c
	if c < 0 {
		abs = -c
	}
	r := s.tmp()
	switch {
	case abs == 3 || abs == 5 || abs == 9: // r = a ∓ lea [q + q*(abs-1)]
		t := s.tmp()
		s.op2(LEA, vr(t), vmem(q, q, uint8(abs-1), 0))
		s.mov(r, a)
		if c > 0 {
			s.op2(SUB, vr(r), vr(t))
		} else {
			s.op2(ADD, vr(r), vr(t))
		}
	case abs > 3 && abs < 1<<31 && (abs+1)&abs == 0: // abs = 2^k - 1
		k := int64(mbits.TrailingZeros64(uint64(abs + 1)))
		t := s.tmp()
		s.mov(t, q)
		s.op2(SHL, vr(t), vimm(k))
		if c > 0 { // r = (a + q) - (q << k)
			s.op2(LEA, vr(r), vmem(a, q, 1, 0))
			s.op2(SUB, vr(r), vr(t))
		} else { // r = (a - q) + (q << k)
			s.mov(r, a)
			s.op2(SUB, vr(r), vr(q))
			s.op2(ADD, vr(r), vr(t))
		}
	default:
		if c == int64(int32(c)) {
			s.emit(VInst{Op: IMUL3, Dst: VArg{Kind: KindReg, R: q, Imm: c}, Src: vr(q)})
		} else {
			k := s.tmp()
			s.movConst(k, c)
			s.op2(IMUL, vr(q), vr(k))
		}
		s.mov(r, a)
		s.op2(SUB, vr(r), vr(q))
	}
	s.mov(d, r)
}

// magic is the multiplier and shift of signed division by c, |c| >= 3
// and not a power of two (Hacker's Delight, figure 10-1, for 64 bits).
func magic(c int64) (m int64, shift uint) {
	const two63 = uint64(1) << 63
	ad := uint64(c)
	if c < 0 {
		ad = -ad
	}
	t := two63 + uint64(c)>>63
	anc := t - 1 - t%ad
	p := uint(63)
	q1, r1 := two63/anc, two63-(two63/anc)*anc
	q2, r2 := two63/ad, two63-(two63/ad)*ad
	for {
		p++
		q1, r1 = 2*q1, 2*r1
		if r1 >= anc {
			q1, r1 = q1+1, r1-anc
		}
		q2, r2 = 2*q2, 2*r2
		if r2 >= ad {
			q2, r2 = q2+1, r2-ad
		}
		delta := ad - r2
		if !(q1 < delta || q1 == delta && r1 == 0) {
			break
		}
	}
	m = int64(q2 + 1)
	if c < 0 {
		m = -m
	}
	return m, p - 64
}

// divConst selects a division by the constant c when it takes no idiv.
func (s *selector) divConst(mod bool, d, a VReg, c int64) bool {
	switch {
	case c == 1 || c == -1:
		if mod {
			s.movConst(d, 0)
			return true
		}
		s.mov(d, a)
		if c == -1 {
			s.op1(NEG, vr(d))
		}
		return true
	case c == 0 || c == -c:
		return false
	}
	abs := c
	if c < 0 {
		abs = -c
	}
	if abs&(abs-1) != 0 {
		s.divMagic(mod, d, a, c)
		return true
	}
	k := int64(mbits.TrailingZeros64(uint64(abs)))
	// t = a + (a < 0 ? abs-1 : 0): the bias that makes the shift truncate;
	// for abs = 2 it is a's sign bit alone.
	t := s.tmp()
	s.mov(t, a)
	if k > 1 {
		s.op2(SAR, vr(t), vimm(63))
	}
	s.op2(SHR, vr(t), vimm(64-k))
	s.op2(ADD, vr(t), vr(a))
	if !mod {
		s.op2(SAR, vr(t), vimm(k))
		if c < 0 {
			s.op1(NEG, vr(t))
		}
		s.mov(d, t)
		return true
	}
	// a % c = a - (t & -abs), whatever c's sign.
	if -abs == int64(int32(-abs)) {
		s.op2(AND, vr(t), vimm(-abs))
	} else {
		m := s.tmp()
		s.movConst(m, -abs)
		s.op2(AND, vr(t), vr(m))
	}
	r := s.tmp()
	s.mov(r, a)
	s.op2(SUB, vr(r), vr(t))
	s.mov(d, r)
	return true
}
