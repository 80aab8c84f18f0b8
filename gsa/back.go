package gsa

import (
	"fmt"
	"slices"

	"son/cfg"
	"son/internal/dom"
	"son/pred"
)

// ToSSA translates g back to SSA (paper 004, section 6.2) as a new
// function: a μ becomes a Phi with its arguments as they are (entry,
// latch); an η becomes a Copy at the end of its pad, where it runs; a γ
// becomes a Phi whose argument for predecessor k is the γ argument
// guarded by the matrix entry P(idom(j), Preds[k])↓Preds[k]. The γ's
// arguments are matched by their predicates, not by their order, which
// the γ does not promise: a predecessor whose entry guards no argument,
// or guards arguments that differ, is an error naming the block; so is a
// g without the parts it reads (Shape), or with γs but no matrix.
func ToSSA(g *Func) (*cfg.Func, error) {
	if err := g.Shape(); err != nil {
		return nil, fmt.Errorf("gsa.ToSSA: %w", err)
	}
	if g.Matrix == nil {
		for i, ms := range g.Merges {
			for _, m := range ms {
				if m.Kind == Gamma {
					return nil, fmt.Errorf("gsa.ToSSA: %v: %v = γ: no path predicate matrix", g.Code.Blocks[i], m.Dst)
				}
			}
		}
	}
	f := clone(g.Code)
	succ := make([][]int, len(f.Blocks))
	pos := make(map[*cfg.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		pos[b] = i
	}
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			succ[i] = append(succ[i], pos[s])
		}
	}
	t := dom.NewTree(dom.CooperHarveyKennedy(succ))
	for i, b := range f.Blocks {
		for _, m := range g.Merges[i] {
			phi := &cfg.Phi{Dst: m.Dst}
			if m.Phi != nil {
				phi.Pos, phi.Node = m.Phi.Pos, m.Phi.Node
			}
			switch m.Kind {
			case Mu:
				if len(m.Args) != len(b.Preds) {
					return nil, fmt.Errorf("gsa.ToSSA: %v: %v = μ has %d arguments for %d predecessors", b, m.Dst, len(m.Args), len(b.Preds))
				}
				phi.Args = append([]cfg.Reg(nil), m.Args...)
			case Gamma:
				d := t.Idom(i)
				for _, p := range b.Preds {
					want := g.Matrix.At(d, pos[p])
					var arg cfg.Reg
					for a, q := range m.Preds {
						if a < len(m.Args) && Equal(q, want) {
							if arg != 0 && arg != m.Args[a] {
								return nil, fmt.Errorf("gsa.ToSSA: %v: %v = γ: predecessor %v's predicate guards both %v and %v", b, m.Dst, p, arg, m.Args[a])
							}
							arg = m.Args[a]
						}
					}
					if arg == 0 {
						return nil, fmt.Errorf("gsa.ToSSA: %v: %v = γ: no argument is guarded by predecessor %v's predicate %v", b, m.Dst, p, want)
					}
					phi.Args = append(phi.Args, arg)
				}
			}
			b.Phis = append(b.Phis, phi)
		}
		for _, e := range g.Etas[i] {
			b.Instrs = append(b.Instrs, &cfg.Instr{Op: cfg.OpCopy, Dst: e.Dst, Args: []cfg.Reg{e.Src}})
		}
	}
	dropDeadEtas(f, g)
	return f, nil
}

// dropDeadEtas removes the Copies of ηs whose register nothing uses: the
// ηs of μs at each exit, which section 5.4 adds for the renaming but
// which loop-closed form leaves unused, so that the round trip does not
// grow the code. Uses are counted once; a Copy removed releases its
// source, which may make another η's Copy dead.
func dropDeadEtas(f *cfg.Func, g *Func) {
	uses := map[cfg.Reg]int{}
	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			for _, r := range p.Args {
				uses[r]++
			}
		}
		for _, in := range b.Instrs {
			for _, r := range in.Args {
				uses[r]++
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			uses[b.Term.Reg]++
		}
	}
	eta := map[cfg.Reg]*cfg.Instr{} // the Copy of each η, by register
	for i, b := range f.Blocks {
		if len(g.Etas) <= i {
			break
		}
		n := len(g.Etas[i])
		for _, in := range b.Instrs[len(b.Instrs)-n:] {
			eta[in.Dst] = in
		}
	}
	var work []cfg.Reg
	for r := range eta {
		if uses[r] == 0 {
			work = append(work, r)
		}
	}
	dead := map[*cfg.Instr]bool{}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		in := eta[r]
		if dead[in] {
			continue
		}
		dead[in] = true
		src := in.Args[0]
		if uses[src]--; uses[src] == 0 && eta[src] != nil {
			work = append(work, src)
		}
	}
	if len(dead) == 0 {
		return
	}
	for _, b := range f.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(in *cfg.Instr) bool { return dead[in] })
	}
}

// Equal reports whether p and q are the same predicate, node for node.
// Pairs of shared subterms are compared once, so the cost is that of the
// DAGs, not of the trees they stand for.
func Equal(p, q *pred.Pred) bool {
	same := map[[2]*pred.Pred]bool{}
	var eq func(p, q *pred.Pred) bool
	eq = func(p, q *pred.Pred) bool {
		if p == q {
			return true
		}
		if p == nil || q == nil || p.Kind != q.Kind || p.Reg != q.Reg || len(p.Args) != len(q.Args) {
			return false
		}
		key := [2]*pred.Pred{p, q}
		if same[key] {
			return true
		}
		for i := range p.Args {
			if !eq(p.Args[i], q.Args[i]) {
				return false
			}
		}
		same[key] = true
		return true
	}
	return eq(p, q)
}
