package son

// keepInfiniteLoops finds the loops that control reaches from Start but
// that Stop cannot reach through inputs — loops without an exit — and
// gives each a Never exit to a Return of the Top value, as Simple's
// NeverNode does, so that nothing live is lost. At run time Never always
// goes around the loop; only the types say its exit may be taken. It
// reports whether it added an exit.
func (g *Graph) keepInfiniteLoops() bool {
	var live []bool
	seen := make([]bool, g.MaxID())
	stack := []*Node{g.Start}
	added := false
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range n.Out {
			if !u.IsControl() || u.dead {
				continue
			}
			for u.ID >= len(seen) {
				seen = append(seen, false)
			}
			if seen[u.ID] {
				continue
			}
			seen[u.ID] = true
			stack = append(stack, u)
			if u.Op != OpLoop || u.InProgress() || !u.Type.IsCtrl() {
				continue
			}
			if live == nil {
				live = g.liveSet()
			}
			if !live[u.ID] {
				g.addNever(u)
				added = true
				live = nil // recompute: the new exit made more nodes live
			}
		}
	}
	return added
}

// addNever puts a Never on the back edge of loop: its true side goes
// around, its false side to a Return that Stop holds.
func (g *Graph) addNever(loop *Node) {
	never := g.NewNode(OpNever, 0, loop.In[2])
	never.Pos = loop.Pos
	around := g.NewNode(OpCProj, 0, never)
	exit := g.NewNode(OpCProj, 1, never)
	g.SetIn(loop, 2, around)
	ret := g.NewNode(OpReturn, 0, exit, g.topCon())
	ret.Pos = loop.Pos
	g.AddIn(g.Stop, ret)
	for _, n := range []*Node{never, around, exit, ret} {
		g.push(n)
	}
}
