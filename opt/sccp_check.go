package opt

import (
	"errors"
	"fmt"
	"strings"

	"son/son"
	"son/types"
)

// CheckSCCP verifies a claimed solution without the solver: that it is a
// post-fixpoint of the combined equations, so that every claim holds on
// every run, and that no control node is claimed reachable without a
// reason.
//
//   - Start is reachable.
//   - Each node's claim holds every value its equation gives from its
//     inputs' claims: son.Compute of the claims is at or above the claim
//     in the lattice.
//   - Each control node claimed reachable has a reachable way in, by the
//     rules of paper 001 (tables IV and VI) written out here again: a
//     region through a reachable predecessor (a loop through its entry), a
//     side of an If only when the If is reachable and its condition's
//     claim allows that side, other control through its control input.
//
// Every problem names the node.
func CheckSCCP(g *son.Graph, s *Solution) error {
	var probs []string
	bad := func(n *son.Node, format string, args ...any) {
		probs = append(probs, nodeName(n)+": "+fmt.Sprintf(format, args...))
	}
	if !reachableSide(s.Value(g.Start), 0) {
		bad(g.Start, "Start must be reachable, claimed %v", s.Value(g.Start))
	}
	for _, n := range g.Live() {
		claim := s.Value(n)
		if eq := son.Compute(n, s.Value); !eq.IsA(claim) {
			bad(n, "claimed %v, but its inputs' claims give %v, which is not within it", claim, eq)
		}
		checkReason(n, s, bad)
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New("the solution of the combined analysis does not hold:\n\t" + strings.Join(probs, "\n\t"))
}

// reachableSide reports whether control value t (a tuple for multi-output
// nodes) claims side i reachable.
func reachableSide(t types.Type, i int) bool {
	if t.IsTuple() {
		return i < t.Len() && t.Elem(i).IsCtrl()
	}
	return t.IsCtrl()
}

// checkReason checks that a control node claimed reachable has a way in.
func checkReason(n *son.Node, s *Solution, bad func(*son.Node, string, ...any)) {
	if !n.IsControl() || n.Op == son.OpStart || n.Op == son.OpStop {
		return
	}
	claim := s.Value(n)
	reach := func(x *son.Node) bool { return x != nil && reachableSide(s.Value(x), 0) }
	switch n.Op {
	case son.OpRegion:
		if claim.IsCtrl() {
			for _, p := range n.In[1:] {
				if p != nil && reach(p) {
					return
				}
			}
			bad(n, "claimed reachable, but no predecessor is")
		}
	case son.OpLoop:
		if claim.IsCtrl() && !reach(n.In[1]) {
			bad(n, "claimed reachable, but its entry is not")
		}
	case son.OpIf, son.OpNever:
		for side := 0; side < 2; side++ {
			if reachableSide(claim, side) && !sideAllowed(n, side, s) {
				bad(n, "claims side %d reachable without a reason", side)
			}
		}
	case son.OpCProj:
		p := n.In[0]
		if claim.IsCtrl() && p.Op != son.OpStart && !(reachableSide(s.Value(p), int(n.Aux)) && sideAllowed(p, int(n.Aux), s)) {
			bad(n, "claimed reachable, but %s does not take this side", nodeName(p))
		}
	default: // Return, ZeroCheck
		if claim.IsCtrl() && !reach(n.In[0]) {
			bad(n, "claimed reachable, but its control input %s is not", nodeName(n.In[0]))
		}
	}
}

// sideAllowed: side 0 (true) or 1 (false) of an If or Never may be taken
// only if the node is reached; an If's true side only when its condition
// may be non-zero, its false side only when it may be zero, and neither
// while the condition is still undefined.
func sideAllowed(n *son.Node, side int, s *Solution) bool {
	if !reachableSide(s.Value(n.In[0]), 0) {
		return false
	}
	if n.Op == son.OpNever {
		return true
	}
	c := s.Value(n.In[1])
	switch {
	case c.IsTop():
		return false
	case !c.IsInt():
		return true
	case side == 0:
		return !(c.IsConst() && c.Value() == 0)
	}
	return c.Contains(0)
}
