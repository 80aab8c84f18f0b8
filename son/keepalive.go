package son

// keepInfiniteLoops gives every loop without an exit a Never exit to a
// Return of the Top value, as Simple's NeverNode does, so that Stop reaches
// the loop and nothing live is lost. At run time Never always goes around
// the loop; only the types say its exit may be taken. It reports whether it
// added an exit, and the live set (by node ID) it found last. known, if
// not nil, is the graph's live set already (g.liveSet()), for the first
// round.
//
// The control nodes that Start reaches but Stop does not are the ones from
// which no path leads to a Return. Among them, a group of nodes that reach
// each other and nothing else outside the group (a sink of the graph of
// strongly connected components) holds an exitless loop; its first head in
// program order — the outermost loop — gets the Never. A loop that only
// leads into such a group is reached once the group has its exit, so the
// search repeats until none is left.
func (g *Graph) keepInfiniteLoops(known []bool) (added bool, live []bool) {
	for {
		g.Stats.Walks++
		if live = known; live == nil {
			live = g.liveSet()
		}
		known = nil
		if !g.someCtrlNotLive(live) {
			return added, live
		}
		stuck := g.ctrlStuck(live)
		if len(stuck) == 0 {
			return added, live
		}
		rank := make(map[*Node]int, len(stuck))
		for i, n := range stuck {
			rank[n] = i
		}
		more := false
		for _, scc := range sinkSCCs(stuck) {
			var head *Node
			for _, n := range scc {
				if isLoopHead(n) && (head == nil || rank[n] < rank[head]) {
					head = n
				}
			}
			if head != nil {
				g.addNever(head)
				added, more = true, true
			}
		}
		if !more {
			return added, live
		}
		g.giveMarks(live) // the new exits make the set stale
	}
}

// ctrlSuccs lists the control nodes that take control from n.
func ctrlSuccs(n *Node) []*Node {
	var s []*Node
	for _, u := range n.Out {
		if isCtrlSucc(u) {
			s = append(s, u)
		}
	}
	return s
}

// isCtrlSucc reports whether u, a user of a control node, takes control
// from it.
func isCtrlSucc(u *Node) bool { return u.IsControl() && !u.dead && u.Op != OpStop }

// someCtrlNotLive reports whether a node that could head a loop without
// an exit exists: a Loop that Stop does not reach, reachable by its type
// and built. Without one, no group of the nodes ctrlStuck lists has a
// head to give a Never, and the search need not run. It reads the nodes
// by ID, and none that is live, where ctrlStuck's walk from Start reads
// every user of every control node, data users and all: before the sweep
// that follows, control nodes that Stop does not reach are common (a
// fixpoint's first round at 100k nodes found 159 to 212, and never a
// Loop among them), Loops among them are not. A scan that finds none
// keeps the nodes not live for the sweep that follows (noteGarbage).
func (g *Graph) someCtrlNotLive(live []bool) bool {
	if g.allLive() { // no node is not live: no scan
		return false
	}
	garbage := g.nodes.notIn(live)
	for _, n := range garbage {
		if isLoopHead(n) {
			return true
		}
	}
	g.noteGarbage(garbage)
	return false
}

// isLoopHead reports whether n may be the head that keepInfiniteLoops
// gives a Never: a Loop, built, that control may reach.
func isLoopHead(n *Node) bool {
	return n.Op == OpLoop && !n.dead && !n.InProgress() && n.Type().IsCtrl()
}

// ctrlStuck lists the control nodes reached from Start that are not live
// (Stop does not reach them) and not dead control, in the order a
// depth-first search first meets them. Only those are listed: the walk
// runs twice in every fixpoint, and they are almost always none.
func (g *Graph) ctrlStuck(live []bool) []*Node {
	seen := make([]bool, g.MaxID())
	seen[g.Start.ID] = true
	var stuck []*Node
	stack := []*Node{g.Start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := len(n.Out) - 1; i >= 0; i-- {
			if u := n.Out[i]; isCtrlSucc(u) && !seen[u.ID] {
				seen[u.ID] = true
				if !live[u.ID] && !u.Type().IsXCtrl() {
					stuck = append(stuck, u)
				}
				stack = append(stack, u)
			}
		}
	}
	return stuck
}

// sinkSCCs returns the strongly connected components of the control edges
// among nodes that have no edge to another component (Tarjan's algorithm,
// iterative).
func sinkSCCs(nodes []*Node) [][]*Node {
	in := make(map[*Node]bool, len(nodes))
	for _, n := range nodes {
		in[n] = true
	}
	index := map[*Node]int{}
	low := map[*Node]int{}
	comp := map[*Node]int{}
	onStack := map[*Node]bool{}
	var stack []*Node
	var comps [][]*Node
	type frame struct {
		n    *Node
		succ []*Node
		i    int
	}
	for _, root := range nodes {
		if _, ok := index[root]; ok {
			continue
		}
		frames := []frame{{n: root, succ: ctrlSuccs(root)}}
		index[root], low[root] = len(index), len(index)
		stack, onStack[root] = append(stack, root), true
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if f.i < len(f.succ) {
				u := f.succ[f.i]
				f.i++
				if !in[u] {
					continue
				}
				if _, ok := index[u]; !ok {
					index[u], low[u] = len(index), len(index)
					stack, onStack[u] = append(stack, u), true
					frames = append(frames, frame{n: u, succ: ctrlSuccs(u)})
				} else if onStack[u] {
					low[f.n] = min(low[f.n], index[u])
				}
				continue
			}
			n := f.n
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				p := frames[len(frames)-1].n
				low[p] = min(low[p], low[n])
			}
			if low[n] == index[n] {
				var c []*Node
				for {
					x := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[x] = false
					comp[x] = len(comps)
					c = append(c, x)
					if x == n {
						break
					}
				}
				comps = append(comps, c)
			}
		}
	}
	var sinks [][]*Node
	for k, c := range comps {
		sink := true
		for _, n := range c {
			for _, u := range ctrlSuccs(n) {
				if in[u] && comp[u] != k {
					sink = false
				}
			}
		}
		if sink {
			sinks = append(sinks, c)
		}
	}
	return sinks
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
	g.AddReturn(ret)
	for _, n := range []*Node{never, around, exit, ret} {
		g.push(n)
	}
}
