package opt

import (
	"errors"
	"fmt"
	"strings"

	"son/internal/dom"
	"son/son"
)

// CheckZeroCheckElim verifies a run of ZeroCheckElim from its input and
// output alone: before is the pipeline's record of the graph before the
// pass (RecordZeroCheck: its live nodes by ID, which the pass keeps; IDs
// are never reused), after the graph the pass left. It does not read the
// pass's []Removal: a check removed without a report is found like any
// other.
//
// It trusts the recorded graph to be well formed (son.Verify passed on it
// after the previous pass), the record to hold it (RecordZeroCheck copies
// each live node's op, constant, type and input IDs, and what
// son.ProvedNonZero says each side of an If proves, with son.Unrefined and
// son.NonZeroKey of each divisor), and the dominators of Cooper, Harvey
// and Kennedy's algorithm in internal/dom (the pass uses Lengauer–Tarjan),
// computed here on the recorded control nodes. It visits the live nodes
// of after by ID (son.Graph.LiveIDs, then the node table), not in a list
// of them, so it requires the nodes it reaches to be the table's: Start
// and Stop, and every input of a node it visits, are the node the table
// holds at their ID (else a node of another graph, a clone with the ID
// of a node it replaced, could be live and never compared: son.Verify
// does not look for that). The rules:
//
//   - removed: a ZeroCheck live before and gone after was checking a
//     value node (the same node, by ID) that a ZeroCheck still live after
//     the pass also checks, and that check strictly dominated it before;
//     or a side of an If that strictly dominated it proves that value
//     (Refines looked through) is not 0;
//   - repinned: a division pinned to a removed check is now pinned to a
//     live check of the same divisor that strictly dominated the removed
//     one, or, if a side of an If that strictly dominated the removed
//     check proves its divisor is not 0, or if its divisor is another
//     value (it was pinned there by a branch's fact, which son.Verify
//     checks again), to the control node above the removed checks;
//   - rewired: a control node that followed removed checks now follows
//     the control node above them;
//   - unchanged: nothing else changed: every node live after was live
//     before with the same op, constant, type and inputs; the only other
//     nodes gone are data nodes all of whose users are gone too (the
//     divisor of a removed check that nothing else used).
//
// Every problem names the node and the rule. Cost: linear in the graphs,
// plus the dominators.
func CheckZeroCheckElim(before *ZeroCheckRecord, after *son.Graph) error {
	var probs []string
	bad := func(n fmt.Stringer, rule, format string, args ...any) {
		probs = append(probs, fmt.Sprintf("%v: %s: ", n, rule)+fmt.Sprintf(format, args...))
	}
	if before == nil || before.nodes == nil || after == nil || after.Start == nil {
		return errors.New("zero-check elimination is not justified: no graph to compare")
	}
	r := before.nodes
	// name names a recorded node as Node.String does ("Div#12", "<nil>").
	name := func(id int32) fmt.Stringer { return recorded{r, id} }
	wasLive := func(id int) bool { return r.has(id) }
	// The live nodes of after, as a set by ID (no list of them: 8 bytes
	// a node beside the record at the checker's peak), as long as the
	// record's IDs at least.
	if after.Stop == nil || after.Node(after.Start.ID) != after.Start || after.Node(after.Stop.ID) != after.Stop {
		return errors.New("zero-check elimination is not justified: Start or Stop is not the node its graph's table holds at its ID")
	}
	isLive := after.LiveIDs()
	if len(isLive) < len(r.op) {
		isLive = append(isLive, make([]bool, len(r.op)-len(isLive))...)
	}
	removed := func(x int32) bool {
		return before.opOf(x) == son.OpZeroCheck && !isLive[x]
	}

	// Dominators of the recorded control nodes, reached from Start: their
	// preorder numbers only (dom.Intervals, 8 bytes a vertex, not a
	// dom.Tree's 44), and the preorder as a list.
	cg := before.control()
	idom := dom.CooperHarveyKennedyFlat32(cg.start, cg.succ)
	cg.start, cg.succ = nil, nil // the edges are done with
	tree := dom.NewIntervals(idom)
	preorder := make([]int32, len(cg.ids))
	for i := range preorder {
		preorder[i] = -1
	}
	for v := range cg.ids {
		if p := tree.Pre(v); p >= 0 {
			preorder[p] = int32(v)
		}
	}
	// strictlyAbove reports whether control node a strictly dominated b
	// before the pass.
	strictlyAbove := func(a, b int32) bool {
		ia, ok1 := cg.at(a)
		ib, ok2 := cg.at(b)
		return ok1 && ok2 && tree.StrictlyDominates(ia, ib)
	}

	// The divisions pinned to each removed check, found from their inputs.
	pinned := map[int32][]int32{}
	for u := range r.ids {
		if op := r.op[u]; op == son.OpDiv || op == son.OpMod {
			if c := before.in(u, 0); removed(c) {
				pinned[c] = append(pinned[c], u)
			}
		}
	}

	// removed: one walk of the dominator tree, counting for each divisor
	// the checks still live after the pass on the path from Start. Also,
	// for each value (unrefined), the sides of Ifs on the path that prove
	// it is not 0, and the divisions pinned to a removed check whose
	// divisor such a side proves is not 0.
	live := map[int32]int{}   // divisor ID -> live checks of it dominating the walk
	proved := map[int32]int{} // value ID -> sides on the path proving it is not 0
	divProved := map[int32]bool{}
	// proves are the values the recorded control node c proves not 0.
	proves := func(c int32) []int32 {
		if r.op[c] != son.OpCProj {
			return nil
		}
		return before.facts(c)
	}
	path := make([]int32, 0, len(preorder)) // as deep as the tree: made once
	for _, pv := range preorder {
		if pv < 0 {
			break // none is unreachable: control numbers only what Start reaches
		}
		v := int(pv)
		for len(path) > 0 && !tree.Dominates(int(path[len(path)-1]), v) {
			top := cg.ids[path[len(path)-1]]
			if r.op[top] == son.OpZeroCheck && isLive[top] {
				live[before.in(top, 1)]--
			}
			for _, id := range proves(top) {
				proved[id]--
			}
			path = path[:len(path)-1]
		}
		c := cg.ids[v]
		path = append(path, pv)
		for _, id := range proves(c) {
			proved[id]++
		}
		if r.op[c] != son.OpZeroCheck {
			continue
		}
		switch d := before.in(c, 1); {
		case isLive[c]:
			live[d]++
		case live[d] == 0 && proved[before.divisorFact(c, 1)] == 0:
			bad(name(c), "removed", "the check of %v is gone, but no check of %v left nor a branch proving it is not 0 strictly dominates it", name(d), name(d))
		}
		if !isLive[c] {
			for _, u := range pinned[c] {
				if proved[before.divisorFact(u, 1)] > 0 {
					divProved[u] = true
				}
			}
		}
	}

	// unchanged, repinned, rewired: every live node of after against
	// before, by ID.
	for i, ok := range isLive {
		if !ok {
			continue
		}
		n := after.Node(i)
		if n == nil {
			bad(name(int32(i)), "unchanged", "a live node the graph's table does not hold at ID %d", i)
			continue
		}
		id := int32(n.ID)
		if !wasLive(n.ID) {
			bad(n, "unchanged", "a node that was not in the graph before the pass")
			continue
		}
		k := r.number(n.ID)
		op, aux, typ, ins := r.op[n.ID], r.auxOf(k), r.typeOf(k), r.inputs(n.ID)
		if op != n.Op || aux != n.Aux || len(ins) != len(n.In) || !typ.Equal(n.Type()) {
			bad(n, "unchanged", "was %v (aux %d, %d inputs, %v), now aux %d, %d inputs, %v", name(id), aux, len(ins), typ, n.Aux, len(n.In), n.Type())
			continue
		}
		for i, x := range n.In {
			x0 := ins[i]
			if x != nil && after.Node(x.ID) != x {
				bad(n, "unchanged", "input %d, %v, is not the node the graph's table holds at its ID", i, x)
				continue
			}
			switch {
			case x == nil && x0 < 0 || x != nil && x0 >= 0 && int32(x.ID) == x0:
				continue
			case x == nil || x0 < 0:
				bad(n, "unchanged", "input %d was %v, now %v", i, name(x0), x)
				continue
			}
			// up is the control node above the removed checks from x0.
			up := func() int32 {
				up := x0
				for removed(up) {
					up = before.in(up, 0)
				}
				return up
			}
			switch {
			case !removed(x0):
				bad(n, "unchanged", "input %d was %v, now %v", i, name(x0), x)
			case (n.Op == son.OpDiv || n.Op == son.OpMod) && i == 0:
				up := up()
				d0 := before.in(x0, 1)
				guarded := before.divisorFact(id, 0) == before.divisorFact(x0, 0)
				byCheck := guarded && x.Op == son.OpZeroCheck && isLive[x.ID] && len(x.In) == 2 && x.In[1] != nil && int32(x.In[1].ID) == d0 && strictlyAbove(int32(x.ID), x0)
				stays := (divProved[id] || !guarded) && up >= 0 && int32(x.ID) == up
				if !byCheck && !stays {
					bad(n, "repinned", "was pinned to the removed %v, now to %v, which is neither a check of %v that strictly dominated it nor, below a branch proving its divisor is not 0 or for a division by another value, the control node above the removed checks", name(x0), x, name(d0))
				}
			case n.IsControl():
				if up := up(); up < 0 || int32(x.ID) != up {
					bad(n, "rewired", "followed the removed %v, now follows %v, want %v", name(x0), x, name(up))
				}
			default:
				bad(n, "unchanged", "input %d was the removed %v, now %v", i, name(x0), x)
			}
		}
	}
	// unchanged: what else disappeared had no users left. A user is found
	// from its inputs: the first live one, in the record's order.
	gone := func(o int32) bool {
		return !isLive[o] && r.op[o] != son.OpZeroCheck && !r.op[o].IsControl()
	}
	user := map[int32]int32{}
	for u := range r.ids {
		if !isLive[u] {
			continue
		}
		for _, o := range r.inputs(int(u)) {
			if o >= 0 && gone(o) {
				if _, ok := user[o]; !ok {
					user[o] = u
				}
			}
		}
	}
	for o := range r.ids {
		switch {
		case isLive[o] || r.op[o] == son.OpZeroCheck:
		case r.op[o].IsControl():
			bad(name(o), "unchanged", "control node gone")
		default:
			if u, ok := user[o]; ok {
				bad(name(o), "unchanged", "gone, but its user %v is still there", name(u))
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New("zero-check elimination is not justified:\n\t" + strings.Join(probs, "\n\t"))
}

// recorded is a node of a record, named as Node.String names a node.
type recorded struct {
	r  *SCCPRecord
	id int32
}

func (x recorded) String() string { return x.r.short(x.id) }

// ctrlNodes is the control flow between the recorded control nodes, Stop
// left out: the graph of paper 000's dominance (section 3.2). The numbers
// are by node ID and the successors in one flat list: on a graph of
// 440,000 nodes a map keyed by node and a list per node were 27 MB at the
// compiler's peak.
type ctrlNodes struct {
	ids   []int32 // by number: the node's ID
	index []int32 // by node ID: 1 + the node's number, 0 if not reached
	start []int32 // by number: where its successors begin in succ (nil once the dominators are made)
	succ  []int32
}

// at is the number of the control node with this ID, if Start reaches it.
func (c *ctrlNodes) at(id int32) (int, bool) {
	if id < 0 || int(id) >= len(c.index) || c.index[id] == 0 {
		return 0, false
	}
	return int(c.index[id] - 1), true
}

// control numbers the recorded control nodes reached from Start (Start is
// 0) and lists each one's control users, found from the users' inputs.
// Written apart from the pass's own newCtrlGraph, so that a bug there is
// not copied here.
func (rec *ZeroCheckRecord) control() *ctrlNodes {
	r := rec.nodes
	// users, by node ID: the control users (Stop aside) of each node,
	// from ustart[id] to ustart[id+1].
	isUser := func(u int32) bool { op := r.op[u]; return op.IsControl() && op != son.OpStop }
	ustart := make([]int32, len(r.op)+1)
	// Only the control inputs' lists are read (the walk goes from control
	// node to control node): an If's condition, a Return's value and a
	// ZeroCheck's divisor get none.
	isCtrl := func(x int32) bool { return x >= 0 && int(x) < len(r.op) && r.op[x].IsControl() }
	nctrl := 0 // the control nodes but Stop: Start reaches at most as many
	for u := range r.ids {
		if isUser(u) {
			nctrl++
			for _, x := range r.inputs(int(u)) {
				if isCtrl(x) {
					ustart[x+1]++
				}
			}
		}
	}
	for i := 1; i < len(ustart); i++ {
		ustart[i] += ustart[i-1]
	}
	// Fill each list from its start, ustart[x] moving to ustart[x+1],
	// then shift the starts back.
	users := make([]int32, ustart[len(ustart)-1])
	for u := range r.ids {
		if isUser(u) {
			for _, x := range r.inputs(int(u)) {
				if isCtrl(x) {
					users[ustart[x]] = u
					ustart[x]++
				}
			}
		}
	}
	copy(ustart[1:], ustart[:len(ustart)-1])
	ustart[0] = 0
	c := &ctrlNodes{index: make([]int32, len(r.op)), ids: make([]int32, 1, nctrl+1)}
	c.ids[0] = rec.start
	c.index[rec.start] = 1
	// Number the nodes first, then list the edges: the lists are made
	// once at their size, not grown.
	edges := 0
	for work := []int32{rec.start}; len(work) > 0; {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range users[ustart[n]:ustart[n+1]] {
			edges++
			if c.index[u] == 0 {
				c.index[u] = int32(len(c.ids) + 1)
				c.ids = append(c.ids, u)
				work = append(work, u)
			}
		}
	}
	c.start = make([]int32, len(c.ids)+1)
	c.succ = make([]int32, 0, edges)
	for i, n := range c.ids {
		for _, u := range users[ustart[n]:ustart[n+1]] {
			c.succ = append(c.succ, c.index[u]-1)
		}
		c.start[i+1] = int32(len(c.succ))
	}
	return c
}
