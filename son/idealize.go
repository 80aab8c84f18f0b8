package son

import (
	"math"
)

// idealize returns a simpler node computing the same value as n, or n
// itself when it changed n in place, or nil. New nodes it returns are not
// yet peepholed; inner new nodes are.
func (g *Graph) idealize(n *Node) *Node {
	switch n.Op {
	case OpAdd:
		return g.idealAdd(n)
	case OpSub:
		return g.idealSub(n)
	case OpMul:
		return g.idealMul(n)
	case OpDiv, OpMod:
		return g.idealDiv(n)
	case OpAnd, OpOr, OpXor:
		return g.idealBitwise(n)
	case OpShl, OpSar, OpShr:
		if y := n.In[2]; y.IsConst() && y.Aux&63 == 0 {
			return n.In[1] // x << 0
		}
	case OpEq, OpNe, OpLt, OpLe:
		return g.idealCompare(n)
	case OpNot:
		return g.idealNot(n)
	case OpMinus:
		switch x := g.lookIn(n, 1); x.Op {
		case OpMinus:
			return x.In[1] // -(-a) → a
		case OpSub:
			return g.NewNode(OpSub, 0, nil, x.In[2], x.In[1]) // -(a-b) → b-a
		}
	case OpPhi:
		return g.idealPhi(n)
	case OpRefine:
		return g.idealRefine(n)
	case OpRegion, OpLoop:
		return g.idealRegion(n)
	case OpCProj:
		return g.idealCProj(n)
	case OpIf:
		// An If tests for "not 0" itself: if (x != 0) branches on x.
		if c := g.lookIn(n, 1); c.Op == OpNe && c.In[2].IsConst() && c.In[2].Aux == 0 {
			g.SetIn(n, 1, c.In[1])
			return n
		}
	case OpZeroCheck:
		if n.In[1].Type().ExcludesZero() && !restsOnRefine(n.In[1]) || dominatedNonZero(n.In[0], n.In[1]) {
			return n.In[0] // the divisor cannot be zero: no check
		}
	case OpStop:
		return g.idealStop(n)
	}
	return nil
}

// lookIn returns input i of n, noting that n's rules look at that input's
// own inputs: n is revisited when they change.
func (g *Graph) lookIn(n *Node, i int) *Node {
	x := n.In[i]
	g.addDep(x, n)
	return x
}

// swapConstRight puts the constant operand of a commutative op on the
// right, so that the rules below only look there.
func (g *Graph) swapConstRight(n *Node) bool {
	if n.In[1].IsConst() && !n.In[2].IsConst() {
		g.unlock(n)
		n.swapIn(1, 2)
		g.changed(n)
		return true
	}
	return false
}

func (g *Graph) binary(op Op, x, y *Node) *Node { return g.NewNode(op, 0, nil, x, y) }

// addConst builds x+k with k written as a positive constant: x+3 or x-3.
func (g *Graph) addConst(x *Node, k int64) *Node {
	switch {
	case k == 0:
		return x
	case k < 0 && k != math.MinInt64:
		return g.binary(OpSub, x, g.Con(-k))
	}
	return g.binary(OpAdd, x, g.Con(k))
}

// constOffset reports whether x is a+c or a-c with c constant, and gives a
// and the signed offset (wrapping, as the arithmetic does).
func constOffset(x *Node) (*Node, int64, bool) {
	if (x.Op == OpAdd || x.Op == OpSub) && x.In[2].IsConst() {
		k := x.In[2].Aux
		if x.Op == OpSub {
			k = -k
		}
		return x.In[1], k, true
	}
	return nil, 0, false
}

func (g *Graph) idealAdd(n *Node) *Node {
	if g.swapConstRight(n) {
		return n
	}
	x, y := g.lookIn(n, 1), g.lookIn(n, 2)
	if y.IsConst() {
		c := y.Aux
		if c == 0 {
			return x // x+0 → x
		}
		if a, k, ok := constOffset(x); ok {
			return g.addConst(a, k+c) // (a+k)+c → a+(k+c)
		}
		if c < 0 && c != math.MinInt64 {
			return g.addConst(x, c) // x+(-3) → x-3
		}
		return nil
	}
	switch {
	case y.Op == OpMinus:
		return g.binary(OpSub, x, y.In[1]) // x+(-y) → x-y
	case x.Op == OpMinus:
		return g.binary(OpSub, y, x.In[1]) // (-x)+y → y-x
	}
	// Move a constant up so it meets other constants: (a+k)+y → (a+y)+k.
	if a, k, ok := constOffset(x); ok && soleUse(x) {
		return g.addConst(g.Peephole(g.binary(OpAdd, a, y)), k)
	}
	if a, k, ok := constOffset(y); ok && soleUse(y) {
		return g.addConst(g.Peephole(g.binary(OpAdd, x, a)), k)
	}
	return nil
}

func (g *Graph) idealSub(n *Node) *Node {
	x, y := g.lookIn(n, 1), g.lookIn(n, 2)
	if x == y {
		return g.Con(0) // x-x → 0
	}
	if y.IsConst() {
		c := y.Aux
		if c == 0 {
			return x
		}
		if a, k, ok := constOffset(x); ok {
			return g.addConst(a, k-c) // (a+k)-c → a+(k-c)
		}
		if c < 0 && c != math.MinInt64 {
			return g.addConst(x, -c) // x-(-3) → x+3
		}
		return nil
	}
	switch {
	case x.IsConst() && x.Aux == 0:
		return g.NewNode(OpMinus, 0, nil, y) // 0-y → -y
	case y.Op == OpMinus:
		return g.binary(OpAdd, x, y.In[1]) // x-(-y) → x+y
	case x.Op == OpAdd && x.In[1] == y:
		return x.In[2] // (y+b)-y → b
	case x.Op == OpAdd && x.In[2] == y:
		return x.In[1] // (a+y)-y → a
	}
	return nil
}

func (g *Graph) idealMul(n *Node) *Node {
	if g.swapConstRight(n) {
		return n
	}
	x, y := n.In[1], n.In[2]
	if y.IsConst() {
		switch y.Aux {
		case 1:
			return x // x*1 → x
		case -1:
			return g.NewNode(OpMinus, 0, nil, x) // x*-1 → -x
		}
	}
	return g.reassociate(n)
}

// reassociate folds and hoists constants of an associative, commutative
// op: (a op k1) op k2 → a op (k1 op k2), and (a op k) op y → (a op y) op k.
func (g *Graph) reassociate(n *Node) *Node {
	op, x, y := n.Op, g.lookIn(n, 1), g.lookIn(n, 2)
	if y.IsConst() {
		if x.Op == op && x.In[2].IsConst() {
			return g.binary(op, x.In[1], g.Con(EvalBinary(op, x.In[2].Aux, y.Aux)))
		}
		return nil
	}
	if x.Op == op && x.In[2].IsConst() && soleUse(x) {
		return g.binary(op, g.Peephole(g.binary(op, x.In[1], y)), x.In[2])
	}
	if y.Op == op && y.In[2].IsConst() && soleUse(y) {
		return g.binary(op, g.Peephole(g.binary(op, x, y.In[1])), y.In[2])
	}
	return nil
}

// soleUse reports whether x has one user, so that a rewrite of that user
// which stops using x removes it. Moving a constant up out of a shared
// x (a op k) op y → (a op y) op k would compute a op y beside x, which
// stays for its other users: more work, not less (issue 18, point 6).
func soleUse(x *Node) bool { return len(x.Out) == 1 && x.keep == 0 }

func (g *Graph) idealDiv(n *Node) *Node {
	x, y := n.In[1], n.In[2]
	if n.In[0] != nil && y.Type().ExcludesZero() && !restsOnRefine(y) {
		g.SetIn(n, 0, nil) // no check needed any more: the division floats
		return n
	}
	if x == y {
		// Reached only past the check that y is not zero.
		if n.Op == OpDiv {
			return g.Con(1)
		}
		return g.Con(0)
	}
	if n.Op == OpDiv && y.IsConst() {
		switch y.Aux {
		case 1:
			return x
		case -1:
			return g.NewNode(OpMinus, 0, nil, x) // MinInt/-1 and -MinInt both wrap to MinInt
		}
	}
	return nil
}

func (g *Graph) idealBitwise(n *Node) *Node {
	if g.swapConstRight(n) {
		return n
	}
	x, y := n.In[1], n.In[2]
	if x == y {
		if n.Op == OpXor {
			return g.Con(0) // x^x → 0
		}
		return x // x&x, x|x → x
	}
	if y.IsConst() {
		c := y.Aux
		switch {
		case n.Op == OpAnd && c == -1, n.Op != OpAnd && c == 0:
			return x // x&-1, x|0, x^0 → x
		case n.Op == OpAnd && x.Type().IsInt() && ^x.Type().Zeros()&^uint64(c) == 0:
			return x // a mask that keeps every bit x can have (known bits)
		case n.Op == OpOr && x.Type().IsInt() && uint64(c)&^x.Type().Ones() == 0:
			return x // x has every bit of c already
		}
	}
	return g.reassociate(n)
}

func (g *Graph) idealCompare(n *Node) *Node {
	if n.Op.IsCommutative() && g.swapConstRight(n) {
		return n
	}
	x, y := n.In[1], n.In[2]
	if x == y {
		if n.Op == OpEq || n.Op == OpLe {
			return g.Con(1)
		}
		return g.Con(0)
	}
	// A bool compared with its own truth is itself: b!=0, b==1 → b.
	if y.IsConst() && x.Type().IsInt() && x.Type().Lo() >= 0 && x.Type().Hi() <= 1 {
		if n.Op == OpNe && y.Aux == 0 || n.Op == OpEq && y.Aux == 1 {
			return x
		}
	}
	return nil
}

func (g *Graph) idealNot(n *Node) *Node {
	x := g.lookIn(n, 1)
	switch x.Op {
	case OpNot:
		if t := x.In[1].Type(); t.IsInt() && t.Lo() >= 0 && t.Hi() <= 1 {
			return x.In[1] // !!b → b for a bool b
		}
	case OpEq:
		return g.binary(OpNe, x.In[1], x.In[2])
	case OpNe:
		return g.binary(OpEq, x.In[1], x.In[2])
	case OpLt:
		return g.binary(OpLe, x.In[2], x.In[1]) // !(a<b) → b<=a
	case OpLe:
		return g.binary(OpLt, x.In[2], x.In[1]) // !(a<=b) → b<a
	}
	return nil
}

// idealCProj: a projection of an If whose other side is dead is just the
// If's incoming control.
func (g *Graph) idealCProj(n *Node) *Node {
	iff := n.In[0]
	if iff.Op != OpIf || !iff.Type().IsTuple() {
		return nil
	}
	if iff.Type().Elem(int(n.Aux)).IsCtrl() && iff.Type().Elem(int(1-n.Aux)).IsXCtrl() {
		return iff.In[0]
	}
	return nil
}

// idealRegion drops dead inputs (with the matching Phi inputs), collapses a
// region left with one input into it, and removes an empty if-else diamond.
func (g *Graph) idealRegion(n *Node) *Node {
	if n.InProgress() {
		return nil
	}
	var dead []bool // all removed in one pass: a region may be wide
	for i := 1; i < len(n.In); i++ {
		if n.In[i].Type().IsXCtrl() {
			if dead == nil {
				dead = make([]bool, len(n.In))
			}
			dead[i] = true
		}
	}
	changed := dead != nil
	if changed {
		for _, phi := range n.Phis() {
			if !phi.dead { // removing an input of one Phi may kill another
				g.delIns(phi, dead)
			}
		}
		g.delIns(n, dead)
	}
	if len(n.In) == 2 {
		// One way in: each Phi is its one value. Replace them now, before
		// the region's users move to its input, which may be a region
		// of other arity.
		for _, phi := range n.Phis() {
			if !phi.dead && phi.In[1] != phi {
				g.Subsume(phi, phi.In[1])
			}
		}
		if g.hasReturnPos(n) {
			g.handOnReturnPos(n)
		}
		return n.In[1]
	}
	if n.Op == OpRegion && len(n.In) == 3 && len(n.Phis()) == 0 {
		a, b := n.In[1], n.In[2]
		if a.Op == OpCProj && b.Op == OpCProj && a.In[0] == b.In[0] && a.In[0].Op == OpIf {
			return a.In[0].In[0] // if (c) {} else {} does nothing
		}
	}
	if n.Op == OpRegion && (g.mergeBothSides(n) || g.flattenRegion(n)) {
		return n
	}
	if changed {
		return n
	}
	return nil
}

// mergeBothSides: when both sides of one If enter region n and every Phi
// of n has the same value on the two, which side ran makes no difference
// after n: the two inputs become one, the If's own control (the If then
// dies). The empty diamond above is the case of a Region of just the two.
// Linear in the region's inputs and Phis.
func (g *Graph) mergeBothSides(n *Node) bool {
	var phis []*Node
	for i := 1; i < len(n.In); i++ {
		c := n.In[i]
		if c.Op != OpCProj || c.In[0].Op != OpIf || c.Aux != 0 {
			continue
		}
		other := c.In[0].Proj(1)
		if other == nil {
			continue
		}
		j := -1
		for k, u := range other.Out {
			if u == n {
				j = other.UseIndex(k)
			}
		}
		if j < 0 {
			continue
		}
		if phis == nil {
			phis = n.Phis()
		}
		agree := true
		for _, p := range phis {
			if p.In[i] != p.In[j] {
				g.addDep(p, n) // the Phi's inputs may become equal
				agree = false
				break
			}
		}
		if !agree {
			continue
		}
		g.SetIn(n, i, c.In[0].In[0])
		del := make([]bool, len(n.In))
		del[j] = true
		for _, p := range phis {
			if !p.dead {
				g.delIns(p, del)
			}
		}
		g.delIns(n, del)
		return true
	}
	return false
}

// flattenRegion merges into region n an input Region r that only n uses,
// but for r's Phis, each used only by Phis of n at r's place: n takes r's
// inputs in r's place, each Phi of n the inputs of r's Phi there (or its
// value there, once per input of r), and r and its Phis die (paper 002's
// nested ifs become one merge of four values). In place, so the result is
// the same whichever Region flattens first; no wider than maxJoin, which
// bounds the work of a Phi's evaluation.
func (g *Graph) flattenRegion(n *Node) bool {
	for i := 1; i < len(n.In); i++ {
		r := n.In[i]
		if r.Op != OpRegion || r == n || r.InProgress() || len(n.In)+len(r.In)-3 > maxJoin {
			continue
		}
		g.addDep(r, n) // its users matter
		if !g.onlyFeeds(r, n, i) {
			continue
		}
		phis := n.Phis()
		for _, p := range phis {
			p.keep++
		}
		r.keep++ // until the Phis have taken their values from r's
		ps := g.flatReturnPos(n, r, i)
		g.setInputs(n, splice(n.In, i, r.In[1:]))
		if ps != nil {
			g.setReturnPos(n, ps)
		}
		for _, p := range phis {
			p.keep--
			if p.dead {
				continue
			}
			v := p.In[i]
			var vs []*Node
			if v.Op == OpPhi && v.In[0] == r {
				vs = v.In[1:]
			} else {
				vs = make([]*Node, len(r.In)-1)
				for k := range vs {
					vs[k] = v
				}
			}
			g.setInputs(p, splice(p.In, i, vs))
		}
		r.keep--
		g.KillIfUnused(r)
		return true
	}
	return false
}

// onlyFeeds reports whether region r is used only as input i of region n
// and by Phis used only as input i of Phis of n.
func (g *Graph) onlyFeeds(r, n *Node, i int) bool {
	uses := 0
	for k, u := range r.Out {
		switch {
		case u == n && r.UseIndex(k) == i:
			uses++
		case u.Op == OpPhi && u.In[0] == r && r.UseIndex(k) == 0 && !u.InProgress():
			g.addDep(u, n)
			for k2, w := range u.Out {
				if w.Op != OpPhi || w.In[0] != n || u.UseIndex(k2) != i {
					return false
				}
			}
		default:
			return false
		}
	}
	return uses == 1
}

// splice is in with in[i] replaced by the nodes vs.
func splice(in []*Node, i int, vs []*Node) []*Node {
	out := make([]*Node, 0, len(in)+len(vs)-1)
	out = append(out, in[:i]...)
	out = append(out, vs...)
	return append(out, in[i+1:]...)
}

// setInputs gives x the inputs in, in order; inputs x no longer uses die
// if nothing else does.
func (g *Graph) setInputs(x *Node, in []*Node) {
	old := append([]*Node(nil), x.In...)
	for _, o := range old {
		if o != nil {
			o.keep++
		}
	}
	for len(x.In) > 0 {
		g.DelIn(x, len(x.In)-1)
	}
	for _, m := range in {
		g.AddIn(x, m)
	}
	for _, o := range old {
		if o != nil {
			o.keep--
			g.KillIfUnused(o)
		}
	}
}

// Phis lists the Phis of a region, in the order of its users.
func (n *Node) Phis() []*Node {
	var ps []*Node
	for _, u := range n.Out {
		if u.Op == OpPhi && u.In[0] == n {
			ps = append(ps, u)
		}
	}
	return ps
}

// idealPhi: a Phi whose live inputs are all one node is that node; a Phi
// of the same operation on every side is that operation of Phis (paper
// 002).
func (g *Graph) idealPhi(n *Node) *Node {
	r := n.In[0]
	if !r.Op.IsRegion() {
		return n.In[1] // the region collapsed to its single input
	}
	if r.InProgress() || n.InProgress() {
		return nil
	}
	if r.Op == OpLoop && !r.In[1].Type().IsCtrl() {
		return nil // a loop never entered goes away whole, Phis and all
	}
	var live *Node
	for i := 1; i < len(n.In); i++ {
		if x := n.In[i]; r.In[i].Type().IsCtrl() && x != n {
			if live != nil && live != x {
				live = nil
				break
			}
			live = x
		}
	}
	if live != nil {
		return live
	}
	if r.Op == OpRegion {
		return g.pullOp(n)
	}
	return nil
}

// pullOp turns Phi(R, a op b, c op d) into Phi(R,a,c) op Phi(R,b,d) when
// every input is the same floating op used only by this Phi. Loop Phis are
// left alone: pulling an op around a cycle need not end. A division is
// pulled only with one divisor for all: Phi(R,3,-4) is nonzero on every
// path, but its type, [-4..3], is not, and a floating division's divisor
// must exclude zero by its type (the verifier's zerocheck rule).
func (g *Graph) pullOp(n *Node) *Node {
	first := n.In[1]
	op := first.Op
	if !op.IsBinary() && !op.IsUnary() {
		return nil
	}
	for _, x := range n.In[1:] {
		g.addDep(x, n) // its inputs and its number of users matter
		if x.Op != op || x.Aux != first.Aux || x.Ctrl() != nil || len(x.Out) != 1 || x.keep > 0 {
			return nil
		}
		if (op == OpDiv || op == OpMod) && x.In[2] != first.In[2] {
			return nil
		}
	}
	in := make([]*Node, len(first.In))
	for j := 1; j < len(first.In); j++ {
		same := true
		for _, x := range n.In[2:] {
			same = same && x.In[j] == first.In[j]
		}
		if same {
			in[j] = first.In[j]
			continue
		}
		phi := g.NewNode(OpPhi, 0, n.In[0])
		for _, x := range n.In[1:] {
			g.AddIn(phi, x.In[j])
		}
		g.SetLabel(phi, g.Label(n))
		g.SetType(phi, g.Compute(phi))
		in[j] = g.Peephole(phi)
	}
	cp := g.NewNode(op, first.Aux, in...)
	if !cp.Type().IsA(n.Type()) {
		g.Kill(cp) // factoring would lose precision
		return nil
	}
	return cp
}

// idealStop drops Returns that became dead.
func (g *Graph) idealStop(n *Node) *Node {
	changed := false
	for i := len(n.In) - 1; i >= 0; i-- {
		if n.In[i].Type().IsXCtrl() {
			g.DelIn(n, i)
			changed = true
		}
	}
	if changed {
		return n
	}
	return nil
}
