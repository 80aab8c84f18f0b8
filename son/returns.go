package son

import (
	"slices"

	"son/syntax"
)

// Returns. The builder gives a program one Return, fed by a Region of the
// paths that return and a Phi of their values (build.go, mergeReturns), so
// that the peepholes see the returns together: equal values make the Phi
// one value, and a branch whose two sides only return it goes. What is
// still merged once the graph passes are done costs code — a jump to a
// shared return, moves for the Phi — so SplitReturns gives each path its
// own Return again, as many as the program had: the merge never makes a
// program larger.

// regionOfReturns is the Aux of a Region that mergeReturns made.
const regionOfReturns = 1

// SplitReturns replaces each Return of a Region that mergeReturns made
// and that nothing else uses (but the Return's own Phi of that Region) by
// one Return per input of the Region, in order, with the Phi's value on
// that input; a Region of such Regions (past maxJoin returns) splits
// through. Stop keeps its other inputs in place. Linear in the size of the
// merged returns.
func (g *Graph) SplitReturns() {
	stop := g.Stop
	var rets, mid []*Node
	split := false
	// expand splits r, whose control and value, if r was made for an input
	// of Region up with Phi upPhi, up and upPhi still use.
	var expand func(r, up, upPhi *Node)
	expand = func(r, up, upPhi *Node) {
		reg, ok := splittable(r, up, upPhi)
		if !ok {
			rets = append(rets, r)
			return
		}
		split = true
		if up != nil {
			mid = append(mid, r) // dies once up is gone
		}
		x := r.In[1]
		var phi *Node // x, if a Phi of reg
		if x.Op == OpPhi && x.In[0] == reg {
			phi = x
		}
		for i := 1; i < len(reg.In); i++ {
			v := x
			if x.Op == OpPhi && x.In[0] == reg {
				v = x.In[i]
			}
			nr := g.NewNode(OpReturn, 0, reg.In[i], v)
			nr.Pos = r.Pos
			if p := g.rets.at(reg, i); p.IsKnown() {
				nr.Pos = p // its own return statement's
			}
			g.SetType(nr, g.Compute(nr))
			expand(nr, reg, phi) // at most log(returns)/log(maxJoin) deep
		}
	}
	for _, r := range stop.In {
		expand(r, nil, nil)
	}
	if !split {
		return
	}
	old := append([]*Node(nil), stop.In...)
	for _, r := range old {
		r.keep++
	}
	for i := len(stop.In) - 1; i >= 0; i-- {
		g.DelIn(stop, i)
	}
	for _, r := range rets {
		g.AddIn(stop, r)
	}
	for _, r := range old {
		r.keep--
		g.KillIfUnused(r)
	}
	for _, r := range mid {
		g.KillIfUnused(r)
	}
	g.setType(stop, g.Compute(stop))
}

// splittable reports whether r is a Return of a Region of returns
// (Aux regionOfReturns) that only r and r's value, a Phi of the Region
// used by r alone, use; when r was made for an input of Region up, whose
// split leaves it, up may use the Region too and up's Phi upPhi the Phi.
func splittable(r, up, upPhi *Node) (*Node, bool) {
	if r.Op != OpReturn || r.In[0].Op != OpRegion || r.In[0].Aux != regionOfReturns {
		return nil, false
	}
	reg, x := r.In[0], r.In[1]
	for _, u := range reg.Out {
		if u != r && (up == nil || u != up) && (u != x || !usedOnlyBy(x, r, upPhi)) {
			return nil, false
		}
	}
	return reg, true
}

// usedOnlyBy reports whether x has no users but a and b (b may be nil).
func usedOnlyBy(x, a, b *Node) bool {
	for _, u := range x.Out {
		if u != a && (b == nil || u != b) {
			return false
		}
	}
	return true
}

// Where the merged returns stood. Each Region that mergeReturns makes
// keeps in the graph's rets the position of the return statement each of
// its inputs leads to, from before its first peephole, so that
// SplitReturns gives every Return it makes its own statement's line rather
// than the merged Return's (the first one's). The list follows the
// Region's inputs through the edge methods (AddIn, DelIn, delIns: a dead
// path dropped, the two sides of an If merged into one); the rewrites that
// move a Region's inputs elsewhere hand their positions on: idealRegion's
// collapse of a Region left with one way in (handOnReturnPos) and
// flattenRegion (flatReturnPos). Keyed by the Region's ID, which no
// peephole changes; an entry goes when its Region dies.

// returnPositions is, by the ID of a Region of returns, the position for
// each input (entry 0, for In[0], is unused).
type returnPositions map[int32][]syntax.Pos

// hasReturnPos reports whether n may be a Region with positions: the
// edge methods then keep them in step (a map look-up, only for Regions,
// only once mergeReturns made one).
func (g *Graph) hasReturnPos(n *Node) bool { return n.Op == OpRegion && g.rets != nil }

// setReturnPos records ps, one position per input of reg (In[0] first).
func (g *Graph) setReturnPos(reg *Node, ps []syntax.Pos) {
	if g.rets == nil {
		g.rets = returnPositions{}
	}
	g.rets[int32(reg.ID)] = ps
}

// at is the position of the return that input i of reg leads to, or the
// unknown position.
func (t returnPositions) at(reg *Node, i int) syntax.Pos {
	if ps := t[int32(reg.ID)]; i < len(ps) {
		return ps[i]
	}
	return syntax.Pos{}
}

// add follows AddIn: the new input's return is unknown.
func (t returnPositions) add(reg *Node) {
	if ps, ok := t[int32(reg.ID)]; ok {
		t[int32(reg.ID)] = append(ps, syntax.Pos{})
	}
}

// del follows DelIn of input i.
func (t returnPositions) del(reg *Node, i int) {
	if ps, ok := t[int32(reg.ID)]; ok && i < len(ps) {
		t[int32(reg.ID)] = slices.Delete(ps, i, i+1)
	}
}

// delAll follows delIns: the inputs i with del[i] go.
func (t returnPositions) delAll(reg *Node, del []bool) {
	ps, ok := t[int32(reg.ID)]
	if !ok {
		return
	}
	w := 0
	for i, p := range ps {
		if i < len(del) && del[i] {
			continue
		}
		ps[w] = p
		w++
	}
	t[int32(reg.ID)] = ps[:w]
}

// clone is a copy of t sharing nothing with it.
func (t returnPositions) clone() returnPositions {
	if t == nil {
		return nil
	}
	c := make(returnPositions, len(t))
	for id, ps := range t {
		c[id] = slices.Clone(ps)
	}
	return c
}

// handOnReturnPos: reg, a Region left with one input, becomes that input;
// if reg has positions, its one path's goes to what reg fed: the Return
// (now that path's own), or the input of an enclosing Region of returns.
func (g *Graph) handOnReturnPos(reg *Node) {
	p := g.rets.at(reg, 1)
	if !p.IsKnown() {
		return
	}
	for k, u := range reg.Out {
		i := reg.UseIndex(k)
		if u.Op == OpReturn && i == 0 {
			u.Pos = p
		} else if ps, ok := g.rets[int32(u.ID)]; ok && u.Op == OpRegion && i < len(ps) {
			ps[i] = p
		}
	}
}

// flatReturnPos is what the positions of Region n become when
// flattenRegion puts the inputs of Region r in place of n's input i: r's
// own if it has some (a tree of Regions of returns), else n's input i's
// for each. Nil if n has none.
func (g *Graph) flatReturnPos(n, r *Node, i int) []syntax.Pos {
	ps, ok := g.rets[int32(n.ID)]
	if !ok || i >= len(ps) {
		return nil
	}
	vs, inner := g.rets[int32(r.ID)]
	if !inner || len(vs) != len(r.In) {
		vs = make([]syntax.Pos, len(r.In))
		for k := range vs {
			vs[k] = ps[i]
		}
	}
	out := make([]syntax.Pos, 0, len(ps)+len(vs)-2)
	out = append(out, ps[:i]...)
	out = append(out, vs[1:]...)
	return append(out, ps[i+1:]...)
}
