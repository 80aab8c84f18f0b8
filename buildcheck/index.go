// The index of the raw graph: a canonical node for every class of nodes
// that compute the same value by their structure, and tables to find a
// node from the nodes it must have as inputs. Cost: O(n + m), one pass
// over the nodes in ID order.

package buildcheck

import "son/son"

// ambiguous stands in a table for a slot two different nodes claim.
var ambiguous = &son.Node{ID: -1}

// index is what the validator knows of the raw graph before it walks the
// program.
type index struct {
	g     *son.Graph
	canon []int32   // by ID: the ID of the representative of the node's class, 0 until classified
	in    []int32   // the key of the node enter is entering
	table *keyTable // a node by op, aux and canonical inputs (0 for nil or an input that does not matter: a Phi's value on a dead path)

	mergeOf map[int]*son.Node      // canonical control ID -> the Region it flows into (with another live input)
	loopOf  map[int]*son.Node      // canonical entry control ID -> the Loop it enters
	phis    map[string][]*son.Node // scratch of loopPhis: a Loop's Phis by label
	stopHas map[int]bool           // canonical IDs of the Returns Stop holds
}

// newIndex indexes g. Nodes are taken in ID order, which is the order the
// builder made them: every input is older than its user, except a Loop's
// back edge and a loop Phi's last value, set when the loop is closed.
func newIndex(g *son.Graph) *index {
	n := g.MaxID()
	entries := 0 // at most one a node: sized once, the table never grows
	for id := 1; id < n; id++ {
		if v := g.Node(id); v != nil && v.Op != son.OpScope {
			entries++
		}
	}
	x := &index{
		g: g, canon: make([]int32, n),
		mergeOf: map[int]*son.Node{}, loopOf: map[int]*son.Node{}, phis: map[string][]*son.Node{},
		stopHas: map[int]bool{},
	}
	x.table = newKeyTable(entries, n, x.entryKey)
	for id := 1; id < n; id++ {
		v := g.Node(id)
		if v == nil || v.Op == son.OpScope {
			continue
		}
		x.canon[id] = int32(x.classify(v).ID)
	}
	for _, r := range g.Stop.In {
		if r != nil {
			x.stopHas[x.c(r).ID] = true
		}
	}
	return x
}

// fork returns a live control node that passes control to two successors
// (an If or Start to two projections of one index), or nil: control is
// deterministic.
func (x *index) fork() (c, a, b *son.Node) {
	g := x.g
	for id := 1; id < g.MaxID(); id++ {
		c := g.Node(id)
		if c == nil || !c.IsControl() || isDead(c) || c.Op == son.OpStop {
			continue
		}
		var seen [2]*son.Node // the successor, or for a tuple the projections 0 and 1
		for _, u := range c.Out {
			if !u.IsControl() {
				continue
			}
			k := 0
			if c.Op.IsMulti() && u.Op == son.OpCProj && u.Aux == 1 {
				k = 1
			}
			if seen[k] != nil {
				return c, seen[k], u
			}
			seen[k] = u
		}
	}
	return nil, nil, nil
}

// isDead reports whether control c never arrives: its type is XCtrl (the
// types son.Compute stored, which the validator trusts for this). XCtrl
// itself, control only it reaches, and the side of an If its condition's
// type rules out are dead. A nil input (a Region's In[0]) counts as dead.
func isDead(c *son.Node) bool { return c == nil || c.Type().IsXCtrl() }

// c is the representative of v's class; v itself for a node not indexed
// yet (an input newer than its user).
func (x *index) c(v *son.Node) *son.Node {
	if v == nil || v.ID <= 0 || v.ID >= len(x.canon) || x.canon[v.ID] == 0 || x.canon[v.ID] == int32(v.ID) {
		return v
	}
	return x.g.Node(int(x.canon[v.ID]))
}

// cid is the ID of c(v), 0 for nil.
func (x *index) cid(v *son.Node) int32 {
	if v == nil {
		return 0
	}
	if v.ID > 0 && v.ID < len(x.canon) && x.canon[v.ID] != 0 {
		return x.canon[v.ID]
	}
	return int32(v.ID)
}

// cidBefore is cid(y) as it was when node id was classified: an input
// not older than its user had no class yet and stood for itself. So the
// key an entry is made again with is the one it was entered with, even in
// a graph where a node other than a Loop or its Phi takes a newer input.
func (x *index) cidBefore(y *son.Node, id int) int32 {
	if y != nil && y.ID >= id {
		return int32(y.ID)
	}
	return x.cid(y)
}

// phiKeyed reports whether v is a Phi of a Region, whose key leaves out
// (as 0) its values on dead paths.
func phiKeyed(v *son.Node) bool {
	return v.Op == son.OpPhi && len(v.In) > 0 && v.In[0] != nil && v.In[0].Op == son.OpRegion
}

// nodeKey lays out in dst the key classify enters v with: op, whether it
// is the Top constant, aux, its inputs' canonical IDs — for a Phi of a
// Region, aux 0 and 0 for the values on dead paths.
func (x *index) nodeKey(dst []int32, v *son.Node) []int32 {
	if phiKeyed(v) {
		r := v.In[0]
		dst = keyStart(dst, son.OpPhi, false, 0, len(v.In))
		dst = append(dst, x.cidBefore(r, v.ID))
		for i := 1; i < len(v.In); i++ {
			id := int32(0)
			if i < len(r.In) && !isDead(r.In[i]) {
				id = x.cidBefore(v.In[i], v.ID)
			}
			dst = append(dst, id)
		}
		return dst
	}
	top := v.Op == son.OpConstant && v.Type().IsTop() // apart from the constant 0
	dst = keyStart(dst, v.Op, top, v.Aux, len(v.In))
	for _, y := range v.In {
		dst = append(dst, x.cidBefore(y, v.ID))
	}
	return dst
}

// entryKey is the table's keyOf: the key the node with ID id was entered
// with (see cidBefore).
func (x *index) entryKey(dst []int32, id int32) []int32 {
	return x.nodeKey(dst, x.g.Node(int(id)))
}

// enter makes v the representative of its key unless an older node is,
// and returns the representative.
func (x *index) enter(v *son.Node) *son.Node {
	x.in = x.nodeKey(x.in, v)
	id := x.table.enter(x.in, int32(v.ID))
	if id == int32(v.ID) {
		return v
	}
	return x.g.Node(int(id))
}

// classify finds v's class. Two nodes with the same op, aux and canonical
// inputs compute the same value (the raw graph has no value numbering, so
// the program's two a+b are two nodes). A Region with one live input is
// that input, and a Phi whose values on live paths are all one node is
// that node: dead paths bring nothing. (That Phi equals the node only
// where its Region dominates the use; the validator does not check that a
// use of such a Phi is there — see Validate.)
func (x *index) classify(v *son.Node) *son.Node {
	switch {
	case (v.Op == son.OpRegion || v.Op == son.OpLoop) && len(v.In) > 0 && v.In[0] != nil:
		return v // not a merge: In[0] of a Region or Loop is nil
	case v.Op == son.OpRegion && len(v.In) > 0:
		var live []*son.Node
		for _, c := range v.In[1:] {
			if !isDead(c) {
				live = append(live, x.c(c))
			}
		}
		if len(live) == 1 {
			return live[0]
		}
		if len(live) >= 2 {
			for _, c := range live {
				x.claim(x.mergeOf, c.ID, v)
			}
		}
		return v
	case v.Op == son.OpLoop:
		if len(v.In) > 1 && v.In[1] != nil {
			x.claim(x.loopOf, x.c(v.In[1]).ID, v)
		}
		return v
	case v.Op == son.OpPhi && len(v.In) > 0 && v.In[0] != nil && v.In[0].Op == son.OpLoop:
		return v // found from its Loop: loopPhis
	case phiKeyed(v):
		r := v.In[0]
		if isDead(r) {
			return v
		}
		var same int32
		one := true
		for i := 1; i < len(v.In); i++ {
			if i >= len(r.In) || isDead(r.In[i]) {
				continue
			}
			id := x.cid(v.In[i])
			if same == 0 {
				same = id
			} else if id != same {
				one = false
			}
		}
		if same != 0 && one {
			return x.g.Node(int(same))
		}
	}
	// v represents its key unless an older node does.
	return x.enter(v)
}

// loopPhis returns the Phis of loop by label, from the loop's users; the
// map is scratch, valid until doneLoopPhis. Found when the walk reaches
// the loop, not kept for every loop from the start: a map of them all was
// a fifth of the index on nested loops.
func (x *index) loopPhis(loop *son.Node) map[string][]*son.Node {
	for _, u := range loop.Out {
		if u.Op == son.OpPhi && len(u.In) > 0 && u.In[0] == loop {
			l := x.g.Label(u)
			x.phis[l] = append(x.phis[l], u)
		}
	}
	return x.phis
}

// doneLoopPhis empties the scratch of loopPhis(loop), key by key (clear
// would cost the map's largest size at every loop).
func (x *index) doneLoopPhis(loop *son.Node) {
	for _, u := range loop.Out {
		if u.Op == son.OpPhi {
			delete(x.phis, x.g.Label(u))
		}
	}
}

// claim records m under id in t, or ambiguous if another node has it.
func (x *index) claim(t map[int]*son.Node, id int, m *son.Node) {
	if old, ok := t[id]; ok && old != m {
		t[id] = ambiguous
		return
	}
	t[id] = m
}

// find is the representative of the node with op, aux and the given
// canonical inputs, or nil.
func (x *index) find(op son.Op, aux int64, in ...*son.Node) *son.Node {
	if id := x.table.get(x.table.key(op, false, aux, in)); id != 0 {
		return x.g.Node(int(id))
	}
	return nil
}
