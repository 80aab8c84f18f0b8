package loops

import (
	"fmt"
	"slices"

	"son/cfg"
)

// Close puts f in loop-closed SSA form: no register defined in a loop is
// used outside it, except by a Phi of one of the loop's landing pads
// (paper 004, section 4.1, footnote 1). It needs the pads (Pads). For each
// register v defined in a loop L and used outside it, each pad of L that
// v's definition dominates gets a one-argument Phi v' = φ(v), and every use
// outside L is renamed to the copy that reaches it: the nearest dominating
// pad's, or a new Phi where copies from several pads meet (a block of the
// iterated dominance frontier of the pads, outside L). Loops are closed
// innermost first, so that a value leaving two loops goes through a pad of
// each.
func Close(f *cfg.Func) error {
	a, err := Analyze(f)
	if err != nil {
		return err
	}
	c := &closer{a: a, e: newEditor(f), uses: map[cfg.Reg][]use{}}
	c.index()
	c.frontiers()
	pads := make(map[*Loop][]int)
	for v, b := range f.Blocks {
		if len(b.Preds) != 1 {
			continue
		}
		u := a.Pos[b.Preds[0]]
		for l := a.Of[u]; l != nil && !a.Contains(l, v); l = l.Parent {
			if len(b.Instrs) > 0 || b.Term.Kind != cfg.TermJump {
				return fmt.Errorf("loops: %v leaves loop %v without a landing pad (run Pads first)", b, l.Header)
			}
			pads[l] = append(pads[l], v)
		}
	}
	loops := slices.Clone(a.Loops)
	slices.SortStableFunc(loops, func(x, y *Loop) int { return y.Depth - x.Depth })
	for _, l := range loops {
		c.close(l, pads[l])
	}
	return nil
}

// use is one use of a register: argument k of a Phi of b, argument k of
// an instruction, or the terminator of b.
type use struct {
	b   *cfg.Block
	phi *cfg.Phi
	in  *cfg.Instr
	k   int
}

// at is the position of the use: the end of the predecessor a Phi
// argument comes from, else its block.
func (c *closer) at(u use) int {
	if u.phi != nil {
		return c.a.Pos[u.b.Preds[u.k]]
	}
	return c.a.Pos[u.b]
}

func (u use) set(r cfg.Reg) {
	switch {
	case u.phi != nil:
		u.phi.Args[u.k] = r
	case u.in != nil:
		u.in.Args[u.k] = r
	default:
		u.b.Term.Reg = r
	}
}

type closer struct {
	a    *Forest
	e    *editor
	uses map[cfg.Reg][]use
	df   [][]int // dominance frontier of each position
}

// index lists the uses of every register.
func (c *closer) index() {
	for _, b := range c.a.F.Blocks {
		for _, p := range b.Phis {
			for k, r := range p.Args {
				c.uses[r] = append(c.uses[r], use{b: b, phi: p, k: k})
			}
		}
		for _, in := range b.Instrs {
			for k, r := range in.Args {
				c.uses[r] = append(c.uses[r], use{b: b, in: in, k: k})
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			c.uses[b.Term.Reg] = append(c.uses[b.Term.Reg], use{b: b})
		}
	}
}

// frontiers computes the dominance frontiers (Cooper, Harvey, Kennedy).
func (c *closer) frontiers() {
	f, t := c.a.F, c.a.Tree
	c.df = make([][]int, len(f.Blocks))
	for v, b := range f.Blocks {
		if len(b.Preds) < 2 {
			continue
		}
		for _, p := range b.Preds {
			for r := c.a.Pos[p]; r != t.Idom(v) && r >= 0; r = t.Idom(r) {
				if n := len(c.df[r]); n == 0 || c.df[r][n-1] != v {
					c.df[r] = append(c.df[r], v)
				}
				if r == 0 {
					break
				}
			}
		}
	}
}

// close closes loop l, whose landing pads are at the positions pads.
func (c *closer) close(l *Loop, pads []int) {
	a, f := c.a, c.a.F
	// The blocks outside l where copies from several pads meet.
	join := map[int]bool{}
	work := slices.Clone(pads)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range c.df[x] {
			if !join[y] && !a.Contains(l, y) {
				join[y] = true
				work = append(work, y)
			}
		}
	}
	for _, bp := range l.Blocks {
		b := f.Blocks[bp]
		var defs []cfg.Reg
		for _, p := range b.Phis {
			defs = append(defs, p.Dst)
		}
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				defs = append(defs, in.Dst)
			}
		}
		for _, v := range defs {
			c.closeReg(l, bp, v, pads, join)
		}
	}
}

// closeReg renames the uses outside l of v, defined at position d.
func (c *closer) closeReg(l *Loop, d int, v cfg.Reg, pads []int, join map[int]bool) {
	a, f := c.a, c.a.F
	var outside []use
	for _, u := range c.uses[v] {
		if !a.Contains(l, c.at(u)) {
			outside = append(outside, u)
		}
	}
	if len(outside) == 0 {
		return
	}
	reach := map[int]cfg.Reg{} // the copy of v reaching the end of a position outside l
	for _, p := range pads {
		if !a.Tree.Dominates(d, p) {
			continue
		}
		r := c.e.reg()
		phi := &cfg.Phi{Dst: r, Args: []cfg.Reg{v}}
		pb := f.Blocks[p]
		pb.Phis = append(pb.Phis, phi)
		c.uses[v] = append(c.uses[v], use{b: pb, phi: phi})
		reach[p] = r
	}
	type pending struct {
		b   *cfg.Block
		phi *cfg.Phi
	}
	var todo []pending
	lookup := func(x int) cfg.Reg {
		start := x
		var r cfg.Reg
		for {
			if got, ok := reach[x]; ok {
				r = got
				break
			}
			if a.Contains(l, x) {
				r = v
				break
			}
			if xb := f.Blocks[x]; join[x] && len(xb.Preds) > 1 {
				r = c.e.reg()
				phi := &cfg.Phi{Dst: r, Args: make([]cfg.Reg, len(xb.Preds))}
				xb.Phis = append(xb.Phis, phi)
				reach[x] = r
				todo = append(todo, pending{xb, phi})
				break
			}
			x = a.Tree.Idom(x)
		}
		if r != v {
			reach[start] = r
		}
		return r
	}
	kept := c.uses[v][:0]
	for _, u := range c.uses[v] {
		if a.Contains(l, c.at(u)) {
			kept = append(kept, u)
		}
	}
	c.uses[v] = kept
	for _, u := range outside {
		r := lookup(c.at(u))
		u.set(r)
		c.uses[r] = append(c.uses[r], u)
	}
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for k, p := range t.b.Preds {
			r := lookup(a.Pos[p])
			t.phi.Args[k] = r
			c.uses[r] = append(c.uses[r], use{b: t.b, phi: t.phi, k: k})
		}
	}
}
