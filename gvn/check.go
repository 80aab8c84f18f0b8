// CheckRewrite, the checker run after gvn with checking on: the function it
// left against the one it got, under the validated numbering. Cost: linear.

package gvn

import (
	"errors"
	"fmt"
	"strings"

	"son/cfg"
)

// CheckRewrite verifies the rewrite of a pass of gvn: that out is in with
// definitions replaced by copies of congruent registers, uses renamed to
// congruent registers and unused definitions removed, and nothing else.
// in is the function as the pipeline recorded it before the pass, out the
// function the pass left, and n the numbering that Validate accepted on
// in: two registers of one number hold the same value wherever both are
// defined (paper 003, GVN_spec), so a use may read either, and a register
// may become a copy of the other. It trusts n only because Validate
// accepted it, and cfg.Verify (run after the pass) for the dominance of
// every use; it reads nothing else of the pass. The rules:
//
//   - cfg: the blocks, their edges and the kinds of their terminators are
//     those of in;
//   - def: every Phi and instruction of out defines a register that in
//     defines in the same block (a Phi stays a Phi; a Phi may become a
//     Copy at the start of its block);
//   - copy: a definition that became a Copy copies a register of its
//     number;
//   - same: any other instruction keeps its op, constant and number of
//     arguments, and each argument (a Phi's too, and a terminator's
//     register) has the number of the one it replaces, position by
//     position;
//   - order: the instructions of a block keep their order, and every
//     instruction without a destination (a Check) stays.
//
// Every problem names the block, the definition and the rule. Cost:
// linear in in and out.
func CheckRewrite(in, out *cfg.Func, n Numbering) error {
	var probs []string
	bad := func(b *cfg.Block, rule, format string, args ...any) {
		probs = append(probs, fmt.Sprintf("%v: %s: ", b, rule)+fmt.Sprintf(format, args...))
	}
	if in == nil || out == nil {
		return errors.New("gvn: nothing to compare")
	}
	if len(in.Blocks) != len(out.Blocks) {
		return fmt.Errorf("gvn: cfg: %d blocks after the pass, %d before", len(out.Blocks), len(in.Blocks))
	}
	// where is the definition of a register of in: its block's position,
	// and its Phi or its instruction with the instruction's index.
	type where struct {
		block int
		ph    *cfg.Phi
		in    *cfg.Instr
		index int
	}
	defs := map[cfg.Reg]where{}
	posIn := make(map[*cfg.Block]int, len(in.Blocks))
	posOut := make(map[*cfg.Block]int, len(out.Blocks))
	for i, b := range in.Blocks {
		posIn[b] = i
		for _, ph := range b.Phis {
			defs[ph.Dst] = where{block: i, ph: ph}
		}
		for k, x := range b.Instrs {
			if x.Op.HasDst() {
				defs[x.Dst] = where{block: i, in: x, index: k}
			}
		}
	}
	for i, b := range out.Blocks {
		posOut[b] = i
	}
	same := func(a, b cfg.Reg) bool { return n.Of(a) == n.Of(b) }
	sameArgs := func(a, b []cfg.Reg) bool {
		if len(a) != len(b) {
			return false
		}
		for k := range a {
			if !same(a[k], b[k]) {
				return false
			}
		}
		return true
	}
	edges := func(xs []*cfg.Block, pos map[*cfg.Block]int) []int {
		ps := make([]int, len(xs))
		for k, x := range xs {
			p, ok := pos[x]
			ps[k] = -1
			if ok {
				ps[k] = p
			}
		}
		return ps
	}
	for i, b := range out.Blocks {
		a := in.Blocks[i]
		if b == nil || a == nil {
			return fmt.Errorf("gvn: cfg: block %d is nil", i)
		}
		if b.ID != a.ID || fmt.Sprint(edges(b.Succs(), posOut)) != fmt.Sprint(edges(a.Succs(), posIn)) ||
			fmt.Sprint(edges(b.Preds, posOut)) != fmt.Sprint(edges(a.Preds, posIn)) || b.Term.Kind != a.Term.Kind {
			bad(b, "cfg", "the block, its edges or its terminator's kind changed (was %v)", a)
			continue
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			if !same(b.Term.Reg, a.Term.Reg) {
				bad(b, "same", "the terminator reads %v (number %v), before %v (number %v)", b.Term.Reg, n.Of(b.Term.Reg), a.Term.Reg, n.Of(a.Term.Reg))
			}
		}
		for _, ph := range b.Phis {
			if ph == nil {
				bad(b, "def", "a nil Phi")
				continue
			}
			d, ok := defs[ph.Dst]
			switch {
			case !ok || d.block != i || d.ph == nil:
				bad(b, "def", "%v is not a Phi of this block before the pass", ph)
			case !sameArgs(ph.Args, d.ph.Args):
				bad(b, "same", "%v has arguments of other numbers than %v", ph, d.ph)
			}
		}
		// The instructions without a destination of a, in order.
		var kept []int
		for k, x := range a.Instrs {
			if !x.Op.HasDst() {
				kept = append(kept, k)
			}
		}
		last, next, started := -1, 0, false
		for _, x := range b.Instrs {
			if x == nil {
				bad(b, "def", "a nil instruction")
				continue
			}
			if !x.Op.HasDst() {
				if next == len(kept) || kept[next] <= last {
					bad(b, "order", "%v is not the next instruction without a destination of the block before the pass", x)
					continue
				}
				y := a.Instrs[kept[next]]
				if x.Op != y.Op || !sameArgs(x.Args, y.Args) {
					bad(b, "same", "%v computes another thing than %v", x, y)
				}
				last, next, started = kept[next], next+1, true
				continue
			}
			d, ok := defs[x.Dst]
			if !ok || d.block != i {
				bad(b, "def", "%v defines a register that the block did not define before the pass", x)
				continue
			}
			if d.ph != nil { // a replaced Phi: a copy before the instructions
				if x.Op != cfg.OpCopy || started {
					bad(b, "def", "%v replaces %v, but is not a copy at the start of the block", x, d.ph)
				} else if len(x.Args) != 1 || !same(x.Args[0], x.Dst) {
					bad(b, "copy", "%v copies a register of another number than %v's (%v)", x, x.Dst, n.Of(x.Dst))
				}
				continue
			}
			if d.index <= last {
				bad(b, "order", "%v comes after an instruction it came before", x)
			}
			last, started = max(last, d.index), true
			switch y := d.in; {
			case x.Op == cfg.OpCopy && y.Op != cfg.OpCopy:
				if len(x.Args) != 1 || !same(x.Args[0], x.Dst) {
					bad(b, "copy", "%v copies a register of another number than %v's (%v)", x, x.Dst, n.Of(x.Dst))
				}
			case x.Op != y.Op || x.Aux != y.Aux || !sameArgs(x.Args, y.Args):
				bad(b, "same", "%v computes another thing than %v", x, y)
			}
		}
		if next < len(kept) {
			bad(b, "order", "%v is gone", a.Instrs[kept[next]])
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New("gvn: the rewrite does not hold:\n\t" + strings.Join(probs, "\n\t"))
}
