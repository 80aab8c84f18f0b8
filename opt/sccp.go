package opt

import (
	"fmt"
	"io"
	"math"

	"son/son"
	"son/types"
)

// The combined analysis of Click and Cooper, "Combining Analyses,
// Combining Optimizations" (paper 001, sections 6.1-6.3): constant
// propagation and unreachable-code analysis solved together, optimistically,
// on the Sea of Nodes. Every node starts at Top — undefined, and for control
// unreachable — and only ever falls. A node's new value is its op's
// transfer function, son.Compute, over its inputs' current values: a Phi
// meets only the values whose region input is reachable (table V), an If
// makes a side reachable only when its condition allows it (table VI), a
// node under unreachable control stays undefined. The solution is checked
// by CheckSCCP against the equations of the mode that ran, and only a
// checked solution rewrites the graph: each node gets the join of its type
// and its value, then the peephole worklist folds what became constant and
// removes what became unreachable (checked by CheckSCCPRewrite).
//
// Cost: each node is evaluated when one of its inputs falls. A value can
// fall a bounded number of times: from Top to a constant, to ranges, and
// after fallsBeforeWidening falls a range is widened to the end of int on
// the side that moved (a loop counter would otherwise grow by one per
// round); control falls at most twice. So the work is linear in the edges.

// Mode chooses which analysis to run.
type Mode int

const (
	// Combined is Click and Cooper's analysis.
	Combined Mode = iota
	// ConstOnly is constant propagation alone: every control node is
	// taken as reachable.
	ConstOnly
	// ReachOnly is unreachable-code analysis alone: no value is known
	// but the literal constants, so only a branch on a constant folds.
	ReachOnly
	// Iterated alternates ConstOnly and ReachOnly, each followed by its
	// rewrite, until neither changes the graph.
	Iterated
)

var modeNames = [...]string{"combined", "const", "reach", "iterated"}

func (m Mode) String() string { return modeNames[m] }

// ParseMode is the inverse of Mode.String.
func ParseMode(s string) (Mode, error) {
	for i, name := range modeNames {
		if s == name {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown analysis %q (want combined, const, reach or iterated)", s)
}

// Solution is what an analysis claims: a lattice value for every node.
// The values are kept by the live nodes' dense numbers, not by node ID:
// a graph after build holds about six IDs per live node; and each as a
// pointer to a type interned in the graph's table (son.Graph.NewTyping),
// not a five-word value: at the end most claims are the type of some
// node, and the values were 17 MB beside the graph at 1 MB of source.
type Solution struct {
	// t holds the values by dense number (At) and, by node ID, 1 + the
	// node's dense number (Slot); 0 for a node that was not live when
	// solved, whose value is Top.
	t son.Typing
	// graph and live are the graph Analyze solved and its live nodes,
	// live[i] numbered i, so that Annotate and CheckSCCP do not walk the
	// graph again.
	graph *son.Graph
	live  []*son.Node
	// Evals counts the transfer functions the solver computed.
	Evals int
}

// Value is the claimed value of n.
func (s *Solution) Value(n *son.Node) types.Type { return s.t.Of(n) }

// typing is Value for son.Compute, which the solver and the checker read
// inlined, one read per input evaluated, where a call of a closure each
// was 4% of the pass.
func (s *Solution) typing() *son.Typing { return &s.t }

// Set changes the claim for n: for tests of the checker.
func (s *Solution) Set(n *son.Node, t types.Type) {
	for n.ID >= len(s.t.Slot) {
		s.t.Slot = append(s.t.Slot, 0)
	}
	if s.t.Slot[n.ID] == 0 {
		s.t.Slot[n.ID] = int32(s.t.Add(types.Top)) + 1
	}
	s.t.Set(int(s.t.Slot[n.ID]-1), t)
}

// Release gives the solution's array by node ID back to its graph's
// scratch (son.Graph.GiveIDs), for the passes after to reuse; s is not
// used after.
func (s *Solution) Release() {
	s.graph.GiveIDs(s.t.Slot)
	s.t = son.Typing{}
}

// fallsBeforeWidening is how often an integer range may fall before it is
// widened.
const fallsBeforeWidening = 3

// keepFalling is off only in a test that shows the evaluation budget
// stopping a solver whose values do not keep falling.
var keepFalling = true

// maxFalls bounds how often one value falls: from Top to a constant,
// fallsBeforeWidening ranges, each bound widened once, then Bottom; a
// tuple's two elements twice each.
const maxFalls = fallsBeforeWidening + 6

// unreachedIf is the start value of an If or a Never: neither side
// reached. One shared tuple, not one allocated per branch.
var unreachedIf = types.Tuple(types.XCtrl, types.XCtrl)

// Analyze solves the equations of mode (not Iterated) for g. With trace
// set it writes one line for every change of a value, as table VII of
// paper 001 does. A node is evaluated at first and again when an input
// falls, so the evaluations are bounded by the nodes plus maxFalls times
// the edges (counting a region's Phis as its inputs' users); beyond that
// bound the values are not falling, a bug, and Analyze says so rather than
// running forever.
func Analyze(g *son.Graph, mode Mode, trace io.Writer) (*Solution, error) {
	live := g.LiveShared() // Annotate changes types only: PushAll takes the same order
	if len(live) >= math.MaxInt32 {
		return nil, fmt.Errorf("the %v analysis cannot number %d live nodes", mode, len(live))
	}
	s := &Solution{t: g.NewTyping(len(live), g.TakeIDs()), graph: g, live: live}
	// By dense number: how often the value fell, and whether the node is
	// on the worklist.
	falls := make([]uint8, len(live))
	on := make([]bool, len(live))
	// Every value starts at the top: data undefined, control unreachable.
	// A first-in first-out worklist starts from Start, Stop and the nodes
	// without inputs (the constants), whose equations need no input; a
	// node is evaluated again each time
	// an input changes. One that never sees a change keeps its start
	// value, which its equation gives for inputs that never left theirs.
	// A node is on the worklist at most once (on), so a ring of one slot
	// per live node holds it without growing. One loop over the live
	// nodes numbers them, sums the budget and starts the values and the
	// worklist: on a large graph each visit of a node is a cache miss.
	work := newRing(len(live))
	budget := len(live)
	// The first If (or Never) and the first other control node set their
	// start values; the others take the same slots (Typing.SetLike).
	firstIf, firstCtrl := -1, -1
	for i, n := range live {
		s.t.Slot[n.ID] = int32(i) + 1
		budget += maxFalls * len(n.Out)
		if n.Op.IsRegion() {
			budget += maxFalls * len(n.In) * len(n.Out) // inputs' falls revisit the Phis
		}
		switch {
		case n == g.Start: // Top, until its first evaluation makes it reachable
		case (n.Op == son.OpIf || n.Op == son.OpNever) && firstIf >= 0:
			s.t.SetLike(i, firstIf)
		case n.Op == son.OpIf || n.Op == son.OpNever:
			s.t.Set(i, unreachedIf)
			firstIf = i
		case n.IsControl() && firstCtrl >= 0:
			s.t.SetLike(i, firstCtrl)
		case n.IsControl():
			s.t.Set(i, types.XCtrl)
			firstCtrl = i
		}
		if n == g.Start || n == g.Stop || len(n.In) == 0 {
			on[i] = true
			work.push(int32(i))
		}
	}
	push := func(n *son.Node) {
		if i := s.t.Slot[n.ID] - 1; i >= 0 && !on[i] {
			on[i] = true
			work.push(i)
		}
	}
	tr := newTracer(trace, g)
	val := s.typing()
	for work.len > 0 {
		i := work.pop()
		n := live[i]
		on[i] = false
		if s.Evals++; s.Evals > budget {
			return nil, fmt.Errorf("the %v analysis does not converge: %d evaluations, more than its values can fall (last %v, %v)", mode, s.Evals, n, s.t.At(int(i)))
		}
		old := s.t.At(int(i))
		// The meet with the old value keeps the values falling: a range
		// widened below its equation's value must not rise back to it
		// when its inputs change, or a loop can go up and down forever.
		// An equation that gives the old value again (about half the
		// evaluations) changes nothing: its meet with the old value would
		// be that value.
		var v types.Type
		if mode == Combined { // transfer's own case, without its call: a value of 40 bytes returned twice
			v = son.Compute(n, val)
		} else {
			v = transfer(n, mode, val)
		}
		if v.Same(&old) || equalKinds(&v, &old) {
			continue
		}
		if keepFalling && !old.IsTop() { // the meet with Top is v, which differs
			if old.IsTuple() {
				v = meetTuple(&old, &v)
			} else {
				v = types.Meet(old, v)
			}
			if v.Same(&old) || equalKinds(&v, &old) {
				continue
			}
		}
		if old.IsInt() && v.IsInt() {
			if falls[i]++; falls[i] > fallsBeforeWidening {
				v = widen(old, v)
			}
		}
		if tr != nil { // no call, with two values of 40 bytes, when not tracing
			tr.change(n, old, v)
		}
		s.t.SetNode(int(i), n, v)
		ctrl := n.IsControl()
		for _, u := range n.Out {
			push(u)
			// A Phi reads the reachability of its region's inputs, two
			// edges away.
			if ctrl && u.Op.IsRegion() {
				for _, phi := range u.Out {
					if phi.Op == son.OpPhi {
						push(phi)
					}
				}
			}
		}
	}
	return s, nil
}

// meetTuple is types.Meet(*old, *v) for a tuple old, but that the meet of
// two tuples of control values (an If's or a Never's sides) in which each
// element of v is at or below old's (Ctrl below XCtrl) is v, found
// without Meet's elementwise walk (which gives v too, by a call per
// element and two Equals).
func meetTuple(old, v *types.Type) types.Type {
	if v.IsTuple() && old.Len() == v.Len() {
		below := true
		for i := range v.Len() {
			e, f := v.Elem(i), old.Elem(i)
			below = below && (e.IsCtrl() && (f.IsCtrl() || f.IsXCtrl()) || e.IsXCtrl() && f.IsXCtrl())
		}
		if below {
			return *v
		}
	}
	return types.Meet(*old, *v)
}

// equalKinds is t.Equal(*u) for values whose words differ (t.Same(u),
// inlined, is tested first where it is called: Same || equalKinds is
// Equal): values of two kinds differ, and so do two integers (Equal
// compares the four words Same does besides the kind); only tuples and
// the other kinds call Equal. The solver compares about two values an
// evaluation, most of them integers or of two kinds, where Equal was a
// call of about a hundred instructions.
func equalKinds(t, u *types.Type) bool {
	k := t.Kind()
	switch {
	case k != u.Kind() || k == types.KInt:
		return false
	case k == types.KTuple:
		// Tuples (an If's sides) are made anew, but their elements are
		// control values, whose words decide.
		if t.Len() != u.Len() {
			return false
		}
		for i := range t.Len() {
			if e, f := t.Elem(i), u.Elem(i); !e.Same(&f) && !e.Equal(f) {
				return false
			}
		}
		return true
	}
	return t.Equal(*u)
}

// ring is a first-in first-out queue of at most len(buf) dense numbers.
type ring struct {
	buf       []int32
	head, len int
}

func newRing(size int) *ring { return &ring{buf: make([]int32, max(size, 1))} }

func (r *ring) push(i int32) {
	j := r.head + r.len
	if j >= len(r.buf) {
		j -= len(r.buf)
	}
	r.buf[j] = i
	r.len++
}

func (r *ring) pop() int32 {
	i := r.buf[r.head]
	if r.head++; r.head == len(r.buf) {
		r.head = 0
	}
	r.len--
	return i
}

// transfer is n's equation in the chosen analysis.
func transfer(n *son.Node, mode Mode, val *son.Typing) types.Type {
	switch mode {
	case ConstOnly:
		if n.IsControl() {
			switch n.Op {
			case son.OpStart:
				return son.Compute(n, val)
			case son.OpIf, son.OpNever:
				return types.Tuple(types.Ctrl, types.Ctrl)
			case son.OpXCtrl:
				return types.XCtrl
			}
			return types.Ctrl
		}
	case ReachOnly:
		if !n.IsControl() && n.Op != son.OpConstant {
			return types.Int
		}
	}
	return son.Compute(n, val)
}

// widen moves each bound of an integer range that fell to the end of int.
func widen(old, v types.Type) types.Type {
	lo, hi := v.Lo(), v.Hi()
	if lo < old.Lo() {
		lo = math.MinInt64
	}
	if hi > old.Hi() {
		hi = math.MaxInt64
	}
	return types.Range(lo, hi)
}

// Annotate is the rewrite proper of a checked solution: each node's type
// becomes the join of its type and its claimed value (both hold every
// value the node can take). Nothing else changes (CheckSCCPRewrite). If
// s is Analyze's solution of g, g must not have changed since: Annotate
// then visits the live nodes Analyze found, without walking g again.
func Annotate(g *son.Graph, s *Solution) {
	if s.graph == g && s.live != nil {
		for i, n := range s.live {
			// Most claims are the type itself (the peepholes typed the
			// node alike), whose join with it is the type; most of them
			// by the same slot.
			if s.t.IsTypeOf(i, n) {
				continue
			}
			if t, v := n.Type(), s.t.At(i); !v.Same(&t) && !equalKinds(&v, &t) {
				g.SetType(n, join(t, v))
			}
		}
		return
	}
	for _, n := range g.Live() {
		g.SetType(n, types.Join(n.Type(), s.Value(n)))
	}
}

// join is types.Join(t, v) for Annotate, without the call where the
// claim v is the join, as it is for all but 30 of the 3,138 nodes whose
// type changes at 10k nodes: v Top (data not reached), unreachable
// control, an integer within t (its range inside t's, t's known bits
// among its own: Join's arguments to reduce are then v's own words, of
// which v, made by reduce, is the fixpoint), and a tuple of control
// values each at or above t's.
func join(t, v types.Type) types.Type {
	switch {
	case v.IsTop():
		return types.Top
	case v.IsXCtrl() && (t.IsCtrl() || t.IsXCtrl()):
		return types.XCtrl
	case v.IsInt() && t.IsInt():
		if v.Lo() >= t.Lo() && v.Hi() <= t.Hi() && t.Zeros()&^v.Zeros() == 0 && t.Ones()&^v.Ones() == 0 {
			return v
		}
	case v.IsTuple() && t.IsTuple() && v.Len() == t.Len():
		above, same := true, true
		for i := range v.Len() {
			e, f := v.Elem(i), t.Elem(i)
			above = above && (e.IsXCtrl() && (f.IsCtrl() || f.IsXCtrl()) || e.IsCtrl() && f.IsCtrl())
			same = same && e.Same(&f)
		}
		switch {
		case above && same: // elementwise gives t when each join is t's
			return t
		case above:
			return v
		}
	}
	return types.Join(t, v)
}

// SCCP runs the analysis of mode and applies it, each solution checked
// against a record of the graph taken before its analysis (CheckSCCP),
// the rewrite against that record (CheckSCCPRewrite) and the graph the
// peepholes then leave against the claims (CheckSCCPApplied). For
// Iterated it alternates the two halves until the graph stops changing.
// It returns the last solution. The pipeline runs the same rounds with its
// own records.
func SCCP(g *son.Graph, mode Mode, trace io.Writer) (*Solution, error) {
	var last *Solution
	err := Rounds(g, mode, trace, func(m Mode, round int) error {
		in := g.Clone()
		s, err := Analyze(g, m, trace)
		if err == nil {
			err = CheckSCCP(in, m, s)
		}
		if err == nil {
			Annotate(g, s)
			err = CheckSCCPRewrite(in, m, s, g)
		}
		if err == nil {
			g.PushAll()
			err = g.Iterate()
		}
		if err == nil {
			err = CheckSCCPApplied(in, m, s, g)
		}
		last = s
		return InRound(round, err)
	})
	return last, err
}

// Rounds runs the analyses that mode asks for through step, which
// analyzes g with one mode (never Iterated) and applies its solution:
// once for a single mode (round 0); for Iterated, ConstOnly then
// ReachOnly, round after round (from 1), until a round leaves the graph as
// it was. It stops at the first error of step.
func Rounds(g *son.Graph, mode Mode, trace io.Writer, step func(m Mode, round int) error) error {
	if mode != Iterated {
		return step(mode, 0)
	}
	for round := 0; round < maxRounds; round++ {
		before := shape(g)
		for _, m := range []Mode{ConstOnly, ReachOnly} {
			if trace != nil {
				fmt.Fprintf(trace, "-- round %d: %v --\n", round+1, m)
			}
			if err := step(m, round+1); err != nil {
				return err
			}
		}
		if shape(g) == before {
			return nil
		}
	}
	return nil
}

// InRound says which round of the iterated analysis err comes from, if
// any (round > 0).
func InRound(round int, err error) error {
	if err == nil || round == 0 {
		return err
	}
	return fmt.Errorf("round %d of the iterated analysis: %w", round, err)
}

// maxRounds bounds the rounds of Iterated: each round that changes the
// graph makes it smaller, so few are ever needed.
const maxRounds = 100

// shape summarizes a graph, to see whether a rewrite changed it.
func shape(g *son.Graph) string {
	live := g.Live()
	sum := 0
	for _, n := range live {
		sum = sum*31 + n.ID
	}
	return fmt.Sprint(len(live), sum)
}
