package son

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Verify checks that g is a well-formed Sea of Nodes and returns every
// problem found, naming the node and the rule, or nil. The rules are paper
// 000's well-formedness (section 2.1) for this graph, and the graph's own
// hygiene:
//
//   - edges: Out mirrors In exactly, and no live node has a dead user
//     ("no dead node left attached"); Start, Stop and every input of a
//     live node are the nodes the graph's table holds at their IDs (not
//     a clone's), which the checkers that look nodes up by ID rely on;
//   - shape: each op's number and kinds of inputs;
//   - phi-arity: a Phi has one value per input of its Region;
//   - determinism: each control node has exactly the control successors
//     its kind requires (one; two projections for If and Never);
//   - data-acyclic: data dependencies other than through Phis are acyclic;
//   - ctrl-acyclic: control cycles only close through a Loop's back edge;
//   - reachable: every live control node is reached from Start;
//   - zerocheck: a division whose divisor may be 0 is pinned below a
//     ZeroCheck of that divisor, or to a control node dominated by a side
//     of an If whose condition proves the divisor is not 0 (against
//     constants; Refines count as their values), or that an If on a
//     constant never takes;
//   - strict: paper 000's strictness (Definition 3.5): a data node is used
//     only where the regions of all the Phis it depends on (through
//     non-Phi data edges) dominate: at the control input of the If,
//     Return or ZeroCheck it feeds, or, as a Phi's k-th value, at the end
//     of its region's k-th predecessor;
//   - zerocheck-dom: likewise, every pinned division a data node depends
//     on has its control input (its ZeroCheck) dominating each such use,
//     so that control has passed the check whenever the division is
//     evaluated;
//   - type: each stored type is sound for its inputs: the type Compute
//     gives from the inputs' types is at or above it;
//   - type-sound: the same claim checked apart from Compute: the op,
//     evaluated by its own semantics on sample points of its inputs'
//     types, gives only values within the stored type (soundness.go).
//   - live-counts: the node table's count of its nodes is right; if the
//     graph's edges have not changed since its last sweep, or since a
//     walk that found every node live (allLive), every node not killed is
//     live; the live nodes by op it keeps
//     from its last count (LiveOps), if they have not changed since, are
//     those of the verifier's own walk, and so is the order it keeps for
//     the next PushAll.
func Verify(g *Graph) error {
	v := verify(g)
	if len(v.probs) == 0 {
		return nil
	}
	sort.SliceStable(v.probs, func(i, j int) bool { return v.probs[i].Node.ID < v.probs[j].Node.ID })
	return VerifyError(v.probs)
}

// verify runs every rule on g; the verifier holds the problems found and
// the work done.
func verify(g *Graph) *verifier {
	// The walk records nothing in the graph's walk cache (walkLive): a
	// verifier leaves what it checks as it found it.
	if g.Node(g.Start.ID) != g.Start || g.Node(g.Stop.ID) != g.Stop {
		// (the walks start from them by ID: nothing else can be checked)
		v := &verifier{g: g}
		v.bad(g.Stop, "edges", "Start or Stop is not the node the graph's table holds at its ID")
		return v
	}
	live, seen := g.walkLive()
	v := &verifier{g: g, live: live}
	v.isLive = make([]bool, g.MaxID())
	copy(v.isLive, seen)
	g.giveMarks(seen)
	v.state = make([]uint8, g.MaxID()) // for dataAcyclic, ctrlAcyclic and strict in turn
	v.liveOps(g.allLive())
	ctrl, preds := 0, 0 // the control nodes and edges newCtrlDoms will find, to size its lists
	for _, n := range v.live {
		v.edges(n)
		if n.dead {
			continue
		}
		if n.IsControl() && n.Op != OpStop {
			ctrl++
			if n.Op.IsRegion() {
				preds += len(n.In) - 1
			} else if n.Op != OpStart {
				preds++
			}
		}
		shaped := len(v.probs)
		v.shape(n)
		v.successors(n)
		if len(v.probs) > shaped {
			continue // the type rules read a node of the shape its op has
		}
		v.typ(n)
		v.sound(n)
	}
	v.dataAcyclic()
	v.ctrlAcyclic()
	if len(v.unguarded) > 0 {
		v.ct = newCtrlTree(g) // zeroBranch walks the tree
	} else {
		v.ct = newCtrlDoms(g, ctrl, preds)
	}
	v.reachable()
	v.zeroBranch()
	v.strict()
	v.ct.release(g) // the rules that read the tree are done
	return v
}

// Problem is one broken rule at one node.
type Problem struct {
	Node *Node
	Rule string
	Msg  string
}

func (p Problem) String() string { return fmt.Sprintf("%v: %s: %s", p.Node, p.Rule, p.Msg) }

// VerifyError lists the problems Verify found.
type VerifyError []Problem

// maxProblems bounds the problems an error message shows.
const maxProblems = 20

func (e VerifyError) Error() string {
	var b strings.Builder
	b.WriteString("graph is not well formed:")
	for i, p := range e {
		if i == maxProblems {
			fmt.Fprintf(&b, "\n\t... and %d more", len(e)-maxProblems)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(p.String())
	}
	return b.String()
}

type verifier struct {
	g      *Graph
	live   []*Node
	isLive []bool
	probs  []Problem
	ct     *ctrlTree // dominators of the control nodes

	// unguarded are the divisions whose divisor may be 0 and that are
	// not pinned below a ZeroCheck of it.
	unguarded []*Node

	// For strict: by node ID, the deepest Phi a data node depends on and
	// the deepest pinned node, by ID (0 for none). state is, by node ID, the color of
	// dataAcyclic's and ctrlAcyclic's walks, then the state of strict's:
	// one array, all 0 again after each of the first two.
	phiDep, pinDep []int32
	state          []uint8
	work           int // nodes settled, edges followed and uses checked, for the linearity test
}

// liveOps checks what the graph keeps from its last sweep or walk, if its
// edges have not changed since, against the verifier's own walk and a
// scan of the node table: the table's count is the nodes it holds; if
// allLive (the graph's claim; the walk records nothing) every node not killed
// is live; the counts by op LiveOps keeps are the live nodes'; the order
// kept for the next PushAll is Live's.
func (v *verifier) liveOps(allLive bool) {
	c, now := &v.g.walks, v.g.version()
	if c.order != nil && c.orderAt == now && !slices.Equal(c.order, v.live) {
		v.bad(v.g.Stop, "live-counts", "the order the graph keeps for PushAll (%d nodes) is not the walk's (%d)", len(c.order), len(v.live))
	}
	held := 0
	for id, n := range v.g.nodes.all() {
		if n == nil {
			continue
		}
		held++
		if allLive && !v.isLive[id] {
			v.bad(n, "live-counts", "not live, though the graph has not changed since its last sweep or a walk that found every node live")
		}
	}
	if held != v.g.nodes.count() {
		v.bad(v.g.Stop, "live-counts", "the node table counts %d nodes, holds %d", v.g.nodes.count(), held)
	}
	if !c.ok || c.counted != now {
		return
	}
	var ops [256]int
	for _, n := range v.live {
		ops[n.Op]++
	}
	if c.n != len(v.live) || c.ops != ops {
		v.bad(v.g.Stop, "live-counts", "the graph counts %d live nodes as of its last sweep or walk, the walk finds %d (or other ops)", c.n, len(v.live))
	}
}

func (v *verifier) bad(n *Node, rule, format string, args ...any) {
	v.probs = append(v.probs, Problem{n, rule, fmt.Sprintf(format, args...)})
}

func count(list []*Node, x *Node) int {
	k := 0
	for _, y := range list {
		if y == x {
			k++
		}
	}
	return k
}

func (v *verifier) edges(n *Node) {
	if n.dead {
		v.bad(n, "edges", "killed node is still reachable")
		return
	}
	for i, x := range n.In {
		switch {
		case x == nil:
		case v.g.Node(x.ID) != x:
			// A node of another graph (a clone's) with the ID of one of
			// this graph: the walks by ID and the checkers that look
			// nodes up by ID would take one for the other.
			v.bad(n, "edges", "input %d, %v, is not the node the graph's table holds at its ID", i, x)
		case x.dead:
			v.bad(n, "edges", "input %d is the killed %v", i, x)
		}
	}
	// Each input edge's recorded position names a user slot that points
	// back to it, and each user slot names an input edge that points back:
	// a bijection, so Out mirrors In exactly, in O(edges). Only when it
	// fails are the edges counted, to say what is wrong.
	if !n.edgesOK() {
		v.bad(n, "edges", "the positions recorded for its edges disagree with In and Out")
		v.countEdges(n)
	}
	for _, u := range n.Out {
		if u.ID >= len(v.isLive) || !v.isLive[u.ID] {
			v.bad(n, "edges", "dead node %v left attached as a user", u)
		}
	}
}

// countEdges explains a failure of edgesOK by counting each edge at both
// ends; it takes time quadratic in the degree, so it runs only then.
func (v *verifier) countEdges(n *Node) {
	for _, x := range n.In {
		if x == nil || x.dead {
			continue
		}
		if a, b := count(x.Out, n), count(n.In, x); a != b {
			v.bad(n, "edges", "uses %v %d times but is listed %d times among its users", x, b, a)
		}
	}
	for _, u := range n.Out {
		if count(u.In, n) == 0 {
			v.bad(n, "edges", "lists %v as a user, which does not use it", u)
		}
	}
}

func isData(x *Node) bool { return x != nil && !x.IsControl() && x.Op != OpScope }

// isCtrl reports whether x may be a control input.
func isCtrl(x *Node) bool { return x != nil && x.IsControl() && x.Op != OpStop && x.Op != OpReturn }

func (v *verifier) shape(n *Node) {
	if k := n.Op.NumIn(); k >= 0 && len(n.In) != k {
		v.bad(n, "shape", "has %d inputs, %v takes %d", len(n.In), n.Op, k)
		return
	}
	if (n.Op == OpRegion || n.Op == OpPhi) && len(n.In) < 2 {
		v.bad(n, "shape", "%v with %d inputs", n.Op, len(n.In))
		return
	}
	switch n.Op {
	case OpInvalid, OpScope:
		v.bad(n, "shape", "%v node in the graph", n.Op)
	case OpXCtrl:
		v.bad(n, "shape", "dead control is reachable from Stop")
	case OpStop:
		for i, x := range n.In {
			if x == nil || x.Op != OpReturn {
				v.bad(n, "shape", "input %d is %v, not a Return", i, x)
			}
		}
	case OpCProj:
		if p := n.In[0]; p == nil || (p.Op != OpStart && p.Op != OpIf && p.Op != OpNever) {
			v.bad(n, "shape", "projects %v, not Start, If or Never", p)
		} else if n.Aux < 0 || n.Aux > 1 || p.Op == OpStart && n.Aux != 0 {
			v.bad(n, "shape", "projection index %d of %v", n.Aux, p)
		}
	case OpProj:
		if n.In[0] != v.g.Start || n.Aux != 1 {
			v.bad(n, "shape", "data projection %d of %v, not arg of Start", n.Aux, n.In[0])
		}
	case OpIf, OpReturn, OpZeroCheck:
		if !isCtrl(n.In[0]) {
			v.bad(n, "shape", "control input is %v", n.In[0])
		}
		if !isData(n.In[1]) {
			v.bad(n, "shape", "data input is %v", n.In[1])
		}
	case OpNever:
		if !isCtrl(n.In[0]) {
			v.bad(n, "shape", "control input is %v", n.In[0])
		}
	case OpRegion, OpLoop:
		if n.In[0] != nil {
			v.bad(n, "shape", "input 0 of a region must be empty, is %v", n.In[0])
		}
		if len(n.In) < 2 {
			v.bad(n, "shape", "region without predecessors")
		}
		for i, x := range n.In[1:] {
			if !isCtrl(x) {
				v.bad(n, "shape", "predecessor %d is %v", i+1, x)
			}
		}
	case OpPhi:
		r := n.In[0]
		if r == nil || !r.Op.IsRegion() {
			v.bad(n, "shape", "region input is %v", r)
			return
		}
		if len(n.In) != len(r.In) {
			v.bad(n, "phi-arity", "has %d values, %v has %d predecessors", len(n.In)-1, r, len(r.In)-1)
		}
		for i, x := range n.In[1:] {
			if !isData(x) {
				v.bad(n, "shape", "value %d is %v", i+1, x)
			}
		}
	case OpConstant, OpStart:
	case OpRefine:
		if p := n.In[0]; p == nil || p.Op != OpCProj || p.In[0] == nil || p.In[0].Op != OpIf {
			v.bad(n, "refine", "pinned to %v, not to a side of an If", p)
		}
		for i, x := range n.In[1:] {
			if !isData(x) {
				v.bad(n, "shape", "operand %d is %v", i+1, x)
			}
		}
	default:
		if !n.Op.IsBinary() && !n.Op.IsUnary() {
			v.bad(n, "shape", "unknown op")
			return
		}
		for i, x := range n.In[1:] {
			if !isData(x) {
				v.bad(n, "shape", "operand %d is %v", i+1, x)
			}
		}
		c := n.In[0]
		switch {
		case n.Op == OpDiv || n.Op == OpMod:
			// Unless a check of the divisor guards it, the branches above
			// its control must prove the divisor is not 0 (zeroBranch).
			if y := n.In[2]; y != nil && !y.Type().ExcludesZero() &&
				(c == nil || c.Op != OpZeroCheck || len(c.In) < 2 || Unrefined(c.In[1]) != Unrefined(y)) {
				v.unguarded = append(v.unguarded, n)
			}
		case c != nil:
			v.bad(n, "shape", "floating op has control input %v", c)
		}
	}
}

// zeroBranch: each division without its check is pinned below a side of
// an If that proves its divisor is not 0 (nonZeroBelow, one walk of the
// dominator tree).
func (v *verifier) zeroBranch() {
	if len(v.unguarded) == 0 {
		return
	}
	safe := v.ct.nonZeroBelow(v.g)
	defer v.g.giveMarks(safe)
	for _, n := range v.unguarded {
		if !safe[n.ID] {
			v.bad(n, "zerocheck", "divisor %v may be 0 but the division is under %v, neither its ZeroCheck nor below a branch that proves it is not 0", n.In[2], n.In[0])
		}
	}
}

// ctrlUsers lists the control nodes that take control from n.
// buf is scratch space for the list, which a node with at most two
// control users (all but a broken one) then fills without allocating.
func ctrlUsers(n *Node, buf *[2]*Node) []*Node {
	us := buf[:0]
	for _, u := range n.Out {
		if u.IsControl() && u.Op != OpStop {
			us = append(us, u)
		}
	}
	return us
}

// successors: paper 000's determinism.
func (v *verifier) successors(n *Node) {
	if !n.IsControl() {
		return
	}
	var buf [2]*Node
	us := ctrlUsers(n, &buf)
	switch n.Op {
	case OpStart:
		if len(us) != 1 || us[0].Op != OpCProj || us[0].Aux != 0 {
			v.bad(n, "determinism", "needs exactly one control projection, has %v", slices.Clone(us))
		}
	case OpIf, OpNever:
		if len(us) != 2 || us[0].Op != OpCProj || us[1].Op != OpCProj || us[0].Aux == us[1].Aux {
			v.bad(n, "determinism", "needs one true and one false projection, has %v", slices.Clone(us))
		}
	case OpCProj, OpRegion, OpLoop, OpZeroCheck:
		if len(us) != 1 {
			v.bad(n, "determinism", "needs exactly one control successor, has %v", slices.Clone(us))
		} else if count(n.Out, us[0]) != 1 { // = uses of n by us[0], as Out mirrors In
			v.bad(n, "determinism", "enters %v more than once", us[0])
		}
	case OpReturn:
		if len(us) != 0 || count(n.Out, v.g.Stop) != 1 {
			v.bad(n, "determinism", "a Return must be used by Stop only, once")
		}
	}
}

func (v *verifier) typ(n *Node) {
	if n.Op == OpScope || n.Op == OpInvalid {
		return
	}
	if n.Op == OpPhi && (n.In[0] == nil || !n.In[0].Op.IsRegion()) {
		return // reported by shape
	}
	for _, x := range n.In {
		if x != nil && x.dead {
			return // reported by edges
		}
	}
	if t := Compute(n, nil); !t.IsA(n.Type()) {
		v.bad(n, "type", "stored type %v, but the inputs give %v, which is not within it", n.Type(), t)
	}
}

// dataAcyclic looks for a cycle of data dependencies that does not pass
// through a Phi. Its colors are v.state's, all 0 on entry and again on
// return; its stack is the graph's scratch (takeFrames).
func (v *verifier) dataAcyclic() {
	const (
		white = iota
		grey
		black
	)
	color := v.state
	stack := v.g.takeFrames()
	for _, root := range v.live {
		if !isData(root) || color[root.ID] != white {
			continue
		}
		stack = append(stack, walkFrame{root, 1})
		color[root.ID] = grey
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.n.Op == OpPhi || f.i >= len(f.n.In) {
				color[f.n.ID] = black
				stack = popFrame(stack)
				continue
			}
			x := f.n.In[f.i]
			f.i++
			if !isData(x) || x.dead {
				continue
			}
			switch color[x.ID] {
			case grey:
				v.bad(x, "data-acyclic", "depends on itself through %v without a Phi", f.n)
			case white:
				color[x.ID] = grey
				stack = append(stack, walkFrame{x, 1})
			}
		}
	}
	v.g.giveFrames(stack)
	clear(color)
}

// ctrlAcyclic looks for a cycle of control inputs that does not close
// through the back edge (input 2) of a Loop. Its colors are v.state's, all
// 0 on entry and again on return; its stack is the graph's scratch.
func (v *verifier) ctrlAcyclic() {
	color := v.state
	stack := v.g.takeFrames()
	for _, root := range v.live {
		if !root.IsControl() || color[root.ID] != 0 {
			continue
		}
		stack = append(stack, walkFrame{root, 0})
		color[root.ID] = 1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.i >= len(f.n.In) {
				color[f.n.ID] = 2
				stack = popFrame(stack)
				continue
			}
			i := f.i
			x := f.n.In[i]
			f.i++
			if x == nil || !x.IsControl() || x.dead || f.n.Op == OpLoop && i == 2 {
				continue
			}
			switch color[x.ID] {
			case 1:
				v.bad(x, "ctrl-acyclic", "control cycle through %v that is not a loop back edge", f.n)
			case 0:
				color[x.ID] = 1
				stack = append(stack, walkFrame{x, 0})
			}
		}
	}
	v.g.giveFrames(stack)
	clear(color)
}

// reachable checks that control reaches every live control node from
// Start.
func (v *verifier) reachable() {
	for _, n := range v.live {
		if n.IsControl() && n.Op != OpStop && n.Op != OpXCtrl && !v.ct.reached(n) {
			v.bad(n, "reachable", "control never reaches it from Start")
		}
	}
}
