package gsa

import (
	"fmt"

	"son/cfg"
	"son/pred"
)

// Run executes g with the argument arg (paper 004, figure 7) and returns
// the value of the Return it reaches. Instructions and terminators run as
// in cfg.Run. Leaving a block l for l' by its Jump first runs the η block
// of l, all at once: each η's predicate must evaluate to 1 in the current
// registers, and every source is read before any destination is written
// (rule ETA); then, if l' is a junction, its merge block, all at once on
// the registers the ηs left (rule JOIN; NJOIN runs the ηs alone): a μ
// takes the argument of the predecessor control comes from, a γ the
// first argument whose predicate evaluates to 1 — the edge plays no part.
// An atom over a register that has no value yet evaluates to ½. An η
// whose predicate is not 1, or a γ with no predicate at 1, is stuck: an
// internal error naming the block, like every other malformed function.
//
// Steps count as in cfg.Run: one per instruction and terminator executed
// and one per μ, γ or η assigned; evaluating predicates costs no steps,
// so the GSA of a function takes as many steps as its SSA form plus one
// per η executed. Division by zero and the step limit are
// *cfg.RuntimeErrors, as in cfg.Run.
func Run(g *Func, arg int64, lim cfg.Limits) (int64, error) {
	f := g.Code
	if len(f.Blocks) == 0 || len(g.Merges) != len(f.Blocks) || len(g.Etas) != len(f.Blocks) {
		return 0, fmt.Errorf("gsa.Run: function %s: no blocks, or maps of another size", f.Name)
	}
	limit := lim.Steps
	if limit <= 0 {
		limit = cfg.DefaultSteps
	}
	pos := make(map[*cfg.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		pos[b] = i
	}
	size := int(maxReg(f)) + 1
	for _, ms := range g.Merges {
		for _, m := range ms {
			size = max(size, int(m.Dst)+1)
		}
	}
	for _, es := range g.Etas {
		for _, e := range es {
			size = max(size, int(e.Dst)+1)
		}
	}
	val := make([]int64, size)
	has := make([]bool, size)
	read := func(r cfg.Reg) (int64, bool) {
		if r <= 0 || int(r) >= size || !has[r] {
			return 0, false
		}
		return val[r], true
	}
	env := func(r cfg.Reg) (int64, bool) { return read(r) }
	noValue := func(b *cfg.Block, what string, r cfg.Reg) error {
		return fmt.Errorf("gsa.Run: %v: %s: %v has no value", b, what, r)
	}
	stepLimit := func() error {
		return &cfg.RuntimeError{Msg: fmt.Sprintf("step limit exceeded (%d steps)", limit)}
	}
	var steps int64
	var tmp []int64
	cur := 0
	for {
		b := f.Blocks[cur]
		for k, in := range b.Instrs {
			if steps >= limit {
				return 0, stepLimit()
			}
			steps++
			var x, y int64
			var ok bool
			if len(in.Args) != in.Op.NumArgs() {
				return 0, fmt.Errorf("gsa.Run: %v: instr %d %v: bad arity", b, k, in)
			}
			if len(in.Args) > 0 {
				if x, ok = read(in.Args[0]); !ok {
					return 0, noValue(b, in.String(), in.Args[0])
				}
			}
			if len(in.Args) > 1 {
				if y, ok = read(in.Args[1]); !ok {
					return 0, noValue(b, in.String(), in.Args[1])
				}
			}
			var v int64
			switch op := in.Op; {
			case op == cfg.OpConst:
				v = in.Aux
			case op == cfg.OpArg:
				v = arg
			case op == cfg.OpCheck:
				if x == 0 {
					return 0, &cfg.RuntimeError{Pos: in.Pos, Msg: "division by zero"}
				}
				continue
			case op == cfg.OpCopy || op == cfg.OpNeg || op == cfg.OpNot:
				v = cfg.EvalUnary(op, x)
			case op == cfg.OpDiv || op == cfg.OpMod:
				if y == 0 {
					return 0, fmt.Errorf("gsa.Run: %v: %v: division by zero that no Check stopped", b, in)
				}
				v = cfg.EvalBinary(op, x, y)
			case op.IsBinary():
				v = cfg.EvalBinary(op, x, y)
			default:
				return 0, fmt.Errorf("gsa.Run: %v: %v: bad op", b, in)
			}
			if in.Dst <= 0 || int(in.Dst) >= size {
				return 0, fmt.Errorf("gsa.Run: %v: %v: bad destination", b, in)
			}
			val[in.Dst], has[in.Dst] = v, true
		}
		if steps >= limit {
			return 0, stepLimit()
		}
		steps++
		j := 0
		switch b.Term.Kind {
		case cfg.TermReturn:
			v, ok := read(b.Term.Reg)
			if !ok {
				return 0, noValue(b, b.TermString(), b.Term.Reg)
			}
			return v, nil
		case cfg.TermBranch:
			v, ok := read(b.Term.Reg)
			if !ok {
				return 0, noValue(b, b.TermString(), b.Term.Reg)
			}
			if v == 0 {
				j = 1
			}
			if len(g.Etas[cur]) > 0 {
				return 0, fmt.Errorf("gsa.Run: %v: an η block at a block that branches", b)
			}
		case cfg.TermJump:
		default:
			return 0, fmt.Errorf("gsa.Run: %v: the block has no terminator", b)
		}
		if j >= len(b.Succs()) {
			return 0, fmt.Errorf("gsa.Run: %v: %s: %d successors", b, b.TermString(), len(b.Succs()))
		}
		next := b.Succs()[j]
		ni, ok := pos[next]
		if !ok {
			return 0, fmt.Errorf("gsa.Run: %v: successor %v is not a block of the function", b, next)
		}

		// Rule ETA: the η block of the block left, in parallel.
		if es := g.Etas[cur]; len(es) > 0 {
			if steps+int64(len(es)) > limit {
				return 0, stepLimit()
			}
			steps += int64(len(es))
			tmp = tmp[:0]
			for _, e := range es {
				if e == nil || e.Pred == nil {
					return 0, fmt.Errorf("gsa.Run: %v: an η without a predicate", b)
				}
				if v := pred.Eval(e.Pred, env); v != pred.V1 {
					return 0, fmt.Errorf("gsa.Run: %v: %v = η(%v, %v): the predicate is %v, not 1", b, e.Dst, e.Pred, e.Src, v)
				}
				v, ok := read(e.Src)
				if !ok {
					return 0, noValue(b, "η", e.Src)
				}
				tmp = append(tmp, v)
			}
			for i, e := range es {
				if e.Dst <= 0 || int(e.Dst) >= size {
					return 0, fmt.Errorf("gsa.Run: %v: η to %v: bad destination", b, e.Dst)
				}
				val[e.Dst], has[e.Dst] = tmp[i], true
			}
		}

		// Rule JOIN: the merge block of a junction, in parallel.
		if ms := g.Merges[ni]; len(ms) > 0 && len(next.Preds) > 1 {
			k := -1
			for i, p := range next.Preds {
				if p == b {
					k = i
					break
				}
			}
			if k < 0 {
				return 0, fmt.Errorf("gsa.Run: %v: %v is not among the predecessors of %v", b, b, next)
			}
			if steps+int64(len(ms)) > limit {
				return 0, stepLimit()
			}
			steps += int64(len(ms))
			tmp = tmp[:0]
			for _, m := range ms {
				if m == nil {
					return 0, fmt.Errorf("gsa.Run: %v: a nil merge instruction", next)
				}
				var r cfg.Reg
				switch m.Kind {
				case Mu:
					if k >= len(m.Args) {
						return 0, fmt.Errorf("gsa.Run: %v: %v = μ: no argument for predecessor %d", next, m.Dst, k)
					}
					r = m.Args[k]
				case Gamma:
					for i, p := range m.Preds {
						if p == nil {
							return 0, fmt.Errorf("gsa.Run: %v: %v = γ: argument %d has no predicate", next, m.Dst, i)
						}
						if i < len(m.Args) && pred.Eval(p, env) == pred.V1 {
							r = m.Args[i]
							break
						}
					}
					if r == 0 {
						return 0, fmt.Errorf("gsa.Run: %v: %v = γ: no predicate evaluates to 1 (coming from %v)", next, m.Dst, b)
					}
				}
				v, ok := read(r)
				if !ok {
					return 0, noValue(next, "merge of "+m.Dst.String(), r)
				}
				tmp = append(tmp, v)
			}
			for i, m := range ms {
				if m.Dst <= 0 || int(m.Dst) >= size {
					return 0, fmt.Errorf("gsa.Run: %v: merge to %v: bad destination", next, m.Dst)
				}
				val[m.Dst], has[m.Dst] = tmp[i], true
			}
		}
		cur = ni
	}
}
