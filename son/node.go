package son

import (
	"fmt"

	"son/syntax"
	"son/types"
)

// Node is one node of the Sea of Nodes. In[0] is the control input for
// nodes that have one (nil for floating data nodes); Out lists the users,
// once per use, and is kept the exact mirror of In by the Graph methods
// that change edges (SetIn, AddIn, DelIn, Subsume, Kill). Fields must not
// be changed directly (a type: Graph.SetType; a name: Graph.SetLabel).
type Node struct {
	ID  int         // unique in the graph, never reused
	In  []*Node     // inputs (definitions), some may be nil
	Out []*Node     // users; a user appears once per input edge
	typ *types.Type // current lattice value (Type), interned in a graph's table; nil is Top
	Aux int64       // constant value, projection index
	Pos syntax.Pos  // source position, where known
	// (A Phi's variable name, for printing, is in the graph's labels, by
	// ID: few nodes have one. See Graph.Label.)

	// pos records where each edge stands at its other end, in one list
	// for both sides, of cap(In)+cap(Out) entries (posList): entry i,
	// for i < cap(In), is where this node stands in In[i].Out, and entry
	// cap(In)+k is which input of Out[k] this node is (edges.go). A
	// pointer to the list's first entry, not a slice: its length follows
	// from the two capacities, and the 16 bytes of a slice's length and
	// capacity brought a Node from 96 bytes to 112.
	pos *int32

	// (The nodes whose peephole looked at this one beyond an edge are in
	// the graph's depsOf, by ID: few nodes have any, and a field here
	// cost every node 8 bytes. The flags say whether there is a list.)

	Op       Op        // (here, to share a word with the flags below)
	narrowed uint8     // times a Phi's range has narrowed (see maxNarrow)
	flags    nodeFlags // in the value-numbering table, has dependents, has a name
	dead     bool      // killed: no inputs, no users, out of the graph
	keep     int32     // holds from the builder; a kept node does not die unused
}

// nodeFlags are a node's bits of bookkeeping, packed into one byte so that
// a Node stays the size it was.
type nodeFlags uint8

const (
	inGVN      nodeFlags = 1 << iota // entered in the value-numbering table
	hasDeps                          // has a dependence list in depsOf
	depsQueued                       // that list is not empty
	hasLabel                         // has a name in labels
)

// Type is n's current lattice value.
func (n *Node) Type() types.Type {
	if n.typ == nil {
		return types.Top
	}
	return *n.typ
}

// IsDead reports whether n was killed.
func (n *Node) IsDead() bool { return n.dead }

// IsControl reports whether n produces control.
func (n *Node) IsControl() bool { return n.Op.IsControl() }

// IsConst reports whether n is an integer Constant.
func (n *Node) IsConst() bool { return n.Op == OpConstant && n.Type().IsConst() }

// ConstValue is the value of an integer Constant.
func (n *Node) ConstValue() int64 { return n.Aux }

// Ctrl is In[0], the control input, or nil.
func (n *Node) Ctrl() *Node {
	if len(n.In) == 0 {
		return nil
	}
	return n.In[0]
}

// IsPinned reports whether a data node is tied to a control input.
func (n *Node) IsPinned() bool { return !n.Op.IsControl() && n.Ctrl() != nil }

// InProgress reports whether n is a Loop whose back edge, or a Phi whose
// last input, the builder has not set yet.
func (n *Node) InProgress() bool {
	switch n.Op {
	case OpLoop, OpPhi:
		return len(n.In) > 0 && n.In[len(n.In)-1] == nil
	}
	return false
}

// Proj returns the projection of multi-output n with index idx, or nil.
func (n *Node) Proj(idx int64) *Node {
	for _, u := range n.Out {
		if (u.Op == OpCProj || u.Op == OpProj) && u.Aux == idx {
			return u
		}
	}
	return nil
}

// Unused reports whether n has no users and is not held by the builder.
func (n *Node) Unused() bool { return len(n.Out) == 0 && n.keep == 0 }

// String is a short name for messages: "Add#12".
func (n *Node) String() string {
	if n == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s#%d", n.Op, n.ID)
}

// addDep records that d's peephole looked at n beyond the edge between
// them (at n's inputs or users): d is revisited when n changes. No search
// for duplicates, which the worklist ignores anyway: a node like arg may
// have thousands of users. The lists hold IDs, not pointers: a killed
// node's memory may serve a new node (recycle), and the lists hold
// nothing for the collector to scan.
func (g *Graph) addDep(n, d *Node) {
	if d == n || n.Op == OpConstant {
		return
	}
	var deps *[]int32
	if n.flags&hasDeps == 0 {
		deps = g.depsOf.add(n.ID)
		n.flags |= hasDeps
	} else {
		deps = g.depsOf.at(n.ID)
	}
	id := int32(d.ID)
	if ds := *deps; len(ds) > 0 && ds[len(ds)-1] == id {
		return
	}
	*deps = append(*deps, id)
	n.flags |= depsQueued
}

// dropDeps forgets the dependence list of n, which is dead.
func (g *Graph) dropDeps(n *Node) {
	if n.flags&hasDeps != 0 {
		g.depsOf.drop(n.ID)
		n.flags &^= hasDeps | depsQueued
	}
}

// depTable holds the dependence lists by node ID: for each ID, in chunks
// of depTableChunk made when an ID in them first gets a list, the number
// of its list, 1 up (0: none); the lists themselves, by number, in chunks
// of depChunk. A read is a few indexings where a lookup in a map by ID (a
// hash, a probe) and an insertion (growth) were 3% of Build's
// instructions. A dead node's list goes back to a free list of numbers,
// so the chunks hold the lists alive at once, not all lists made.
type depTable struct {
	ids   [][]int32   // by node ID: 1 + the number of its list, or 0
	lists [][]depList // by number
	made  int32       // the lists cut from the chunks so far
	free  []int32     // the numbers of lists given back (drop)
}

const (
	depTableBits  = 10
	depTableChunk = 1 << depTableBits
)

// depList is a dependence list with room for its first four entries:
// most nodes that have one need no more.
type depList struct {
	s []int32
	a [4]int32
}

// depChunk is how many dependence lists a chunk holds: one allocation per
// depChunk lists, where a list of its own was one per node that has one
// (the 10k-node scaling program's build made 5,239).
const depChunk = 128

// at returns the list of the node with ID id, which has one (hasDeps).
func (t *depTable) at(id int) *[]int32 {
	k := uint32(t.ids[id>>depTableBits][id&(depTableChunk-1)] - 1)
	return &t.lists[k/depChunk][k%depChunk].s
}

// add gives the node with ID id, which has none, an empty list.
func (t *depTable) add(id int) *[]int32 {
	var k uint32
	if f := len(t.free); f > 0 {
		k = uint32(t.free[f-1])
		t.free = t.free[:f-1]
	} else {
		k = uint32(t.made)
		t.made++
		if k%depChunk == 0 {
			t.lists = append(t.lists, make([]depList, depChunk))
		}
	}
	l := &t.lists[k/depChunk][k%depChunk]
	if l.s == nil {
		l.s = l.a[:0]
	}
	l.s = l.s[:0] // a list given back keeps the array it grew to
	c := id >> depTableBits
	if c >= len(t.ids) {
		t.ids = append(t.ids, make([][]int32, c+1-len(t.ids))...)
	}
	if t.ids[c] == nil {
		t.ids[c] = make([]int32, depTableChunk)
	}
	t.ids[c][id&(depTableChunk-1)] = int32(k) + 1
	return &l.s
}

// drop takes the list of the node with ID id, which has one, back.
func (t *depTable) drop(id int) {
	e := &t.ids[id>>depTableBits][id&(depTableChunk-1)]
	t.free = append(t.free, *e-1)
	*e = 0
}
