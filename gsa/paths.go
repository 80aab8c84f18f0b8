package gsa

import (
	"sort"

	"son/cfg"
	"son/loops"
	"son/pred"
)

// Path predicates (paper 004, section 5.2). P(d, n), for d dominating n,
// must hold after every path from d to n. Tarjan's path expressions give
// it as a regular expression over the edges, Kleene stars dropped (a loop
// not entered is one of the paths already); we compute the same sum of
// paths without the regular expressions, by dominators:
//
//   - every path from d to n passes through each block x on the dominator
//     tree path from d down to n, so P(d, n) is the conjunction of the
//     local predicates Local(x) = P(idom(x), x) of those blocks
//     (concatenation of path expressions);
//   - the paths from idom(x) to x are those to each predecessor p of x,
//     extended by the edge p → x: Local(x) = ∨ₚ P(idom(x), p) ∧ c(p → x),
//     with c the branch condition of p (negated on its false edge, True
//     after a jump) (union of path expressions);
//   - back edges are left out, which drops the stars: a loop between d
//     and n contributes the paths of its last iteration, from its header
//     to its exit.
//
// Each Local(x) refers only to predicates of blocks dominated by idom(x)
// and earlier in reverse postorder, so one pass in reverse postorder
// computes them all, and a predicate is a DAG that shares them.

// Matrix is the predicate matrix P over block positions, with the entries
// the GSA code uses recorded (Definition 5.3 needs only those rows).
type Matrix struct {
	a         *loops.Forest
	local     []*pred.Pred // Local(x), nil for the entry and unreachable blocks
	defAt     map[cfg.Reg]int
	paths     map[[2]int]*pathEntry    // P(d, n), unprojected and projected (At)
	used      map[[2]int]*pred.Pred    // the projected entries the code uses
	cols      map[int]*pred.Projection // ↓n, one per column n: its entries share their subterms
	defs      map[*pred.Pred]uint64    // bit n%64 set if an atom under the node is defined at n
	scratch   []*pred.Pred             // path's factors
	lmask     []uint64                 // localMask, by block
	lmaskDone []bool
}

// pathEntry is P(d, n) unprojected, the mask of the blocks its atoms
// are defined at, and P(d, n)↓n once At has computed it.
type pathEntry struct {
	p, proj *pred.Pred
	mask    uint64
	done    bool // proj is set
}

// Entry is one entry P(I, J) of the matrix, projected at J.
type Entry struct {
	I, J int
	P    *pred.Pred
}

// newMatrix computes the local predicates of every block of a's function.
func newMatrix(a *loops.Forest) *Matrix {
	f := a.F
	m := &Matrix{a: a, local: make([]*pred.Pred, len(f.Blocks)), defAt: map[cfg.Reg]int{},
		paths: map[[2]int]*pathEntry{}, used: map[[2]int]*pred.Pred{},
		cols: map[int]*pred.Projection{}, defs: map[*pred.Pred]uint64{}}
	for i, b := range f.Blocks {
		for _, p := range b.Phis {
			m.defAt[p.Dst] = i
		}
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				m.defAt[in.Dst] = i
			}
		}
	}
	for _, x := range a.RPO[1:] {
		d := a.Tree.Idom(x)
		var alts []*pred.Pred
		for _, p := range f.Blocks[x].Preds {
			pp := a.Pos[p]
			if a.IsBackEdge(pp, x) {
				continue
			}
			alts = append(alts, and(m.path(d, pp), edgeCond(p, f.Blocks[x])))
		}
		m.local[x] = or(alts...)
	}
	return m
}

// Local returns P(idom(x), x), unprojected, or nil for the entry.
func (m *Matrix) Local(x int) *pred.Pred { return m.local[x] }

// path is P(d, n) unprojected: the conjunction of the local predicates
// on the dominator tree path from d (excluded) down to n.
func (m *Matrix) path(d, n int) *pred.Pred {
	p, _ := m.pathMask(d, n)
	return p
}

// pathMask is path, and the blocks its atoms are defined at (atomsAt),
// from the masks of the local predicates; nil if d does not dominate n.
func (m *Matrix) pathMask(d, n int) (*pred.Pred, uint64) {
	if e := m.entry(d, n); e != nil {
		return e.p, e.mask
	}
	return nil, 0
}

// entry returns the memo of P(d, n), made on the first call; nil if d
// does not dominate n.
func (m *Matrix) entry(d, n int) *pathEntry {
	key := [2]int{d, n}
	if e, ok := m.paths[key]; ok {
		return e
	}
	if d == n {
		e := &pathEntry{p: pred.Const(pred.True)}
		m.paths[key] = e
		return e
	}
	factors := m.scratch[:0]
	var mask uint64
	for x := n; x != d; x = m.a.Tree.Idom(x) {
		if x <= 0 && d != 0 {
			return nil // d does not dominate n
		}
		factors = append(factors, m.local[x])
		mask |= m.localMask(x)
		if x == 0 {
			break
		}
	}
	for i, j := 0, len(factors)-1; i < j; i, j = i+1, j-1 {
		factors[i], factors[j] = factors[j], factors[i]
	}
	e := &pathEntry{p: and(factors...), mask: mask}
	m.scratch = factors
	m.paths[key] = e
	return e
}

// localMask is atomsAt(Local(x)), kept by block.
func (m *Matrix) localMask(x int) uint64 {
	if m.lmask == nil {
		m.lmask = make([]uint64, len(m.local))
		m.lmaskDone = make([]bool, len(m.local))
	}
	if !m.lmaskDone[x] {
		if m.local[x] != nil {
			m.lmask[x] = m.atomsAt(m.local[x])
		}
		m.lmaskDone[x] = true
	}
	return m.lmask[x]
}

// At returns P(i, j)↓j: the path predicate from i to j with every atom
// over a register defined in block j replaced by True (the projection of
// Definition 5.2); True when i = j; nil when i does not dominate j.
// Entries are computed once: the same (i, j) gives the same *Pred.
func (m *Matrix) At(i, j int) *pred.Pred {
	if i < 0 || j < 0 || i >= len(m.local) || j >= len(m.local) || !m.a.Tree.Dominates(i, j) {
		return nil
	}
	e := m.entry(i, j)
	if e == nil {
		return nil
	}
	if e.done {
		return e.proj
	}
	p := e.p
	if p != nil && e.mask&(uint64(1)<<(uint(j)%64)) != 0 {
		col, ok := m.cols[j]
		if !ok {
			bj := uint64(1) << (uint(j) % 64)
			col = pred.NewProjectionFiltered(func(r cfg.Reg) bool { at, ok := m.defAt[r]; return ok && at == j },
				func(p *pred.Pred) bool { return m.atomsAt(p)&bj != 0 })
			m.cols[j] = col
		}
		p = col.Of(p) // pred.Project, its work shared with the column's other entries
	}
	e.proj, e.done = p, true
	return p
}

// atomsAt returns the blocks p's atoms are defined at, as a mask of bit
// n%64 for block n, computed once per node for all the columns: most
// entries hold no atom of their column, and are their own projection.
func (m *Matrix) atomsAt(p *pred.Pred) uint64 {
	if r, ok := m.defs[p]; ok {
		return r
	}
	var r uint64
	if p.Kind == pred.Atom {
		if at, ok := m.defAt[p.Reg]; ok {
			r = 1 << (uint(at) % 64)
		}
	}
	for _, a := range p.Args {
		r |= m.atomsAt(a)
	}
	m.defs[p] = r
	return r
}

// use returns At(i, j) and records it as an entry the code uses.
func (m *Matrix) use(i, j int) *pred.Pred {
	p := m.At(i, j)
	m.used[[2]int{i, j}] = p
	return p
}

// Entries lists the entries the code uses, by row then column.
func (m *Matrix) Entries() []Entry {
	es := make([]Entry, 0, len(m.used))
	for k, p := range m.used {
		es = append(es, Entry{I: k[0], J: k[1], P: p})
	}
	sort.Slice(es, func(x, y int) bool {
		if es[x].I != es[y].I {
			return es[x].I < es[y].I
		}
		return es[x].J < es[y].J
	})
	return es
}

// Project returns p↓ with every atom whose register def says is defined
// at the node, and its negation, replaced by True (paper 004, Definition
// 5.2): pred.Project, the one definition the construction and the
// validator share with the predicate questions.
func Project(p *pred.Pred, def func(cfg.Reg) bool) *pred.Pred { return project(p, def) }

func project(p *pred.Pred, def func(cfg.Reg) bool) *pred.Pred { return pred.Project(p, def) }

// edgeCond is the condition under which control goes from p to s: p's
// branch register, negated on the false edge; True after a jump.
func edgeCond(p, s *cfg.Block) *pred.Pred {
	if p.Term.Kind != cfg.TermBranch || len(p.Succs()) != 2 {
		return pred.Const(pred.True)
	}
	c := pred.Cond(p.Term.Reg)
	if p.Succs()[0] == s {
		return c
	}
	return pred.NewNot(c)
}

// and is the conjunction of ps, flattened, without True operands; False
// if one is False. Sound in three-valued logic: True is the unit of min
// and False its zero.
func and(ps ...*pred.Pred) *pred.Pred { return nary(pred.And, pred.True, pred.False, ps) }

// or is the disjunction of ps, the dual of and.
func or(ps ...*pred.Pred) *pred.Pred { return nary(pred.Or, pred.False, pred.True, ps) }

func nary(k, unit, zero pred.Kind, ps []*pred.Pred) *pred.Pred {
	n := 0
	for _, p := range ps {
		if p != nil && p.Kind == k {
			n += len(p.Args)
		} else {
			n++
		}
	}
	args := make([]*pred.Pred, 0, n)
	for _, p := range ps {
		switch {
		case p == nil:
		case p.Kind == zero:
			return pred.Const(zero)
		case p.Kind == unit:
		case p.Kind == k:
			args = append(args, p.Args...)
		default:
			args = append(args, p)
		}
	}
	switch len(args) {
	case 0:
		return pred.Const(unit)
	case 1:
		return args[0]
	}
	return &pred.Pred{Kind: k, Args: args} // pred.NewAnd or NewOr, without their copy of args
}
