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
//   - Each type Compute gives is checked by the type soundness rule
//     (soundness.go), the op's own semantics on sample points of its
//     inputs' types: a wrong transfer function is seen where it first
//     gives a wrong type, before a fold or a branch uses it.
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
// What it trusts: the types stored in the leaves (each checked in turn
// where it was computed, and by son.Verify's rules after each pass), and,
// for Phi values, which predecessors control takes. It does not check
// the rewrites of control nodes and Phis, whose faults break the graph's
// shape and are son.Verify's. Cost: a constant per peephole step — at
// most maxTerms nodes per side and a bounded number of evaluations — and
// one nil check per step when checking is off.

// rewriteChecker holds what the checks found.
type rewriteChecker struct {
	g     *Graph
	probs []rewriteProblem
	lost  int // problems beyond maxProblems, counted only

	// Stats counts the checks, for tests and -stats.
	Stats RewriteStats
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
	if msg := checkSound(n, t, nodeType); msg != "" {
		c.bad(n, "type-sound", "%s", msg)
	}
}

// rewritten is the peephole's hook where it replaces n by m for a reason
// other than a rule of idealize: a constant type or value numbering.
func (g *Graph) rewritten(n, m *Node, why string) *Node {
	if g.check != nil {
		g.check.replaced(n, snapshot(n), m, why)
	}
	return m
}

// idealizeChecked runs idealize and, when checking, checks what it did.
func (g *Graph) idealizeChecked(n *Node) *Node {
	if g.check == nil {
		return g.idealize(n)
	}
	old := snapshot(n)
	m := g.idealize(n)
	if m != nil {
		g.check.replaced(n, old, m, "rewrite")
	}
	return m
}

// snapshot is a detached copy of n's op and inputs: what n computed before
// a rule changed it in place. It is never put in the graph.
func snapshot(n *Node) *Node {
	return &Node{ID: n.ID, Op: n.Op, Aux: n.Aux, In: append([]*Node(nil), n.In...), Type: n.Type, Pos: n.Pos}
}

// replaced checks that old, a snapshot of n, computes what m computes.
func (c *rewriteChecker) replaced(n, old, m *Node, why string) {
	if len(c.probs) == maxProblems || !old.Op.IsBinary() && !old.Op.IsUnary() {
		return
	}
	if m == n && sameShape(old, n) {
		return // changed nothing it computes (a division unpinned, say)
	}
	if m.IsControl() || m.Op == OpScope {
		c.bad(n, why, "data node replaced by %v", m)
		return
	}
	c.Stats.Rewrites++
	if why == "value numbering" {
		if !sameShape(old, m) && !(commutes(old.Op) && swapped(old, m)) {
			c.bad(n, why, "%s is merged with %v = %s, which is not the same computation", exprOf(old), m, exprOf(m))
		}
		return
	}
	p := newEvalProgram(old, m)
	if p == nil {
		return // too tangled to check (a cycle while the graph is built)
	}
	if p.linearEqual() {
		c.Stats.Proved++
		return
	}
	if msg := p.test(&c.Stats); msg != "" {
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
		if x != nil && x.Op == OpConstant && x.Type.IsConst() {
			return fmt.Sprint(x.Aux)
		}
		return x.String()
	}
	switch {
	case n.Op == OpConstant && n.Type.IsConst():
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
	maxTerms  = 48 // nodes of both sides expanded, beyond which nodes are leaves
	maxDepth  = 6  // depth from either root beyond which nodes are leaves
	maxEvals  = 512
	randomPts = 4 // pseudo-random points within each leaf's type, besides its corners
)

// evalProgram is the two sides of a rewrite as straight-line code: terms
// in an order where each comes after its operands; a term is a constant,
// a leaf (a free value drawn from its node's type), or an op of earlier
// terms.
type evalProgram struct {
	terms      []term
	leaves     []int // indices of the leaf terms
	old, new   int   // the terms of the two roots
	index      map[*Node]int
	state      map[*Node]uint8
	depth      map[*Node]int
	cyclic     bool
	vals       []int64
	undefined  bool
	oldRoot    *Node
	nodesShown []*Node // for messages: the node of each leaf
}

type term struct {
	op   Op // OpConstant, OpInvalid for a leaf, else the data op
	c    int64
	args [2]int
	n    *Node
}

// newEvalProgram lays out both sides; old is a detached snapshot whose
// operands are graph nodes.
func newEvalProgram(old, m *Node) *evalProgram {
	p := &evalProgram{index: map[*Node]int{}, state: map[*Node]uint8{}, depth: map[*Node]int{}, oldRoot: old}
	// Breadth first from both roots: a node's depth is its least.
	queue := []*Node{old, m}
	p.depth[old], p.depth[m] = 0, 0
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		if !p.expandable(x) || len(p.depth) > 4*maxTerms {
			continue
		}
		for _, y := range x.In[1:] {
			if _, ok := p.depth[y]; !ok && y != nil {
				p.depth[y] = p.depth[x] + 1
				queue = append(queue, y)
			}
		}
	}
	p.old = p.lay(old)
	p.new = p.lay(m)
	if p.cyclic {
		return nil
	}
	p.vals = make([]int64, len(p.terms))
	return p
}

// expandable reports whether x is computed from its operands in the
// program rather than drawn as a leaf.
func (p *evalProgram) expandable(x *Node) bool {
	d, ok := p.depth[x]
	return ok && d < maxDepth && !x.dead && (x.Op.IsBinary() && len(x.In) == 3 || x.Op.IsUnary() && len(x.In) == 2) &&
		x.In[1] != nil && (x.Op.IsUnary() || x.In[2] != nil)
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
	case x.Op == OpConstant && x.Type.IsConst():
		t.op, t.c = OpConstant, x.Aux
	case p.expandable(x) && len(p.terms) < maxTerms:
		t.op = x.Op
		t.args[0] = p.lay(x.In[1])
		if x.Op.IsBinary() {
			t.args[1] = p.lay(x.In[2])
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
	}
}

// test evaluates both sides on the sample points of the leaves and returns
// a point where they differ, or "".
func (p *evalProgram) test(st *RewriteStats) string {
	k := len(p.leaves)
	pts := make([][]int64, k)
	var near []types.Type
	for _, l := range p.leaves {
		near = append(near, p.terms[l].n.Type)
	}
	rng := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // xorshift64: the same points on every run
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return rng
	}
	for j, l := range p.leaves {
		t := p.terms[l].n.Type
		pts[j] = samplePoints(t, true, near...)
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
				pts[j] = append(pts[j], int64(uint64(lo)+r))
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
		if !p.undefined && p.vals[p.old] != p.vals[p.new] {
			return p.describe()
		}
		return ""
	}
	total := 1
	for j := range pts {
		if total > maxEvals {
			break
		}
		total *= len(pts[j])
	}
	if total <= maxEvals { // every combination
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
