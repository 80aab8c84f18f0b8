package son

import "fmt"

// Strictness (paper 000, section 2.1 and Definition 3.5): a data node x
// dominates a control point when the regions of all the Phis in phideps(x)
// (the Phis reached from x through non-Phi data edges, x itself if it is
// one) dominate it. A use must be dominated by what it uses, or the run
// may read a Phi whose region control has not reached. Pinned divisions
// add the same requirement for their control input: control must have
// passed a division's ZeroCheck wherever the division may be evaluated.
//
// Uses are at control points: the control input of the If, Return or
// ZeroCheck that reads the value (control has passed that node and is
// about to run the reader), and, for the k-th value of a Phi, the k-th
// predecessor of its region (the value is computed as control leaves it).
//
// The requirements of a well-formed x all dominate the points where x is
// used, so they lie on one path of the dominator tree: only the deepest
// matters. It is memoized per node, in one walk of the data edges, so the
// check is linear after the dominator tree (O(m log n)). When two
// requirements of x do not dominate one another, no point can use x:
// that is reported at x, and its users are not checked again.

// Walk states of strict, by node ID.
const (
	strictNew uint8 = iota
	strictOnStack
	strictDone
	strictBroken // done, and a conflict was found at or below it
)

func (v *verifier) strict() {
	n := v.g.MaxID()
	v.phiDep = make([]int32, n)
	v.pinDep = make([]int32, n)
	for _, x := range v.live {
		if isData(x) && v.state[x.ID] == strictNew {
			v.deps(x)
		}
	}
	for _, u := range v.live {
		switch u.Op {
		case OpIf, OpReturn, OpZeroCheck:
			if len(u.In) >= 2 && isCtrl(u.In[0]) && isData(u.In[1]) {
				v.use(u, -1, u.In[1], u.In[0])
			}
		case OpPhi:
			r := u.Ctrl()
			if r == nil || !r.Op.IsRegion() {
				continue // reported by shape
			}
			for k := 1; k < len(u.In) && k < len(r.In); k++ {
				if isData(u.In[k]) && isCtrl(r.In[k]) {
					v.use(u, k, u.In[k], r.In[k])
				}
			}
		}
	}
}

// deps settles root and every data node below it through non-Phi edges,
// children first, without recursion. Nodes on a data cycle without a Phi
// (reported by data-acyclic) are cut where the cycle closes.
func (v *verifier) deps(root *Node) {
	stack := append(v.g.takeFrames(), walkFrame{root, 1})
	v.state[root.ID] = strictOnStack
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		x := f.n
		if x.Op != OpPhi && f.i < len(x.In) {
			y := x.In[f.i]
			f.i++
			v.work++
			if isData(y) && !y.dead && y.ID < len(v.state) && v.state[y.ID] == strictNew {
				v.state[y.ID] = strictOnStack
				stack = append(stack, walkFrame{y, 1})
			}
			continue
		}
		stack = popFrame(stack)
		v.settle(x)
	}
	v.g.giveFrames(stack)
}

// settle computes the deepest Phi and pinned node that x depends on, from
// those of its inputs, which are settled.
func (v *verifier) settle(x *Node) {
	v.work++
	v.state[x.ID] = strictDone
	if x.Op == OpPhi {
		if r := x.Ctrl(); r != nil && r.Op.IsRegion() && v.ct.reached(r) {
			v.phiDep[x.ID] = int32(x.ID)
		}
		return
	}
	var phi, pin *Node
	if c := x.Ctrl(); c != nil && c.IsControl() && c != v.g.Start && v.ct.reached(c) {
		pin = x
	}
	broken := false
	for i := 1; i < len(x.In); i++ {
		y := x.In[i]
		if !isData(y) || y.dead || y.ID >= len(v.state) {
			continue
		}
		switch v.state[y.ID] {
		case strictBroken:
			broken = true
		case strictDone:
		default:
			continue // on a cycle
		}
		var ok bool
		yPhi, yPin := v.dep(v.phiDep, y), v.dep(v.pinDep, y)
		if phi, ok = v.deeper(phi, yPhi); !ok && !broken {
			v.bad(x, "strict", "depends on %v of %v and on %v of %v, and neither region dominates the other: no point can use it",
				phi, phi.In[0], yPhi, yPhi.In[0])
			broken = true
		}
		if pin, ok = v.deeper(pin, yPin); !ok && !broken {
			v.bad(x, "zerocheck-dom", "depends on %v under %v and on %v under %v, and neither dominates the other: no point can use it",
				pin, pin.In[0], yPin, yPin.In[0])
			broken = true
		}
	}
	v.phiDep[x.ID], v.pinDep[x.ID] = depID(phi), depID(pin)
	if broken {
		v.state[x.ID] = strictBroken
	}
}

// deeper returns whichever of a and b has its control input (a Phi's
// region, a pinned node's control) dominated by the other's; ok is false
// when neither dominates the other, and a is returned.
func (v *verifier) deeper(a, b *Node) (_ *Node, ok bool) {
	switch {
	case b == nil || a == b:
		return a, true
	case a == nil:
		return b, true
	case v.ct.dominates(a.In[0], b.In[0]):
		return b, true
	case v.ct.dominates(b.In[0], a.In[0]):
		return a, true
	}
	return a, false
}

// use checks that the value x, used by u at control point c, is defined
// there: the region of its deepest Phi and the control of its deepest
// pinned node dominate c. k is the Phi value's index, or -1 for the data
// input of an If, Return or ZeroCheck.
func (v *verifier) use(u *Node, k int, x, c *Node) {
	// what and where the use is, for a message: made only on a failure,
	// as the verifier checks every use of every graph.
	where := func() (what, at string) {
		if k >= 0 {
			return fmt.Sprintf("has as value %d", k), fmt.Sprintf("at the end of predecessor %d, %v", k, c)
		}
		return "uses", "at " + c.String()
	}
	v.work++
	if x.dead || x.ID >= len(v.state) || v.state[x.ID] == strictBroken || !v.ct.reached(c) {
		return // reported elsewhere
	}
	if p := v.dep(v.phiDep, x); p != nil && !v.ct.dominates(p.In[0], c) {
		what, at := where()
		if p == x {
			v.bad(u, "strict", "%s %v of %v, which does not dominate its use %s", what, x, p.In[0], at)
		} else {
			v.bad(u, "strict", "%s %v, which depends on %v of %v, which does not dominate its use %s", what, x, p, p.In[0], at)
		}
	}
	if p := v.dep(v.pinDep, x); p != nil && !v.ct.dominates(p.In[0], c) {
		what, at := where()
		if p == x {
			v.bad(u, "zerocheck-dom", "%s %v, pinned under %v, which does not dominate its use %s", what, x, p.In[0], at)
		} else {
			v.bad(u, "zerocheck-dom", "%s %v, which depends on %v pinned under %v, which does not dominate its use %s", what, x, p, p.In[0], at)
		}
	}
}

// dep is the node that deps (phiDep or pinDep) records for x, settled:
// nil for none. They hold node IDs, 0 for none, not pointers: 4 bytes an
// ID each rather than 8, on every graph the verifier checks. The node is
// found in the graph's node table; a live node the table does not hold
// at its ID is a problem of its own, reported at x.
func (v *verifier) dep(deps []int32, x *Node) *Node {
	id := deps[x.ID]
	if id == 0 {
		return nil
	}
	if n := v.g.nodes.at(int(id)); n != nil && n.ID == int(id) {
		return n
	}
	v.bad(x, "strict", "depends on node %d, which the node table does not hold", id)
	return nil
}

// depID is what phiDep or pinDep records for n: its ID, 0 for none.
func depID(n *Node) int32 {
	if n == nil {
		return 0
	}
	return int32(n.ID)
}
