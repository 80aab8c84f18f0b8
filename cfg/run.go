package cfg

import (
	"fmt"

	"son/syntax"
)

// The interpreter: the small-step semantics of paper 003 (section 4.2,
// figure 8) on blocks. A state is a block and the registers' values.
// Within a block the instructions run in order; the terminator picks the
// next block; taking the edge from a block to the k-th predecessor slot of
// its successor runs the successor's Phis on that edge, all at once: every
// k-th argument is read before any Phi is assigned (phistore and its
// parallel assignment property). The same rule serves the RTL level, which
// has no Phis. Run does not need a verified function: whatever is wrong
// with the part of the function it reaches is reported as an internal
// error, distinct from the program's own RuntimeErrors.
//
// Blocks are translated on first entry into a form with registers
// numbered densely, so a run costs O(steps) after O(size) of set-up.
//
// A step is one operation performed: a Phi assigned, an instruction or a
// terminator executed. son.Run counts alike (a control move or a data node
// evaluated), so that a step limit means about the same work at both
// levels: cfg.Run takes 0.7 to 0.8 times as many steps as son.Run on the
// loops of TestStepsAgreeAcrossLevels (it computes a constant once, where
// son.Run evaluates it in each environment).

// DefaultSteps is the step budget when Limits.Steps is 0.
const DefaultSteps = 100_000_000

// Limits bounds a run.
type Limits struct {
	Steps int64 // Phis assigned, instructions and terminators executed before "step limit exceeded"; 0 means DefaultSteps
}

// RuntimeError is a failure of the program, not of the compiler: the same
// messages as son.RuntimeError.
type RuntimeError struct {
	Pos syntax.Pos // where known: the Check, for a division by zero
	Msg string     // "division by zero", "step limit exceeded (N steps)"
}

func (e *RuntimeError) Error() string { return "runtime error: " + e.Msg }

// Run executes f with the argument arg and returns the value of the Return
// it reaches. A Check of 0 stops it with a *RuntimeError "division by
// zero" at the Check's position; so does running out of steps, counting
// one step per Phi assigned, instruction and terminator. Any other error is an
// internal one, a malformed function: reading a register that has no
// value, a Div or Mod by zero that no Check stopped, a block without a
// terminator, an edge missing from the Preds of its target, and so on.
func Run(f *Func, arg int64, lim Limits) (int64, error) {
	if len(f.Blocks) == 0 {
		return 0, fmt.Errorf("cfg.Run: function %s has no blocks", funcName(f.Name))
	}
	limit := lim.Steps
	if limit <= 0 {
		limit = DefaultSteps
	}
	m := &machine{f: f, pos: positions(f), regs: newRegMap(f), code: make([]runBlock, len(f.Blocks))}
	m.val = make([]int64, m.regs.len())
	m.has = make([]bool, m.regs.len())

	var steps int64
	stepLimit := func() error {
		return &RuntimeError{Msg: fmt.Sprintf("step limit exceeded (%d steps)", limit)}
	}
	rb, err := m.block(0)
	if err != nil {
		return 0, err
	}
	for {
		b := rb.b
		for k := range rb.instrs {
			if steps >= limit {
				return 0, stepLimit()
			}
			steps++
			if err := m.exec(b, k, &rb.instrs[k], arg); err != nil {
				return 0, err
			}
		}
		if steps >= limit {
			return 0, stepLimit()
		}
		steps++
		j := 0 // which successor
		switch b.Term.Kind {
		case TermReturn:
			v, ok := m.read(rb.term)
			if !ok {
				return 0, m.noValue(b, termWhere(b), b.Term.Reg)
			}
			return v, nil
		case TermBranch:
			v, ok := m.read(rb.term)
			if !ok {
				return 0, m.noValue(b, termWhere(b), b.Term.Reg)
			}
			if v == 0 {
				j = 1
			}
		}
		next, k := rb.succ[j], rb.edge[j]
		if k < 0 {
			return 0, fmt.Errorf("cfg.Run: %v: %s: %v is not among the predecessors of %v", b, termWhere(b), b, b.Succs()[j])
		}
		if rb, err = m.block(next); err != nil {
			return 0, err
		}
		// Each Phi assigned on entry is a step.
		phis := int64(len(rb.dsts))
		if steps+phis > limit {
			return 0, stepLimit()
		}
		steps += phis
		if err := m.enter(rb, k); err != nil {
			return 0, err
		}
	}
}

// machine is the state of a run.
type machine struct {
	f    *Func
	pos  *blockIndex
	regs *regMap
	val  []int64    // by register slot
	has  []bool     // whether the slot has a value yet
	code []runBlock // by position, translated on first entry
	tmp  []int64    // the values of a block's Phis, read before any is assigned

	// Chunks that the translated blocks' slices are cut from.
	instrArena []runInstr
	slotArena  []int32
	argsArena  [][]int32

	preds map[int]map[*Block]int // for blocks with many predecessors: predecessor -> index
}

// runBlock is a block translated for running.
type runBlock struct {
	b      *Block    // nil until translated
	phis   [][]int32 // phis[i][k] is the slot of the k-th argument of Phis[i]
	dsts   []int32   // dsts[i] is the slot of the destination of Phis[i]
	instrs []runInstr
	term   int32  // slot of the terminator's register
	succ   [2]int // positions of the successors
	edge   [2]int // edge[j]: the index of b in Succs[j].Preds, or -1
}

// take returns n fresh elements cut from *arena, which is refilled by
// chunks: a few large allocations rather than several per block. The
// chunks double from 64 elements to 4,096, so that a small function, run
// once (as the checkers' tests run every level), does not clear 128 KB.
func take[T any](arena *[]T, n int) []T {
	if cap(*arena)-len(*arena) < n {
		*arena = make([]T, 0, max(n, min(4096, max(64, 2*cap(*arena)))))
	}
	a := *arena
	*arena = a[:len(a)+n]
	return a[len(a) : len(a)+n : len(a)+n]
}

// runInstr is an instruction with its registers as slots (-1 for none).
type runInstr struct {
	in      *Instr
	dst     int32
	a0, a1  int32
	hasArgs int
}

// block returns the block at position i, translated, or an internal error
// if it cannot run.
func (m *machine) block(i int) (*runBlock, error) {
	if rb := &m.code[i]; rb.b != nil {
		return rb, nil
	}
	b := m.f.Blocks[i]
	if b == nil {
		return nil, fmt.Errorf("cfg.Run: block %d is nil", i)
	}
	slot := func(r Reg) int32 { return int32(m.regs.slot(r)) }
	rb := runBlock{term: slot(b.Term.Reg)}
	if len(b.Phis) > 0 {
		rb.phis = take(&m.argsArena, len(b.Phis))
		rb.dsts = take(&m.slotArena, len(b.Phis))
	}
	for k, p := range b.Phis {
		if p == nil {
			return nil, fmt.Errorf("cfg.Run: %v: phi %d is nil", b, k)
		}
		args := take(&m.slotArena, len(p.Args))
		for j, a := range p.Args {
			args[j] = slot(a)
		}
		rb.phis[k] = args
		rb.dsts[k] = slot(p.Dst)
		if rb.dsts[k] < 0 {
			return nil, fmt.Errorf("cfg.Run: %v: %s: no destination register", b, phiWhere(k, p))
		}
	}
	rb.instrs = take(&m.instrArena, len(b.Instrs))
	for k, in := range b.Instrs {
		if in == nil {
			return nil, fmt.Errorf("cfg.Run: %v: instr %d is nil", b, k)
		}
		if in.Op == OpInvalid || in.Op >= numOps || len(in.Args) != in.Op.NumArgs() {
			return nil, fmt.Errorf("cfg.Run: %v: %s: bad op or arity", b, instrWhere(k, in))
		}
		ri := runInstr{in: in, dst: slot(in.Dst), a0: -1, a1: -1, hasArgs: len(in.Args)}
		if in.Op.HasDst() && ri.dst < 0 {
			return nil, fmt.Errorf("cfg.Run: %v: %s: no destination register", b, instrWhere(k, in))
		}
		if len(in.Args) > 0 {
			ri.a0 = slot(in.Args[0])
		}
		if len(in.Args) > 1 {
			ri.a1 = slot(in.Args[1])
		}
		rb.instrs[k] = ri
	}
	n := 0
	switch b.Term.Kind {
	case TermJump:
		n = 1
	case TermBranch:
		n = 2
	case TermReturn:
	default:
		return nil, fmt.Errorf("cfg.Run: %v: the block has no terminator", b)
	}
	if len(b.Succs()) != n {
		return nil, fmt.Errorf("cfg.Run: %v: %s: %d successors", b, termWhere(b), len(b.Succs()))
	}
	for k, s := range b.Succs() {
		j, ok := m.pos.of(s)
		if !ok {
			return nil, fmt.Errorf("cfg.Run: %v: %s: successor %v is not a block of the function", b, termWhere(b), s)
		}
		rb.succ[k] = j
		rb.edge[k] = m.predIndex(j, b)
	}
	rb.b = b
	m.code[i] = rb
	return &m.code[i], nil
}

// predIndex returns the index of b among the predecessors of the block at
// position j (the first, if b is there twice), or -1. A block with many
// predecessors gets a map, so that translating all of them stays linear.
func (m *machine) predIndex(j int, b *Block) int {
	s := m.f.Blocks[j]
	if len(s.Preds) <= 8 {
		for k, p := range s.Preds {
			if p == b {
				return k
			}
		}
		return -1
	}
	if m.preds == nil {
		m.preds = map[int]map[*Block]int{}
	}
	idx := m.preds[j]
	if idx == nil {
		idx = make(map[*Block]int, len(s.Preds))
		for k := len(s.Preds) - 1; k >= 0; k-- {
			idx[s.Preds[k]] = k
		}
		m.preds[j] = idx
	}
	if k, ok := idx[b]; ok {
		return k
	}
	return -1
}

// read returns the value of the register in slot s, if it has one.
func (m *machine) read(s int32) (int64, bool) {
	if s < 0 || !m.has[s] {
		return 0, false
	}
	return m.val[s], true
}

func (m *machine) write(s int32, v int64) {
	m.val[s] = v
	m.has[s] = true
}

func (m *machine) noValue(b *Block, where string, r Reg) error {
	if r <= 0 {
		return fmt.Errorf("cfg.Run: %v: %s: %v is not a register", b, where, r)
	}
	return fmt.Errorf("cfg.Run: %v: %s: %v has no value", b, where, r)
}

// enter runs the Phis of rb on the edge from its k-th predecessor: every
// argument is read, then every destination written.
func (m *machine) enter(rb *runBlock, k int) error {
	if len(rb.phis) == 0 {
		return nil
	}
	m.tmp = m.tmp[:0]
	for i, args := range rb.phis {
		if k >= len(args) {
			p := rb.b.Phis[i]
			return fmt.Errorf("cfg.Run: %v: %s: no argument for predecessor %d, %v", rb.b, phiWhere(i, p), k, rb.b.Preds[k])
		}
		v, ok := m.read(args[k])
		if !ok {
			p := rb.b.Phis[i]
			return m.noValue(rb.b, phiWhere(i, p), p.Args[k])
		}
		m.tmp = append(m.tmp, v)
	}
	for i, d := range rb.dsts {
		m.write(d, m.tmp[i])
	}
	return nil
}

// exec runs instruction k of b.
func (m *machine) exec(b *Block, k int, ri *runInstr, arg int64) error {
	in := ri.in
	var x, y int64
	if ri.hasArgs > 0 {
		var ok bool
		if x, ok = m.read(ri.a0); !ok {
			return m.noValue(b, instrWhere(k, in), in.Args[0])
		}
		if ri.hasArgs > 1 {
			if y, ok = m.read(ri.a1); !ok {
				return m.noValue(b, instrWhere(k, in), in.Args[1])
			}
		}
	}
	var v int64
	switch op := in.Op; op {
	case OpConst:
		v = in.Aux
	case OpArg:
		v = arg
	case OpCheck:
		if x == 0 {
			return &RuntimeError{Pos: in.Pos, Msg: "division by zero"}
		}
		return nil
	case OpCopy, OpNeg, OpNot:
		v = EvalUnary(op, x)
	case OpDiv, OpMod:
		if y == 0 {
			return fmt.Errorf("cfg.Run: %v: %s: division by zero that no Check stopped", b, instrWhere(k, in))
		}
		v = EvalBinary(op, x, y)
	default:
		v = EvalBinary(op, x, y)
	}
	m.write(ri.dst, v)
	return nil
}
