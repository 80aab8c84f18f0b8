package son

import (
	"fmt"
	"math"
	"strings"

	"son/types"
)

// The checker of the peepholes: with Graph.CheckRewrites on, every step
// of the peephole on a data node is checked as it happens — in the
// builder, which peepholes every node it makes, and in every pass that
// iterates peepholes — so that a wrong rewrite is seen even when the node
// it produced is later rewritten again or dies.
//
//   - Each type Compute gives a node the peephole makes or revisits is
//     checked by the type soundness rule (soundness.go), the op's own
//     semantics on sample points of its inputs' types: a wrong transfer
//     function is seen where it first gives a wrong type, before a fold
//     or a branch uses it.
//   - Each replacement of a data node n by m, and each change of n's
//     operands in place, is checked n ≡ m: first by proof, when both
//     sides are linear combinations (mod 2^64) of the same atoms over
//     + - neg, * by a constant and << by a constant, with equal
//     coefficients; else by evaluating both on sample points of the
//     types of the nodes they are computed from (their leaves), with
//     each operation's own semantics. The second is testing of each
//     rewrite on the corners of its inputs, as Alive does for LLVM by
//     proof: a rule wrong only between the sample points passes.
//   - A value-numbering hit is checked by structure: the same op, aux
//     and inputs, or the operands swapped for an op commutative by this
//     file's own table.
//
// What it trusts: the types stored in the nodes a rewrite's two sides are
// computed from (each checked in turn where it was computed, and by
// son.Verify's rules after each pass): leaves take values only within
// their types, and a point where an inner node computes a value outside
// its type is not a run; and, for Phi values, which predecessors control
// takes (a node computed from a Phi whose region died is in no run, and
// its rewrites are not checked: deadPhi). It does not check the rewrites
// of control nodes and Phis, whose faults break the graph's shape and are
// son.Verify's. Cost: a constant
// per peephole step — at most maxTerms nodes per side (a second look, 8
// times that, only before reporting) and at most maxAll evaluations — and
// one nil check per step when checking is off.

// rewriteChecker holds what the checks found.
type rewriteChecker struct {
	g     *Graph
	probs []rewriteProblem
	lost  int // problems beyond maxProblems, counted only

	// Stats counts the checks, for tests and -stats.
	Stats RewriteStats

	progs [2]evalProgram // reused: the first cut, and a deeper one
}

// RewriteStats counts what the checker of the peepholes did.
type RewriteStats struct {
	Types    int // types Compute gave, checked for soundness
	Rewrites int // replacements and in-place changes of data nodes checked
	Proved   int // of those, proved by linear normal forms
	Evals    int // evaluations of both sides on sample points
}

type rewriteProblem struct {
	n    *Node
	rule string
	msg  string
}

// CheckRewrites turns on the checks of every peephole step from now on.
// son.Build turns them on from the first node with BuildOptions.Check.
func (g *Graph) CheckRewrites() {
	if g.check == nil {
		g.check = &rewriteChecker{g: g}
	}
}

// RewriteStats returns the counts of the peephole checker (zero when it
// is off).
func (g *Graph) RewriteStats() RewriteStats {
	if g.check == nil {
		return RewriteStats{}
	}
	return g.check.Stats
}

// RewriteError returns the problems the checker of the peepholes found
// since the last call, or nil: one a line, the first on the first line.
func (g *Graph) RewriteError() error {
	c := g.check
	if c == nil || len(c.probs) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("peephole check: ")
	for i, p := range c.probs {
		if i > 0 {
			b.WriteString("\n\t")
		}
		if p.n.Pos.IsKnown() {
			fmt.Fprintf(&b, "%s:%v: ", g.Name, p.n.Pos)
		}
		fmt.Fprintf(&b, "%v: %s: %s", p.n, p.rule, p.msg)
	}
	if c.lost > 0 {
		fmt.Fprintf(&b, "\n\t... and %d more", c.lost)
	}
	c.probs, c.lost = nil, 0
	return fmt.Errorf("%s", b.String())
}

func (c *rewriteChecker) bad(n *Node, rule, format string, args ...any) {
	if len(c.probs) == maxProblems {
		c.lost++
		return
	}
	c.probs = append(c.probs, rewriteProblem{n, rule, fmt.Sprintf(format, args...)})
}

// ---- hooks ----

// typed checks the type t that Compute gave n.
func (c *rewriteChecker) typed(n *Node, t types.Type) {
	if len(c.probs) == maxProblems {
		return
	}
	c.Stats.Types++
	if msg := checkSound(n, t, nil); msg != "" {
		c.bad(n, "type-sound", "%s", msg)
	}
}

// rewritten is the peephole's hook where it replaces n by m for a reason
// other than a rule of idealize: a constant type or value numbering.
func (g *Graph) rewritten(n, m *Node, why string) *Node {
	if g.check != nil {
		g.check.replacedAsIs(n, m, why)
	}
	return m
}

// replacedAsIs checks the replacement of n, unchanged, by m.
func (c *rewriteChecker) replacedAsIs(n, m *Node, why string) { c.replaced(n, shapeOf(n), m, why) }

// idealize runs the rules on n and checks what they did.
func (c *rewriteChecker) idealize(n *Node) *Node {
	old := shapeOf(n)
	var cond *Node // an If's condition before the rules
	if n.Op == OpIf && len(n.In) > 1 {
		cond = n.In[1]
	}
	m := c.g.idealize(n)
	switch {
	case m == nil:
	case cond != nil && m.Op == OpIf && len(m.In) > 1 && m.In[1] != cond:
		c.branchOn(n, cond, m.In[1])
	default:
		c.replaced(n, old, m, "rewrite")
	}
	return m
}

// branchOn checks that If n, which branched on cond, now branches on
// cond2 with the same sides: cond != 0 and cond2 != 0 agree (the rewrite
// of a data node that computes each truth, detached from the graph).
func (c *rewriteChecker) branchOn(n, cond, cond2 *Node) {
	if cond == nil || cond2 == nil || cond.dead || cond2.dead {
		return
	}
	zero := &Node{Op: OpConstant, typ: typeRef(types.Zero)}
	truthOf := func(x *Node) *Node {
		return &Node{ID: n.ID, Op: OpNe, In: []*Node{nil, x, zero}, Pos: n.Pos, typ: typeRef(types.Bool)}
	}
	c.replaced(n, shapeOf(truthOf(cond)), truthOf(cond2), "branch")
}

// shape is what a data node computes: its op, aux and operands, recorded
// before a rule may change them in place. Other nodes record nothing.
type shape struct {
	op  Op
	aux int64
	x   [2]*Node
}

func shapeOf(n *Node) shape {
	switch {
	case n.Op.IsBinary() && len(n.In) == 3:
		return shape{op: n.Op, aux: n.Aux, x: [2]*Node{n.In[1], n.In[2]}}
	case n.Op.IsUnary() && len(n.In) == 2:
		return shape{op: n.Op, aux: n.Aux, x: [2]*Node{n.In[1]}}
	}
	return shape{}
}

// node is a detached node computing s, positioned as n: never put in the
// graph.
func (s shape) node(n *Node) *Node {
	in := []*Node{nil, s.x[0], s.x[1]}
	if s.op.IsUnary() {
		in = in[:2]
	}
	return &Node{ID: n.ID, Op: s.op, Aux: s.aux, In: in, Pos: n.Pos}
}

// replaced checks that n as it was (s) computes what m computes.
func (c *rewriteChecker) replaced(n *Node, s shape, m *Node, why string) {
	if len(c.probs) == maxProblems || s.op == OpInvalid {
		return
	}
	if m == n && s == shapeOf(n) {
		return // changed nothing it computes (a division unpinned, say)
	}
	if m.IsControl() || m.Op == OpScope {
		c.bad(n, why, "data node replaced by %v", m)
		return
	}
	c.Stats.Rewrites++
	old := s.node(n)
	if why == "value numbering" {
		if !sameShape(old, m) && !(commutes(old.Op) && swapped(old, m)) {
			c.bad(n, why, "%s is merged with %v = %s, which is not the same computation", exprOf(old), m, exprOf(m))
		}
		return
	}
	p := c.progs[0].layout(old, m, maxTerms, maxDepth)
	if p == nil {
		return // too tangled to check (a cycle while the graph is built)
	}
	if p.linearEqual() {
		c.Stats.Proved++
		return
	}
	msg := p.test(&c.Stats)
	if msg != "" {
		// Before reporting, look deeper: two leaves may have been
		// related by what lies beyond the cut.
		if q := c.progs[1].layout(old, m, 8*maxTerms, 4*maxDepth); q != nil {
			if q.linearEqual() {
				c.Stats.Proved++
				return
			}
			msg = q.test(&c.Stats)
		}
	}
	if msg != "" {
		to := "to " + exprOf(m)
		switch {
		case m == n:
			to = "in place " + to
		case m.Op.IsBinary() || m.Op.IsUnary() || m.Op == OpConstant:
			to = fmt.Sprintf("to %v = %s", m, exprOf(m))
		}
		c.bad(n, why, "%s rewritten %s: %s", exprOf(old), to, msg)
	}
}

// sameShape reports whether a and b have the same op, aux and operands.
func sameShape(a, b *Node) bool {
	if a.Op != b.Op || a.Aux != b.Aux || len(a.In) != len(b.In) {
		return false
	}
	for i := 1; i < len(a.In); i++ {
		if a.In[i] != b.In[i] {
			return false
		}
	}
	return a.Op != OpPhi || a.In[0] == b.In[0]
}

// swapped reports whether binary a and b have the same op with their two
// operands exchanged.
func swapped(a, b *Node) bool {
	return a.Op == b.Op && a.Aux == b.Aux && len(a.In) == 3 && len(b.In) == 3 && a.In[1] == b.In[2] && a.In[2] == b.In[1]
}

// commutes is this file's own table of the ops whose operands may be
// exchanged.
func commutes(op Op) bool {
	switch op {
	case OpAdd, OpMul, OpAnd, OpOr, OpXor, OpEq, OpNe:
		return true
	}
	return false
}

// exprOf shows a data node as its op applied to its inputs: "Add#4 - 3".
func exprOf(n *Node) string {
	arg := func(x *Node) string {
		if x != nil && x.Op == OpConstant && x.Type().IsConst() {
			return fmt.Sprint(x.Aux)
		}
		return x.String()
	}
	switch {
	case n.Op == OpConstant && n.Type().IsConst():
		return fmt.Sprint(n.Aux)
	case n.Op.IsBinary() && len(n.In) == 3:
		return fmt.Sprintf("%s %s %s", arg(n.In[1]), n.Op.Symbol(), arg(n.In[2]))
	case n.Op.IsUnary() && len(n.In) == 2:
		return n.Op.Symbol() + arg(n.In[1])
	}
	return n.String()
}

// ---- the two sides as a program over their leaves ----

const (
	maxTerms  = 48  // nodes of both sides computed from their operands; the others are leaves
	maxDepth  = 6   // depth from either root beyond which nodes are leaves
	maxEvals  = 256 // evaluations drawn when every combination of points would be more than maxAll
	maxAll    = 1024
	randomPts = 4 // pseudo-random points within each leaf's type, besides its corners
)

// evalProgram is the two sides of a rewrite as straight-line code: terms
// in an order where each comes after its operands; a term is a constant,
// a leaf (a free value drawn from its node's type), or an op of earlier
// terms.
type evalProgram struct {
	terms     []term
	leaves    []int // indices of the leaf terms
	old, new  int   // the terms of the two roots
	index     map[*Node]int
	state     map[*Node]uint8
	expand    map[*Node]bool // the nodes computed from their operands
	depth     map[*Node]int
	queue     []*Node
	roots     [2]*Node
	cyclic    bool
	vals      []int64
	undefined bool
}

type term struct {
	op     Op // OpConstant, OpInvalid for a leaf, else the data op
	c      int64
	args   [2]int
	n      *Node
	lo, hi int64 // an inner term's stored type: a value outside it cannot happen
	inner  bool
}

// layout lays out both sides; old is a detached node whose
// operands are graph nodes. The nodes computed from their operands are
// the first maxTerms found breadth first from both roots at once, within
// maxDepth of one: the structure a rule looks at is near its roots.
// It reuses p's tables, which may be empty.
func (p *evalProgram) layout(old, m *Node, maxTerms, maxDepth int) *evalProgram {
	if p.index == nil {
		p.index, p.state, p.expand, p.depth = map[*Node]int{}, map[*Node]uint8{}, map[*Node]bool{}, map[*Node]int{}
	}
	clear(p.index)
	clear(p.state)
	clear(p.expand)
	clear(p.depth)
	p.terms, p.leaves, p.cyclic = p.terms[:0], p.leaves[:0], false
	depth := p.depth
	depth[old], depth[m] = 0, 0
	queue := append(p.queue[:0], old, m)
	for i := 0; i < len(queue) && len(p.expand) < maxTerms; i++ {
		x := queue[i]
		if !computable(x) || depth[x] >= maxDepth {
			continue
		}
		p.expand[x] = true
		for _, y := range x.In[1:] {
			if _, ok := depth[y]; !ok {
				depth[y] = depth[x] + 1
				queue = append(queue, y)
			}
		}
	}
	p.queue = queue[:0]
	p.roots = [2]*Node{old, m}
	p.old = p.lay(old)
	for _, i := range p.leaves {
		if deadPhi(p.terms[i].n) {
			return nil // the old side is dead code: nothing to check
		}
	}
	p.new = p.lay(m)
	if p.cyclic {
		return nil
	}
	if cap(p.vals) < len(p.terms) {
		p.vals = make([]int64, len(p.terms))
	}
	p.vals = p.vals[:len(p.terms)]
	return p
}

// deadPhi reports whether x is a Phi whose region died (replaced by the
// XCtrl node): no run reaches it or any node computed from it, and
// idealPhi replaces it by any of its inputs (a loop that the code before
// it never enters, its Phi then standing for the value on entry, for
// one). A rewrite of a node computed from it is not checked: its sides
// need not agree where no run goes.
func deadPhi(x *Node) bool {
	return x.Op == OpPhi && len(x.In) > 0 && x.In[0] != nil && x.In[0].Type().IsXCtrl()
}

// computable reports whether x is a data op whose value the program can
// compute from its operands.
func computable(x *Node) bool {
	return !x.dead && (x.Op.IsBinary() && len(x.In) == 3 && x.In[2] != nil || x.Op.IsUnary() && len(x.In) == 2) && x.In[1] != nil
}

// lay appends the terms of x and returns the index of x's term.
func (p *evalProgram) lay(x *Node) int {
	if i, ok := p.index[x]; ok {
		return i
	}
	if p.state[x] == 1 {
		p.cyclic = true
		return 0
	}
	p.state[x] = 1
	t := term{n: x}
	switch {
	case x.Op == OpConstant && x.Type().IsConst():
		t.op, t.c = OpConstant, x.Aux
	case p.expand[x]:
		t.op = x.Op
		t.args[0] = p.lay(x.In[1])
		if x.Op.IsBinary() {
			t.args[1] = p.lay(x.In[2])
		}
		if x != p.roots[0] && x != p.roots[1] {
			// An inner node's type is trusted as a leaf's is: a point
			// where it computes a value outside it is not a run (its
			// type may be older than a wider replacement of an
			// operand, and a fold may rest on it).
			t.lo, t.hi, t.inner = intRangeOrEmpty(x.Type())
		}
	default:
		t.op = OpInvalid
		p.leaves = append(p.leaves, len(p.terms))
	}
	p.state[x] = 2
	p.index[x] = len(p.terms)
	p.terms = append(p.terms, t)
	return len(p.terms) - 1
}

// run evaluates every term with the leaves' values already in vals.
func (p *evalProgram) run() {
	p.undefined = false
	for i, t := range p.terms {
		switch {
		case t.op == OpConstant:
			p.vals[i] = t.c
		case t.op == OpInvalid:
		case t.op.IsUnary():
			p.vals[i] = semUnary(t.op, p.vals[t.args[0]])
		default:
			v, ok := semBinary(t.op, p.vals[t.args[0]], p.vals[t.args[1]])
			if !ok {
				p.undefined = true // a division by 0: this point computes nothing
			}
			p.vals[i] = v
		}
		if t.inner && (p.vals[i] < t.lo || p.vals[i] > t.hi) {
			p.undefined = true
		}
	}
}

// intRangeOrEmpty is intRange with an empty range (lo > hi) for a type
// that holds no integer, and inner set.
func intRangeOrEmpty(t types.Type) (lo, hi int64, inner bool) {
	lo, hi, ok := intRange(t)
	if !ok {
		return 1, 0, true
	}
	return lo, hi, true
}

// test evaluates both sides on the sample points of the leaves and returns
// a point where they differ, or "".
func (p *evalProgram) test(st *RewriteStats) string {
	k := len(p.leaves)
	pts := make([][]int64, k)
	// The points where a comparison of two leaves, or of a leaf and a
	// constant, changes value: the ends of the other leaves' types and
	// the constants, with their neighbours.
	var near []types.Type
	for _, l := range p.leaves {
		near = append(near, p.terms[l].n.Type())
	}
	for _, t := range p.terms {
		if t.op == OpConstant {
			near = append(near, types.Const(t.c))
		}
	}
	rng := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // xorshift64: the same points on every run
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return rng
	}
	for j, l := range p.leaves {
		t := p.terms[l].n.Type()
		pts[j] = samplePoints(make([]int64, 0, maxSamples+randomPts), t, true, near...)
		if len(pts[j]) == 0 {
			return "" // a leaf with no value (Top): neither side is computed
		}
		if lo, hi, ok := intRange(t); ok && lo < hi {
			w := uint64(hi) - uint64(lo) + 1 // 0 for all of int
			for range randomPts {
				r := next()
				if w != 0 {
					r %= w
				}
				// A value of t: its known bits set as they must be.
				if v := int64((uint64(lo)+r)&^t.Zeros() | t.Ones()); t.Contains(v) {
					pts[j] = append(pts[j], v)
				}
			}
		}
	}
	idx := make([]int, k)
	try := func() string {
		for j, l := range p.leaves {
			p.vals[l] = pts[j][idx[j]]
		}
		p.run()
		st.Evals++
		if !p.undefined && p.vals[p.old] != p.vals[p.new] { // undefined: not a run
			return p.describe()
		}
		return ""
	}
	total := 1
	for j := range pts {
		if total > maxAll {
			break
		}
		total *= len(pts[j])
	}
	if total <= maxAll { // every combination
		for {
			if msg := try(); msg != "" {
				return msg
			}
			j := 0
			for ; j < k; j++ {
				if idx[j]++; idx[j] < len(pts[j]) {
					break
				}
				idx[j] = 0
			}
			if j == k {
				return ""
			}
		}
	}
	// Too many: the diagonals (every leaf its i-th point), then points
	// drawn at random from each leaf's list.
	longest := 0
	for _, ps := range pts {
		longest = max(longest, len(ps))
	}
	for i := range longest {
		for j := range idx {
			idx[j] = i % len(pts[j])
		}
		if msg := try(); msg != "" {
			return msg
		}
	}
	for range maxEvals - longest {
		for j := range idx {
			idx[j] = int(next() % uint64(len(pts[j])))
		}
		if msg := try(); msg != "" {
			return msg
		}
	}
	return ""
}

// describe says where the two sides differ, with the values last run.
func (p *evalProgram) describe() string {
	var at []string
	for _, l := range p.leaves {
		at = append(at, fmt.Sprintf("%v=%d", p.terms[l].n, p.vals[l]))
	}
	where := "with no free values"
	if len(at) > 0 {
		where = "at " + strings.Join(at, ", ")
	}
	return fmt.Sprintf("%s, the old gives %d and the new %d", where, p.vals[p.old], p.vals[p.new])
}

// ---- proof by linear normal forms ----

// linForm is c + Σ coef[a]·a over atoms a (term indices), mod 2^64.
type linForm struct {
	c    uint64
	coef map[int]uint64
}

func (f linForm) isConst() bool { return len(f.coef) == 0 }

func (f linForm) scale(k uint64) linForm {
	g := linForm{c: f.c * k, coef: map[int]uint64{}}
	for a, x := range f.coef {
		if x*k != 0 {
			g.coef[a] = x * k
		}
	}
	return g
}

func (f linForm) plus(h linForm, sign uint64) linForm {
	g := linForm{c: f.c + sign*h.c, coef: map[int]uint64{}}
	for a, x := range f.coef {
		g.coef[a] = x
	}
	for a, x := range h.coef {
		if s := g.coef[a] + sign*x; s != 0 {
			g.coef[a] = s
		} else {
			delete(g.coef, a)
		}
	}
	return g
}

// linearEqual reports whether both sides have the same linear normal
// form: a proof that they are equal for every value of the atoms.
func (p *evalProgram) linearEqual() bool {
	forms := make([]linForm, len(p.terms))
	atom := func(i int) linForm { return linForm{coef: map[int]uint64{i: 1}} }
	for i, t := range p.terms {
		var a, b linForm
		if t.op != OpConstant && t.op != OpInvalid {
			a = forms[t.args[0]]
			if t.op.IsBinary() {
				b = forms[t.args[1]]
			}
		}
		switch {
		case t.op == OpConstant:
			forms[i] = linForm{c: uint64(t.c)}
		case t.op == OpAdd:
			forms[i] = a.plus(b, 1)
		case t.op == OpSub:
			forms[i] = a.plus(b, math.MaxUint64) // -1 mod 2^64
		case t.op == OpMinus:
			forms[i] = a.scale(math.MaxUint64)
		case t.op == OpMul && b.isConst():
			forms[i] = a.scale(b.c)
		case t.op == OpMul && a.isConst():
			forms[i] = b.scale(a.c)
		case t.op == OpShl && b.isConst():
			forms[i] = a.scale(1 << (b.c % 64))
		default:
			forms[i] = atom(i)
		}
	}
	f, g := forms[p.old], forms[p.new]
	if f.c != g.c || len(f.coef) != len(g.coef) {
		return false
	}
	for a, x := range f.coef {
		if g.coef[a] != x {
			return false
		}
	}
	return true
}
