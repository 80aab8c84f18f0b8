// Renaming along the dominator tree (Cytron et al., figure 12), then the
// removal of dead Phis (Pruned) and of partial ones, and the hint for
// ssacheck (paper 003, section 5.5). Cost: O(size of the function).

package ssagen

import (
	"fmt"

	"son/cfg"
	"son/ssacheck"
)

// rename walks the dominator tree in preorder with an explicit stack,
// keeping for each variable the SSA register of its most recent definition
// (0 for none) and an undo log to restore it when a subtree is done
// (Cytron et al., figure 12, with the stacks of each variable folded into
// one log). It builds the blocks of the SSA function as it goes, then
// removes the dead Phis if prune is set, and the partial ones.
func (g *gen) rename(prune bool) error {
	g.out = make([]*cfg.Block, g.n)
	for i, b := range g.f.Blocks {
		g.out[i] = &cfg.Block{ID: b.ID, LoopDepth: b.LoopDepth, Term: b.Term}
	}
	for i, b := range g.f.Blocks {
		o := g.out[i]
		o.Preds = make([]*cfg.Block, len(b.Preds))
		for k, p := range b.Preds {
			o.Preds[k] = g.out[g.pos[p]]
		}
		for _, s := range b.Succs() {
			o.AddSucc(g.out[g.pos[s]])
		}
	}
	g.instrs = make([]cfg.Instr, g.nInstrs) // slabs the instructions are cut from
	g.args = make([]cfg.Reg, g.nArgs)
	g.hint = &ssacheck.Hint{Def: make([][]int32, g.n), Phis: make([][]ssacheck.PhiHint, g.n)}
	g.versions = []Version{{}}
	g.count = make([]int32, len(g.regOf))
	g.cur = make([]cfg.Reg, len(g.regOf))
	g.succK = make([]int, g.n)
	for _, b := range g.f.Blocks {
		if len(b.Preds) >= 2 {
			for k, p := range b.Preds {
				g.succK[g.pos[p]] = k
			}
		}
	}
	// The Phis, with their arguments to fill in.
	for j, xs := range g.phis {
		for range xs {
			g.out[j].Phis = append(g.out[j].Phis, &cfg.Phi{Args: make([]cfg.Reg, len(g.f.Blocks[j].Preds))})
		}
	}

	type frame struct{ b, next, mark int }
	stack := []frame{{0, 0, 0}}
	g.enter(0)
	for len(stack) > 0 && g.err == nil {
		top := &stack[len(stack)-1]
		if kids := g.tree.Children(top.b); top.next < len(kids) {
			w := kids[top.next]
			top.next++
			stack = append(stack, frame{w, 0, len(g.log)})
			g.enter(w)
			continue
		}
		for k := len(g.log) - 1; k >= top.mark; k-- {
			g.cur[g.log[k].x] = g.log[k].old
		}
		g.log = g.log[:top.mark]
		stack = stack[:len(stack)-1]
	}
	if g.err != nil {
		return g.err
	}
	if prune {
		g.pruneDead()
	}
	return g.dropPartialPhis()
}

// pruneDead removes the Phis that no instruction or terminator uses,
// directly or through other Phis: marking from the uses, then following
// Phi arguments with a worklist, in O(size of the function).
func (g *gen) pruneDead() {
	phiBlock := make([]int32, len(g.versions)) // 1 + the block position of the Phi defining each register, or 0
	phiIndex := make([]int32, len(g.versions))
	for i, o := range g.out {
		for k, p := range o.Phis {
			phiBlock[p.Dst], phiIndex[p.Dst] = int32(i)+1, int32(k)
		}
	}
	live := make([]bool, len(g.versions))
	var work []cfg.Reg
	mark := func(r cfg.Reg) {
		if phiBlock[r] != 0 && !live[r] {
			live[r] = true
			work = append(work, r)
		}
	}
	for _, o := range g.out {
		for _, in := range o.Instrs {
			for _, a := range in.Args {
				mark(a)
			}
		}
		mark(o.Term.Reg)
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range g.out[phiBlock[r]-1].Phis[phiIndex[r]].Args {
			mark(a)
		}
	}
	for i, o := range g.out {
		keep, hints := o.Phis[:0], g.hint.Phis[i][:0]
		for k, p := range o.Phis {
			if live[p.Dst] {
				keep = append(keep, p)
				hints = append(hints, g.hint.Phis[i][k])
			}
		}
		o.Phis, g.hint.Phis[i] = keep, hints
	}
}

// undo is a variable's register before a definition changed it.
type undo struct {
	x   int32
	old cfg.Reg
}

// define makes a new version of variable x and returns its register.
func (g *gen) define(x int32) cfg.Reg {
	g.count[x]++
	r := cfg.Reg(len(g.versions))
	g.versions = append(g.versions, Version{Reg: g.regOf[x], Index: g.count[x]})
	g.log = append(g.log, undo{x, g.cur[x]})
	g.cur[x] = r
	return r
}

// use returns the register of the version of variable x that reaches
// instruction k of b (-1: its terminator), or records an error naming the
// RTL register a.
func (g *gen) use(b *cfg.Block, k int, x int32, a cfg.Reg) cfg.Reg {
	r := g.cur[x]
	if r == 0 && g.err == nil {
		g.err = &UnassignedError{Block: b, Instr: k, Reg: a}
	}
	return r
}

// UnassignedError is an RTL function that reads a register on a path
// where it is not assigned: instruction Instr of Block (-1: its
// terminator) uses Reg.
type UnassignedError struct {
	Block *cfg.Block // of the RTL function
	Instr int
	Reg   cfg.Reg
}

func (e *UnassignedError) Error() string {
	where := "term (" + e.Block.TermString() + ")"
	if e.Instr >= 0 && e.Instr < len(e.Block.Instrs) {
		where = fmt.Sprintf("instr %d (%v)", e.Instr, e.Block.Instrs[e.Instr])
	}
	return fmt.Sprintf("ssagen: %v: %s: %v may be used before it is assigned", e.Block, where, e.Reg)
}

// enter renames block i: its Phis, instructions and terminator, then the
// arguments its successor's Phis take from it.
func (g *gen) enter(i int) {
	b, o := g.f.Blocks[i], g.out[i]
	for k, x := range g.phis[i] {
		r := g.define(x)
		o.Phis[k].Dst = r
		g.hint.Phis[i] = append(g.hint.Phis[i], ssacheck.PhiHint{Reg: g.regOf[x], Index: g.count[x]})
	}
	o.Instrs = make([]*cfg.Instr, len(b.Instrs))
	g.hint.Def[i] = make([]int32, len(b.Instrs))
	m := g.mentions[i]
	for k, in := range b.Instrs {
		c := &g.instrs[0]
		g.instrs = g.instrs[1:]
		*c = cfg.Instr{Op: in.Op, Aux: in.Aux, Pos: in.Pos, Node: in.Node, Args: g.args[:len(in.Args):len(in.Args)]}
		g.args = g.args[len(in.Args):]
		for j, a := range in.Args {
			c.Args[j] = g.use(b, k, m[0], a)
			m = m[1:]
		}
		if x := m[0]; x >= 0 {
			c.Dst = g.define(x)
			g.hint.Def[i][k] = g.count[x]
		}
		m = m[1:]
		o.Instrs[k] = c
	}
	if x := m[0]; x >= 0 {
		o.Term.Reg = g.use(b, -1, x, b.Term.Reg)
	}
	if len(b.Succs()) != 1 {
		return // a junction is entered only by jumps
	}
	j := g.pos[b.Succs()[0]]
	k := g.succK[i]
	for m, x := range g.phis[j] {
		g.out[j].Phis[m].Args[k] = g.cur[x] // 0 if no definition reaches: see dropPartialPhis
	}
}

// dropPartialPhis removes the Phis with an argument that no definition
// reaches, and then those with a removed Phi as argument, with a
// worklist; a removed Phi that an instruction or terminator uses is an
// error (the RTL may read an unassigned register).
func (g *gen) dropPartialPhis() error {
	type site struct{ b, k int }
	var work []site
	dead := make([]bool, len(g.versions))
	for i, o := range g.out {
		for k, p := range o.Phis {
			for _, a := range p.Args {
				if a == 0 && !dead[p.Dst] {
					dead[p.Dst] = true
					work = append(work, site{i, k})
				}
			}
		}
	}
	if len(work) == 0 {
		return nil
	}
	// users[start[r]:start[r+1]] are the Phis using register r.
	start := make([]int32, len(g.versions)+1)
	for _, o := range g.out {
		for _, p := range o.Phis {
			for _, a := range p.Args {
				start[a+1]++
			}
		}
	}
	for r := 1; r < len(start); r++ {
		start[r] += start[r-1]
	}
	users := make([]site, start[len(start)-1])
	fill := append([]int32(nil), start...)
	for i, o := range g.out {
		for k, p := range o.Phis {
			for _, a := range p.Args {
				users[fill[a]] = site{i, k}
				fill[a]++
			}
		}
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		d := g.out[s.b].Phis[s.k].Dst
		for _, u := range users[start[d]:start[d+1]] {
			if d := g.out[u.b].Phis[u.k].Dst; !dead[d] {
				dead[d] = true
				work = append(work, u)
			}
		}
	}
	for i, o := range g.out {
		for k, in := range o.Instrs {
			for _, a := range in.Args {
				if dead[a] {
					return &UnassignedError{Block: g.f.Blocks[i], Instr: k, Reg: g.versions[a].Reg}
				}
			}
		}
		if r := o.Term.Reg; r != 0 && dead[r] {
			return &UnassignedError{Block: g.f.Blocks[i], Instr: -1, Reg: g.versions[r].Reg}
		}
		keep, hints := o.Phis[:0], g.hint.Phis[i][:0]
		for k, p := range o.Phis {
			if !dead[p.Dst] {
				keep = append(keep, p)
				hints = append(hints, g.hint.Phis[i][k])
			}
		}
		o.Phis, g.hint.Phis[i] = keep, hints
	}
	return nil
}

// renumber gives the SSA registers the numbers 1, 2, ... in the order
// of their definitions in the printed function (block order, Phis first),
// which also closes the gaps the dropped Phis left.
func (g *gen) renumber() {
	to := make([]cfg.Reg, len(g.versions))
	versions := []Version{{}}
	def := func(r cfg.Reg) cfg.Reg {
		to[r] = cfg.Reg(len(versions))
		versions = append(versions, g.versions[r])
		return to[r]
	}
	for _, o := range g.out {
		for _, p := range o.Phis {
			p.Dst = def(p.Dst)
		}
		for _, in := range o.Instrs {
			if in.Dst != 0 {
				in.Dst = def(in.Dst)
			}
		}
	}
	for _, o := range g.out {
		for _, p := range o.Phis {
			for k, a := range p.Args {
				p.Args[k] = to[a]
			}
		}
		for _, in := range o.Instrs {
			for k, a := range in.Args {
				in.Args[k] = to[a]
			}
		}
		if o.Term.Reg != 0 {
			o.Term.Reg = to[o.Term.Reg]
		}
	}
	g.versions = versions
}

// result assembles the Result.
func (g *gen) result() *Result {
	g.renumber()
	n := 0
	for _, o := range g.out {
		n += len(o.Phis)
	}
	placed := 0
	for _, xs := range g.phis {
		placed += len(xs)
	}
	return &Result{
		Placed:   placed,
		Func:     &cfg.Func{Name: g.f.Name, Level: cfg.SSA, Blocks: g.out},
		Hint:     g.hint,
		Versions: g.versions,
		Phis:     n,
	}
}
