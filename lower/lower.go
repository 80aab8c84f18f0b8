// Package lower translates a resolved Simple program straight to a cfg.Func
// at the RTL level: every variable is one register, assigned as many times
// as the program assigns it, and expressions compute into fresh temporary
// registers. There is no SSA and no Sea of Nodes on the way: this is the
// second way into the compiler, the one a front end producing ordinary
// three-address code takes (paper 003's "RTL"), written apart from son's
// graph builder.
//
// The result is normalized as in paper 003, section 3.2 (cfg.Verify's
// critical-edge and join-entry rules), holds only blocks reachable from the
// entry, lists them in reverse postorder with each block's Preds in block
// order, and follows docs/LANGUAGE.md: && || ?: and chains short-circuit,
// a bool variable keeps the low bit of what is stored in it, break and
// continue leave or restart the innermost loop (a for loop's continue runs
// its Next), and falling off the end returns 0. A division or remainder by
// a value that is not a non-zero literal is preceded by a Check at the
// position of its operator (the / or %, or the /= or %= of a statement),
// where ref.Run reports a division by zero.
package lower

import (
	"errors"
	"fmt"

	"son/cfg"
	"son/syntax"
)

// Func lowers the resolved program f to an RTL function named name. Its
// error is an internal one: a construct a resolved program cannot hold.
func Func(f *syntax.File, name string) (fn *cfg.Func, err error) {
	if f == nil || f.Body == nil || f.Arg == nil {
		return nil, errors.New("lower: not a resolved program")
	}
	l := &lowerer{numVars: f.NumVars, next: cfg.Reg(f.NumVars) + 1}
	l.cur = l.newBlock()
	l.emit(&cfg.Instr{Op: cfg.OpArg, Dst: l.varReg(f.Arg)})
	l.stmts(f.Body.List)
	if l.cur != nil { // fell off the end
		z := l.constant(0)
		l.term(cfg.TermReturn, z, syntax.Pos{})
	}
	if l.err != nil {
		return nil, l.err
	}
	return l.finish(name), nil
}

// lowerer holds the function being built. Blocks get their Succs as they
// are terminated; Preds, positions and IDs are set by finish.
type lowerer struct {
	blocks  []*cfg.Block
	cur     *cfg.Block // the block being filled; nil after a jump, break, continue or return
	numVars int
	next    cfg.Reg // the next temporary register
	loops   []loop  // enclosing loops, innermost last
	depth   int32   // the loop depth of the blocks being made: the loops whose head they are in or after
	err     error
}

// loop is where break and continue go.
type loop struct{ brk, cont *cfg.Block }

func (l *lowerer) newBlock() *cfg.Block {
	b := &cfg.Block{ID: len(l.blocks), LoopDepth: l.depth}
	l.blocks = append(l.blocks, b)
	return b
}

// varReg is the register of a variable: its ID + 1.
func (l *lowerer) varReg(v *syntax.Var) cfg.Reg {
	if v == nil || v.ID < 0 || v.ID >= l.numVars {
		l.fail("lower: unresolved variable %v", v)
		return 1
	}
	return cfg.Reg(v.ID + 1)
}

func (l *lowerer) fail(format string, args ...any) {
	if l.err == nil {
		l.err = fmt.Errorf(format, args...)
	}
}

func (l *lowerer) temp() cfg.Reg {
	r := l.next
	l.next++
	return r
}

// block returns the block to emit into, starting an unreachable one after
// a jump (finish drops it).
func (l *lowerer) block() *cfg.Block {
	if l.cur == nil {
		l.cur = l.newBlock()
	}
	return l.cur
}

func (l *lowerer) emit(in *cfg.Instr) { b := l.block(); b.Instrs = append(b.Instrs, in) }

// op emits dst = op args at pos and returns dst; dst 0 means a new temporary.
func (l *lowerer) op(op cfg.Op, dst cfg.Reg, pos syntax.Pos, args ...cfg.Reg) cfg.Reg {
	if dst == 0 {
		dst = l.temp()
	}
	l.emit(&cfg.Instr{Op: op, Dst: dst, Args: args, Pos: pos})
	return dst
}

func (l *lowerer) constant(v int64) cfg.Reg {
	r := l.temp()
	l.emit(&cfg.Instr{Op: cfg.OpConst, Dst: r, Aux: v})
	return r
}

// term ends the current block; a jump's or branch's targets are set by
// the caller through jump and branch.
func (l *lowerer) term(kind cfg.TermKind, r cfg.Reg, pos syntax.Pos, succs ...*cfg.Block) {
	b := l.block()
	b.Term = cfg.Term{Kind: kind, Reg: r, Pos: pos}
	b.SetSuccs(succs...)
	l.cur = nil
}

func (l *lowerer) jump(to *cfg.Block) { l.term(cfg.TermJump, 0, syntax.Pos{}, to) }

func (l *lowerer) branch(c cfg.Reg, pos syntax.Pos, t, f *cfg.Block) {
	l.term(cfg.TermBranch, c, pos, t, f)
}

// jumpTo ends the current block, if any, with a jump to b and continues in b.
func (l *lowerer) jumpTo(b *cfg.Block) {
	if l.cur != nil {
		l.jump(b)
	}
	l.cur = b
}
