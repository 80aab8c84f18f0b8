package gsa

import (
	"fmt"

	"son/cfg"
	"son/loops"
	"son/pred"
)

// Build translates f, an SSA function prepared by loops.Prepare, to GSA
// (paper 004, figure 8), leaving f as it was:
//
//   - the Phis of a loop header become μs, their arguments in the order
//     of the header's two predecessors, entry then latch;
//   - the Phis of any other junction j become γs: the k-th argument is
//     guarded by P(idom(j), Preds[k])↓Preds[k] (Definition 5.6);
//   - the one-argument Phis of a loop's landing pad l (loop-closed form)
//     become ηs guarded by P(h, l)↓l, h the header of the loop it leaves
//     (the outermost, for a pad that leaves several: one h guards all the
//     ηs of a pad, as Definition 5.6 wants); and each μ of each loop
//     the pad leaves gets an η at l with a fresh register, even one that such a
//     Phi copies already, so that R, which maps each μ register to the
//     ηs that copy it, holds fresh registers only (Definition 5.7);
//   - uses dominated by an η of R (a use in a Phi at the end of its
//     predecessor) are renamed to the η's register (section 5.4).
//
// Predicates are computed on f and inserted as they are: the renaming
// touches only the code, since a μ register keeps its value in the GSA
// state where its η copy is defined.
//
// f must pass cfg.Verify at the SSA level; it is checked first, so that a
// broken f is an error, not a panic.
func Build(f *cfg.Func) (*Func, error) { return build(f, nil) }

// build is Build, with edit, if set, applied to the matrix before any
// predicate is taken from it: the tests' way to break the construction.
func build(f *cfg.Func, edit func(*Matrix)) (*Func, error) {
	if f == nil || f.Level != cfg.SSA {
		return nil, fmt.Errorf("gsa: not an SSA function")
	}
	if err := cfg.Verify(f); err != nil {
		return nil, fmt.Errorf("gsa: %w", err)
	}
	a, err := loops.Analyze(f)
	if err != nil {
		return nil, err
	}
	n := len(f.Blocks)
	g := &Func{Code: clone(f), Merges: make([][]*Merge, n), Etas: make([][]*Eta, n), Rename: Renaming{}, Header: make([]bool, n)}
	m := newMatrix(a)
	if edit != nil {
		edit(m)
	}
	g.Matrix = m
	next := maxReg(f) + 1

	// The loop exits: blocks with one predecessor, in loops that do not
	// hold them. padOf is the innermost loop a pad leaves, outer the
	// outermost, whose header guards all its ηs.
	padOf := make([]*loops.Loop, n)
	outer := make([]*loops.Loop, n)
	for i, b := range f.Blocks {
		if len(b.Preds) != 1 {
			continue
		}
		u := a.Pos[b.Preds[0]]
		for l := a.Of[u]; l != nil && !a.Contains(l, i); l = l.Parent {
			if padOf[i] == nil {
				padOf[i] = l
			}
			outer[i] = l
		}
	}
	for _, l := range a.Loops {
		h := a.Pos[l.Header]
		g.Header[h] = true
		if len(l.Header.Preds) != 2 || l.Header.Preds[1] != l.Latches[0] || len(l.Latches) != 1 {
			return nil, fmt.Errorf("gsa: loop header %v: predecessors %v: want the entry, then the one latch (run loops.Normalize)", l.Header, l.Header.Preds)
		}
	}

	for i, b := range f.Blocks {
		switch {
		case len(b.Phis) == 0:
		case g.Header[i]:
			for _, phi := range b.Phis {
				g.Merges[i] = append(g.Merges[i], &Merge{Kind: Mu, Dst: phi.Dst, Args: append([]cfg.Reg(nil), phi.Args...), Phi: phi})
			}
		case len(b.Preds) > 1:
			d := a.Tree.Idom(i)
			ps := make([]*pred.Pred, len(b.Preds))
			for k, p := range b.Preds {
				ps[k] = m.use(d, a.Pos[p])
			}
			for _, phi := range b.Phis {
				g.Merges[i] = append(g.Merges[i], &Merge{Kind: Gamma, Dst: phi.Dst, Args: append([]cfg.Reg(nil), phi.Args...), Preds: ps, Phi: phi})
			}
		case padOf[i] != nil && isEmpty(b):
			h := a.Pos[outer[i].Header]
			p := m.use(h, i)
			for _, phi := range b.Phis {
				if len(phi.Args) != 1 {
					return nil, fmt.Errorf("gsa: %v: %v: a Phi of a landing pad with %d arguments", b, phi, len(phi.Args))
				}
				g.Etas[i] = append(g.Etas[i], &Eta{Dst: phi.Dst, Src: phi.Args[0], Pred: p})
			}
		default:
			return nil, fmt.Errorf("gsa: %v has Phis but is neither a junction nor a loop's landing pad (run loops.Prepare)", b)
		}
	}

	// An η at each exit of a loop for each μ of its header.
	for i := range f.Blocks {
		l := padOf[i]
		if l == nil || !isEmpty(f.Blocks[i]) {
			continue
		}
		p := m.use(a.Pos[outer[i].Header], i)
		for ; l != outer[i].Parent; l = l.Parent {
			for _, mu := range g.Merges[a.Pos[l.Header]] {
				r := next
				next++
				g.Etas[i] = append(g.Etas[i], &Eta{Dst: r, Src: mu.Dst, Pred: p})
				g.Rename[mu.Dst] = append(g.Rename[mu.Dst], Renamed{Reg: r, At: i})
			}
		}
	}
	g.rename(a)
	return g, nil
}

// rename applies R to the code: a use of r at position n becomes r' when
// (r', l) is in R(r) and the η at l is executed before it: l strictly
// dominates n for an instruction or terminator, l dominates the
// predecessor for a Phi argument (merges run after the η block).
func (g *Func) rename(a *loops.Forest) {
	if len(g.Rename) == 0 {
		return
	}
	t := a.Tree
	to := func(r cfg.Reg, at int, strict bool) cfg.Reg {
		for _, e := range g.Rename[r] {
			if t.Dominates(e.At, at) && (!strict || e.At != at) {
				return e.Reg
			}
		}
		return r
	}
	for i, b := range g.Code.Blocks {
		for _, in := range b.Instrs {
			for k, r := range in.Args {
				in.Args[k] = to(r, i, true)
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			b.Term.Reg = to(b.Term.Reg, i, true)
		}
		for _, mg := range g.Merges[i] {
			for k, r := range mg.Args {
				mg.Args[k] = to(r, a.Pos[a.F.Blocks[i].Preds[k]], false)
			}
		}
		for _, e := range g.Etas[i] {
			if e.Src != 0 && e.Dst != 0 {
				// An η reads its source before any η of its block is
				// assigned: at the end of the pad's predecessor.
				e.Src = to(e.Src, a.Pos[a.F.Blocks[i].Preds[0]], false)
			}
		}
	}
}

// isEmpty reports whether b holds no instructions and jumps: a landing pad.
func isEmpty(b *cfg.Block) bool { return len(b.Instrs) == 0 && b.Term.Kind == cfg.TermJump }

// clone copies f's blocks, instructions and terminators, without Phis:
// the code map of the GSA function.
func clone(f *cfg.Func) *cfg.Func {
	c := &cfg.Func{Name: f.Name, Level: f.Level, Blocks: make([]*cfg.Block, len(f.Blocks))}
	of := make(map[*cfg.Block]*cfg.Block, len(f.Blocks))
	for i, b := range f.Blocks {
		c.Blocks[i] = &cfg.Block{ID: b.ID, Term: b.Term, LoopDepth: b.LoopDepth}
		of[b] = c.Blocks[i]
	}
	for i, b := range f.Blocks {
		nb := c.Blocks[i]
		for _, p := range b.Preds {
			nb.Preds = append(nb.Preds, of[p])
		}
		for _, s := range b.Succs() {
			nb.AddSucc(of[s])
		}
		for _, in := range b.Instrs {
			x := *in
			x.Args = append([]cfg.Reg(nil), in.Args...)
			nb.Instrs = append(nb.Instrs, &x)
		}
	}
	return c
}

// maxReg is the greatest register f mentions.
func maxReg(f *cfg.Func) cfg.Reg {
	var m cfg.Reg
	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			m = max(m, p.Dst)
		}
		for _, in := range b.Instrs {
			m = max(m, in.Dst)
			for _, r := range in.Args {
				m = max(m, r)
			}
		}
		m = max(m, b.Term.Reg)
	}
	return m
}
