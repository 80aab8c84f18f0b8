package opt

import (
	"errors"
	"fmt"
	"strings"

	"son/internal/dom"
	"son/son"
)

// CheckZeroCheckElim verifies a run of ZeroCheckElim from its input and
// output alone: before is the graph as the pipeline recorded it before the
// pass (son.Graph.Clone, which keeps node IDs; IDs are never reused), after
// the graph the pass left. It does not read the pass's []Removal: a check
// removed without a report is found like any other.
//
// It trusts before to be a well-formed graph (son.Verify passed on it
// after the previous pass), what son.ProvedNonZero says a side of an If
// proves, and the dominators of Cooper, Harvey and
// Kennedy's algorithm in internal/dom (the pass uses Lengauer–Tarjan),
// computed here on before's control nodes. The rules:
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
func CheckZeroCheckElim(before, after *son.Graph) error {
	var probs []string
	bad := func(n *son.Node, rule, format string, args ...any) {
		probs = append(probs, fmt.Sprintf("%v: %s: ", n, rule)+fmt.Sprintf(format, args...))
	}
	if before == nil || after == nil || before.Start == nil || after.Start == nil {
		return errors.New("zero-check elimination is not justified: no graph to compare")
	}
	// old is the node of before with n's ID, nil if there is none.
	old := func(n *son.Node) *son.Node {
		if n == nil {
			return nil
		}
		return before.Node(n.ID)
	}
	wasLive := make([]bool, before.MaxID())
	for _, n := range before.Live() {
		wasLive[n.ID] = true
	}
	isLive := make([]bool, max(after.MaxID(), before.MaxID()))
	for _, n := range after.Live() {
		isLive[n.ID] = true
	}
	removed := func(x *son.Node) bool {
		return x != nil && x.Op == son.OpZeroCheck && wasLive[x.ID] && !isLive[x.ID]
	}

	// Dominators of before's control nodes, reached from Start.
	cg := controlOf(before)
	tree := dom.NewTree(dom.CooperHarveyKennedyFlat(cg.start, cg.succ))
	// strictlyAbove reports whether control node a strictly dominated b in
	// before.
	strictlyAbove := func(a, b *son.Node) bool {
		ia, ok1 := cg.at(old(a))
		ib, ok2 := cg.at(old(b))
		return ok1 && ok2 && tree.StrictlyDominates(ia, ib)
	}

	// removed: one walk of before's dominator tree, counting for each
	// divisor the checks still live after the pass on the path from Start.
	// Also, for each value (unrefined), the sides of Ifs on the path that
	// prove it is not 0, and the divisions pinned to a removed check
	// whose divisor such a side proves is not 0.
	live := map[int]int{}   // divisor ID -> live checks of it dominating the walk
	proved := map[int]int{} // value ID -> sides on the path proving it is not 0
	sideProved := map[int][]int{}
	divProved := map[int]bool{}
	var path []int
	for _, v := range tree.Preorder() {
		for len(path) > 0 && !tree.Dominates(path[len(path)-1], v) {
			top := path[len(path)-1]
			if c := cg.nodes[top]; c.Op == son.OpZeroCheck && isLive[c.ID] {
				live[c.In[1].ID]--
			}
			for _, id := range sideProved[top] {
				proved[id]--
			}
			path = path[:len(path)-1]
		}
		c := cg.nodes[v]
		path = append(path, v)
		if c.Op == son.OpCProj && c.In[0] != nil && c.In[0].Op == son.OpIf {
			son.ProvedNonZero(c.In[0].In[1], c.Aux, func(x *son.Node) {
				sideProved[v] = append(sideProved[v], x.ID)
				proved[x.ID]++
			})
		}
		if c.Op != son.OpZeroCheck {
			continue
		}
		switch d := c.In[1]; {
		case isLive[c.ID]:
			live[d.ID]++
		case live[d.ID] == 0 && proved[son.NonZeroKey(d).ID] == 0:
			bad(c, "removed", "the check of %v is gone, but no check of %v left nor a branch proving it is not 0 strictly dominates it", d, d)
		}
		if !isLive[c.ID] {
			for _, u := range c.Out {
				if (u.Op == son.OpDiv || u.Op == son.OpMod) && u.In[0] == c && proved[son.NonZeroKey(u.In[2]).ID] > 0 {
					divProved[u.ID] = true
				}
			}
		}
	}

	// unchanged, repinned, rewired: every live node of after against before.
	for _, n := range after.Live() {
		o := old(n)
		if o == nil || !wasLive[n.ID] {
			bad(n, "unchanged", "a node that was not in the graph before the pass")
			continue
		}
		if o.Op != n.Op || o.Aux != n.Aux || len(o.In) != len(n.In) || !o.Type.Equal(n.Type) {
			bad(n, "unchanged", "was %v (aux %d, %d inputs, %v), now aux %d, %d inputs, %v", o, o.Aux, len(o.In), o.Type, n.Aux, len(n.In), n.Type)
			continue
		}
		for i, x := range n.In {
			x0 := o.In[i]
			switch {
			case x == nil && x0 == nil || x != nil && x0 != nil && x.ID == x0.ID:
				continue
			case x == nil || x0 == nil:
				bad(n, "unchanged", "input %d was %v, now %v", i, x0, x)
				continue
			}
			switch {
			case !removed(x0):
				bad(n, "unchanged", "input %d was %v, now %v", i, x0, x)
			case (n.Op == son.OpDiv || n.Op == son.OpMod) && i == 0:
				up := x0
				for removed(up) {
					up = up.In[0]
				}
				guarded := son.Unrefined(o.In[2]) == son.Unrefined(x0.In[1])
				byCheck := guarded && x.Op == son.OpZeroCheck && isLive[x.ID] && len(x.In) == 2 && x.In[1] != nil && x.In[1].ID == x0.In[1].ID && strictlyAbove(x, x0)
				stays := (divProved[n.ID] || !guarded) && up != nil && x.ID == up.ID
				if !byCheck && !stays {
					bad(n, "repinned", "was pinned to the removed %v, now to %v, which is neither a check of %v that strictly dominated it nor, below a branch proving its divisor is not 0 or for a division by another value, the control node above the removed checks", x0, x, x0.In[1])
				}
			case n.IsControl():
				up := x0
				for removed(up) {
					up = up.In[0]
				}
				if up == nil || x.ID != up.ID {
					bad(n, "rewired", "followed the removed %v, now follows %v, want %v", x0, x, up)
				}
			default:
				bad(n, "unchanged", "input %d was the removed %v, now %v", i, x0, x)
			}
		}
	}
	// unchanged: what else disappeared had no users left.
	for _, o := range before.Live() {
		if isLive[o.ID] || o.Op == son.OpZeroCheck {
			continue
		}
		if o.IsControl() {
			bad(o, "unchanged", "control node gone")
			continue
		}
		for _, u := range o.Out {
			if u != nil && wasLive[u.ID] && isLive[u.ID] {
				bad(o, "unchanged", "gone, but its user %v is still there", u)
				break
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New("zero-check elimination is not justified:\n\t" + strings.Join(probs, "\n\t"))
}

// ctrlNodes is the control flow between control nodes, Stop left out: the
// graph of paper 000's dominance (section 3.2). The numbers are by node ID
// and the successors in one flat list: on a graph of 440,000 nodes a map
// keyed by node and a list per node were 27 MB at the compiler's peak.
type ctrlNodes struct {
	nodes []*son.Node
	index []int32 // by node ID: 1 + the node's number, 0 if not reached
	start []int32 // by number: where its successors begin in succ
	succ  []int32
}

// at is n's number, if n is a control node reached from Start.
func (c *ctrlNodes) at(n *son.Node) (int, bool) {
	if n == nil || n.ID < 0 || n.ID >= len(c.index) || c.index[n.ID] == 0 || c.nodes[c.index[n.ID]-1] != n {
		return 0, false
	}
	return int(c.index[n.ID] - 1), true
}

// controlOf numbers the control nodes reached from Start (Start is 0) and
// lists each one's control users. Written apart from the pass's own
// newCtrlGraph, so that a bug there is not copied here.
func controlOf(g *son.Graph) *ctrlNodes {
	c := &ctrlNodes{index: make([]int32, g.MaxID()), nodes: []*son.Node{g.Start}}
	c.index[g.Start.ID] = 1
	// control reports whether u is a control user that the graph counts.
	control := func(u *son.Node) bool { return u != nil && u.IsControl() && u.Op != son.OpStop }
	// Number the nodes first, then list the edges: the lists are made
	// once at their size, not grown.
	edges := 0
	for work := []*son.Node{g.Start}; len(work) > 0; {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range n.Out {
			if !control(u) {
				continue
			}
			edges++
			if _, ok := c.at(u); !ok {
				c.index[u.ID] = int32(len(c.nodes) + 1)
				c.nodes = append(c.nodes, u)
				work = append(work, u)
			}
		}
	}
	c.start = make([]int32, len(c.nodes)+1)
	c.succ = make([]int32, 0, edges)
	for i, n := range c.nodes {
		for _, u := range n.Out {
			if control(u) {
				k, _ := c.at(u)
				c.succ = append(c.succ, int32(k))
			}
		}
		c.start[i+1] = int32(len(c.succ))
	}
	return c
}
