package son

import (
	"fmt"

	"son/syntax"
)

// The graph's interpreter (the reference semantics of Simple is ref.Run):
// the semantics of Demange et al. (paper 000, section 2.2) generalized to
// this graph. Execution moves along control nodes from Start; data nodes
// are evaluated on demand, as expressions over the current values of the
// Phis (the environment). Arriving at a Region from its k-th input assigns
// all its Phis at once from their k-th inputs, each computed in the
// environment before the step. A ZeroCheck whose divisor is 0 ends the run
// with a runtime error; a Return ends it with its value; Never always takes
// its true side.
//
// A step is one operation performed: each move of control from one node to
// the next, and each evaluation of a data node (a value reused from the
// memo, within one environment, is not evaluated again and does not
// count). So a loop whose body computes a long expression takes a step per
// node of it, and the limit bounds the time of a run whatever its shape.
// cfg.Run counts its operations alike: a Phi assigned, an instruction or a
// terminator executed.

// DefaultSteps is the step budget when Limits.Steps is 0.
const DefaultSteps = 100_000_000

// Limits bounds a run.
type Limits struct {
	Steps int64 // steps (control moves and data evaluations) before "step limit exceeded"; 0 means DefaultSteps
}

// RuntimeError is a failure of the program, not of the compiler.
type RuntimeError struct {
	Pos syntax.Pos // where known: the division for a division by zero
	Msg string     // "division by zero", "step limit exceeded"
}

func (e *RuntimeError) Error() string { return "runtime error: " + e.Msg }

// Run executes g with the argument arg.
func Run(g *Graph, arg int64, lim Limits) (int64, error) {
	return newInterp(g, arg, lim).run()
}

func newInterp(g *Graph, arg int64, lim Limits) *interp {
	it := &interp{g: g, arg: arg, epoch: 1, limit: lim.Steps,
		memoAt:  make([]uint32, g.MaxID()),
		memoVal: make([]int64, g.MaxID()),
		succ:    make([]*Node, g.MaxID()),
		phiAt:   make([]int32, g.MaxID()),
	}
	if it.limit <= 0 {
		it.limit = DefaultSteps
	}
	return it
}

// run executes the graph from Start.
func (it *interp) run() (int64, error) {
	g := it.g
	c := g.Start.Proj(0)
	if c == nil {
		return 0, fmt.Errorf("son.Run: Start has no control projection")
	}
	for {
		if err := it.step(); err != nil {
			return 0, err
		}
		it.at = c
		s := it.succ[c.ID]
		if s == nil {
			var err error
			if s, err = ctrlSucc(c); err != nil {
				return 0, err
			}
			it.succ[c.ID] = s
		}
		switch s.Op {
		case OpRegion, OpLoop:
			if err := it.enter(s, c); err != nil {
				return 0, err
			}
			c = s
		case OpIf:
			v, err := it.eval(s.In[1])
			if err != nil {
				return 0, err
			}
			idx := int64(1)
			if v != 0 {
				idx = 0
			}
			if c = s.Proj(idx); c == nil {
				return 0, fmt.Errorf("son.Run: %v has no projection %d", s, idx)
			}
		case OpNever:
			if c = s.Proj(0); c == nil {
				return 0, fmt.Errorf("son.Run: %v has no projection 0", s)
			}
		case OpZeroCheck:
			v, err := it.eval(s.In[1])
			if err != nil {
				return 0, err
			}
			if v == 0 {
				return 0, &RuntimeError{Pos: s.Pos, Msg: "division by zero"}
			}
			c = s
		case OpReturn:
			return it.eval(s.In[1])
		default:
			return 0, fmt.Errorf("son.Run: control reaches %v", s)
		}
	}
}

// ctrlSucc is the control node that control leaving c goes to.
func ctrlSucc(c *Node) (*Node, error) {
	var s *Node
	for _, u := range c.Out {
		if !u.IsControl() || u.Op == OpStop {
			continue
		}
		if s != nil && s != u {
			return nil, fmt.Errorf("son.Run: %v has two control successors, %v and %v", c, s, u)
		}
		s = u
	}
	if s == nil {
		return nil, fmt.Errorf("son.Run: %v has no control successor", c)
	}
	return s, nil
}

type interp struct {
	g     *Graph
	arg   int64
	steps int64     // steps taken
	limit int64     // steps allowed
	at    *Node     // the control node control last passed: where data is evaluated
	ct    *ctrlTree // dominators of the control nodes, made when a pinned node is first evaluated
	// The values computed since the environment last changed, by ID: the
	// value of node n is memoVal[n.ID] if memoAt[n.ID] is epoch, which is
	// bumped at every change of the environment (two arrays, 12 bytes an
	// ID, not 16 in an array of pairs).
	memoAt  []uint32
	memoVal []int64
	epoch   uint32
	succ    []*Node // control successor of each control node, once found (as IDs, 4 bytes less an ID, run took 14% more instructions)
	// The Phis of each region, once found: those of region r are
	// phiList[phiAt[r.ID]-1:] up to the next nil. For a Phi so listed,
	// phiAt[phi.ID] is p+1 once it has a value, -(p+1) before, where p is
	// its place in phiList, and phiVal[p] its current value: the
	// environment. The one index by ID serves regions and Phis: no value
	// and flag by ID (9 bytes); with the memo's two arrays, a run takes
	// 24 bytes an ID, not 37 (each test run of son check, on graphs of
	// 400,000 IDs at 1 MB of source).
	phiAt   []int32
	phiList []*Node
	phiVal  []int64
	vals    []int64 // the new values of a region's Phis, computed before any is assigned
}

// phiValue is the current value of Phi n in the environment, and whether
// it has one: whether control entered its region.
func (it *interp) phiValue(n *Node) (int64, bool) {
	if at := it.phiAt[n.ID]; at > 0 {
		return it.phiVal[at-1], true
	}
	return 0, false
}

// newEpoch changes the environment: every memoized value is stale. When
// the epochs run out, the memo is cleared and they start again.
func (it *interp) newEpoch() {
	if it.epoch == ^uint32(0) {
		clear(it.memoAt)
		it.epoch = 0
	}
	it.epoch++
}

// step counts one operation, or fails if the budget is spent.
func (it *interp) step() error {
	if it.steps >= it.limit {
		return &RuntimeError{Msg: fmt.Sprintf("step limit exceeded (%d steps)", it.limit)}
	}
	it.steps++
	return nil
}

// pinned checks that control has passed the control input of the pinned
// node n (a division's ZeroCheck) before n is evaluated: that it dominates
// where control is. Evaluating a division above its check is a bug of son,
// whatever the divisor's value, so it is an internal error.
func (it *interp) pinned(n *Node) error {
	if it.ct == nil {
		it.ct = newCtrlDoms(it.g, 0, 0)
	}
	if c := n.In[0]; !it.ct.dominates(c, it.at) {
		return fmt.Errorf("son.Run: %v evaluated at %v, where control has not surely passed %v", n, it.at, c)
	}
	return nil
}

// enter moves control from pred into region r: the PHIS rule.
func (it *interp) enter(r, pred *Node) error {
	k := -1
	for i, x := range r.In {
		if i > 0 && x == pred {
			k = i
			break
		}
	}
	if k < 0 {
		return fmt.Errorf("son.Run: %v is not an input of %v", pred, r)
	}
	phis := it.phisOf(r)
	if cap(it.vals) < len(phis) {
		it.vals = make([]int64, len(phis))
	}
	vals := it.vals[:len(phis)] // eval never enters a region, so this is free
	for i, phi := range phis {
		if k >= len(phi.In) {
			return fmt.Errorf("son.Run: %v has no value for input %d of %v", phi, k, r)
		}
		v, err := it.eval(phi.In[k])
		if err != nil {
			return err
		}
		vals[i] = v
	}
	it.newEpoch()
	at := it.phiAt[r.ID]
	for i, phi := range phis {
		it.phiVal[int(at)-1+i] = vals[i]
		it.phiAt[phi.ID] = at + int32(i)
	}
	return nil
}

// phisOf returns the Phis of region r, found once.
func (it *interp) phisOf(r *Node) []*Node {
	at := it.phiAt[r.ID]
	if at == 0 {
		at = int32(len(it.phiList)) + 1
		it.phiList = append(append(it.phiList, r.Phis()...), nil)
		it.phiAt[r.ID] = at
		for i, phi := range it.phiList[at-1 : len(it.phiList)-1] {
			it.phiAt[phi.ID] = -(at + int32(i)) // no value yet
		}
		it.phiVal = append(it.phiVal, make([]int64, len(it.phiList)-len(it.phiVal))...)
	}
	phis := it.phiList[at-1:]
	for k, phi := range phis {
		if phi == nil {
			return phis[:k:k]
		}
	}
	return phis
}

// eval computes the value of data node n in the current environment.
func (it *interp) eval(n *Node) (int64, error) {
	if n == nil || n.dead {
		return 0, fmt.Errorf("son.Run: evaluated a missing or killed node %v", n)
	}
	if it.memoAt[n.ID] == it.epoch {
		return it.memoVal[n.ID], nil
	}
	if err := it.step(); err != nil {
		return 0, err
	}
	if k := n.Op.NumIn(); k >= 0 && len(n.In) != k {
		return 0, fmt.Errorf("son.Run: %v has %d inputs, %v takes %d", n, len(n.In), n.Op, k)
	}
	var v int64
	switch {
	case n.Op == OpConstant:
		if n.Type().IsTop() {
			return 0, fmt.Errorf("son.Run: evaluated %v, a value that is never used", n)
		}
		v = n.Aux
	case n.Op == OpProj:
		v = it.arg
	case n.Op == OpPhi:
		var ok bool
		if v, ok = it.phiValue(n); !ok {
			return 0, fmt.Errorf("son.Run: %v used before control reached its region", n)
		}
	case n.Op.IsUnary():
		x, err := it.eval(n.In[1])
		if err != nil {
			return 0, err
		}
		v = EvalUnary(n.Op, x)
	case n.Op.IsBinary():
		if n.In[0] != nil {
			if err := it.pinned(n); err != nil {
				return 0, err
			}
		}
		x, err := it.eval(n.In[1])
		if err != nil {
			return 0, err
		}
		y, err := it.eval(n.In[2])
		if err != nil {
			return 0, err
		}
		if (n.Op == OpDiv || n.Op == OpMod) && y == 0 {
			return 0, fmt.Errorf("son.Run: %v divides by zero without a ZeroCheck", n)
		}
		v = EvalBinary(n.Op, x, y)
	case n.Op == OpRefine:
		var err error
		if v, err = it.refine(n); err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("son.Run: cannot evaluate %v as data", n)
	}
	it.memoAt[n.ID], it.memoVal[n.ID] = it.epoch, v
	return v, nil
}

// refine evaluates Refine n, which control must have passed the branch
// of, to its value, checking that the facts its type rests on hold: a
// fact that does not is a bug of son, an internal error.
func (it *interp) refine(n *Node) (int64, error) {
	if err := it.pinned(n); err != nil {
		return 0, err
	}
	x, err := it.eval(n.In[1])
	if err != nil {
		return 0, err
	}
	if n.Type().IsInt() && !n.Type().Contains(x) {
		// The type is what the peepholes fold by: a value outside it is
		// a fact narrowed wrongly.
		return 0, fmt.Errorf("son.Run: %v is %d, outside its type %v", n, x, n.Type())
	}
	p := n.In[0]
	if p.Op != OpCProj || p.In[0] == nil || p.In[0].Op != OpIf {
		return x, nil
	}
	var bad error
	branchFacts(p.In[0].In[1], p.Aux, n.In[1], func(r rel, y *Node) {
		yv := int64(0)
		if y != nil {
			if y != n.In[2] && !y.IsConst() {
				return
			}
			var err error
			if yv, err = it.eval(y); err != nil {
				bad = err
				return
			}
		}
		if bad == nil && !r.holds(x, yv) {
			bad = fmt.Errorf("son.Run: %v is %d, which the branch %v it is pinned below does not allow (against %d)", n, x, p, yv)
		}
	})
	return x, bad
}
