package opt

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"son/son"
	"son/types"
)

// SCCPRecord is what the checkers of a round of sccp keep of the graph as
// it was before the analysis, in place of a whole son.Graph.Clone: by node
// ID, each live node's op, constant, type and inputs (their IDs), about a
// quarter of a clone's bytes (a node of the graph is 96 bytes before its
// edges; the types are kept once each, by number: a type is 40 bytes);
// and, once the solution is checked, which control nodes run by the
// claims. The pipeline takes it before Analyze (RecordSCCP), checks
// the solution on the graph itself before the rewrite changes it (Check),
// then the rewrite (CheckRewrite) against the record, lets go of all but
// the ops and the runs (Trim), and checks what the peepholes left
// (CheckApplied).
type SCCPRecord struct {
	op []son.Op // by node ID: the op of a live node, OpInvalid for others
	// The nodes are numbered in the order of their IDs: recorded has a
	// bit by ID, set for a recorded node, and rank[k] counts those below
	// ID 64k, so that a node's number is found from the two (number), in
	// about a twentieth of the bytes of an int32 by ID.
	recorded []uint64
	rank     []int32
	// aux is by number the node's constant where it fits in 32 bits, as
	// all but a few do (most are 0); wideAux where it does not, and
	// those wide ones are in wide, by number.
	aux  []int32
	wide map[int32]int64
	// typ is by number the node's type, in types, or constType for a
	// Constant typed by its own value (types.Const of its constant):
	// most constants are distinct, and their types were most of types
	// (72,000 of 40 bytes on cmp at 1 MB).
	typ   []int32
	types []types.Type
	in    []int32 // by number, from start[i] to start[i+1]: the inputs' IDs, -1 for none
	start []int32
	// startID and stopID are the IDs of Start and Stop.
	startID, stopID int32
	// The variable names of the live nodes that have one (a Phi's, the
	// argument's), for messages: labelID lists those nodes by ascending
	// ID, labelName the index of each one's name in names.
	labelID, labelName []int32
	names              []string
	// runs, by node ID, is set by Check: 1 if the control node runs by
	// the claims (runsByClaims), 2 as well if it is an If both of whose
	// sides run.
	runs []uint8
}

// wideAux in SCCPRecord.aux says that the constant is in SCCPRecord.wide.
const wideAux = math.MinInt32

// constType in SCCPRecord.typ is the type of a Constant typed by its own
// value.
const constType = -1

// RecordSCCP records g's live nodes for the checkers of a round of sccp.
// Cost: one walk of the graph, linear in its nodes and edges, and a scan
// of its IDs.
func RecordSCCP(g *son.Graph) *SCCPRecord { return recordNodes(g, true) }

// recordNodes records the live nodes of g, with their labels if asked.
// It visits them by ID in the set of son.Graph.LiveIDs, not in Live's
// order, which would be 8 bytes a node more beside the graph and the
// record.
func recordNodes(g *son.Graph, labels bool) *SCCPRecord {
	live := g.LiveIDs()
	nodes, edges := 0, 0
	for id, ok := range live {
		if n := g.Node(id); ok && n != nil {
			nodes++
			edges += len(n.In)
		}
	}
	r := &SCCPRecord{
		op:       make([]son.Op, len(live)),
		recorded: make([]uint64, (len(live)+63)/64),
		rank:     make([]int32, (len(live)+63)/64),
		aux:      make([]int32, nodes),
		typ:      make([]int32, nodes),
		in:       make([]int32, 0, edges),
		start:    make([]int32, 1, nodes+1),
		startID:  int32(g.Start.ID),
		stopID:   int32(g.Stop.ID),
	}
	// seen numbers the distinct types (equal values, not Equal ones), and
	// named the distinct labels.
	seen := map[types.Type]int32{}
	var named map[string]int32
	for id, ok := range live {
		n := g.Node(id)
		if !ok || n == nil {
			continue
		}
		i := int32(len(r.start) - 1)
		r.op[id] = n.Op
		r.recorded[id/64] |= 1 << (id % 64)
		nt := n.Type()
		if c := types.Const(n.Aux); n.Op == son.OpConstant && nt.Same(&c) {
			r.typ[i] = constType
		} else {
			t, ok := seen[nt]
			if !ok {
				t = int32(len(r.types))
				seen[nt] = t
				r.types = append(r.types, nt)
			}
			r.typ[i] = t
		}
		if a := int32(n.Aux); int64(a) == n.Aux && a != wideAux {
			r.aux[i] = a
		} else {
			if r.wide == nil {
				r.wide = map[int32]int64{}
			}
			r.aux[i], r.wide[i] = wideAux, n.Aux
		}
		for _, x := range n.In {
			id := int32(-1)
			if x != nil {
				id = int32(x.ID)
			}
			r.in = append(r.in, id)
		}
		r.start = append(r.start, int32(len(r.in)))
		if l := g.Label(n); labels && l != "" {
			k, ok := named[l]
			if !ok {
				if named == nil {
					named = map[string]int32{}
				}
				k = int32(len(r.names))
				named[l] = k
				r.names = append(r.names, l)
			}
			r.labelID = append(r.labelID, int32(id))
			r.labelName = append(r.labelName, k)
		}
	}
	for k := 1; k < len(r.rank); k++ {
		r.rank[k] = r.rank[k-1] + int32(bits.OnesCount64(r.recorded[k-1]))
	}
	return r
}

// ids are the IDs of the recorded nodes, ascending (their numbers' order).
func (r *SCCPRecord) ids(yield func(int32) bool) {
	for k, w := range r.recorded {
		for w != 0 {
			if !yield(int32(64*k + bits.TrailingZeros64(w))) {
				return
			}
			w &= w - 1
		}
	}
}

// number is the number of the recorded node with this ID.
func (r *SCCPRecord) number(id int) int32 {
	k := id / 64
	return r.rank[k] + int32(bits.OnesCount64(r.recorded[k]&(1<<(id%64)-1)))
}

// typeOf is the recorded type of the node numbered i.
func (r *SCCPRecord) typeOf(i int32) types.Type {
	if t := r.typ[i]; t != constType {
		return r.types[t]
	}
	return types.Const(r.auxOf(i))
}

// auxOf is the recorded constant of the node numbered i.
func (r *SCCPRecord) auxOf(i int32) int64 {
	if a := r.aux[i]; a != wideAux {
		return int64(a)
	}
	return r.wide[i]
}

// label is the recorded label of the node with this ID, "" if none.
func (r *SCCPRecord) label(id int) string {
	if k, ok := slices.BinarySearch(r.labelID, int32(id)); ok {
		return r.names[r.labelName[k]]
	}
	return ""
}

// has reports whether the node with this ID was live when recorded.
func (r *SCCPRecord) has(id int) bool {
	return id >= 0 && id < len(r.op) && r.recorded[id/64]&(1<<(id%64)) != 0
}

// inputs are the recorded inputs of the live node id, by ID.
func (r *SCCPRecord) inputs(id int) []int32 {
	i := r.number(id)
	return r.in[r.start[i]:r.start[i+1]]
}

// short is a recorded node as Node.String prints it: "Add#12", "<nil>".
func (r *SCCPRecord) short(id int32) string {
	if id < 0 {
		return "<nil>"
	}
	op := son.OpInvalid
	if int(id) < len(r.op) {
		op = r.op[id]
	}
	return fmt.Sprintf("%s#%d", op, id)
}

// name is a recorded node as nodeName prints a node.
func (r *SCCPRecord) name(id int) string {
	op, i := r.op[id], r.number(id)
	s := fmt.Sprintf("#%d %v", id, op)
	switch ins := r.inputs(id); {
	case op == son.OpCProj && len(ins) > 0 && ins[0] >= 0 && int(ins[0]) < len(r.op) && r.op[ins[0]] == son.OpStart:
	case op == son.OpCProj && r.auxOf(i) == 0:
		s += " true"
	case op == son.OpCProj:
		s += " false"
	case r.label(id) != "":
		s += " " + r.label(id)
	case op == son.OpConstant && !r.typeOf(i).IsTop():
		s += fmt.Sprintf(" %d", r.auxOf(i))
	}
	return s
}

// valueOf is s's claim for the node with this ID (Solution.Value by ID).
func valueOf(s *Solution, id int) types.Type {
	if id < len(s.t.Slot) {
		if i := s.t.Slot[id]; i > 0 {
			return s.t.At(int(i - 1))
		}
	}
	return types.Top
}

// Check is CheckSCCP of s on g, which must still be the graph recorded in
// r (Analyze changes nothing in it; CheckRewrite finds any change since,
// types aside), walked by the checker itself (son.Graph.LiveIDs), not
// through the live list of s. It then notes in r which control nodes run
// by the claims, for CheckApplied, as runsByClaims finds them on the
// recorded types.
func (r *SCCPRecord) Check(g *son.Graph, mode Mode, s *Solution) error {
	if r == nil || g == nil || s == nil {
		return fmt.Errorf("the solution of the %v analysis cannot be checked: no graph, no solution, or not a single analysis", modeName(mode))
	}
	if err := checkSCCP(g, mode, s, false); err != nil {
		return err
	}
	r.noteRuns(g, s)
	return nil
}

// noteRuns sets r.runs from runsByClaims on in, a graph with the recorded
// types.
func (r *SCCPRecord) noteRuns(in *son.Graph, s *Solution) {
	runs := runsByClaims(in, s)
	r.runs = make([]uint8, len(runs))
	for id, ok := range runs {
		if !ok {
			continue
		}
		r.runs[id] = 1
		if n := in.Node(id); n != nil && n.Op == son.OpIf {
			p0, p1 := n.Proj(0), n.Proj(1)
			if p0 != nil && p1 != nil && runs[p0.ID] && runs[p1.ID] {
				r.runs[id] |= 2
			}
		}
	}
}

// CheckRewrite is CheckSCCPRewrite against the record: out, after the
// rewrite of s and before any peephole, holds exactly the recorded live
// nodes, each with its op, constant and inputs, typed with the join of its
// recorded type and its claim. It looks the recorded nodes up in out's
// node table by ID (son.Graph.Node) rather than walk out: if out's Start
// and Stop are the recorded ones and each recorded node is in the table
// with its recorded op and inputs, each input the table's node of its ID,
// then what Stop reaches through inputs in out is what it reached in the
// recorded graph, node for node, so out's live nodes (Live: Start, and
// what Stop reaches) are the recorded ones, none gone and none new.
// It trusts son.Graph.Node to give the node the table holds at an ID.
func (r *SCCPRecord) CheckRewrite(mode Mode, s *Solution, out *son.Graph) error {
	if r == nil || r.recorded == nil || s == nil || out == nil { // nil: trimmed
		return fmt.Errorf("the rewrite of the %v analysis cannot be checked: no graph or no solution", modeName(mode))
	}
	var probs []string
	bad := func(name, format string, args ...any) {
		probs = append(probs, name+": rewrite: "+fmt.Sprintf(format, args...))
	}
	for _, end := range []struct {
		name string
		id   int32
		n    *son.Node
	}{{"Start", r.startID, out.Start}, {"Stop", r.stopID, out.Stop}} {
		if end.n == nil || int32(end.n.ID) != end.id || out.Node(end.n.ID) != end.n {
			bad(end.name, "was %s, now %v, which the node table holds as %v", r.short(end.id), end.n, tableNode(out, end.n))
		}
	}
	for id := range r.ids {
		n := out.Node(int(id))
		if n == nil || n.IsDead() || int32(n.ID) != id {
			bad(r.name(int(id)), "gone")
			continue
		}
		i := r.number(int(id))
		op, aux, ins := r.op[id], r.auxOf(i), r.inputs(int(id))
		if op != n.Op || aux != n.Aux || len(ins) != len(n.In) {
			bad(nodeName(out, n), "was %s (aux %d, %d inputs), now aux %d, %d inputs", r.short(id), aux, len(ins), n.Aux, len(n.In))
			continue
		}
		for k, x := range n.In {
			switch x0 := ins[k]; {
			case (x == nil) != (x0 < 0) || x != nil && int32(x.ID) != x0:
				bad(nodeName(out, n), "input %d was %s, now %v", k, r.short(x0), x)
			case x != nil && out.Node(x.ID) != x:
				bad(nodeName(out, n), "input %d, %v, is not the node the graph's table holds at its ID", k, x)
			}
		}
		claim := valueOf(s, int(id))
		if want := types.Join(r.typeOf(i), claim); !n.Type().Equal(want) {
			bad(nodeName(out, n), "typed %v, but its input type %v and claim %v give %v", n.Type(), r.typeOf(i), claim, want)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("the rewrite of the %v analysis is not justified:\n\t%s", mode, strings.Join(probs, "\n\t"))
}

// tableNode is the node g's table holds at n's ID, nil if none (or no n).
func tableNode(g *son.Graph, n *son.Node) *son.Node {
	if n == nil {
		return nil
	}
	return g.Node(n.ID)
}

// Trim lets go of what only Check and CheckRewrite read (the numbers,
// constants, types, inputs and labels), once they have: CheckApplied
// reads the ops and the runs. The pipeline trims the record before the
// peepholes that follow the rewrite, which it would otherwise sit beside.
func (r *SCCPRecord) Trim() {
	r.recorded, r.rank, r.aux, r.wide, r.typ, r.types, r.in, r.start = nil, nil, nil, nil, nil, nil, nil, nil
	r.labelID, r.labelName, r.names = nil, nil, nil
}

// CheckApplied is CheckSCCPApplied against the record, whose runs Check
// noted: no control node of out that the claims call unreachable, and no
// If one of whose sides they call dead, is left.
func (r *SCCPRecord) CheckApplied(mode Mode, s *Solution, out *son.Graph) error {
	if r == nil || r.runs == nil || s == nil || out == nil {
		return fmt.Errorf("the result of the %v analysis cannot be checked: no graph or no solution", modeName(mode))
	}
	var probs []string
	for id, live := range out.LiveIDs() { // by ID: no list of out's nodes
		n := out.Node(id)
		if !live || n == nil || id >= len(r.op) || id >= len(r.runs) {
			continue
		}
		op := r.op[id] // OpInvalid if not recorded
		if op != n.Op || !op.IsControl() || op == son.OpStart || op == son.OpStop {
			continue
		}
		runs := r.runs[id]
		switch {
		case op == son.OpIf && runs&1 != 0 && runs&2 == 0:
			probs = append(probs, fmt.Sprintf("%s: dead: claimed %v, but left with both sides", nodeName(out, n), valueOf(s, n.ID)))
		case runs&1 == 0:
			probs = append(probs, fmt.Sprintf("%s: dead: unreachable by the claims (%v), but left in the graph", nodeName(out, n), valueOf(s, n.ID)))
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("the result of the %v analysis does not use its claims:\n\t%s", mode, strings.Join(probs, "\n\t"))
}
