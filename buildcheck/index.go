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
	canon []*son.Node // by ID: the representative of the node's class
	in    []*son.Node // classify's canonical inputs of the node at hand
	table *keyTable   // a node by op, aux and canonical inputs (0 for nil or an input that does not matter: a Phi's value on a dead path)

	mergeOf  map[int]*son.Node // canonical control ID -> the Region it flows into (with another live input)
	loopOf   map[int]*son.Node // canonical entry control ID -> the Loop it enters
	loopPhis map[loopVar][]*son.Node
	stopHas  map[int]bool // canonical IDs of the Returns Stop holds
}

// loopVar names the Phis of one Loop for one variable (by label).
type loopVar struct {
	loop  int
	label string
}

// newIndex indexes g. Nodes are taken in ID order, which is the order the
// builder made them: every input is older than its user, except a Loop's
// back edge and a loop Phi's last value, set when the loop is closed.
func newIndex(g *son.Graph) *index {
	n := g.MaxID()
	words := 0 // each node's key at most: sized once, the table never grows
	for id := 1; id < n; id++ {
		if v := g.Node(id); v != nil {
			words += keyHead + len(v.In)
		}
	}
	x := &index{
		g: g, canon: make([]*son.Node, n), table: newKeyTable(n, words),
		mergeOf: map[int]*son.Node{}, loopOf: map[int]*son.Node{}, loopPhis: map[loopVar][]*son.Node{},
		stopHas: map[int]bool{},
	}
	for id := 1; id < n; id++ {
		v := g.Node(id)
		if v == nil || v.Op == son.OpScope {
			continue
		}
		x.canon[id] = x.classify(v)
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

// inputs returns k nil nodes, reused from node to node (the key copies
// what it needs).
func (x *index) inputs(k int) []*son.Node {
	x.in = append(x.in[:0], make([]*son.Node, k)...)
	return x.in
}

// c is the representative of v's class; v itself for a node not indexed
// yet (an input newer than its user).
func (x *index) c(v *son.Node) *son.Node {
	if v == nil || v.ID <= 0 || v.ID >= len(x.canon) || x.canon[v.ID] == nil {
		return v
	}
	return x.canon[v.ID]
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
	case v.Op == son.OpRegion:
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
	case v.Op == son.OpPhi && v.In[0] != nil && v.In[0].Op == son.OpLoop:
		k := loopVar{v.In[0].ID, x.g.Label(v)}
		x.loopPhis[k] = append(x.loopPhis[k], v)
		return v
	case v.Op == son.OpPhi && v.In[0] != nil && v.In[0].Op == son.OpRegion:
		r := v.In[0]
		if isDead(r) {
			return v
		}
		in := x.inputs(len(v.In))
		in[0] = x.c(r)
		var same *son.Node
		one := true
		for i := 1; i < len(v.In); i++ {
			if i >= len(r.In) || isDead(r.In[i]) {
				continue
			}
			in[i] = x.c(v.In[i])
			if same == nil {
				same = in[i]
			} else if in[i] != same {
				one = false
			}
		}
		if same != nil && one {
			return same
		}
		return x.table.enter(x.table.key(son.OpPhi, false, 0, in), v)
	}
	in := x.inputs(len(v.In))
	for i, y := range v.In {
		in[i] = x.c(y)
	}
	top := v.Op == son.OpConstant && v.Type().IsTop() // apart from the constant 0
	// v represents its key unless an older node does.
	return x.table.enter(x.table.key(v.Op, top, v.Aux, in), v)
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
	return x.table.get(x.table.key(op, false, aux, in))
}
