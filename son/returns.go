package son

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
	var rets []*Node
	split := false
	var expand func(r *Node)
	expand = func(r *Node) {
		reg, ok := splittable(r)
		if !ok {
			rets = append(rets, r)
			return
		}
		split = true
		x := r.In[1]
		for i := 1; i < len(reg.In); i++ {
			v := x
			if x.Op == OpPhi && x.In[0] == reg {
				v = x.In[i]
			}
			nr := g.NewNode(OpReturn, 0, reg.In[i], v)
			nr.Pos = r.Pos
			g.SetType(nr, g.Compute(nr))
			expand(nr) // at most log(returns)/log(maxJoin) deep
		}
	}
	for _, r := range stop.In {
		expand(r)
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
	g.setType(stop, g.Compute(stop))
}

// splittable reports whether r is a Return of a Region of returns
// (Aux regionOfReturns) that only r and r's value, a Phi of the Region
// used by r alone, use.
func splittable(r *Node) (*Node, bool) {
	if r.Op != OpReturn || r.In[0].Op != OpRegion || r.In[0].Aux != regionOfReturns {
		return nil, false
	}
	reg, x := r.In[0], r.In[1]
	for _, u := range reg.Out {
		if u != r && (u != x || len(x.Out) != 1) {
			return nil, false
		}
	}
	return reg, true
}
