package son

import "son/types"

// A Typing gives Compute (and the soundness checks) the types of a node's
// inputs: nil, the types the nodes hold; else the values of an analysis
// by dense number, as opt's solver keeps them: a node's number is
// Slot[ID]-1 (none for 0 or beyond Slot, its value Top), its value
// At(number). Arrays, not a function, so that the analysis's reads (one
// per input evaluated) inline, with no call through a closure.
//
// A value is held as a pointer to an interned type (8 bytes a node where
// a types.Type is 40): a Typing made by Graph.NewTyping interns in its
// graph's table of types, so that a value equal to a type some node holds
// (most of an analysis's values, at its end) takes no room of its own
// (issue 12: the combined analysis's lattice was 17 MB at 1 MB of source).
// The values that are no node's type (an analysis's intermediate ranges)
// stay in the table, which removes nothing: it grows by them with each
// analysis run on the graph (about 4,700 at 10k, docs/PERFORMANCE.md
// "sccp15").
type Typing struct {
	Slot []int32
	// values are by number, each a slot of table, which is never written
	// again once filled: a pointer means the same type for as long as it
	// is held.
	values []*types.Type
	table  *typeTable
	// The slots intern found last: an integer's, and each of Compute's
	// tuples' (sharedTuples), which the table would hash every time.
	last   *types.Type
	tuples [len(sharedTuples)]*types.Type
}

// NewTyping returns a Typing of n values, all Top, numbered by slot (by
// node ID: 1 + the number, 0 for none), whose values are interned in g's
// table of types. It changes no node of g.
func (g *Graph) NewTyping(n int, slot []int32) Typing {
	top := g.types.intern(types.Top)
	values := make([]*types.Type, n)
	for i := range values {
		values[i] = top
	}
	return Typing{Slot: slot, values: values, table: &g.types}
}

// Of is x's type in t, inlined.
func (t *Typing) Of(x *Node) types.Type {
	if t == nil {
		return x.Type()
	}
	if uint(x.ID) < uint(len(t.Slot)) {
		if i := t.Slot[x.ID]; i > 0 {
			return *t.values[i-1]
		}
	}
	return types.Top
}

// Len is the number of values.
func (t *Typing) Len() int { return len(t.values) }

// At is the value numbered i.
func (t *Typing) At(i int) types.Type { return *t.values[i] }

// Set makes v the value numbered i.
func (t *Typing) Set(i int, v types.Type) { t.values[i] = t.intern(v) }

// SetNode is Set of v as the value of n: a value that is n's own type
// takes n's slot, with no lookup (most values an analysis finds are the
// type the peepholes gave the node). A node's slot is never written
// through either (Graph.SetType gives it another).
func (t *Typing) SetNode(i int, n *Node, v types.Type) {
	if p := n.typ; p != nil && p.Same(&v) {
		t.values[i] = p
		return
	}
	t.values[i] = t.intern(v)
}

// SetLike makes the value numbered i the one numbered j, with no lookup.
func (t *Typing) SetLike(i, j int) { t.values[i] = t.values[j] }

// IsTypeOf reports whether the value numbered i is n's type by its slot
// (SetNode's), which a comparison of the two need not read.
func (t *Typing) IsTypeOf(i int, n *Node) bool { return t.values[i] == n.typ }

// Add appends v as a new value and returns its number. (Slot is the
// caller's to fill.)
func (t *Typing) Add(v types.Type) int {
	t.values = append(t.values, t.intern(v))
	return len(t.values) - 1
}

// intern returns the slot of t's table that holds v. A tuple equal to
// one Compute shares (an If's, a Never's, Start's) is taken as that one:
// the table tells slots apart by Same, and the tuples an analysis makes
// anew (Meet's, ConstOnly's) would otherwise each take a slot, all of
// them of one hash. A Typing not made by NewTyping interns in a table of
// its own.
func (t *Typing) intern(v types.Type) *types.Type {
	if t.table == nil {
		t.table = new(typeTable)
	}
	if v.IsTuple() {
		k := sharedIndex(v)
		if k < 0 {
			return t.table.intern(v)
		}
		if t.tuples[k] == nil {
			t.tuples[k] = t.table.intern(*sharedTuples[k])
		}
		return t.tuples[k]
	}
	if p := t.last; p != nil && p.Same(&v) {
		return p
	}
	t.last = t.table.intern(v)
	return t.last
}

// sharedTuples are the tuples Compute gives.
var sharedTuples = [...]*types.Type{&tupleCC, &tupleCX, &tupleXC, &tupleXX, &startType}

// sharedIndex is the index in sharedTuples of the tuple equal to v, -1 if
// none is: an If's or a Never's two sides (each reachable or not), or
// Start's.
func sharedIndex(v types.Type) int {
	for k, s := range sharedTuples { // most are Compute's own
		if v.Same(s) {
			return k
		}
	}
	if v.Len() != 2 {
		return -1
	}
	a, b := v.Elem(0), v.Elem(1)
	switch {
	case a.IsCtrl() && b.IsCtrl():
		return 0
	case a.IsCtrl() && b.IsXCtrl():
		return 1
	case a.IsXCtrl() && b.IsCtrl():
		return 2
	case a.IsXCtrl() && b.IsXCtrl():
		return 3
	case a.IsCtrl() && b.Same(&types.Int):
		return 4
	}
	return -1
}
