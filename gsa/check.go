package gsa

import (
	"errors"
	"fmt"

	"son/cfg"
	"son/pred"
)

// The validator of the construction (paper 004, Definition 5.1), apart
// from the construction: Check compares an SSA function f with the GSA
// function g built from it. Its structural part, here, needs no solver:
//
//   - the code correspondence of Definition 5.6: the same blocks, edges,
//     instructions and terminators, registers renamed by R exactly where
//     the renaming applies; each Phi of a loop header a μ of the same
//     arguments, each Phi of another junction a γ whose k-th argument is
//     guarded by P(d, Preds[k]) for one strict dominator d of the
//     junction; each η at an empty block l (an Inop) guarded by P(h, l)
//     for one strict dominator h of l; the one-argument Phis of f at such
//     a block (loop-closed form) as ηs of the same registers;
//   - the validity of R (Definition 5.7): each r with R(r) = [(rη, lη)...]
//     is defined by a μ at a block that strictly dominates every lη, is
//     not fresh in f, and every rη is fresh in f and defined at lη by
//     rη = η(p, r).
//
// The semantic part, coherence of the matrix (Definition 5.2) and
// well-exclusivity (Definition 5.5), needs a decision procedure for
// three-valued implication: CheckPredicates asks it of a Solver.

// Solver decides the questions of the semantic part, in three-valued
// logic (figure 6). Implies(p, q): whenever p evaluates to 1, q does.
// Disjoint(p, q): p and q never both evaluate to 1. An error is a failure
// to decide (a certificate that does not check, say), not a "no".
type Solver interface {
	Implies(p, q *pred.Pred) (bool, error)
	Disjoint(p, q *pred.Pred) (bool, error)
}

// Check validates g against f structurally (Definitions 5.6 and 5.7) and
// returns every problem found, each naming the block and the rule.
func Check(f *cfg.Func, g *Func) error {
	x, err := newFacts(f)
	if err != nil {
		return err
	}
	return check(f, g, x)
}

// Validate is the whole validator: Check, then, if g passes it,
// CheckPredicates with s, the control-flow facts computed once for both.
func Validate(f *cfg.Func, g *Func, s Solver) error {
	x, err := newFacts(f)
	if err != nil {
		return err
	}
	if err := check(f, g, x); err != nil {
		return err
	}
	return checkPredicates(f, g, s, x)
}

func check(f *cfg.Func, g *Func, x *facts) error {
	if err := shape(f, g); err != nil {
		return err
	}
	c := &checker{f: f, g: g, x: x, regs: defCount(f)}
	c.code()
	c.exits()
	c.closed()
	c.renaming()
	return errors.Join(c.errs...)
}

// shape checks that g has the parts the rules read, one per block of f:
// a code block (no nil one, no nil instruction), a merge and an η block
// (no nil entry, a γ with one predicate per argument). The rules index
// them without looking again, so a broken g is reported here, not by a
// panic.
func shape(f *cfg.Func, g *Func) error {
	if g == nil || g.Code == nil {
		return fmt.Errorf("gsa: no GSA function")
	}
	n := len(f.Blocks)
	if len(g.Code.Blocks) != n || len(g.Merges) != n || len(g.Etas) != n {
		return fmt.Errorf("gsa: code: %d blocks in f, %d in the code, %d merge and %d η blocks", n, len(g.Code.Blocks), len(g.Merges), len(g.Etas))
	}
	return g.parts(func(i int) string { return f.Blocks[i].String() })
}

// Shape checks that g alone has the parts that reading it takes (ToSSA,
// Print, DOT): a code block for each position, none nil, no nil
// instruction, a merge, an η block and a header flag for each (no nil
// entry, a γ with one predicate per argument). It does not check g
// against an SSA function: that is Check's.
func (g *Func) Shape() error {
	if g == nil || g.Code == nil {
		return fmt.Errorf("gsa: no GSA function")
	}
	n := len(g.Code.Blocks)
	if len(g.Merges) != n || len(g.Etas) != n || len(g.Header) != n {
		return fmt.Errorf("gsa: code: %d blocks in the code, %d merge and %d η blocks, %d header flags", n, len(g.Merges), len(g.Etas), len(g.Header))
	}
	return g.parts(func(i int) string {
		if b := g.Code.Blocks[i]; b != nil {
			return b.String()
		}
		return fmt.Sprintf("block %d", i)
	})
}

// parts checks each position i of g (named name(i)) for what shape and
// Shape say; the lists have one entry a position.
func (g *Func) parts(name func(i int) string) error {
	for i, tb := range g.Code.Blocks {
		if tb == nil {
			return fmt.Errorf("gsa: %s: code: the code's block %d is nil", name(i), i)
		}
		for k, in := range tb.Instrs {
			if in == nil {
				return fmt.Errorf("gsa: %s: code: instruction %d of the code is nil", name(i), k)
			}
		}
		if len(tb.Phis) > 0 {
			return fmt.Errorf("gsa: %s: code: %d Phis in the code, which has merges instead", name(i), len(tb.Phis))
		}
		for k, m := range g.Merges[i] {
			if m == nil || m.Kind == Gamma && len(m.Preds) != len(m.Args) {
				return fmt.Errorf("gsa: %s: merge: merge instruction %d is nil or a γ without one predicate per argument", name(i), k)
			}
		}
		for k, e := range g.Etas[i] {
			if e == nil {
				return fmt.Errorf("gsa: %s: eta: η %d is nil", name(i), k)
			}
		}
	}
	return nil
}

// exits checks that every edge leaving a loop ends at a landing pad (an
// empty block with that one predecessor, section 6.2) whose η block holds
// an η of each μ of each loop the edge leaves (section 5.4): the values
// of the loop's variables past it.
func (c *checker) exits() {
	f, g, x := c.f, c.g, c.x
	for u, ub := range f.Blocks {
		for _, vb := range ub.Succs() {
			v := x.pos[vb]
			for l := x.loop[u]; l >= 0 && !x.inLoop(l, v); l = x.parent[l] {
				if len(vb.Preds) != 1 || len(vb.Instrs) != 0 || vb.Term.Kind != cfg.TermJump {
					c.bad(vb, "exit", "the edge from %v leaves the loop of %v but %v is not a landing pad", ub, f.Blocks[l], vb)
					break
				}
				for _, mu := range g.Merges[l] {
					found := false
					for _, e := range g.Etas[v] {
						found = found || e.Src == mu.Dst
					}
					if !found {
						c.bad(vb, "exit", "no η of %v, the μ of %v, at the loop's exit", mu.Dst, f.Blocks[l])
					}
				}
			}
		}
	}
}

type checker struct {
	f    *cfg.Func
	g    *Func
	x    *facts // the validator's own, not the construction's
	regs int    // how many registers f defines: the size of maps over them
	errs []error
	// The matrix entries read, each once: the code's gates are compared
	// with, and the questions asked of, the same values, whether or not
	// Matrix.At, the construction's code, gives the same value twice.
	entries map[[2]int]*pred.Pred
}

// at is g's matrix entry P(i, j)↓j, as first read.
func (c *checker) at(i, j int) *pred.Pred {
	key := [2]int{i, j}
	if p, ok := c.entries[key]; ok {
		return p
	}
	if c.entries == nil {
		c.entries = map[[2]int]*pred.Pred{}
	}
	var p *pred.Pred
	if c.g.Matrix != nil {
		p = c.g.Matrix.At(i, j)
	}
	c.entries[key] = p
	return p
}

func (c *checker) bad(b *cfg.Block, rule, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("gsa: %v: %s: %s", b, rule, fmt.Sprintf(format, args...)))
}

// renamed is what R makes of a use of r at position at: the register of
// the η of R(r) at a block that dominates at (strictly, if strict).
func (c *checker) renamed(r cfg.Reg, at int, strict bool) cfg.Reg {
	for _, e := range c.g.Rename[r] {
		if e.At >= 0 && e.At < len(c.f.Blocks) && c.x.tree.Dominates(e.At, at) && (!strict || e.At != at) {
			return e.Reg
		}
	}
	return r
}

// code checks Definition 5.6 block by block.
func (c *checker) code() {
	f, g, x := c.f, c.g, c.x
	for i, b := range f.Blocks {
		tb := g.Code.Blocks[i]
		// Regular instructions: equal, up to the renaming.
		if tb.ID != b.ID || len(tb.Succs()) != len(b.Succs()) || len(tb.Preds) != len(b.Preds) || len(tb.Instrs) != len(b.Instrs) {
			c.bad(b, "code", "the block differs in shape from %v of the code", tb)
			continue
		}
		for k, s := range b.Succs() {
			if tb.Succs()[k] != g.Code.Blocks[x.pos[s]] {
				c.bad(b, "code", "successor %d is %v, not %v", k, tb.Succs()[k], s)
			}
		}
		for k, p := range b.Preds {
			if tb.Preds[k] != g.Code.Blocks[x.pos[p]] {
				c.bad(b, "code", "predecessor %d is %v, not %v", k, tb.Preds[k], p)
			}
		}
		for k, in := range b.Instrs {
			tin := tb.Instrs[k]
			ok := tin.Op == in.Op && tin.Dst == in.Dst && tin.Aux == in.Aux && len(tin.Args) == len(in.Args)
			for x := 0; ok && x < len(in.Args); x++ {
				ok = tin.Args[x] == c.renamed(in.Args[x], i, true)
			}
			if !ok {
				c.bad(b, "code", "instruction %d is %v in the code, %v in f", k, tin, in)
			}
		}
		tr := b.Term.Reg
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			tr = c.renamed(tr, i, true)
		}
		if tb.Term.Kind != b.Term.Kind || tb.Term.Reg != tr {
			c.bad(b, "code", "terminator %q in the code, %q in f", tb.TermString(), b.TermString())
		}
		c.merges(i)
		c.etas(i)
	}
}

// merges checks the merge block at position i against f's Phis.
func (c *checker) merges(i int) {
	f, g, x := c.f, c.g, c.x
	b := f.Blocks[i]
	ms := g.Merges[i]
	if len(b.Preds) < 2 {
		if len(ms) > 0 {
			c.bad(b, "merge", "%d merge instructions at a block that is not a junction", len(ms))
		}
		return
	}
	if len(ms) != len(b.Phis) {
		c.bad(b, "merge", "%d merge instructions for %d Phis", len(ms), len(b.Phis))
		return
	}
	for k, phi := range b.Phis {
		m := ms[k]
		if m.Dst != phi.Dst || len(m.Args) != len(phi.Args) {
			c.bad(b, "merge", "%s does not match %v", m.Format(regAtom), phi)
			continue
		}
		for k, r := range phi.Args {
			want := c.renamed(r, x.pos[b.Preds[k]], false)
			if m.Kind == Gamma {
				break // γ arguments are matched with their predicates below
			}
			if m.Args[k] != want {
				c.bad(b, "merge", "%s: argument %d is %v, want %v", m.Format(regAtom), k, m.Args[k], want)
			}
		}
		switch m.Kind {
		case Mu:
			if len(m.Args) != 2 {
				c.bad(b, "merge", "%s: a μ of %d arguments", m.Format(regAtom), len(m.Args))
			}
		case Gamma:
			if len(m.Preds) != len(m.Args) {
				c.bad(b, "merge", "%s: %d predicates for %d arguments", m.Format(regAtom), len(m.Preds), len(m.Args))
				continue
			}
			if c.gammaRow(i, m) < 0 {
				c.bad(b, "merge", "%s: no strict dominator d of %v gives P(d, Preds[k]) for every argument k", m.Format(regAtom), b)
			}
		default:
			c.bad(b, "merge", "%v: unknown kind %d", m.Dst, m.Kind)
		}
	}
}

// gammaRow returns the strict dominator d of position j such that the
// γ m guards its k-th argument, the renamed k-th Phi argument, by
// P(d, Preds[k]); -1 if there is none. The immediate dominator is tried
// first, then each dominator above.
func (c *checker) gammaRow(j int, m *Merge) int {
	f, x := c.f, c.x
	b := f.Blocks[j]
	phi := m.Phi
	if len(m.Preds) != len(b.Preds) || len(m.Args) != len(b.Preds) {
		return -1
	}
	for d := x.tree.Idom(j); d >= 0; d = x.tree.Idom(d) {
		ok := true
		for k, p := range b.Preds {
			pk := x.pos[p]
			ok = Equal(m.Preds[k], c.at(d, pk))
			if ok && phi != nil && k < len(phi.Args) {
				ok = m.Args[k] == c.renamed(phi.Args[k], pk, false)
			}
			if !ok {
				break
			}
		}
		if ok {
			return d
		}
		if d == 0 {
			break
		}
	}
	return -1
}

// etas checks the η block at position i: only at an empty block, all
// guarded by P(h, i) for one strict dominator h, f's one-argument Phis
// there among them.
func (c *checker) etas(i int) {
	f, g, x := c.f, c.g, c.x
	b := f.Blocks[i]
	es := g.Etas[i]
	if len(b.Preds) == 1 {
		for _, phi := range b.Phis {
			found := false
			for _, e := range es {
				found = found || e.Dst == phi.Dst && len(phi.Args) == 1 && e.Src == c.renamed(phi.Args[0], x.pos[b.Preds[0]], false)
			}
			if !found {
				c.bad(b, "eta", "%v has no η of the same registers", phi)
			}
		}
	}
	if len(es) == 0 {
		return
	}
	if len(b.Instrs) != 0 || b.Term.Kind != cfg.TermJump || len(b.Preds) != 1 {
		c.bad(b, "eta", "η instructions at a block that is not an empty block with one predecessor that jumps")
		return
	}
	if c.etaRow(i) < 0 {
		c.bad(b, "eta", "no strict dominator h of %v gives P(h, %v) for every η of the block", b, b)
	}
}

// etaRow returns the strict dominator h of position i such that every η
// of i is guarded by P(h, i); -1 if there is none. The immediate
// dominator is tried first, then each dominator above.
func (c *checker) etaRow(i int) int {
	es := c.g.Etas[i]
	for h := c.x.tree.Idom(i); h >= 0; h = c.x.tree.Idom(h) {
		want := c.at(h, i)
		all := want != nil
		for _, e := range es {
			all = all && Equal(e.Pred, want)
		}
		if all {
			return h
		}
		if h == 0 {
			break
		}
	}
	return -1
}

// closed checks that f is in loop-closed form (section 6.2, which the
// construction takes as given): a register defined in a loop is used only
// inside it — a Phi argument at the end of the predecessor it comes from,
// so a pad's one-argument Phi, read on the exit edge, counts as inside.
// Outside, the value must come through a pad, as an η.
func (c *checker) closed() {
	f, x := c.f, c.x
	loopOf := make(map[cfg.Reg]int, c.regs) // the innermost loop header of the definition
	for i, b := range f.Blocks {
		l := x.loop[i]
		if l < 0 {
			continue
		}
		for _, p := range b.Phis {
			loopOf[p.Dst] = l
		}
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				loopOf[in.Dst] = l
			}
		}
	}
	// what is formatted only for a message: most uses are fine.
	outside := func(r cfg.Reg, at int, b *cfg.Block, what any) {
		if l, ok := loopOf[r]; ok && !x.inLoop(l, at) {
			c.bad(b, "closed", "%v uses %v, defined in the loop of %v, outside it", what, r, f.Blocks[l])
		}
	}
	for i, b := range f.Blocks {
		for _, p := range b.Phis {
			for k, r := range p.Args {
				if k < len(b.Preds) {
					outside(r, x.pos[b.Preds[k]], b, p)
				}
			}
		}
		for _, in := range b.Instrs {
			for _, r := range in.Args {
				outside(r, i, b, in)
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			outside(b.Term.Reg, i, b, "the terminator")
		}
	}
}

// renaming checks Definition 5.7.
func (c *checker) renaming() {
	f, g, x := c.f, c.g, c.x
	inF := make(map[cfg.Reg]bool, c.regs)
	muAt := map[cfg.Reg]int{}
	for i, b := range f.Blocks {
		for _, p := range b.Phis {
			inF[p.Dst] = true
			for _, r := range p.Args {
				inF[r] = true
			}
		}
		for _, in := range b.Instrs {
			inF[in.Dst] = true
			for _, r := range in.Args {
				inF[r] = true
			}
		}
		inF[b.Term.Reg] = true
		for _, m := range g.Merges[i] {
			if m.Kind == Mu {
				muAt[m.Dst] = i
			}
		}
	}
	for r, list := range g.Rename {
		lmu, isMu := muAt[r]
		var at *cfg.Block
		if isMu {
			at = f.Blocks[lmu]
		}
		switch {
		case !isMu:
			c.bad(at, "renaming", "R(%v) is set but no μ defines %v", r, r)
			continue
		case !inF[r]:
			c.bad(at, "renaming", "R(%v) is set but %v is fresh in f", r, r)
		}
		for _, e := range list {
			if e.At < 0 || e.At >= len(f.Blocks) {
				c.bad(at, "renaming", "R(%v) holds (%v, block %d): no such block", r, e.Reg, e.At)
				continue
			}
			lb := f.Blocks[e.At]
			if inF[e.Reg] {
				c.bad(lb, "renaming", "R(%v) holds %v, which is not fresh in f", r, e.Reg)
			}
			if !x.tree.Dominates(lmu, e.At) || lmu == e.At {
				c.bad(lb, "renaming", "R(%v) holds (%v, %v), but the μ's block %v does not strictly dominate %v", r, e.Reg, lb, at, lb)
			}
			found := false
			for _, x := range g.Etas[e.At] {
				found = found || x.Dst == e.Reg && x.Src == r
			}
			if !found {
				c.bad(lb, "renaming", "R(%v) holds (%v, %v), but %v has no %v = η(p, %v)", r, e.Reg, lb, lb, e.Reg, r)
			}
		}
	}
}

// defCount is the number of Phis and instructions of f, the registers
// it defines: maps over them are made that large at once.
func defCount(f *cfg.Func) int {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Phis) + len(b.Instrs)
	}
	return n
}

// regAtom prints an atom as its register, for messages.
func regAtom(r cfg.Reg) string { return r.String() }

// CheckPredicates is the semantic part of the validator, with s deciding
// three-valued implications. The rows it checks, and the blocks it checks
// them at, come from the code, not from the construction's records:
//
//   - the row d of each γ block is the strict dominator gammaRow finds
//     (the one whose entries guard its arguments), its targets the
//     junction's predecessors; the row h of each η block is the strict
//     dominator etaRow finds, its target the pad;
//   - coherence (Definition 5.2): COHEQ, P(d, d) is valid, and COHSDOM at
//     each block x of the region of d, the blocks other than d from which
//     a target is reached without passing through d (all strictly
//     dominated by d): the disjunction of P(d, k) ∧ c(k → x) over the
//     predecessors k of x, projected at x, implies P(d, x);
//   - well-exclusivity (Definition 5.5) of each γ block, at its row: the
//     predicates of two different predecessors are disjoint.
//
// Coherence at the region is what the proof of a γ or an η uses
// (docs/GSA.md, "Coherence where it is used"): an execution from the
// last visit of d to a target stays in the region, so the invariant
// "P(d, x) is 1 at x" is only ever needed there. The solver is asked one
// question per block of each region (the size of the γ or loop between d
// and its targets, so the blocks times the nesting depth), one per row,
// and one per pair of predecessors of each junction.
func CheckPredicates(f *cfg.Func, g *Func, s Solver) error {
	x, err := newFacts(f)
	if err != nil {
		return err
	}
	return checkPredicates(f, g, s, x)
}

func checkPredicates(f *cfg.Func, g *Func, s Solver, x *facts) error {
	var errs []error
	bad := func(b *cfg.Block, rule, format string, args ...any) {
		errs = append(errs, fmt.Errorf("gsa: %v: %s: %s", b, rule, fmt.Sprintf(format, args...)))
	}
	// A solver's failure is wrapped, for errors.Is and errors.As.
	failed := func(b *cfg.Block, rule, what string, err error) {
		errs = append(errs, fmt.Errorf("gsa: %v: %s: %s: %w", b, rule, what, err))
	}
	if err := shape(f, g); err != nil {
		return err
	}
	defAt := map[cfg.Reg]int{}
	for i, b := range f.Blocks {
		for _, p := range b.Phis {
			defAt[p.Dst] = i
		}
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				defAt[in.Dst] = i
			}
		}
	}
	pj := newProjector(defAt, len(f.Blocks))
	// The rows the code uses, each with its targets, from the code.
	c := &checker{f: f, g: g, x: x}
	targets := map[int][]int{}
	var rows []int
	addTarget := func(d, x int) {
		if _, ok := targets[d]; !ok {
			rows = append(rows, d)
		}
		targets[d] = append(targets[d], x)
	}
	gammaRows := make([]int, len(f.Blocks))
	for j, ms := range g.Merges {
		gammaRows[j] = -1
		if len(ms) == 0 || ms[0].Kind != Gamma {
			continue
		}
		d := c.gammaRow(j, ms[0])
		gammaRows[j] = d
		if d < 0 {
			bad(f.Blocks[j], "exclusivity", "the γs use no row of the matrix")
			continue
		}
		for _, p := range f.Blocks[j].Preds {
			addTarget(d, x.pos[p])
		}
	}
	for i, es := range g.Etas {
		if len(es) == 0 {
			continue
		}
		if h := c.etaRow(i); h >= 0 {
			addTarget(h, i)
		} else {
			bad(f.Blocks[i], "coherence", "the ηs use no row of the matrix")
		}
	}
	// COHEQ and COHSDOM of each row over its region.
	seen := make([]int, len(f.Blocks)) // row index + 1 of the last region holding the block
	conds := newEdgeConds(f)
	var alts []*pred.Pred
	for n, d := range rows {
		if p := c.at(d, d); p == nil {
			bad(f.Blocks[d], "coherence", "no entry P(%v, %v)", f.Blocks[d], f.Blocks[d])
		} else if ok, err := s.Implies(pred.Const(pred.True), p); err != nil {
			failed(f.Blocks[d], "coherence", fmt.Sprintf("P(%v, %v) valid", f.Blocks[d], f.Blocks[d]), err)
		} else if !ok {
			bad(f.Blocks[d], "coherence", "P(%v, %v) = %v is not valid", f.Blocks[d], f.Blocks[d], p)
		}
		var work []int
		for _, x := range targets[d] {
			if x != d && seen[x] != n+1 {
				seen[x] = n + 1
				work = append(work, x)
			}
		}
		for len(work) > 0 {
			j := work[len(work)-1]
			work = work[:len(work)-1]
			b := f.Blocks[j]
			if !x.tree.Dominates(d, j) {
				bad(b, "coherence", "%v is reached from %v but not dominated by it", b, f.Blocks[d])
				continue
			}
			// The disjunction of P(d, k) ∧ c(k → j) over the predecessors
			// k of j, projected at j: each operand is projected on its own,
			// which is Project's result (it maps ∧ and ∨ operand-wise), so
			// that the entries, shared by the questions, keep their nodes.
			alts = alts[:0]
			missing := false
			for k, p := range b.Preds {
				pk := x.pos[p]
				e := c.at(d, pk)
				missing = missing || e == nil
				alts = append(alts, conj(pj.project(e, j), pj.project(conds.of(j, k), j)))
				if pk != d && seen[pk] != n+1 {
					seen[pk] = n + 1
					work = append(work, pk)
				}
			}
			pdj := c.at(d, j)
			if pdj == nil || missing {
				bad(b, "coherence", "an entry of row %v is missing", f.Blocks[d])
				continue
			}
			lhs := or(alts...)
			ok, err := s.Implies(lhs, pdj)
			switch {
			case err != nil:
				failed(b, "coherence", fmt.Sprintf("P(%v, %v)", f.Blocks[d], b), err)
			case !ok:
				bad(b, "coherence", "the paths from %v to its predecessors do not imply P(%v, %v) = %v", f.Blocks[d], f.Blocks[d], b, pdj)
			}
		}
	}
	for j, d := range gammaRows {
		if d < 0 {
			continue
		}
		b := f.Blocks[j]
		for u := range b.Preds {
			for v := u + 1; v < len(b.Preds); v++ {
				p, q := c.at(d, x.pos[b.Preds[u]]), c.at(d, x.pos[b.Preds[v]])
				ok, err := s.Disjoint(p, q)
				switch {
				case err != nil:
					failed(b, "exclusivity", fmt.Sprintf("%v and %v", b.Preds[u], b.Preds[v]), err)
				case !ok:
					bad(b, "exclusivity", "the predicates of %v and %v may both hold: %v and %v", b.Preds[u], b.Preds[v], p, q)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// edgeConds gives the validator's own condition of each edge k → j, k
// the k-th predecessor of j (the construction's is edgeCond): k's branch
// register, negated on the false edge, True after a jump. One node per
// edge, made when first asked for, so that the questions share it.
type edgeConds struct {
	f     *cfg.Func
	conds [][]*pred.Pred
}

func newEdgeConds(f *cfg.Func) *edgeConds {
	return &edgeConds{f: f, conds: make([][]*pred.Pred, len(f.Blocks))}
}

func (e *edgeConds) of(j, k int) *pred.Pred {
	s := e.f.Blocks[j]
	if e.conds[j] == nil {
		e.conds[j] = make([]*pred.Pred, len(s.Preds))
	}
	if c := e.conds[j][k]; c != nil {
		return c
	}
	p := s.Preds[k]
	var c *pred.Pred
	switch {
	case p.Term.Kind != cfg.TermBranch || len(p.Succs()) != 2:
		c = pred.Const(pred.True)
	case p.Succs()[0] == s:
		c = pred.Cond(p.Term.Reg)
	default:
		c = pred.NewNot(pred.Cond(p.Term.Reg))
	}
	e.conds[j][k] = c
	return c
}

// conj is e ∧ c, flattened as the construction's and flattens (an
// operand that is a conjunction gives its operands), so that the
// question at a block whose row is its immediate dominator is node for
// node its entry; built in one allocation, the entries being long
// conjunctions. nil if e is.
func conj(e, c *pred.Pred) *pred.Pred {
	switch {
	case e == nil:
		return nil
	case e.Kind == pred.False || c.Kind == pred.False:
		return pred.Const(pred.False)
	case c.Kind == pred.True:
		return e
	case e.Kind == pred.True:
		return c
	}
	ops := func(p *pred.Pred) []*pred.Pred {
		if p.Kind == pred.And {
			return p.Args
		}
		return []*pred.Pred{p}
	}
	args := make([]*pred.Pred, 0, len(ops(e))+len(ops(c)))
	return &pred.Pred{Kind: pred.And, Args: append(append(args, ops(e)...), ops(c)...)}
}
