package son

import (
	"math"

	"son/types"
)

// Facts from the branch taken (issue 18, point 1). Below the true side of
// if (x < 5), x is below 5; below the false side of if (x), x is 0. The
// builder gives each arm of an if, the body of a loop and its exit a
// Refine of each variable whose value the condition tests: a node pinned
// to the side's projection, whose value is x and whose type is x's type
// narrowed by what the condition proves there (Simple's CastNode). The
// fact is read from the If's condition each time the type is computed, so
// it is always the condition's own; y, the other operand, is an input so
// that its type reaches the analyses as any input's does. son.Run checks
// the fact at run time; son.Verify that the node is pinned to a branch;
// opt.SCCP and its checker compute it with the rest (Compute). The cleanup
// pass replaces each Refine by its value once the graph passes are done
// (StripRefines): the facts have been used, and a Refine costs a copy.

// rel is a relation x REL y.
type rel uint8

const (
	relEq rel = iota
	relNe
	relLt
	relLe
	relGt
	relGe
)

// converse is the relation y REL' x that holds when x REL y does.
var converse = [...]rel{relEq, relNe, relGt, relGe, relLt, relLe}

// negation is the relation that holds when x REL y does not.
var negation = [...]rel{relNe, relEq, relGe, relGt, relLe, relLt}

// relOf is the relation an If on op proves on its true side.
func relOf(op Op) (rel, bool) {
	switch op {
	case OpEq:
		return relEq, true
	case OpNe:
		return relNe, true
	case OpLt:
		return relLt, true
	case OpLe:
		return relLe, true
	}
	return 0, false
}

// branchFacts calls f with each fact x REL y that side (0: true, 1: false)
// of an If on cond proves about x; y nil stands for the constant 0.
func branchFacts(cond *Node, side int64, x *Node, f func(r rel, y *Node)) {
	if cond == nil || x == nil {
		return
	}
	if cond == x { // if (x): x != 0 on the true side, x == 0 on the false
		f(pick(relNe, side), nil)
		return
	}
	if cond.Op == OpNot && cond.In[1] == x { // if (!x)
		f(pick(relEq, side), nil)
		return
	}
	r, ok := relOf(cond.Op)
	if !ok {
		return
	}
	if cond.In[1] == x {
		f(pick(r, side), cond.In[2])
	}
	if cond.In[2] == x {
		f(pick(converse[r], side), cond.In[1])
	}
}

func pick(r rel, side int64) rel {
	if side == 0 {
		return r
	}
	return negation[r]
}

// refineType is the type of Refine n: its value's type narrowed by each
// fact of its branch about it whose other side is n's y or a constant.
// Monotone: higher types of x and y give a higher result.
func refineType(n *Node, typ *Typing) types.Type {
	if c := n.In[0]; c == nil || !typ.Of(c).IsCtrl() {
		return types.Top // never reached
	}
	t := typ.Of(n.In[1])
	p := n.In[0]
	if t.IsTop() || p.Op != OpCProj || p.In[0] == nil || p.In[0].Op != OpIf {
		return t
	}
	// A condition folded to a constant (the If not yet folded) decides:
	// the side not taken is never reached; on the side taken the
	// condition's form is gone, and the fact with it. (The Constant node,
	// not the condition's type, which the analyses would not revisit the
	// Refine for.)
	if c := p.In[0].In[1]; c.IsConst() {
		if taken := c.Aux != 0; taken != (p.Aux == 0) {
			return types.Top
		}
	}
	branchFacts(p.In[0].In[1], p.Aux, n.In[1], func(r rel, y *Node) {
		yt := types.Zero
		if y != nil {
			if y != n.In[2] && !y.IsConst() {
				return
			}
			yt = typ.Of(y)
		}
		t = narrow(r, t, yt)
	})
	return t
}

// narrow is the values of t that stand in relation r to some value of y.
func narrow(r rel, t, y types.Type) types.Type {
	if t.IsTop() || y.IsTop() {
		return types.Top
	}
	if !t.IsInt() || !y.IsInt() {
		return t
	}
	switch r {
	case relEq:
		return types.Join(t, y)
	case relNe:
		if !y.IsConst() {
			return t
		}
		c, lo, hi := y.Value(), t.Lo(), t.Hi()
		if lo == c {
			if c == math.MaxInt64 {
				return types.Top
			}
			lo++
		}
		if hi == c {
			if c == math.MinInt64 {
				return types.Top
			}
			hi--
		}
		return types.Join(t, types.Range(lo, hi))
	case relLt:
		if y.Hi() == math.MinInt64 {
			return types.Top
		}
		return types.Join(t, types.Range(math.MinInt64, y.Hi()-1))
	case relLe:
		return types.Join(t, types.Range(math.MinInt64, y.Hi()))
	case relGt:
		if y.Lo() == math.MaxInt64 {
			return types.Top
		}
		return types.Join(t, types.Range(y.Lo()+1, math.MaxInt64))
	case relGe:
		return types.Join(t, types.Range(y.Lo(), math.MaxInt64))
	}
	return t
}

// holds reports whether x REL y.
func (r rel) holds(x, y int64) bool {
	switch r {
	case relEq:
		return x == y
	case relNe:
		return x != y
	case relLt:
		return x < y
	case relLe:
		return x <= y
	case relGt:
		return x > y
	}
	return x >= y
}

// idealRefine: a Refine that narrows nothing is its value (x's type
// already within the facts stays so as it rises; a ZeroCheck of the value
// that a branch proves is not 0 goes in the zerocheck pass, which reads
// the branch itself); one no longer under an If's projection has no fact
// left.
func (g *Graph) idealRefine(n *Node) *Node {
	p := n.In[0]
	onSide := p.Op == OpCProj && p.In[0] != nil && p.In[0].Op == OpIf
	if onSide {
		g.addDep(p.In[0], n) // the If's condition may change
		if c := p.In[0].In[1]; c != nil {
			g.addDep(c, n)
		}
	}
	if !onSide || n.Type().Equal(n.In[1].Type()) {
		return n.In[1]
	}
	return nil
}

// StripRefines replaces every Refine by its value, once the graph passes
// have used the facts, and lowers the types that rested on the facts to
// what the inputs give (a loop Phi whose type keeps falling goes to int at
// once). No division needs a fact that goes: one by a value computed from
// a Refine kept its ZeroCheck (restsOnRefine); one whose check went on a
// branch's fact (dominatedNonZero, the zerocheck pass) stays pinned below
// that branch, whose condition still proves its divisor is not 0
// (nonZeroBelow), or, if the branch was folded away on a type that rested
// on a Refine, gets its check back (reguard). Linear, but for the Phis'
// bounded falls and the dominator tree reguard may need.
func (g *Graph) StripRefines() {
	var refs []*Node
	for _, n := range g.Live() {
		if n.Op == OpRefine {
			refs = append(refs, n)
		}
	}
	var work []*Node
	for _, r := range refs {
		if r.dead {
			continue
		}
		work = append(work, r.Out...)
		g.Subsume(r, r.In[1])
	}
	g.relax(work)
	g.reguard()
}

// restsOnRefine reports whether y is computed from a Refine (through its
// data inputs, Phis too, to a bounded depth), or is a Refine whose value's
// type does not exclude 0 on its own: its type may rest on a fact that
// StripRefines will take away, so a division by y keeps its ZeroCheck
// (unless a branch proves y is not 0: dominatedNonZero). Past the bound
// it answers yes: a check kept that was not needed costs an instruction,
// a check dropped on a fact that goes leaves a division unguarded.
func restsOnRefine(y *Node) bool {
	if y.Op == OpConstant {
		return false
	}
	if y.Op == OpRefine {
		// Its type excludes 0 without a Refine only if its value's
		// does, without one (random program seed 348 of TestNativeRandom:
		// a Refine of v+1, v >= 0 by a loop's Refine).
		x := y.In[1]
		return !x.Type().ExcludesZero() || restsOnRefine(x)
	}
	// The nodes seen, in an array on the stack: at most one per input
	// of the nodes within the bound, and a longer walk spills to the heap.
	var buf [32]*Node
	found, _ := refineBelow(y, 0, buf[:0])
	return found
}

// refineBelow is restsOnRefine's walk from n, at depth steps from the
// divisor; seen lists the nodes already walked, and is returned with
// those it walked added. A function of its own, not a closure: the
// closure's list escaped, one allocation per division.
func refineBelow(n *Node, depth int, seen []*Node) (bool, []*Node) {
	const maxDepth = 4
	if n == nil || n.Op == OpConstant || n.IsControl() {
		return false, seen
	}
	if depth > maxDepth {
		return true, seen // unknown: keeping a check is safe, dropping one is not
	}
	if n.Op == OpRefine {
		return true, seen
	}
	for _, s := range seen {
		if s == n {
			return false, seen
		}
	}
	seen = append(seen, n)
	for _, x := range n.In[1:] {
		var found bool
		if found, seen = refineBelow(x, depth+1, seen); found {
			return true, seen
		}
	}
	return false, seen
}

// relax lowers the types of the nodes in work, and of their users in
// turn, to what their inputs give, where that is lower: after a change
// that lowered types (the facts of Refines gone), the stored types hold
// again. A Phi lowered more than maxRelax times goes to int (bool).
func (g *Graph) relax(work []*Node) {
	const maxRelax = 4
	falls := map[*Node]int{}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if n.dead || n.Op == OpScope {
			continue
		}
		t, old := g.Compute(n), n.Type()
		if t.Same(&old) || t.IsA(old) { // Same: most types hold again as they were, with no meet
			continue
		}
		t = types.Meet(old, t)
		if n.Op == OpPhi && t.IsInt() {
			if falls[n]++; falls[n] > maxRelax {
				t = types.Int
			}
		}
		g.unlock(n)
		g.SetType(n, t)
		work = append(work, n.Out...)
	}
}
