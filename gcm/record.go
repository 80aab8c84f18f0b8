package gcm

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"son/son"
	"son/syntax"
)

// GraphRecord is what Check reads of the graph, copied out of it by ID so
// that the graph can go before the checker builds its tables: each node's
// op, position, constant or projection index (Aux), and inputs. About 13
// bytes an ID, 4 an input and 8 an Aux other than 0, where the graph is
// about 150 an ID: the checker's tables beside the graph and the function
// were the gcm pass's peak (docs/PERFORMANCE.md, "gcm15").
//
// It records the nodes the graph's table holds, by ID, with their inputs
// by ID, and no users: Check finds those by turning the live nodes'
// inputs around. It trusts the graph to have passed son.Verify, as Check
// does: a live node's users are the mirror of its inputs and live, and a
// node an edge reaches is the one the table holds at its ID.
type GraphRecord struct {
	start, stop node
	ops         []son.Op     // by ID: OpInvalid where the table holds no node (ID 0 included)
	pos         []syntax.Pos // by ID
	inAt        []int32      // by ID, one more: node id's inputs are ins[inAt[id]:inAt[id+1]]
	ins         []int32      // input IDs, 0 for none
	hasAux      []uint64     // bit id%64 of word id/64: the node with ID id has an Aux other than 0
	auxBefore   []int32      // by word of hasAux: how many bits the words before it have set
	auxVal      []int64      // the Aux other than 0, by ID, in ID order
	tooMany     string       // why nothing is recorded: more IDs or edges than an int32 numbers
}

// node is a recorded node, its ID and op: the zero node is none. It
// prints as son.Node does ("Add#12"), for Check's messages.
type node struct {
	id int32
	op son.Op
}

func (n node) String() string {
	if n.id == 0 {
		return "<nil>"
	}
	return n.op.String() + "#" + strconv.Itoa(int(n.id))
}

// RecordGraph copies what Check reads of g. Cost: one scan of the IDs,
// one copy of the edges; the record's arrays, allocated at their sizes.
func RecordGraph(g *son.Graph) *GraphRecord {
	maxID := g.MaxID()
	if maxID > math.MaxInt32 {
		return &GraphRecord{tooMany: fmt.Sprintf("the graph has %d node IDs", maxID)}
	}
	r := &GraphRecord{
		ops:  make([]son.Op, maxID),
		pos:  make([]syntax.Pos, maxID),
		inAt: make([]int32, maxID+1),
	}
	edges, aux := 0, 0
	for id := 1; id < maxID; id++ {
		n := g.Node(id)
		if n == nil {
			continue
		}
		edges += len(n.In)
		if n.Aux != 0 {
			aux++
		}
	}
	if edges > math.MaxInt32 {
		return &GraphRecord{tooMany: fmt.Sprintf("the graph has %d input edges", edges)}
	}
	r.ins = make([]int32, 0, edges)
	r.hasAux, r.auxBefore = make([]uint64, (maxID+63)/64), make([]int32, (maxID+63)/64)
	r.auxVal = make([]int64, 0, aux)
	for id := 1; id < maxID; id++ {
		r.inAt[id] = int32(len(r.ins))
		n := g.Node(id)
		if n == nil {
			continue
		}
		r.ops[id], r.pos[id] = n.Op, n.Pos
		for _, x := range n.In {
			r.ins = append(r.ins, idOf(x))
		}
		if n.Aux != 0 {
			r.hasAux[id/64] |= 1 << (id % 64)
			r.auxVal = append(r.auxVal, n.Aux)
		}
	}
	r.inAt[maxID] = int32(len(r.ins))
	for w := 1; w < len(r.hasAux); w++ {
		r.auxBefore[w] = r.auxBefore[w-1] + int32(bits.OnesCount64(r.hasAux[w-1]))
	}
	r.start, r.stop = r.node(idOf(g.Start)), r.node(idOf(g.Stop))
	return r
}

// idOf is n's ID, 0 for nil.
func idOf(n *son.Node) int32 {
	if n == nil {
		return 0
	}
	return int32(n.ID)
}

// MaxID is one more than the largest ID the graph gave out.
func (r *GraphRecord) MaxID() int { return len(r.ops) }

// node is the recorded node with ID id, none if the table held none there
// (son.Graph.Node's answer).
func (r *GraphRecord) node(id int32) node {
	if id <= 0 || int(id) >= len(r.ops) || r.ops[id] == son.OpInvalid {
		return node{}
	}
	return node{id, r.ops[id]}
}

// at is node(id) for an ID of any size: a function's claim.
func (r *GraphRecord) at(id int) node {
	if id <= 0 || id >= len(r.ops) {
		return node{}
	}
	return r.node(int32(id))
}

// in is the list of n's input IDs (0 for none).
func (r *GraphRecord) in(n node) []int32 {
	if n.id == 0 {
		return nil
	}
	return r.ins[r.inAt[n.id]:r.inAt[n.id+1]]
}

// input is n's input k, none if it has none there.
func (r *GraphRecord) input(n node, k int) node {
	if in := r.in(n); k >= 0 && k < len(in) {
		return r.node(in[k])
	}
	return node{}
}

// ctrl is n's input 0, its control, none if it has no inputs.
func (r *GraphRecord) ctrl(n node) node { return r.input(n, 0) }

// aux is n's Aux: its constant, its projection's index.
func (r *GraphRecord) aux(n node) int64 {
	if n.id <= 0 || int(n.id) >= len(r.ops) {
		return 0
	}
	w, bit := n.id/64, uint64(1)<<(n.id%64)
	if r.hasAux[w]&bit != 0 {
		return r.auxVal[int(r.auxBefore[w])+bits.OnesCount64(r.hasAux[w]&(bit-1))]
	}
	return 0
}

// posOf is n's source position.
func (r *GraphRecord) posOf(n node) syntax.Pos {
	if n.id == 0 {
		return syntax.Pos{}
	}
	return r.pos[n.id]
}

// controlUsers lists, for each control node, its live users that are
// control nodes or projections, Stop excepted: the inputs of those users
// turned around. son.Verify makes a live node's users the mirror of its
// inputs and rejects a live node with a user not live, but it does not
// look at the inputs of nodes not live: so only live users (live, by ID,
// from live) are turned around, and the lists are the live control
// nodes' users. By ID, users[at[id]:at[id+1]], in ID order, once per use.
func (r *GraphRecord) controlUsers(live []bool) (at, users []int32) {
	user := func(id int, op son.Op) bool {
		return live[id] && (op.IsControl() && op != son.OpStop || op == son.OpProj)
	}
	// control is whether the node with ID x, an input, is a control node:
	// an ID of the graph, below len(ops).
	control := func(x int32) bool { return r.ops[x].IsControl() }
	at = make([]int32, len(r.ops)+1)
	for id, op := range r.ops {
		if user(id, op) {
			for _, x := range r.ins[r.inAt[id]:r.inAt[id+1]] {
				if control(x) {
					at[x+1]++
				}
			}
		}
	}
	for id := range r.ops {
		at[id+1] += at[id]
	}
	users = make([]int32, at[len(r.ops)])
	fill := make([]int32, len(r.ops))
	copy(fill, at)
	for id, op := range r.ops {
		if user(id, op) {
			for _, x := range r.ins[r.inAt[id]:r.inAt[id+1]] {
				if control(x) {
					users[fill[x]] = int32(id)
					fill[x]++
				}
			}
		}
	}
	return at, users
}

// live lists the nodes reachable from Stop by inputs, Start first, then
// in post order, as son.Graph.Live does, if listed; seen is the set of
// them by ID (all controlUsers needs: no list beside it).
func (r *GraphRecord) live(listed bool) (order []node, seen []bool) {
	seen = make([]bool, len(r.ops))
	if r.start.id == 0 || r.stop.id == 0 {
		return nil, seen
	}
	type frame struct{ id, i, end int32 } // ins[i:end] are the inputs left to follow
	push := func(id int32) frame { return frame{id, r.inAt[id], r.inAt[id+1]} }
	stack := []frame{push(r.stop.id)}
	seen[r.start.id], seen[r.stop.id] = true, true
	if listed {
		order = append(order, r.start)
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < f.end {
			x := r.ins[f.i]
			f.i++
			if x > 0 && int(x) < len(seen) && !seen[x] {
				seen[x] = true
				stack = append(stack, push(x))
			}
			continue
		}
		if listed && f.id != r.start.id {
			order = append(order, r.node(f.id))
		}
		stack = stack[:len(stack)-1]
	}
	return order, seen
}
