// CheckSelection: a translation validator of instruction selection, by
// symbolic execution of each RTL block and of the machine code selected
// for it over the same inputs (docs/ASSURANCE.md). Cost: linear in the
// code, times the paths through a block's divisions (four each, merged
// where they join), times the height of the paths' maps (pmap: log32 of
// the terms), however many divisions one block holds. Memory: the
// function's RTL tables and one block's terms and paths at a time, a
// large block's between two cuts and what is live at them (iselcut.go).

package amd64

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"son/cfg"
	"son/internal/dom"
	"son/internal/numbering"
	"son/regalloc"
)

// CheckSelection checks that vf, the selection of the RTL function f
// (file names the program in its stubs' messages), computes what f does.
// It takes nothing from the selector but vf: each virtual register's RTL
// register (VFunc's origin, which must be one to one), block 0 the
// prologue that takes the argument from rdi.
//
// Block by block: the machine code that starts where an RTL block's does
// (the prologue's exit for the entry, then wherever the code for a block
// jumps for each successor) is run symbolically from the values the RTL
// registers have on entry (one symbol each, for the RTL register and its
// virtual register; a constant's register holds it where its Const's
// block strictly dominates), along every path, through the division's
// blocks and cold blocks, to where it leaves for another block or
// returns; the paths through one division join where they meet again.
// The RTL block is run over the same inputs (with the block it jumps to
// when the code repeats that block's test: loop rotation). Each path must
// give each register either side wrote the RTL's value, but where the
// RTL's liveness says it is dead in the block it leaves for (a constant's
// register, only its constant), leave for the successor the RTL's branch
// condition picks (or return its value); a stub splits a path in two, one that stops there, which must be
// where the first of the RTL's Checks that its conditions do not prove
// false stops, with that Check's condition and message, and one that goes
// on, which must prove each Check false. Values are terms normalized as
// iselterm.go says; division by a constant is recognized and its
// multiplier proved (certify).
//
// What it trusts, the x86-64 semantics it models (64-bit unless said):
//
//	mov r,r / r,imm32(sext) / movl r,imm32(zext) / movabs r,imm64   copy
//	xor r32,r32 (same register)                                     0
//	add sub and or xor imul r,r|imm32; imul r,r,imm32; neg; not     wrapping arithmetic
//	shl shr sar r,imm8|cl                                           count mod 64
//	lea r,[b + i*s + disp32]                                        b + i*s + disp
//	cmp a,b / test a,b, then jcc or setcc                           e ne l ge le g b ae be a of a-b; e ne l ge le g of a&b
//	setcc r8; movzx r32,r8                                          the low byte set; zero-extended
//	imul r (one operand)                                            rax = low, rdx = high half of rax*r, signed
//	cqo; idiv r                                                     rdx = rax's sign; rax, rdx = quotient, remainder (traps on r = 0 or MinInt/-1)
//	div r32, edx = 0                                                eax/r32 unsigned, for rax in [0, 2^32), r in [1, 2^32)
//	jmp, jcc, ret, fall-through                                     control; a jump to a stub ends the program with its message
//
// and the RTL's: cfg.Run's, with cfg.EvalBinary's arithmetic, a Check of 0
// stopping the program, and a register
// whose only definition is a Const holding it wherever it is read (RTL
// from SSA: a read reached by no definition is not a value). What it
// proves is CompCert's preservation: the code does what the RTL does on
// every run where the RTL does not go wrong. A Div or Mod the RTL runs
// by 0 with no Check before it is such a run (cfg.Run stops with an
// internal error), and there the code may trap: nothing here, nor
// cfg.Verify, rules it out; the checkers of the passes before do
// (zerocheck's keeps a check, or a branch proving the divisor not 0,
// above each division), and the tests run the RTL.
func CheckSelection(f *cfg.Func, vf *VFunc, file string) error {
	if f == nil || vf == nil || len(vf.Blocks) == 0 {
		return fmt.Errorf("isel check: no function")
	}
	_, err := checkSelection(f, vf, file)
	return err
}

// checkSelection is CheckSelection, returning its checker for the tests
// to look into.
func checkSelection(f *cfg.Func, vf *VFunc, file string) (*selChecker, error) {
	c := &selChecker{f: f, vf: vf, file: file, tt: newTermTable()}
	if err := c.setup(); err != nil {
		return c, err
	}
	return c, c.run()
}

type selChecker struct {
	f    *cfg.Func
	vf   *VFunc
	file string
	tt   *termTable
	// vregOf is the virtual register of each RTL register, by its dense
	// number (rnum); argReg the argument's.
	rnum   *numbering.Table // by cfg.Reg
	regs   []cfg.Reg
	vregOf []VReg
	argReg VReg
	konst  []int64 // the value of a register whose only definition is a Const
	kok    []bool
	kblock []int32       // the block of that Const
	dom    dom.Intervals // the RTL's dominator tree
	// liveAt's: each register's exposed reads (useBlock[useAt[x]:useAt[x+1]]),
	// the blocks writing it, each block's predecessors, stamps for the
	// walks, and the live blocks of the registers asked about.
	useAt, useBlock []int32
	defAt, defBlock []int32
	predAt, pred    []int32
	mark, isDef     []int32
	gen             int32
	liveAtX         []int32
	liveBlocks      []int32
	work            []int32
	index           *numbering.Table // each block's index in f.Blocks, by ID
	// internal marks the machine blocks inside an RTL block's code: the
	// blocks a division's branches fall through to and the joins its cold
	// blocks jump back to.
	internal []bool
	// The current pair: the RTL block and the machine block.
	rb  int
	vb  int
	fr  map[VReg]tid // fresh values of temporaries and physical registers in this pair
	div []rtlDiv     // the divisions of the RTL block(s): never by 0 where run
	// checks are the RTL block's checks, in order: a path counts how many
	// of the first it proves false (path.proved), and a merge keeps the
	// fewest of the paths' (prove). checkAt is the first index of each
	// condition among them, divBy how many checks come before each
	// division by a term.
	checks  []event
	checkAt map[tid]int
	divBy   map[tid][]int
	// sameChecks is how many of the checks the RTL's run ends with are
	// c.checks's first (matchPath).
	sameChecks int
	limit      int // the most instructions a trace may run: 4 times the code's
	// A large block's check in segments (iselcut.go): its RTL run, the
	// generation of facts (termFacts.gen) and of the code's registers'
	// writes (vgen, by VReg), the registers let go at a cut (clob: stamp
	// of the block), the last read and write of each RTL register in the
	// block, and the cuts made (the tests').
	cut      *cutState
	factGen  int32
	vgen     []int32
	clob     []int32
	stamp    int32
	lastRead []int32
	lastDef  []int32
	cuts     int
}

// rtlDiv is a division of the RTL block, by a term: checks is how many
// of the block's Checks come before it.
type rtlDiv struct {
	by     tid
	checks int
}

// rstate is the RTL block's run: the registers it wrote, its checks.
type rstate struct {
	regs    map[int32]tid // read or written
	written []int32
	checks  []event
}

// event is a stop at a division stub: when cond holds, the program ends
// with msg.
type event struct {
	cond tid
	msg  string
	at   string // where, for messages
}

// fact is what a path knows of a value: it lies in the wrapped interval
// [lo, hi] (mod 2^64).
type fact struct {
	t      tid
	lo, hi uint64
}

// flagState is what the flags hold: cmp a,b (kind 1), test a,b (2), or
// nothing known (0).
type flagState struct {
	kind uint8
	a, b tid
}

// path is one way through the code of a block. Its registers, facts and
// pins are persistent maps (pmap): a fork copies none of them, and the
// paths that meet again differ only in what each set since (merge).
type path struct {
	blk, inst int
	regs      pmap[tid] // by VReg
	flags     flagState
	// facts holds the facts of each term, under its canonical form
	// (canon); pins the values facts pin to one constant, t and -t
	// (kept with facts: setFacts).
	facts pmap[*termFacts]
	pins  pmap[tid]
	// deep holds the pinned terms that are not tests against 0, t and
	// -t (either may be the older): substMemo does not look into terms
	// older than the oldest, which cannot hold one (a term is made after
	// its operands).
	deep   pmap[struct{}]
	dirty  []tid // the terms whose facts changed since consistent last looked
	proved int   // the leading checks of the block (c.checks) p proves false
	events []event
	conds  []tid // the terminator's branch conditions taken (negated when not taken)
	blocks []int // the machine blocks it ran, for messages
	branch loc   // the terminator's jcc, for messages
	exit   int   // the block it left for, -1 for a return, -2 when a stub ended it
	ret    tid
	// Of a path a stub ended: the index among c.checks of where it stops,
	// and whether that check is its stub's (settle).
	stopAt    int
	stopMatch bool
	// What putting the pins in made of each term (substMemo), kept until
	// the pins change (pinnedIn).
	subMemo map[tid]tid
}

// termFacts is the facts of one term: one wrapped interval (in one, made
// with it), or more where their intersection is not one. Never changed
// once made.
type termFacts struct {
	f   []fact
	one [1]fact
	gen int32 // c.factGen when made: a cut keeps the facts made since the last (tryCut)
}

func (p *path) clone() *path {
	q := *p
	q.dirty = slices.Clone(p.dirty)
	q.events = slices.Clone(p.events)
	q.conds = slices.Clone(p.conds)
	q.blocks = slices.Clone(p.blocks)
	q.subMemo = nil
	return &q
}

// setFacts makes fs (copied) the facts of the canonical term t on p,
// keeping the pins.
func (c *selChecker) setFacts(p *path, t tid, fs []fact) { c.setFactsGen(p, t, fs, c.factGen) }

// setFactsGen is setFacts made in generation gen.
func (c *selChecker) setFactsGen(p *path, t tid, fs []fact, gen int32) {
	switch len(fs) {
	case 0:
		p.facts = p.facts.del(int32(t))
	case 1:
		tf := &termFacts{one: [1]fact{fs[0]}, gen: gen}
		tf.f = tf.one[:]
		p.facts = p.facts.set(int32(t), tf)
	default:
		p.facts = p.facts.set(int32(t), &termFacts{f: slices.Clone(fs), gen: gen})
	}
	pin, pinned := uint64(0), false
	for _, f := range fs {
		if f.lo == f.hi {
			pin, pinned = f.lo, true
		}
	}
	old := p.pins
	if _, was := old.get(int32(t)); !pinned && !was {
		return // nor was it: no term -t made for nothing
	}
	nt := int32(c.tt.neg(t))
	if pinned {
		p.pins = p.pins.set(int32(t), c.tt.konst(int64(pin))).set(nt, c.tt.konst(-int64(pin)))
		// A test against 0 pinned (t == 0 is 0 where t is not, as
		// addFact adds) is put in where it is asked of, or met on the
		// way to a deep pin, but is no reason to look into older terms:
		// a path of n checked divisions pins n of them.
		if k := c.tt.get(t).kind; k != tEq && k != tNe {
			p.deep = p.deep.set(int32(t), struct{}{}).set(nt, struct{}{})
		}
	} else {
		p.pins = p.pins.del(int32(t)).del(nt)
		p.deep = p.deep.del(int32(t)).del(nt)
	}
	if p.pins != old {
		p.subMemo = nil
	}
}

func (c *selChecker) setup() error {
	f, vf := c.f, c.vf
	// Registers and block IDs are numbered by numbering.Tables (an array
	// by key where the keys are dense), not Go maps, which took several
	// times the bytes and live the whole check.
	nDst, nRead, nPred, maxReg, maxID := 0, 0, 0, int64(-1), int64(-1)
	for _, b := range f.Blocks {
		maxID = max(maxID, int64(b.ID))
		nRead++ // the terminator's
		nPred += len(b.Preds)
		for _, in := range b.Instrs {
			nRead += len(in.Args)
			if in.Op.HasDst() {
				nDst++
				maxReg = max(maxReg, int64(in.Dst))
			}
			for _, a := range in.Args {
				maxReg = max(maxReg, int64(a))
			}
		}
		maxReg = max(maxReg, int64(b.Term.Reg))
	}
	c.rnum = numbering.New(nDst, maxReg) // a register is written at least once, or grows the table
	num := func(r cfg.Reg) {
		if c.rnum.Lookup(int64(r)) < 0 {
			c.rnum.Set(int64(r), int32(len(c.regs)))
			c.regs = append(c.regs, r)
		}
	}
	c.index = numbering.New(len(f.Blocks), maxID)
	for i, b := range f.Blocks {
		if c.index.Lookup(int64(b.ID)) >= 0 {
			return fmt.Errorf("isel check: two blocks b%d", b.ID)
		}
		c.index.Set(int64(b.ID), int32(i))
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				num(in.Dst)
			}
		}
	}
	// Registers only read are numbered after the defined ones.
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				num(a)
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			num(b.Term.Reg)
		}
	}
	defs := make([]int32, len(c.regs))
	c.konst, c.kok, c.kblock = make([]int64, len(c.regs)), make([]bool, len(c.regs)), make([]int32, len(c.regs))
	for i, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				d := c.reg(in.Dst)
				defs[d]++
				if in.Op == cfg.OpConst {
					c.konst[d], c.kok[d] = in.Aux, true
					c.kblock[d] = int32(i)
				}
			}
		}
	}
	for d, n := range defs {
		c.kok[d] = c.kok[d] && n == 1
	}
	c.vregOf = make([]VReg, len(c.regs))
	c.argReg = -1
	for k, o := range vf.origin {
		v := FirstVirtual + VReg(k)
		switch {
		case o == argOrigin:
			if c.argReg >= 0 {
				return fmt.Errorf("isel check: two registers for the argument: %s and %s", vf.regName(c.argReg), vf.regName(v))
			}
			c.argReg = v
		case o > 0:
			x := c.rnum.Lookup(int64(o))
			if x < 0 {
				continue // an RTL register f does not mention: never live
			}
			if c.vregOf[x] != 0 {
				return fmt.Errorf("isel check: two virtual registers for v%d", o)
			}
			c.vregOf[x] = v
		}
	}
	c.liveness(nDst, nRead, nPred)
	start, succ := make([]int32, len(f.Blocks)+1), make([]int32, 0, len(f.Blocks)+len(f.Blocks)/2)
	for i, b := range f.Blocks {
		for _, t := range b.Succs() {
			succ = append(succ, c.block(t))
		}
		start[i+1] = int32(len(succ))
	}
	c.dom = dom.NewIntervals(dom.CooperHarveyKennedyFlat(start, succ))
	c.limit = 64
	for _, blk := range vf.Blocks {
		c.limit += 4 * len(blk.Insts)
	}
	c.internal = make([]bool, len(vf.Blocks))
	for b, blk := range vf.Blocks {
		n := len(blk.Insts)
		if n == 0 {
			continue
		}
		last := &blk.Insts[n-1]
		if last.Op == JCC && !last.ToStub && c.coldBlock(int(last.Target)) && b+1 < len(vf.Blocks) {
			c.internal[b+1] = true
		}
		if blk.Cold {
			for i := range blk.Insts {
				in := &blk.Insts[i]
				if (in.Op == JMP || in.Op == JCC) && !in.ToStub && in.Target >= 0 && int(in.Target) < len(vf.Blocks) && !c.coldBlock(int(in.Target)) {
					c.internal[in.Target] = true
				}
			}
		}
	}
	return nil
}

// reg is RTL register r's dense number (0 for one f does not mention,
// as a map would: setup numbers every register f reads or writes).
func (c *selChecker) reg(r cfg.Reg) int32 { return c.rnum.Get(int64(r)) }

// block is b's index in f.Blocks (0 for a block not in f, as a map would).
func (c *selChecker) block(b *cfg.Block) int32 { return c.index.Get(int64(b.ID)) }

func (c *selChecker) coldBlock(b int) bool {
	return b >= 0 && b < len(c.vf.Blocks) && c.vf.Blocks[b].Cold
}

// liveness prepares liveAt: the reads of each register not preceded by
// a write in their block (exposed), the blocks that write it, and each
// block's predecessors, each as one flat array with an index by register
// or block (csr). No live set is made here: a block of a program of
// nested loops can have thousands of registers live on entry, and the
// check needs the liveness of few (a register one side writes and the
// other does not, a constant the code reads from its register). The
// pairs are made at most as many as their bounds (nDst writes, nRead
// reads, nPred predecessors), not grown.
func (c *selChecker) liveness(nDst, nRead, nPred int) {
	f := c.f
	uses, defs := make([]regBlock, 0, nRead), make([]regBlock, 0, nDst)
	seen := make([]int32, len(c.regs))  // the block (+1) that last read or wrote each register
	wrote := make([]int32, len(c.regs)) // the block (+1) that last wrote it
	for i, b := range f.Blocks {
		g := int32(i + 1)
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				x := c.reg(a)
				if seen[x] != g { // read before any write in the block
					seen[x] = g
					uses = append(uses, regBlock{x, int32(i)})
				}
			}
			if in.Op.HasDst() {
				x := c.reg(in.Dst)
				seen[x] = g
				if wrote[x] != g {
					wrote[x] = g
					defs = append(defs, regBlock{x, int32(i)})
				}
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			if x := c.reg(b.Term.Reg); seen[x] != g {
				uses = append(uses, regBlock{x, int32(i)})
			}
		}
	}
	c.useAt, c.useBlock = csr(len(c.regs), uses)
	c.defAt, c.defBlock = csr(len(c.regs), defs)
	preds := make([]regBlock, 0, nPred)
	for i, b := range f.Blocks {
		for _, p := range b.Preds {
			preds = append(preds, regBlock{int32(i), c.block(p)})
		}
	}
	c.predAt, c.pred = csr(len(f.Blocks), preds)
	c.mark = make([]int32, len(f.Blocks))
	c.isDef = make([]int32, len(f.Blocks))
	c.liveAtX = make([]int32, len(c.regs))
}

// regBlock pairs a register, or a block, with a block.
type regBlock struct{ r, b int32 }

// csr lays the pairs out by r (0 <= r < n), in their order: r's blocks
// are b[at[r]:at[r+1]].
func csr(n int, pairs []regBlock) (at, b []int32) {
	at = make([]int32, n+1)
	for _, p := range pairs {
		at[p.r+1]++
	}
	for r := 1; r <= n; r++ {
		at[r] += at[r-1]
	}
	b = make([]int32, len(pairs))
	next := slices.Clone(at[:n])
	for _, p := range pairs {
		b[next[p.r]] = p.b
		next[p.r]++
	}
	return at, b
}

// liveAt reports whether RTL register x is live on entry to block b: a
// path from b's entry reaches a read of x with no write of x before it.
// Each register's blocks are found once, walking back from its exposed
// reads to the blocks that write it, and kept sorted in one array:
// liveBlocks[k] is their number and they follow it, for k = liveAtX[x]-1
// (liveAtX[x] is 0 until then).
func (c *selChecker) liveAt(x int32, b int) bool {
	if c.useAt[x] == c.useAt[x+1] {
		return false // read nowhere before a write in its block
	}
	if c.liveAtX[x] == 0 {
		c.gen++
		gen := c.gen
		for _, d := range c.defBlock[c.defAt[x]:c.defAt[x+1]] {
			c.isDef[d] = gen
		}
		from := len(c.liveBlocks)
		c.liveBlocks = append(c.liveBlocks, 0)
		work := c.work[:0]
		for _, u := range c.useBlock[c.useAt[x]:c.useAt[x+1]] {
			if c.mark[u] == gen {
				continue
			}
			c.mark[u] = gen
			c.liveBlocks = append(c.liveBlocks, u)
			work = append(work[:0], u)
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				for _, j := range c.pred[c.predAt[b]:c.predAt[b+1]] {
					if c.isDef[j] == gen || c.mark[j] == gen {
						continue
					}
					c.mark[j] = gen
					c.liveBlocks = append(c.liveBlocks, j)
					work = append(work, j)
				}
			}
		}
		c.work = work
		slices.Sort(c.liveBlocks[from+1:])
		c.liveBlocks[from] = int32(len(c.liveBlocks) - from - 1)
		c.liveAtX[x] = int32(from + 1)
	}
	k := c.liveAtX[x]
	set := c.liveBlocks[k : k+c.liveBlocks[k-1]]
	_, found := slices.BinarySearch(set, int32(b))
	return found
}

// pair is an RTL block and the machine block its code starts at.
type pair struct{ rtl, mach int }

func (c *selChecker) run() error {
	// The prologue: rdi holds the argument; it must leave the argument's
	// register holding it, and go to the entry's code.
	c.fr = map[VReg]tid{}
	c.rb, c.vb = -1, 0
	start := &path{blk: 0}
	start.regs = start.regs.set(int32(RDI), c.tt.input(argOrigin))
	paths, err := c.trace(start, true)
	if err != nil {
		return err
	}
	if len(paths) != 1 || paths[0].exit < 0 || len(paths[0].conds) != 0 || len(paths[0].events) != 0 {
		return fmt.Errorf("isel check: the prologue does not go straight to the entry block's code")
	}
	p := paths[0]
	if c.argReg >= 0 && c.value(p, c.argReg) != c.tt.input(argOrigin) {
		return fmt.Errorf("isel check: the prologue leaves %s = %s, not the argument", c.vf.regName(c.argReg), c.tt.String(c.value(p, c.argReg)))
	}
	if len(c.f.Blocks) == 0 {
		return nil
	}
	work := []pair{{0, p.exit}}
	var done pairSet
	done.init(len(c.f.Blocks))
	done.add(work[0])
	for len(work) > 0 {
		pr := work[len(work)-1]
		work = work[:len(work)-1]
		next, err := c.checkBlock(pr)
		if err != nil {
			return err
		}
		for _, n := range next {
			if !done.has(n) {
				if done.n > 2*len(c.f.Blocks)+16 {
					return fmt.Errorf("isel check: RTL blocks reached at more than two places each")
				}
				done.add(n)
				work = append(work, n)
			}
		}
	}
	return nil
}

// pairSet is run's set of pairs: the first two machine blocks (+1) of
// each RTL block in an array, two int32 a block where a map of pairs
// took some 40 bytes a pair; any more (an error soon: run) in a map.
type pairSet struct {
	at    []int32 // at[2*rtl], at[2*rtl+1]: mach+1, or 0
	extra map[pair]bool
	n     int // the pairs in the set
}

func (s *pairSet) init(blocks int) { s.at = make([]int32, 2*blocks) }

// slots is pr's RTL block's two slots, or nil where pr is not one of
// the array's.
func (s *pairSet) slots(pr pair) []int32 {
	if pr.rtl < 0 || 2*pr.rtl >= len(s.at) || pr.mach < 0 || pr.mach >= math.MaxInt32 {
		return nil
	}
	return s.at[2*pr.rtl : 2*pr.rtl+2]
}

func (s *pairSet) has(pr pair) bool {
	if sl := s.slots(pr); sl != nil && (sl[0] == int32(pr.mach+1) || sl[1] == int32(pr.mach+1)) {
		return true
	}
	return s.extra[pr]
}

// add puts pr, not in s, in s.
func (s *pairSet) add(pr pair) {
	s.n++
	if sl := s.slots(pr); sl != nil {
		for k := range sl {
			if sl[k] == 0 {
				sl[k] = int32(pr.mach + 1)
				return
			}
		}
	}
	if s.extra == nil {
		s.extra = map[pair]bool{}
	}
	s.extra[pr] = true
}

func (c *selChecker) where() string {
	if c.rb < 0 {
		return "the prologue"
	}
	return fmt.Sprintf("b%d (machine block %d)", c.f.Blocks[c.rb].ID, c.vb)
}

// initial is the value of RTL register x on entry to the block, as the
// RTL reads it (only where it is live): its constant, or its input.
func (c *selChecker) initial(x int32) tid {
	if c.kok[x] {
		return c.tt.konst(c.konst[x])
	}
	return c.tt.input(int64(c.regs[x]))
}

// value is register v's value on path p.
func (c *selChecker) value(p *path, v VReg) tid {
	if t, ok := p.regs.get(int32(v)); ok {
		return t
	}
	if c.clobbered(v) {
		return c.freshOf(v)
	}
	if v == c.argReg && c.rb >= 0 {
		// Past the prologue, which must have written it (run checks).
		return c.tt.input(argOrigin)
	}
	if k := int(v - FirstVirtual); k >= 0 && k < len(c.vf.origin) && c.rb >= 0 {
		if o := c.vf.origin[k]; o > 0 {
			if x := c.rnum.Lookup(o); x >= 0 {
				// A register holds its RTL register's value on entry (the
				// checks at each block's exits make sure of it where the
				// RTL reads it; where it does not, the RTL's terms never
				// name it); a constant's, where its Const's block strictly
				// dominates the block (the code writes a constant's
				// register with nothing else: matchPath).
				if !c.kok[x] {
					return c.tt.input(o)
				}
				if d := int(c.kblock[x]); d != c.rb && c.dom.Dominates(d, c.rb) {
					return c.tt.konst(c.konst[x])
				}
			}
		}
	}
	return c.freshOf(v)
}

// freshOf is the fresh value register v holds in this pair.
func (c *selChecker) freshOf(v VReg) tid {
	t, ok := c.fr[v]
	if !ok {
		t = c.tt.freshTerm()
		c.fr[v] = t
	}
	return t
}

// checkBlock checks the code of one RTL block from machine block
// pr.mach, and returns the pairs its paths leave for. Its terms are its
// own: it starts from an empty term table (tt.reset), since no term id
// crosses a block boundary (a large block's are rebuilt at cuts,
// startCuts and tryCut, its RTL then run a step at a time). Both sides
// start from the entry values (initial, value: inputs and constants made
// anew here), the fresh values of c.fr, the divisions, checks and their
// indexes (c.div, c.checks, checkAt, divBy) are remade here before any
// use, the paths and their maps and memos live within this call's trace
// and match, and what it returns, like run's work list, names blocks
// only. The prologue's terms (run) are dead before the first block's.
func (c *selChecker) checkBlock(pr pair) ([]pair, error) {
	c.rb, c.vb = pr.rtl, pr.mach
	c.tt.reset()
	c.fr = map[VReg]tid{}
	b := c.f.Blocks[pr.rtl]
	if c.internal[pr.mach] || c.coldBlock(pr.mach) {
		return nil, fmt.Errorf("isel check: %s: the code of an RTL block starts inside a division's code", c.where())
	}
	c.div = c.div[:0]
	rs := &rstate{regs: map[int32]tid{}}
	defer c.dropCuts()
	if !c.startCuts(b, rs) {
		if err := c.runRTL(b, rs); err != nil {
			return nil, err
		}
		c.checks = rs.checks
		if b.Term.Kind == cfg.TermJump {
			c.checks = append(slices.Clip(c.checks), c.peekChecks(b.Succs()[0], rs)...)
		}
		c.checkAt = map[tid]int{}
		for i := len(c.checks) - 1; i >= 0; i-- {
			c.checkAt[c.checks[i].cond] = i
		}
		c.divBy = map[tid][]int{}
		for _, d := range c.div {
			c.divBy[d.by] = append(c.divBy[d.by], d.checks)
		}
	}
	paths, err := c.trace(&path{blk: pr.mach}, false)
	if err != nil {
		return nil, err
	}
	if c.cut != nil {
		c.endCuts()
	}
	term := b
	if b.Term.Kind == cfg.TermJump {
		rotated := false
		for _, p := range paths {
			rotated = rotated || len(p.conds) > 0 || p.exit == -1
		}
		if rotated { // loop rotation: the code repeats the test of the block b jumps to
			h := b.Succs()[0]
			if h.Term.Kind != cfg.TermBranch {
				return nil, fmt.Errorf("isel check: %s: a conditional branch where the RTL jumps to b%d", c.where(), h.ID)
			}
			if err := c.runRTL(h, rs); err != nil {
				return nil, err
			}
			term = h
		}
	}
	c.sameChecks = 0
	for c.sameChecks < min(len(rs.checks), len(c.checks)) && rs.checks[c.sameChecks].cond == c.checks[c.sameChecks].cond {
		c.sameChecks++
	}
	var next []pair
	for _, p := range paths {
		n, err := c.matchPath(p, term, rs)
		if err != nil {
			return nil, err
		}
		if n.rtl >= 0 {
			next = append(next, n)
		}
	}
	return next, nil
}

// peekChecks is the checks of block h run after rs (for a rotated loop
// test), without changing rs.
func (c *selChecker) peekChecks(h *cfg.Block, rs *rstate) []event {
	has := false
	for _, in := range h.Instrs {
		has = has || in.Op == cfg.OpCheck
	}
	if !has {
		return nil
	}
	cp := &rstate{regs: maps.Clone(rs.regs)}
	div := len(c.div)
	err := c.runRTL(h, cp)
	c.div = c.div[:div] // h's divisions are not b's
	if err != nil {
		return nil
	}
	return cp.checks
}

// rval is RTL register r's value in rs.
func (c *selChecker) rval(rs *rstate, r cfg.Reg) tid {
	x := c.reg(r)
	if t, ok := rs.regs[x]; ok {
		return t
	}
	t := c.initial(x)
	rs.regs[x] = t
	return t
}

// stubMsg is the message of a division stub for a Check at line:col.
func (c *selChecker) stubMsg(line, col int32) string {
	return c.file + ":" + strconv.Itoa(int(line)) + ":" + strconv.Itoa(int(col)) + ": runtime error: division by zero\n"
}

// runRTL runs block b's instructions symbolically on rs.
func (c *selChecker) runRTL(b *cfg.Block, rs *rstate) error {
	for k := range b.Instrs {
		if err := c.rtlInst(b, k, rs); err != nil {
			return err
		}
	}
	return nil
}

// rtlInst runs instruction k of block b symbolically on rs.
func (c *selChecker) rtlInst(b *cfg.Block, k int, rs *rstate) error {
	tt := c.tt
	in := b.Instrs[k]
	var v tid
	switch {
	case in.Op == cfg.OpConst:
		v = tt.konst(in.Aux)
	case in.Op == cfg.OpArg:
		v = tt.input(argOrigin)
	case in.Op == cfg.OpCopy:
		v = c.rval(rs, in.Args[0])
	case in.Op == cfg.OpNeg:
		v = tt.neg(c.rval(rs, in.Args[0]))
	case in.Op == cfg.OpNot:
		v = tt.eqz(c.rval(rs, in.Args[0]))
	case in.Op == cfg.OpCheck:
		rs.checks = append(rs.checks, event{
			cond: tt.eqz(c.rval(rs, in.Args[0])),
			msg:  c.stubMsg(in.Pos.Line, in.Pos.Col),
			at:   fmt.Sprintf("b%d instruction %d (check at %d:%d)", b.ID, k, in.Pos.Line, in.Pos.Col),
		})
		return nil
	case in.Op.IsBinary():
		a, bb := c.rval(rs, in.Args[0]), c.rval(rs, in.Args[1])
		if in.Op == cfg.OpDiv || in.Op == cfg.OpMod {
			c.div = append(c.div, rtlDiv{bb, len(rs.checks)})
		}
		v = tt.binary(in.Op, a, bb)
	default:
		return fmt.Errorf("isel check: b%d instruction %d: RTL op %v", b.ID, k, in.Op)
	}
	x := c.reg(in.Dst)
	rs.regs[x] = v
	rs.written = append(rs.written, x)
	return nil
}

// trace runs the code from start along every path to where it leaves
// the RTL block's code: a jump or fall-through to a block that is neither
// cold nor internal, a return, or a stub whose condition certainly holds.
// Paths meeting at an internal block are merged (merge). The prologue's
// trace (prologue) is the code of no RTL block.
func (c *selChecker) trace(start *path, prologue bool) ([]*path, error) {
	var pending, done []*path
	pending = append(pending, start)
	steps, limit := 0, c.limit
	for len(pending) > 0 {
		// Cold blocks first, then the lowest block: every path into a join
		// is there before it runs on.
		k := 0
		for i, p := range pending {
			pc, kc := c.coldBlock(p.blk), c.coldBlock(pending[k].blk)
			if pc && !kc || pc == kc && (p.blk < pending[k].blk || p.blk == pending[k].blk && p.inst < pending[k].inst) {
				k = i
			}
		}
		p := pending[k]
		pending = slices.Delete(pending, k, k+1)
		if p.inst == 0 && !c.coldBlock(p.blk) {
			var same []*path
			rest := pending[:0]
			for _, q := range pending {
				if q.blk == p.blk && q.inst == 0 {
					same = append(same, q)
				} else {
					rest = append(rest, q)
				}
			}
			pending = rest
			if len(same) > 0 {
				m, err := c.merge(append(same, p))
				if err != nil {
					return nil, err
				}
				p = m
			}
		}
		// Run p to the end of its block or a branch.
		blk := c.vf.Blocks[p.blk]
		if p.inst == 0 {
			p.blocks = append(p.blocks, p.blk)
		}
		forked := false
		for p.inst < len(blk.Insts) && !forked {
			if c.cut != nil && len(pending) == 0 && len(c.tt.terms) >= c.cut.next {
				c.tryCut(p, &done)
			}
			steps++
			if steps > limit {
				return nil, fmt.Errorf("isel check: %s: the code does not leave the block", c.where())
			}
			in := &blk.Insts[p.inst]
			at := loc{c.vf, p.blk, p.inst}
			p.inst++
			switch in.Op {
			case RET:
				if prologue {
					return nil, fmt.Errorf("isel check: %s: a return in the prologue", at)
				}
				p.exit, p.ret = -1, c.value(p, VReg(RAX))
				done = append(done, p)
				forked = true
			case JMP:
				if in.ToStub { // the selector stops only on a condition (jcc)
					return nil, fmt.Errorf("isel check: %s: a jmp to a stub", at)
				}
				if err := c.goTo(p, int(in.Target), at, &pending, &done); err != nil {
					return nil, err
				}
				forked = true
			case JCC:
				cond, err := c.condition(p, in.Cond, at)
				if err != nil {
					return nil, err
				}
				if in.ToStub {
					if in.Target < 1 || int(in.Target) > len(c.vf.Stubs) {
						return nil, fmt.Errorf("isel check: %s: no such stub", at)
					}
					// Taken, the program stops there; not taken, the
					// path goes on knowing cond is false.
					stop := p.clone()
					stop.events = append(stop.events, event{cond: cond, msg: string(c.vf.Stubs[in.Target-1]), at: at.String()})
					if c.assumeFlags(stop, in.Cond, true) && c.assume(stop, cond, true) {
						stop.exit = -2
						c.settle(stop)
						done = append(done, stop)
					}
					if !c.assumeFlags(p, in.Cond, false) || !c.assume(p, cond, false) {
						forked = true
					}
					continue
				}
				taken := p.clone()
				feasT := c.assumeFlags(taken, in.Cond, true) && c.assume(taken, cond, true)
				feasN := c.assumeFlags(p, in.Cond, false) && c.assume(p, cond, false)
				target := int(in.Target)
				if !c.coldBlock(target) && !c.internalBlock(target) {
					taken.conds = append(taken.conds, cond)
					p.conds = append(p.conds, c.tt.not(cond))
					taken.branch, p.branch = at, at
				}
				if feasT {
					if err := c.goTo(taken, target, at, &pending, &done); err != nil {
						return nil, err
					}
				}
				if !feasN {
					forked = true
				}
			default:
				if err := c.exec(p, in, at); err != nil {
					return nil, fmt.Errorf("isel check: %s: %s", c.where(), strings.TrimPrefix(err.Error(), "isel check: "))
				}
			}
		}
		if !forked { // fall through
			if err := c.goTo(p, p.blk+1, loc{c.vf, p.blk, -1}, &pending, &done); err != nil {
				return nil, err
			}
		}
	}
	return done, nil
}

// loc is an instruction of the machine code (i = -1: its block's end),
// for messages.
type loc struct {
	vf   *VFunc
	b, i int
}

func (l loc) String() string {
	if l.i < 0 {
		return fmt.Sprintf("the end of machine block %d", l.b)
	}
	return fmt.Sprintf("machine block %d instruction %d (%s)", l.b, l.i, l.vf.Blocks[l.b].Insts[l.i].text(l.vf))
}

func (c *selChecker) internalBlock(b int) bool { return b >= 0 && b < len(c.internal) && c.internal[b] }

// goTo moves p to block b: on in the trace, or out of it.
func (c *selChecker) goTo(p *path, b int, at loc, pending, done *[]*path) error {
	if b < 0 || b >= len(c.vf.Blocks) {
		return fmt.Errorf("isel check: %s: control leaves the function (to block %d)", at, b)
	}
	if c.coldBlock(b) || c.internalBlock(b) {
		p.blk, p.inst = b, 0
		*pending = append(*pending, p)
		return nil
	}
	p.exit = b
	*done = append(*done, p)
	return nil
}

// merge joins the paths that meet at one block: a register keeps a value
// all give it, or one that each gives up to the values its facts pin
// (x / b on the path where b is -1 is -x); any other is unknown. A fact
// stays as the hull of the paths', the checks proved false by all stay
// proved. The paths were forked from one and share what none changed
// since: only what diff finds differing is looked at, so a merge costs
// what the paths did since they parted, not what the block did before.
func (c *selChecker) merge(ps []*path) (*path, error) {
	tt := c.tt
	m := &path{blk: ps[0].blk, regs: ps[0].regs, facts: ps[0].facts, pins: ps[0].pins, deep: ps[0].deep, exit: 0}
	var regKeys, factKeys []int32
	for _, p := range ps[1:] {
		diff(ps[0].regs, p.regs, func(k int32) { regKeys = append(regKeys, k) })
		diff(ps[0].facts, p.facts, func(k int32) { factKeys = append(factKeys, k) })
	}
	slices.Sort(regKeys)
	regKeys = slices.Compact(regKeys)
	for _, r := range regKeys {
		k := VReg(r)
		vals := make([]tid, len(ps))
		same := true
		for i, p := range ps {
			vals[i] = c.value(p, k)
			same = same && vals[i] == vals[0]
		}
		if same {
			m.regs = m.regs.set(r, vals[0])
			continue
		}
		v := tt.freshTerm()
		// A value that is not a constant first: a constant may hold
		// only by a path's own facts, which the merge drops.
		cands := slices.Clone(vals)
		slices.SortStableFunc(cands, func(x, y tid) int {
			_, xc := tt.isConst(x)
			_, yc := tt.isConst(y)
			return int(b2i(xc)) - int(b2i(yc))
		})
		for _, cand := range cands {
			ok := true
			for i, p := range ps {
				a, _ := c.pinnedIn(p, cand)
				if b, _ := c.pinnedIn(p, vals[i]); a != b {
					ok = false
					break
				}
			}
			if ok {
				v = cand
				break
			}
		}
		m.regs = m.regs.set(r, v)
	}
	m.flags = ps[0].flags
	m.proved = ps[0].proved
	for _, p := range ps {
		if p.flags != m.flags {
			m.flags = flagState{}
		}
		if len(p.conds) != len(ps[0].conds) || !slices.Equal(p.conds, ps[0].conds) {
			return nil, fmt.Errorf("isel check: %s: paths of different branches meet at machine block %d", c.where(), m.blk)
		}
		m.proved = min(m.proved, p.proved)
	}
	m.conds = ps[0].conds
	slices.Sort(factKeys)
	for _, t := range slices.Compact(factKeys) {
		c.setFacts(m, tid(t), c.hullFacts(ps, tid(t)))
	}
	c.prove(m, ps)
	return m, nil
}

// prove counts the checks of the block proved false on m: those proved
// on each of ps (m itself when ps is empty), from m.proved on, two at
// most: a path whose facts rule out many divisors at once (arg in
// [0, 2^31) rules out arg + k for every later k) would otherwise prove
// them again after each merge with a path whose facts do not. The code
// meets the checks one at a time, so the count keeps up with it; a check
// not counted is left to provedFalse (which may still prove it from the
// facts), never wrongly counted.
func (c *selChecker) prove(m *path, ps []*path) {
	for n := 0; n < 2 && m.proved < len(c.checks); n++ {
		cond := c.checks[m.proved].cond
		all := true
		for _, p := range ps {
			all = all && c.provedFalse(p, cond)
		}
		if len(ps) == 0 {
			all = c.provedFalse(m, cond)
		}
		if !all {
			return
		}
		m.proved++
	}
}

// hullFacts is what all of ps know of term t: when every path has a fact
// of it, the smallest wrapped interval holding each path's tightest one.
func (c *selChecker) hullFacts(ps []*path, t tid) []fact {
	var h fact
	for i, p := range ps {
		tf, ok := p.facts.get(int32(t))
		if !ok {
			return nil
		}
		best := tf.f[0]
		for _, f := range tf.f[1:] {
			if f.hi-f.lo < best.hi-best.lo {
				best = f
			}
		}
		if i == 0 {
			h = best
		} else {
			h = hull(h, best)
		}
	}
	if h.hi-h.lo == ^uint64(0) {
		return nil
	}
	return []fact{h}
}

// within2 reports whether the wrapped interval y lies in x.
func within2(x, y fact) bool {
	off := func(v uint64) uint64 { return v - x.lo }
	return off(y.lo) <= off(y.hi) && off(y.hi) <= off(x.hi)
}

// hull is the smallest wrapped interval holding a and b.
func hull(a, b fact) fact {
	best := fact{a.t, 0, ^uint64(0)}
	for _, h := range []fact{a, b, {a.t, a.lo, b.hi}, {a.t, b.lo, a.hi}} {
		if within2(h, a) && within2(h, b) && h.hi-h.lo < best.hi-best.lo {
			best = h
		}
	}
	return best
}

// pinnedIn is x with the values p's facts pin put in, and whether they
// pin any: substMemo of p.pins, with a memo kept on p until its pins
// change, as merge, same and provedFalse ask it of many terms (a block of
// n checked divisions cost n^3 when each made its own).
func (c *selChecker) pinnedIn(p *path, x tid) (tid, bool) {
	if p.pins.root == nil {
		return x, false
	}
	if p.subMemo == nil {
		p.subMemo = map[tid]tid{}
	}
	return c.substMemo(x, p, -1, p.subMemo), true
}

// substMemo is x with the terms p pins replaced, but for own and -own
// (-1: none), normalized again, remembering in memo what each term
// became, for a caller that puts the same pins into many terms
// (pinnedIn): they share their subterms, and each is rebuilt once. It
// does not look into a term older than every pin of p.deep, which holds
// none of them (a term is made after its operands, a form x + k after x:
// mkLinNoRecog); what the pinned tests against 0 in it would make of it
// is not found there.
func (c *selChecker) substMemo(x tid, p *path, own tid, memo map[tid]tid) tid {
	nown := tid(-1)
	if own >= 0 {
		nown = c.tt.neg(own)
	}
	pin := func(x tid) (tid, bool) {
		if x == own || x == nown {
			return 0, false
		}
		return p.pins.get(int32(x))
	}
	floor := tid(math.MaxInt32)
	if d, ok := p.deep.min(); ok {
		floor = tid(d)
	}
	var walk func(x tid) tid
	walk = func(x tid) tid {
		if r, ok := pin(x); ok {
			return r
		}
		if r, ok := memo[x]; ok {
			return r
		}
		tt := c.tt
		t := *tt.get(x)
		r := x
		if x < floor {
			memo[x] = r
			return r
		}
		switch t.kind {
		case tConst, tIn, tFresh:
		case tLin:
			if x0, k0, ok := c.shifted(x); ok { // x0 + k0, x0 pinned
				if v, ok := pin(x0); ok {
					r = tt.addConst(v, k0)
					break
				}
			}
			items := make([]linItem, 0, len(t.lin))
			k := t.k
			for _, it := range t.lin {
				w := walk(it.t)
				var wi []linItem
				var wk int64
				wi, wk = tt.linOf(nil, w)
				for _, x := range wi {
					items = append(items, linItem{x.t, x.c * it.c})
				}
				k += wk * it.c
			}
			r = tt.mkLin(items, k)
		case tEq:
			r = tt.eqz(walk(t.a))
		case tNe:
			r = tt.nez(walk(t.a))
		default:
			a, b := walk(t.a), walk(t.b)
			r = c.apply(t.kind, a, b)
		}
		if v, ok := pin(r); ok { // rebuilt into a pinned value
			r = v
		}
		memo[x] = r
		return r
	}
	return walk(x)
}

// apply makes the term of a binary kind.
func (c *selChecker) apply(kind tkind, a, b tid) tid {
	tt := c.tt
	switch kind {
	case tAnd:
		return tt.and(a, b)
	case tOr:
		return tt.or(a, b)
	case tXor:
		return tt.xor(a, b)
	case tMul:
		return tt.mul(a, b)
	case tMulHi:
		return tt.mulHi(a, b)
	case tShl:
		return tt.shl(a, b)
	case tSar:
		return tt.sar(a, b)
	case tShr:
		return tt.shr(a, b)
	case tDiv:
		return tt.div(a, b)
	case tMod:
		return tt.mod(a, b)
	case tLt:
		return tt.lt(a, b)
	case tLe:
		return tt.le(a, b)
	case tUlt:
		return tt.ult(a, b)
	case tUle:
		return tt.ule(a, b)
	case tSet8:
		return tt.mk(tSet8, a, b, 0)
	}
	return tt.freshTerm()
}

// condition is the condition cc of the flags on p.
func (c *selChecker) condition(p *path, cc Cond, at loc) (tid, error) {
	tt := c.tt
	a, b := p.flags.a, p.flags.b
	switch p.flags.kind {
	case 1: // cmp a, b: the flags of a - b
		switch cc {
		case CondE:
			return tt.eq(a, b), nil
		case CondNE:
			return tt.ne(a, b), nil
		case CondL:
			return tt.lt(a, b), nil
		case CondGE:
			return tt.le(b, a), nil
		case CondLE:
			return tt.le(a, b), nil
		case CondG:
			return tt.lt(b, a), nil
		case CondB:
			return tt.ult(a, b), nil
		case CondAE:
			return tt.ule(b, a), nil
		case CondBE:
			return tt.ule(a, b), nil
		case CondA:
			return tt.ult(b, a), nil
		}
	case 2: // test a, b: the flags of a & b, OF = CF = 0
		t := tt.and(a, b)
		zero := tt.konst(0)
		switch cc {
		case CondE:
			return tt.eqz(t), nil
		case CondNE:
			return tt.nez(t), nil
		case CondL:
			return tt.lt(t, zero), nil
		case CondGE:
			return tt.le(zero, t), nil
		case CondLE:
			return tt.le(t, zero), nil
		case CondG:
			return tt.lt(zero, t), nil
		}
	default:
		return 0, fmt.Errorf("isel check: %s: reads flags no cmp or test set", at)
	}
	return 0, fmt.Errorf("isel check: %s: condition %v not modeled after %s", at, cc, [...]string{"", "cmp", "test"}[p.flags.kind])
}

// inWrapped reports whether v lies in the wrapped interval [lo, hi].
func inWrapped(lo, hi, v uint64) bool {
	if lo <= hi {
		return lo <= v && v <= hi
	}
	return v >= lo || v <= hi
}

// pieces is the wrapped interval [lo, hi] as one or two plain ones.
func pieces(lo, hi uint64) [][2]uint64 {
	if lo <= hi {
		return [][2]uint64{{lo, hi}}
	}
	return [][2]uint64{{lo, ^uint64(0)}, {0, hi}}
}

// intersect is the intersection of two wrapped intervals: empty, one
// wrapped interval (one), or more than one can say (neither).
func intersect(a, b fact) (r fact, empty, one bool) {
	var out [][2]uint64
	for _, x := range pieces(a.lo, a.hi) {
		for _, y := range pieces(b.lo, b.hi) {
			lo, hi := max(x[0], y[0]), min(x[1], y[1])
			if lo <= hi {
				out = append(out, [2]uint64{lo, hi})
			}
		}
	}
	switch len(out) {
	case 0:
		return r, true, false
	case 1:
		return fact{a.t, out[0][0], out[0][1]}, false, true
	case 2:
		slices.SortFunc(out, func(x, y [2]uint64) int {
			if x[0] < y[0] {
				return -1
			}
			return 1
		})
		if out[0][0] == 0 && out[1][1] == ^uint64(0) {
			return fact{a.t, out[1][0], out[0][1]}, false, true
		}
	}
	return r, false, false
}

// canon is the term facts about t are kept under: t, or -t when t is a
// linear form whose first coefficient is negative (neg reports which).
func (c *selChecker) canon(t tid) (tid, bool) {
	if tm := c.tt.get(t); tm.kind == tLin && tm.lin[0].c < 0 {
		return c.tt.neg(t), true
	}
	return t, false
}

// addFact records that t lies in [lo, hi] on p; false if p cannot be.
func (c *selChecker) addFact(p *path, t tid, lo, hi uint64) bool {
	if k, ok := c.tt.isConst(t); ok {
		return inWrapped(lo, hi, uint64(k))
	}
	if ct, neg := c.canon(t); neg {
		t, lo, hi = ct, -hi, -lo
	}
	nf := fact{t, lo, hi}
	if c.tt.isBool(t) { // 0 or 1
		r, empty, one := intersect(nf, fact{t, 0, 1})
		if empty {
			return false
		}
		if one {
			nf = r
		}
	}
	// Intersect with every fact of t that gives one interval with it.
	var buf [4]fact
	out := buf[:0]
	if tf, ok := p.facts.get(int32(t)); ok {
		for _, f := range tf.f {
			r, empty, one := intersect(f, nf)
			if empty {
				return false
			}
			if one {
				nf = r
				continue
			}
			out = append(out, f)
		}
	}
	c.setFacts(p, t, append(out, nf))
	p.dirty = append(p.dirty, t)
	// What it says of t == 0, under that comparison's own normal form
	// (x % 2 == 0 of a boolean x is !x): a check's condition is that.
	if !c.tt.isBool(t) {
		switch {
		case !inWrapped(nf.lo, nf.hi, 0):
			return c.addFact(p, c.tt.eqz(t), 0, 0)
		case nf.lo == 0 && nf.hi == 0:
			return c.addFact(p, c.tt.eqz(t), 1, 1)
		}
	}
	return true
}

// factsOn calls fn with each interval p's facts give t.
func (c *selChecker) factsOn(p *path, t tid, fn func(lo, hi uint64) bool) bool {
	ct, neg := c.canon(t)
	tf, ok := p.facts.get(int32(ct))
	if !ok {
		return false
	}
	for _, f := range tf.f {
		lo, hi := f.lo, f.hi
		if neg {
			lo, hi = -hi, -lo
		}
		if fn(lo, hi) {
			return true
		}
	}
	return false
}

// shifted returns x and k when t is x + k, k not 0, x a term with no
// constant.
func (c *selChecker) shifted(t tid) (tid, int64, bool) {
	tm := c.tt.get(t)
	if tm.kind != tLin || tm.k == 0 {
		return 0, 0, false
	}
	return c.tt.mkLin(slices.Clone(tm.lin), 0), tm.k, true
}

// constrain records t in [lo, hi], and the same of x when t is x + k.
func (c *selChecker) constrain(p *path, t tid, lo, hi uint64) bool {
	if !c.addFact(p, t, lo, hi) {
		return false
	}
	if x, k, ok := c.shifted(t); ok {
		return c.addFact(p, x, lo-uint64(k), hi-uint64(k))
	}
	return true
}

// assume adds to p that cond is truth; false if p cannot go that way.
func (c *selChecker) assume(p *path, cond tid, truth bool) bool {
	if !c.assume1(p, cond, truth) || !c.consistent(p) {
		return false
	}
	c.prove(p, nil)
	return true
}

// consistent reports whether p's facts can hold together as far as the
// values they pin tell: the value of each fact changed since it last ran
// (p.dirty), with the pins put in (but its own), must lie in its interval
// when it becomes a constant. It only prunes paths that cannot be run,
// so what it does not look at can only make the checker reject more,
// never accept wrong code: it does not look again at the older facts
// when a new pin comes (a fact is checked against the pins there are
// when it changes), which kept a block of n checked divisions quadratic,
// each adding a pin (t == 0 is 0 where t is not 0: addFact).
func (c *selChecker) consistent(p *path) bool {
	dirty := p.dirty
	p.dirty = p.dirty[:0]
	if p.pins.root == nil {
		return true
	}
	for n, t := range dirty {
		if slices.Contains(dirty[:n], t) {
			continue
		}
		tf, ok := p.facts.get(int32(t))
		if !ok {
			continue
		}
		var r tid
		_, pinned := p.pins.get(int32(t))
		if pinned {
			// A pinned value is put in everywhere but in itself.
			r = c.substMemo(t, p, t, map[tid]tid{})
		} else {
			// All the pins: p's own memo (pinnedIn), which the facts
			// share (a memo for each made a block of n checked divisions
			// cost n^3).
			r, _ = c.pinnedIn(p, t)
		}
		k, ok := c.tt.isConst(r)
		if !ok {
			continue
		}
		for _, f := range tf.f {
			if !inWrapped(f.lo, f.hi, uint64(k)) {
				return false
			}
		}
	}
	return true
}

// assumeFlags adds to p what the flags say when condition cc is taken
// (or not): of cmp a,b, a - b == 0 or not, and a against a constant b
// unsigned; of test a,a, a == 0 or not. These are the raw terms, before
// the comparison's normal form (which may name them otherwise: x % 2 == 0
// as x & 1 == 0); false if p cannot go that way.
func (c *selChecker) assumeFlags(p *path, cc Cond, taken bool) bool {
	if !taken {
		cc = cc.Invert()
	}
	const all = ^uint64(0)
	a, b := p.flags.a, p.flags.b
	switch p.flags.kind {
	case 1:
		switch cc {
		case CondE:
			return c.constrain(p, c.tt.sub(a, b), 0, 0)
		case CondNE:
			return c.constrain(p, c.tt.sub(a, b), 1, all)
		}
		k, ok := c.tt.isConst(b)
		if !ok {
			return true
		}
		K := uint64(k)
		switch cc {
		case CondB:
			return K != 0 && c.constrain(p, a, 0, K-1)
		case CondAE:
			return c.constrain(p, a, K, all)
		case CondBE:
			return c.constrain(p, a, 0, K)
		case CondA:
			return K != all && c.constrain(p, a, K+1, all)
		}
	case 2:
		if a != b {
			return true
		}
		switch cc {
		case CondE:
			return c.constrain(p, a, 0, 0)
		case CondNE:
			return c.constrain(p, a, 1, all)
		}
	}
	return true
}

func (c *selChecker) assume1(p *path, cond tid, truth bool) bool {
	tt := c.tt
	if !truth {
		cond = tt.not(cond)
	}
	t := *tt.get(cond)
	const all = ^uint64(0)
	if t.kind != tConst && tt.isBool(cond) && (!c.constrain(p, cond, 1, 1) || !c.constrain(p, tt.not(cond), 0, 0)) {
		return false
	}
	switch t.kind {
	case tConst:
		return t.k != 0
	case tEq:
		return c.constrain(p, t.a, 0, 0)
	case tNe:
		return c.constrain(p, t.a, 1, all)
	case tUle, tUlt:
		strict := uint64(b2i(t.kind == tUlt))
		if k, ok := tt.isConst(t.b); ok {
			if uint64(k) < strict {
				return false
			}
			return c.constrain(p, t.a, 0, uint64(k)-strict)
		}
		if k, ok := tt.isConst(t.a); ok {
			if uint64(k) == all && strict == 1 {
				return false
			}
			return c.constrain(p, t.b, uint64(k)+strict, all)
		}
	}
	return true
}

// excludes reports whether p's facts rule out t = v, or -t = -v.
func (c *selChecker) excludes(p *path, t tid, v uint64) bool {
	return c.excludes1(p, t, v) || c.excludes1(p, c.tt.neg(t), -v)
}

func (c *selChecker) excludes1(p *path, t tid, v uint64) bool {
	if k, ok := c.tt.isConst(t); ok {
		return uint64(k) != v
	}
	if c.tt.isBool(t) && v > 1 {
		return true
	}
	if x, k, ok := c.shifted(t); ok && c.tt.isBool(x) && v-uint64(k) > 1 {
		return true // x + k with x 0 or 1
	}
	out := func(lo, hi uint64) bool { return !inWrapped(lo, hi, v) }
	if c.factsOn(p, t, out) {
		return true
	}
	x, k, sh := c.shifted(t)
	return sh && c.factsOn(p, x, func(lo, hi uint64) bool { return out(lo+uint64(k), hi+uint64(k)) })
}

// within reports whether p's facts put t in the plain interval [lo, hi].
func (c *selChecker) within(p *path, t tid, lo, hi uint64) bool {
	if k, ok := c.tt.isConst(t); ok {
		return lo <= uint64(k) && uint64(k) <= hi
	}
	in := func(a, b uint64) bool { return a <= b && lo <= a && b <= hi }
	if c.factsOn(p, t, in) {
		return true
	}
	x, k, sh := c.shifted(t)
	return sh && c.factsOn(p, x, func(a, b uint64) bool { return in(a+uint64(k), b+uint64(k)) })
}

// same reports whether a and b are one value on p: one term, or one once
// the values p's facts pin are put in.
func (c *selChecker) same(p *path, a, b tid) bool {
	if a == b {
		return true
	}
	ra, ok := c.pinnedIn(p, a)
	rb, _ := c.pinnedIn(p, b)
	return ok && ra == rb
}

// provedFalse reports whether p's facts make cond false.
func (c *selChecker) provedFalse(p *path, cond tid) bool {
	if i, ok := c.checkAt[cond]; ok && i < p.proved {
		return true
	}
	if r, ok := c.pinnedIn(p, cond); ok {
		if k, ok := c.tt.isConst(r); ok && k == 0 {
			return true
		}
	}
	t := c.tt.get(cond)
	switch t.kind {
	case tConst:
		return t.k == 0
	case tEq:
		if c.excludes(p, t.a, 0) {
			return true
		}
	}
	// A boolean is false when it cannot be 1, or its negation 0.
	return c.tt.isBool(cond) && (c.excludes(p, cond, 1) || c.excludes(p, c.tt.not(cond), 0))
}

// operand is the value an instruction reads from a: a register, or an
// immediate that fits its 32 bits (sign-extended).
func (c *selChecker) operand(p *path, a *VArg, at loc) (tid, error) {
	switch a.Kind {
	case KindReg:
		return c.value(p, a.R), nil
	case KindImm:
		if a.Imm != int64(int32(a.Imm)) {
			return 0, fmt.Errorf("isel check: %s: immediate %d does not fit 32 bits", at, a.Imm)
		}
		return c.tt.konst(a.Imm), nil
	}
	return 0, fmt.Errorf("isel check: %s: operand kind %v not modeled", at, a.Kind)
}

// exec runs one instruction that is not a branch on p.
func (c *selChecker) exec(p *path, in *VInst, at loc) error {
	tt := c.tt
	d := in.Dst.R
	if in.Dst.Kind != KindReg && in.Op != CQO {
		return fmt.Errorf("isel check: %s: destination kind %v not modeled", at, in.Dst.Kind)
	}
	set := func(v VReg, t tid) {
		p.regs = p.regs.set(int32(v), t)
		if c.cut != nil && v >= 0 && int(v) < len(c.vgen) {
			c.vgen[v] = c.factGen
		}
	}
	src := func() (tid, error) { return c.operand(p, &in.Src, at) }
	dst := func() tid { return c.value(p, d) }
	rax, rdx := VReg(RAX), VReg(RDX)
	switch in.Op {
	case MOV:
		s, err := src()
		if err != nil {
			return err
		}
		set(d, s)
	case MOVL:
		if in.Src.Kind != KindImm || in.Src.Imm < 0 || in.Src.Imm > 0xFFFFFFFF {
			return fmt.Errorf("isel check: %s: mov r32 takes an immediate in [0, 2^32)", at)
		}
		set(d, tt.konst(in.Src.Imm))
	case MOVABS:
		if in.Src.Kind != KindImm {
			return fmt.Errorf("isel check: %s: movabs takes an immediate", at)
		}
		set(d, tt.konst(in.Src.Imm))
	case XORL:
		if in.Src.Kind != KindReg || in.Src.R != d {
			return fmt.Errorf("isel check: %s: xor r32 of two registers not modeled", at)
		}
		set(d, tt.konst(0))
		p.flags = flagState{}
	case ADD, SUB, AND, OR, XOR, IMUL:
		s, err := src()
		if err != nil {
			return err
		}
		a := dst()
		var r tid
		switch in.Op {
		case ADD:
			r = tt.add(a, s)
		case SUB:
			r = tt.sub(a, s)
		case AND:
			r = tt.and(a, s)
		case OR:
			r = tt.or(a, s)
		case XOR:
			r = tt.xor(a, s)
		default:
			r = tt.mul(a, s)
		}
		set(d, r)
		p.flags = flagState{}
	case IMUL3:
		if in.Src.Kind != KindReg || in.Dst.Imm != int64(int32(in.Dst.Imm)) {
			return fmt.Errorf("isel check: %s: imul r,r,imm32 wants a register and a 32-bit immediate", at)
		}
		set(d, tt.mul(c.value(p, in.Src.R), tt.konst(in.Dst.Imm)))
		p.flags = flagState{}
	case NEG:
		set(d, tt.neg(dst()))
		p.flags = flagState{}
	case NOT:
		set(d, tt.addConst(tt.neg(dst()), -1))
	case SHL, SHR, SAR:
		var n tid
		switch {
		case in.Src.Kind == KindImm && in.Src.Imm >= 0 && in.Src.Imm < 256:
			n = tt.konst(in.Src.Imm & 63)
		case in.Src.Kind == KindReg && in.Src.R == VReg(RCX):
			n = c.value(p, VReg(RCX))
		default:
			return fmt.Errorf("isel check: %s: a shift counts by an imm8 or cl", at)
		}
		a := dst()
		switch in.Op {
		case SHL:
			set(d, tt.shl(a, n))
		case SHR:
			set(d, tt.shr(a, n))
		default:
			set(d, tt.sar(a, n))
		}
		p.flags = flagState{}
	case LEA:
		m := &in.Src
		if m.Kind != KindMem {
			return fmt.Errorf("isel check: %s: lea of no memory operand", at)
		}
		r := tt.konst(int64(m.Disp()))
		if m.R != NoVReg {
			r = tt.add(r, c.value(p, m.R))
		}
		if ix := m.Index(); ix != NoVReg {
			switch m.Scale {
			case 1, 2, 4, 8:
			default:
				return fmt.Errorf("isel check: %s: scale %d", at, m.Scale)
			}
			r = tt.add(r, tt.scale(c.value(p, ix), int64(m.Scale)))
		}
		set(d, r)
	case CMP, TEST:
		a, err := c.operand(p, &in.Dst, at)
		if err != nil {
			return err
		}
		b, err := src()
		if err != nil {
			return err
		}
		p.flags = flagState{kind: 1, a: a, b: b}
		if in.Op == TEST {
			p.flags.kind = 2
		}
	case SETCC:
		cond, err := c.condition(p, in.Cond, at)
		if err != nil {
			return err
		}
		set(d, tt.mk(tSet8, dst(), cond, 0))
	case MOVZX:
		if in.Src.Kind != KindReg {
			return fmt.Errorf("isel check: %s: movzx from a register", at)
		}
		s := c.value(p, in.Src.R)
		switch t := tt.get(s); {
		case t.kind == tSet8:
			s = t.b
		case tt.isBool(s):
		default:
			s = tt.and(s, tt.konst(0xff))
		}
		set(d, s)
	case CQO:
		set(rdx, tt.sar(c.value(p, rax), tt.konst(63)))
	case IMUL1:
		x, y := c.value(p, rax), c.value(p, d)
		set(rax, tt.mul(x, y))
		set(rdx, tt.mulHi(x, y))
		p.flags = flagState{}
	case IDIV:
		x, y := c.value(p, rax), c.value(p, d)
		if c.value(p, rdx) != tt.sar(x, tt.konst(63)) {
			return fmt.Errorf("isel check: %s: idiv where rdx is not rax's sign (cqo)", at)
		}
		if !c.nonZero(p, y) {
			return fmt.Errorf("isel check: %s: idiv by %s, which may be 0", at, tt.String(y))
		}
		if !c.excludes(p, y, ^uint64(0)) && !c.excludes(p, x, 1<<63) {
			return fmt.Errorf("isel check: %s: idiv of %s by %s, which may be MinInt / -1", at, tt.String(x), tt.String(y))
		}
		set(rax, tt.div(x, y))
		set(rdx, tt.mod(x, y))
		p.flags = flagState{}
	case DIVL:
		x, y := c.value(p, rax), c.value(p, d)
		if k, ok := tt.isConst(c.value(p, rdx)); !ok || k != 0 {
			return fmt.Errorf("isel check: %s: div r32 where edx is not 0", at)
		}
		if !c.within(p, x, 0, 1<<32-1) || !c.within(p, y, 1, 1<<32-1) {
			return fmt.Errorf("isel check: %s: div r32 of %s by %s, not proved in [0, 2^32) and [1, 2^32)", at, tt.String(x), tt.String(y))
		}
		set(rax, tt.div(x, y))
		set(rdx, tt.mod(x, y))
		p.flags = flagState{}
	default:
		return fmt.Errorf("isel check: %s: instruction not modeled", at)
	}
	return nil
}

// lastWrite names the last instruction of p's blocks that writes v, for
// messages.
func (c *selChecker) lastWrite(p *path, v VReg) string {
	for k := len(p.blocks) - 1; k >= 0; k-- {
		insts := c.vf.Blocks[p.blocks[k]].Insts
		for i := len(insts) - 1; i >= 0; i-- {
			o := insts[i].operands()
			if slices.Contains(o.regs[o.nu:o.n], regalloc.Reg(v)) {
				return " (last written by " + loc{c.vf, p.blocks[k], i}.String() + ")"
			}
		}
	}
	return ""
}

// nonZero reports whether y is certainly not 0 where it divides: ruled
// out by p's facts, or the divisor of one of the RTL block's divisions
// (never 0 where the RTL divides) whose Checks before it p proved false.
func (c *selChecker) nonZero(p *path, y tid) bool {
	if c.excludes(p, y, 0) {
		return true
	}
	// The RTL divides by y only where it has not stopped at a Check
	// before: the code's division may count on it once the path has
	// proved each of those false.
	for len(c.divBy[y]) == 0 && c.rtlMore() { // a block in segments: its RTL run further
	}
	for _, n := range c.divBy[y] {
		if n <= len(c.checks) {
			proved := true
			for _, e := range c.checks[min(p.proved, n):n] {
				if proved = c.provedFalse(p, e.cond); !proved {
					break
				}
			}
			if proved {
				return true
			}
		}
	}
	return false
}

// settle decides where the stop path p stops among the block's checks
// (c.checks, which the RTL's run ends with: matchPath checks it): at the
// first, from those p proved false on, whose message and condition are
// its stub's (stopMatch), or that p does not prove false. It then lets
// p's maps go: the block's trace keeps its stop paths to its end, one a
// checked division, and they held every version of the paths' maps.
func (c *selChecker) settle(p *path) {
	ev := p.events[len(p.events)-1]
	i := p.proved
	for ; ; i++ {
		for i >= len(c.checks) && c.rtlMore() { // a block in segments: its RTL run further
		}
		if i >= len(c.checks) {
			break
		}
		e := c.checks[i]
		if e.msg == ev.msg && c.same(p, e.cond, ev.cond) {
			p.stopMatch = true
			break
		}
		if !c.provedFalse(p, e.cond) {
			break
		}
	}
	p.stopAt = i
	p.regs, p.facts, p.pins, p.deep = pmap[tid]{}, pmap[*termFacts]{}, pmap[tid]{}, pmap[struct{}]{}
	p.dirty, p.blocks, p.subMemo = nil, nil, nil
}

// matchPath compares path p with the RTL block's run rs ending in term's
// terminator, and returns the pair p leaves for ({-1, -1} for none).
func (c *selChecker) matchPath(p *path, term *cfg.Block, rs *rstate) (pair, error) {
	tt := c.tt
	none := pair{-1, -1}
	// The checks, in order: a path that stops at a stub stops at the first
	// check that can hold, with its message; any other proves each false.
	// The first p.proved of c.checks are proved false, and begin rs's.
	from := min(p.proved, c.sameChecks)
	if p.exit == -2 {
		// Where it stops was found as it did (settle), among c.checks.
		ev := p.events[len(p.events)-1]
		if c.sameChecks < len(rs.checks) {
			return none, fmt.Errorf("isel check: %s: the RTL's checks are not those the code was traced with", c.where())
		}
		if i := p.stopAt; i < len(rs.checks) {
			if p.stopMatch {
				return none, nil // the program stops here, as the RTL's does
			}
			e := rs.checks[i]
			return none, fmt.Errorf("isel check: %s: the code stops at %s with %q when %s, where the check of %s may stop it with %q when %s", c.where(), ev.at, strings.TrimSuffix(ev.msg, "\n"), tt.String(ev.cond), e.at, strings.TrimSuffix(e.msg, "\n"), tt.String(e.cond))
		}
		return none, fmt.Errorf("isel check: %s: the code stops at %s with %q when %s, which no check of the RTL does", c.where(), ev.at, strings.TrimSuffix(ev.msg, "\n"), tt.String(ev.cond))
	}
	for _, e := range rs.checks[from:] {
		if !c.provedFalse(p, e.cond) {
			return none, fmt.Errorf("isel check: %s: the check of %s (%s when %s) is missing: a path goes on when it may hold", c.where(), e.at, strings.TrimSuffix(e.msg, "\n"), tt.String(e.cond))
		}
	}
	if c.argReg >= 0 {
		if v, ok := p.regs.get(int32(c.argReg)); ok && v != tt.input(argOrigin) {
			return none, fmt.Errorf("isel check: %s: the argument's register is overwritten with %s", c.where(), tt.String(v))
		}
	}
	tk := term.Term
	if p.exit == -1 {
		if tk.Kind != cfg.TermReturn {
			return none, fmt.Errorf("isel check: %s: the code returns, the RTL does not", c.where())
		}
		if want := c.rval(rs, tk.Reg); !c.same(p, p.ret, want) {
			return none, fmt.Errorf("isel check: %s: returns %s%s, the RTL %s", c.where(), tt.String(p.ret), c.lastWrite(p, VReg(RAX)), tt.String(want))
		}
		return none, nil
	}
	var t *cfg.Block
	switch tk.Kind {
	case cfg.TermJump:
		if len(p.conds) != 0 {
			return none, fmt.Errorf("isel check: %s: the code branches, the RTL jumps", c.where())
		}
		t = term.Succs()[0]
	case cfg.TermBranch:
		cond := tt.nez(c.rval(rs, tk.Reg))
		switch {
		case len(p.conds) == 0 && cond == tt.konst(1):
			t = term.Succs()[0]
		case len(p.conds) == 0 && cond == tt.konst(0):
			t = term.Succs()[1]
		case len(p.conds) == 1 && c.same(p, p.conds[0], cond):
			t = term.Succs()[0]
		case len(p.conds) == 1 && c.same(p, p.conds[0], tt.not(cond)):
			t = term.Succs()[1]
		default:
			got := "always"
			if len(p.conds) > 0 {
				got = tt.String(p.conds[0])
			}
			by := ""
			if len(p.conds) > 0 {
				by = " (by " + p.branch.String() + ")"
			}
			return none, fmt.Errorf("isel check: %s: a path to machine block %d is taken when %s%s, the RTL branches on %s", c.where(), p.exit, got, by, tt.String(cond))
		}
	default:
		return none, fmt.Errorf("isel check: %s: the code leaves for machine block %d, the RTL returns", c.where(), p.exit)
	}
	// Every register either side wrote must agree, but
	// where it is dead in t: a value the code need not make.
	ti := int(c.block(t))
	keys := slices.Clone(rs.written)
	p.regs.each(func(r int32, _ tid) {
		if x := c.originReg(VReg(r)); x >= 0 {
			keys = append(keys, x)
		}
	})
	slices.Sort(keys)
	for n, x := range keys {
		v := c.vregOf[x]
		if v == 0 || n > 0 && keys[n-1] == x {
			continue
		}
		want, got := c.rval(rs, c.regs[x]), c.value(p, v)
		if !c.same(p, want, got) && (c.kok[x] || c.liveAt(x, ti)) {
			return none, fmt.Errorf("isel check: %s: on the way to b%d (machine block %d), %s holds %s%s, the RTL's v%d %s", c.where(), t.ID, p.exit, c.vf.regName(v), tt.String(got), c.lastWrite(p, v), c.regs[x], tt.String(want))
		}
	}
	return pair{ti, p.exit}, nil
}
