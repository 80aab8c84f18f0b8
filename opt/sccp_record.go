package opt

import (
	"fmt"
	"strings"

	"son/son"
	"son/types"
)

// SCCPRecord is what the checkers of a round of sccp keep of the graph as
// it was before the analysis, in place of a whole son.Graph.Clone: by node
// ID, each live node's op, constant, type and inputs (their IDs), about a
// third of a clone's bytes (a node of the graph is 96 bytes before its
// edges; the types are kept once each, by number: a type is 40 bytes);
// and, once the solution is checked, which control nodes run by the
// claims. The pipeline takes it before Analyze (RecordSCCP), checks
// the solution on the graph itself before the rewrite changes it (Check),
// then the rewrite (CheckRewrite) and what the peepholes left
// (CheckApplied) against the record.
type SCCPRecord struct {
	op    []son.Op // by node ID: the op of a live node, OpInvalid for others
	slot  []int32  // by node ID: 1 + the node's number (the order of Live)
	ids   []int32  // by number: the node's ID
	aux   []int64  // by number
	typ   []int32  // by number: the node's type, in types
	types []types.Type
	in    []int32 // by number, from start[i] to start[i+1]: the inputs' IDs, -1 for none
	start []int32
	// labels are the variable names of the live nodes that have one (a
	// Phi's, the argument's), for messages.
	labels map[int32]string
	// runs, by node ID, is set by Check: 1 if the control node runs by
	// the claims (runsByClaims), 2 as well if it is an If both of whose
	// sides run.
	runs []uint8
}

// RecordSCCP records g's live nodes for the checkers of a round of sccp.
// Cost: one walk of the graph, linear in its nodes and edges.
func RecordSCCP(g *son.Graph) *SCCPRecord { return recordNodes(g, g.Live(), true) }

// recordNodes records the live nodes of g (live is g.Live()), with their
// labels if asked.
func recordNodes(g *son.Graph, live []*son.Node, labels bool) *SCCPRecord {
	edges := 0
	for _, n := range live {
		edges += len(n.In)
	}
	r := &SCCPRecord{
		op:    make([]son.Op, g.MaxID()),
		slot:  make([]int32, g.MaxID()),
		ids:   make([]int32, len(live)),
		aux:   make([]int64, len(live)),
		typ:   make([]int32, len(live)),
		in:    make([]int32, 0, edges),
		start: make([]int32, len(live)+1),
	}
	// seen numbers the distinct types (equal values, not Equal ones).
	seen := map[types.Type]int32{}
	for i, n := range live {
		r.op[n.ID], r.slot[n.ID], r.ids[i] = n.Op, int32(i+1), int32(n.ID)
		nt := n.Type()
		t, ok := seen[nt]
		if !ok {
			t = int32(len(r.types))
			seen[nt] = t
			r.types = append(r.types, nt)
		}
		r.aux[i], r.typ[i] = n.Aux, t
		for _, x := range n.In {
			id := int32(-1)
			if x != nil {
				id = int32(x.ID)
			}
			r.in = append(r.in, id)
		}
		r.start[i+1] = int32(len(r.in))
		if l := g.Label(n); labels && l != "" {
			if r.labels == nil {
				r.labels = map[int32]string{}
			}
			r.labels[int32(n.ID)] = l
		}
	}
	return r
}

// typeOf is the recorded type of the node numbered i.
func (r *SCCPRecord) typeOf(i int32) types.Type { return r.types[r.typ[i]] }

// has reports whether the node with this ID was live when recorded.
func (r *SCCPRecord) has(id int) bool { return id >= 0 && id < len(r.slot) && r.slot[id] > 0 }

// inputs are the recorded inputs of the live node id, by ID.
func (r *SCCPRecord) inputs(id int) []int32 {
	i := r.slot[id] - 1
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
	op, i := r.op[id], r.slot[id]-1
	s := fmt.Sprintf("#%d %v", id, op)
	switch ins := r.inputs(id); {
	case op == son.OpCProj && len(ins) > 0 && ins[0] >= 0 && int(ins[0]) < len(r.op) && r.op[ins[0]] == son.OpStart:
	case op == son.OpCProj && r.aux[i] == 0:
		s += " true"
	case op == son.OpCProj:
		s += " false"
	case r.labels[int32(id)] != "":
		s += " " + r.labels[int32(id)]
	case op == son.OpConstant && !r.typeOf(i).IsTop():
		s += fmt.Sprintf(" %d", r.aux[i])
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
// types aside), walked by the checker itself, not through the live list
// of s. It then notes in r which control nodes run by the claims, for
// CheckApplied, as runsByClaims finds them on the recorded types.
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
// recorded type and its claim.
func (r *SCCPRecord) CheckRewrite(mode Mode, s *Solution, out *son.Graph) error {
	if r == nil || s == nil || out == nil {
		return fmt.Errorf("the rewrite of the %v analysis cannot be checked: no graph or no solution", modeName(mode))
	}
	var probs []string
	bad := func(name, format string, args ...any) {
		probs = append(probs, name+": rewrite: "+fmt.Sprintf(format, args...))
	}
	after := out.Live()
	isLive := make([]bool, max(out.MaxID(), len(r.slot)))
	for _, n := range after {
		isLive[n.ID] = true
	}
	for _, id := range r.ids {
		if !isLive[id] {
			bad(r.name(int(id)), "gone")
		}
	}
	for _, n := range after {
		if !r.has(n.ID) {
			bad(nodeName(out, n), "a node that was not in the graph before")
			continue
		}
		i := r.slot[n.ID] - 1
		op, aux, ins := r.op[n.ID], r.aux[i], r.inputs(n.ID)
		if op != n.Op || aux != n.Aux || len(ins) != len(n.In) {
			bad(nodeName(out, n), "was %s (aux %d, %d inputs), now aux %d, %d inputs", r.short(int32(n.ID)), aux, len(ins), n.Aux, len(n.In))
			continue
		}
		for k, x := range n.In {
			if x0 := ins[k]; (x == nil) != (x0 < 0) || x != nil && int32(x.ID) != x0 {
				bad(nodeName(out, n), "input %d was %s, now %v", k, r.short(x0), x)
			}
		}
		claim := valueOf(s, n.ID)
		if want := types.Join(r.typeOf(i), claim); !n.Type().Equal(want) {
			bad(nodeName(out, n), "typed %v, but its input type %v and claim %v give %v", n.Type(), r.typeOf(i), claim, want)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("the rewrite of the %v analysis is not justified:\n\t%s", mode, strings.Join(probs, "\n\t"))
}

// CheckApplied is CheckSCCPApplied against the record, whose runs Check
// noted: no control node of out that the claims call unreachable, and no
// If one of whose sides they call dead, is left.
func (r *SCCPRecord) CheckApplied(mode Mode, s *Solution, out *son.Graph) error {
	if r == nil || r.runs == nil || s == nil || out == nil {
		return fmt.Errorf("the result of the %v analysis cannot be checked: no graph or no solution", modeName(mode))
	}
	var probs []string
	for _, n := range out.Live() {
		if !r.has(n.ID) {
			continue
		}
		op := r.op[n.ID]
		if op != n.Op || !op.IsControl() || op == son.OpStart || op == son.OpStop {
			continue
		}
		runs := r.runs[n.ID]
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
