package opt

import (
	"fmt"
	"strings"

	"son/son"
	"son/types"
)

// CheckSCCP verifies a claimed solution of mode's analysis (not Iterated,
// whose rounds are each one of its halves) without the solver: in is the
// graph as it was before the analysis (the pipeline checks s on the graph
// itself, before the rewrite changes it), s the solution, an untrusted
// claim. It checks that s is a post-fixpoint of mode's own equations on
// in, so that every claim holds on every run, and, in the modes that
// analyze reachability, that no control node is claimed reachable
// without a reason.
//
// It trusts in to be well formed (son.Verify passed on it) and the
// transfer functions of son.Compute, which the solver uses too, for the
// fixpoint rule; the type-sound rule checks each data claim apart from
// them (son.CheckTransfer: the op's own semantics on sample points of its
// inputs' claims), so a wrong fold there is seen where a sample shows it;
// the samples that passed are remembered (son.SoundMemo: the same
// verdicts, and a node like one already checked is not sampled again).
// The equations of each mode are
// written out here again, apart from the solver's:
//
//   - combined: every node's equation is son.Compute of its inputs'
//     claims (paper 001, tables IV to VI);
//   - const: a data node's is son.Compute; every control node is
//     reachable (an If's two sides, Start as son.Compute gives it), but
//     XCtrl, which never is;
//   - reach: a data node is any integer, but a Constant, which is its
//     value; a control node's equation is son.Compute, so that a branch
//     folds only on a literal constant.
//
// The rules:
//
//   - start: Start is reachable;
//   - fixpoint: each node's claim holds every value its equation gives
//     from its inputs' claims (the equation's value is at or above the
//     claim in the lattice);
//   - type-sound: each data claim holds what the op, by its own
//     semantics, computes on sample points of its inputs' claims;
//   - reason (combined and reach): each control node claimed reachable has
//     a reachable way in, by the rules of paper 001 (tables IV and VI): a
//     region through a reachable predecessor (a loop through its entry), a
//     side of an If only when the If is reachable and its condition's
//     claim allows that side, other control through its control input.
//
// Every problem names the node and the rule, and the error the mode.
//
// When in is the very graph s was solved on (the pipeline with checking
// off, which records no copy), the nodes visited are the live nodes
// Analyze found on it, which nothing has changed since, rather than a
// second walk; on a clone, or through SCCPRecord.Check (the pipeline with
// checking on), the checker walks the graph itself.
func CheckSCCP(in *son.Graph, mode Mode, s *Solution) error {
	return checkSCCP(in, mode, s, true)
}

// checkSCCP is CheckSCCP; mayShare lets it visit the live nodes of s when
// in is the graph s was solved on, rather than walk in itself.
func checkSCCP(in *son.Graph, mode Mode, s *Solution, mayShare bool) error {
	if in == nil || s == nil || mode < Combined || mode >= Iterated {
		return fmt.Errorf("the solution of the %v analysis cannot be checked: no graph, no solution, or not a single analysis", modeName(mode))
	}
	var probs []string
	bad := func(n *son.Node, rule, format string, args ...any) {
		probs = append(probs, nodeName(in, n)+": "+rule+": "+fmt.Sprintf(format, args...))
	}
	if !reachableSide(s.Value(in.Start), 0) {
		bad(in.Start, "start", "Start must be reachable, claimed %v", s.Value(in.Start))
	}
	val := s.typing()
	if mayShare && s.graph == in && s.live != nil { // s.live[i] is numbered i in s
		sound := son.NewSoundMemo(len(s.live))
		for i, n := range s.live {
			checkNode(n, s.t.At(i), mode, s, val, sound, bad) // s.Value(n), without looking n.ID up
		}
	} else {
		// By ID: no list of in's nodes beside the record at the pass's
		// peak (the order of the messages is the IDs').
		live := in.LiveIDs()
		sound := son.NewSoundMemo(count(live))
		for id, ok := range live {
			if n := in.Node(id); ok && n != nil {
				checkNode(n, s.Value(n), mode, s, val, sound, bad)
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("the solution of the %v analysis does not hold:\n\t%s", mode, strings.Join(probs, "\n\t"))
}

// checkNode checks the rules fixpoint, type-sound and reason at node n,
// whose claim is claim.
func checkNode(n *son.Node, claim types.Type, mode Mode, s *Solution, val *son.Typing, sound *son.SoundMemo, bad func(*son.Node, string, string, ...any)) {
	// An equation that gives the claim itself (every node but the
	// widened ones) holds; the meet of IsA is for the others.
	var eq types.Type
	if mode == Combined { // equation's own case, without its call
		eq = son.Compute(n, val)
	} else {
		eq = equation(n, mode, val)
	}
	if !eq.Same(&claim) && !equalKinds(&eq, &claim) && !eq.IsA(claim) {
		bad(n, "fixpoint", "claimed %v, but its inputs' claims give %v, which is not within it", claim, eq)
	} else if msg := sound.CheckTransfer(n, claim, val); msg != "" {
		bad(n, "type-sound", "%s", msg) // a wrong transfer function, which equation shares
	}
	if mode != ConstOnly && n.IsControl() { // checkReason's first test, without the call for data
		checkReason(n, claim, s, bad)
	}
}

// count is how many of set are true.
func count(set []bool) int {
	k := 0
	for _, ok := range set {
		if ok {
			k++
		}
	}
	return k
}

// modeName names a mode for messages, even one out of range.
func modeName(m Mode) string {
	if m >= Combined && int(m) < len(modeNames) {
		return m.String()
	}
	return fmt.Sprintf("mode %d", int(m))
}

// equation is n's equation in mode, written apart from the solver's
// transfer.
func equation(n *son.Node, mode Mode, val *son.Typing) types.Type {
	switch {
	case mode == ConstOnly && n.IsControl():
		switch n.Op {
		case son.OpStart:
			return son.Compute(n, val)
		case son.OpXCtrl:
			return types.XCtrl
		case son.OpIf, son.OpNever:
			return types.Tuple(types.Ctrl, types.Ctrl)
		}
		return types.Ctrl
	case mode == ReachOnly && !n.IsControl() && n.Op != son.OpConstant:
		return types.Int
	}
	return son.Compute(n, val)
}

// reachableSide reports whether control value t (a tuple for multi-output
// nodes) claims side i reachable.
func reachableSide(t types.Type, i int) bool {
	if t.IsTuple() {
		return i < t.Len() && t.Elem(i).IsCtrl()
	}
	return t.IsCtrl()
}

// checkReason checks that a control node claimed reachable (claim, its
// value in s) has a way in.
func checkReason(n *son.Node, claim types.Type, s *Solution, bad func(*son.Node, string, string, ...any)) {
	if !n.IsControl() || n.Op == son.OpStart || n.Op == son.OpStop {
		return
	}
	reach := func(x *son.Node) bool { return x != nil && reachableSide(s.Value(x), 0) }
	switch n.Op {
	case son.OpRegion:
		if claim.IsCtrl() {
			for _, p := range n.In[1:] {
				if p != nil && reach(p) {
					return
				}
			}
			bad(n, "reason", "claimed reachable, but no predecessor is")
		}
	case son.OpLoop:
		if claim.IsCtrl() && !reach(n.In[1]) {
			bad(n, "reason", "claimed reachable, but its entry is not")
		}
	case son.OpIf, son.OpNever:
		for side := 0; side < 2; side++ {
			if reachableSide(claim, side) && !sideAllowed(n, side, s) {
				bad(n, "reason", "claims side %d reachable without a reason", side)
			}
		}
	case son.OpCProj:
		p := n.In[0]
		if claim.IsCtrl() && p.Op != son.OpStart && !(reachableSide(s.Value(p), int(n.Aux)) && sideAllowed(p, int(n.Aux), s)) {
			bad(n, "reason", "claimed reachable, but %s does not take this side", nodeName(s.graph, p))
		}
	default: // Return, ZeroCheck
		if claim.IsCtrl() && !reach(n.In[0]) {
			bad(n, "reason", "claimed reachable, but its control input %s is not", nodeName(s.graph, n.In[0]))
		}
	}
}

// runsByClaims marks, by node ID, the control nodes of in that run by the
// claims of s once its values are known: Start; a side of an If only if
// the If runs, the claims call the side reachable, and the condition's
// value (its type joined with its claim) allows it; a region if an input
// runs (a loop if its entry does); other control if its control input
// runs. One walk forward from Start.
func runsByClaims(in *son.Graph, s *Solution) []bool {
	runs := make([]bool, in.MaxID())
	runs[in.Start.ID] = true
	work := []*son.Node{in.Start}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range n.Out {
			if u == nil || !u.IsControl() || runs[u.ID] {
				continue
			}
			ok := reachableSide(s.Value(u), 0) || u.Op == son.OpIf || u.Op == son.OpNever
			switch u.Op {
			case son.OpCProj:
				ok = ok && (n.Op != son.OpIf || sideTaken(types.Join(n.In[1].Type(), s.Value(n.In[1])), int(u.Aux)))
			case son.OpLoop:
				ok = ok && u.In[1] == n
			case son.OpRegion, son.OpStop:
			default:
				ok = ok && u.In[0] == n
			}
			if ok {
				runs[u.ID] = true
				work = append(work, u)
			}
		}
	}
	return runs
}

// sideTaken reports whether a condition of value c lets side 0 (true) or
// 1 (false) of an If be taken.
func sideTaken(c types.Type, side int) bool {
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
	return sideTaken(s.Value(n.In[1]), side)
}

// CheckSCCPRewrite verifies the rewrite of a solution that CheckSCCP
// accepted (Annotate): in is the graph recorded before the analysis, s
// its solution in mode, out the graph after the rewrite, before any
// peephole. Nodes are matched by ID (IDs are never reused). It trusts what
// CheckSCCP trusts, and that s passed it. The rule, "rewrite": out holds
// exactly the live nodes of in, each with its op, constant and inputs, and
// with the type that its input type and its claim both allow (their
// join); so every change is one the verified claims justify.
//
// The peepholes that run next (folding what became constant, taking the
// live side of a branch, removing dead code) are the peephole pass's,
// which no checker re-derives from the claims: son.Verify checks their
// result (well-formedness, each type sound for its inputs), and
// CheckSCCPApplied that they used the claims. It is SCCPRecord.CheckRewrite
// on a record of in, which the pipeline takes instead of a clone.
func CheckSCCPRewrite(in *son.Graph, mode Mode, s *Solution, out *son.Graph) error {
	if in == nil || s == nil || out == nil {
		return fmt.Errorf("the rewrite of the %v analysis cannot be checked: no graph or no solution", modeName(mode))
	}
	return RecordSCCP(in).CheckRewrite(mode, s, out)
}

// CheckSCCPApplied checks that the graph out, which the peepholes left
// after the rewrite of s, used the claims: no control node that the
// claims call unreachable, and no If one of whose sides the claims call
// dead or its condition's value (type joined with claim) excludes, is
// left (rule "dead"). in is the graph recorded before the analysis; nodes
// are matched by ID. A failure is not a wrong program but a lost
// optimization. It is SCCPRecord.CheckApplied on a record of in.
func CheckSCCPApplied(in *son.Graph, mode Mode, s *Solution, out *son.Graph) error {
	if in == nil || s == nil || out == nil {
		return fmt.Errorf("the result of the %v analysis cannot be checked: no graph or no solution", modeName(mode))
	}
	r := RecordSCCP(in)
	r.noteRuns(in, s)
	return r.CheckApplied(mode, s, out)
}
