package son

import (
	"fmt"
	"math"

	"son/types"
)

// The type soundness rule, and the semantics it checks types against.
//
// A node's type claims that every value the node can compute lies within
// it. Verify's "type" rule checks the claim with Compute, the transfer
// functions the peepholes and SCCP use; a wrong transfer function makes a
// wrong claim that rule cannot see. This rule owes nothing to Compute or
// arith.go: the semantics of each op is written again below from
// docs/LANGUAGE.md ("Arithmetic"), and the op is evaluated on sample
// points of its inputs' types — each end of a range and the points next
// to it, its middle, 0, ±1, ±2, the ends of int, the ends of the other
// operand's range and the points on either side of them (where a
// comparison changes value), and for a shift count 31 to 33 and 63, 64 — every result must
// lie within the node's type. That is a test of each transfer function at
// the corners of its inputs, not a proof: a result wrong only between the
// sample points passes. Cost: at most maxSamples² evaluations per node,
// and none when the type is all of the op's possible results.

// maxSamples bounds the sample points of one operand's type.
const maxSamples = 24

// semBinary is the value of a binary data op on a and b, written from
// docs/LANGUAGE.md; ok is false when the op computes nothing (a division
// or remainder by 0 traps before it).
func semBinary(op Op, a, b int64) (v int64, ok bool) {
	ua, ub := uint64(a), uint64(b)
	switch op {
	case OpAdd:
		return int64(ua + ub), true
	case OpSub:
		return int64(ua - ub), true
	case OpMul:
		return int64(ua * ub), true
	case OpDiv, OpMod:
		if b == 0 {
			return 0, false
		}
		// Truncating division on magnitudes, the sign restored; the one
		// quotient that does not fit, MinInt/-1, wraps to MinInt.
		ma, mb := ua, ub
		if a < 0 {
			ma = -ua
		}
		if b < 0 {
			mb = -ub
		}
		q, r := ma/mb, ma%mb
		if op == OpMod {
			if a < 0 {
				return int64(-r), true // the remainder has the dividend's sign
			}
			return int64(r), true
		}
		if (a < 0) != (b < 0) {
			return int64(-q), true
		}
		return int64(q), true
	case OpAnd:
		return int64(ua & ub), true
	case OpOr:
		return int64(ua | ub), true
	case OpXor:
		return int64(ua ^ ub), true
	case OpShl:
		return int64(ua << (ub % 64)), true
	case OpSar:
		return a >> (ub % 64), true
	case OpShr:
		return int64(ua >> (ub % 64)), true
	case OpEq:
		return truth(a == b), true
	case OpNe:
		return truth(a != b), true
	case OpLt:
		return truth(a < b), true
	case OpLe:
		return truth(a <= b), true
	}
	return 0, false
}

// semUnary is the value of a unary data op on a.
func semUnary(op Op, a int64) int64 {
	switch op {
	case OpMinus:
		return int64(-uint64(a))
	case OpNot:
		return truth(a == 0)
	}
	return 0
}

func truth(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// intRange is the set of integers a type holds: lo..hi, or nothing (ok
// false) for Top and control. Bottom and any other non-integer value are
// every integer.
func intRange(t types.Type) (lo, hi int64, ok bool) {
	switch {
	case t.IsInt():
		return t.Lo(), t.Hi(), true
	case t.IsTop(), t.IsCtrl(), t.IsXCtrl(), t.IsTuple():
		return 0, 0, false
	}
	return math.MinInt64, math.MaxInt64, true
}

// samplePoints lists the sample points of type t (nil when t holds no
// integer), with the ends of each type in near and the points next to
// them when they fall within t, and the special counts of a shift when
// shift is set. Each point appears once. The points go in buf, which the
// caller gives (a [maxSamples]int64 on its stack: the checkers ask for
// points of every node, and a heap buffer each time was most of the
// SCCP checker's allocations); append grows it if it is shorter.
func samplePoints(buf []int64, t types.Type, shift bool, near ...types.Type) []int64 {
	lo, hi, ok := intRange(t)
	if !ok {
		return nil
	}
	pts := buf[:0]
	s := sampler{lo: lo, hi: hi}
	if t.IsInt() { // else Bottom: every integer, no known bits
		s.zeros, s.ones = t.Zeros(), t.Ones()
	}
	// The ends and their neighbours first, as the cap may cut the rest.
	pts = s.add(pts, lo)
	pts = s.add(pts, hi)
	if lo < hi {
		pts = s.add(pts, lo+1)
		pts = s.add(pts, hi-1)
	}
	pts = s.add(pts, lo+int64((uint64(hi)-uint64(lo))/2))
	for _, u := range near {
		if ulo, uhi, ok := intRange(u); ok {
			pts = s.add(pts, ulo)
			pts = s.add(pts, uhi)
			if ulo > math.MinInt64 {
				pts = s.add(pts, ulo-1)
			}
			if uhi < math.MaxInt64 {
				pts = s.add(pts, uhi+1)
			}
			if ulo < uhi {
				pts = s.add(pts, ulo+1)
				pts = s.add(pts, uhi-1)
			}
		}
	}
	for _, v := range [...]int64{0, 1, -1, 2, -2, math.MinInt64, math.MaxInt64} {
		pts = s.add(pts, v)
	}
	if shift {
		for _, v := range [...]int64{31, 32, 33, 63, 64} {
			pts = s.add(pts, v)
		}
	}
	return pts
}

// sampler gathers the sample points of a type: its range lo..hi and its
// known bits, read once (t.Contains on each point, through a closure over
// the 40-byte type, made samplePoints the checker's largest cost).
type sampler struct {
	lo, hi      int64
	zeros, ones uint64
}

// put adds v to pts if it is a value of the type, new, and the cap not
// reached. The points go in and out as a value: a slice stored through
// the pointer would make the caller's buffer escape.
func (s *sampler) put(pts []int64, v int64) []int64 {
	if v < s.lo || v > s.hi || uint64(v)&s.zeros != 0 || ^uint64(v)&s.ones != 0 || len(pts) == maxSamples {
		return pts
	}
	for _, p := range pts {
		if p == v {
			return pts
		}
	}
	return append(pts, v)
}

// add takes v, and v with the type's known bits set as they must be, so
// that a point is a value of t (in its range and with its bits); the
// second only if it differs (put would find it taken, or refuse it alike).
func (s *sampler) add(pts []int64, v int64) []int64 {
	pts = s.put(pts, v)
	if w := int64(uint64(v)&^s.zeros | s.ones); w != v {
		pts = s.put(pts, w)
	}
	return pts
}

// allResults reports whether t holds every value op can give, so that no
// sample can fall outside it.
func allResults(op Op, t types.Type) bool {
	lo, hi, ok := intRange(t)
	if !ok {
		return false
	}
	if op.IsCompare() || op == OpNot {
		return lo <= 0 && hi >= 1
	}
	return lo == math.MinInt64 && hi == math.MaxInt64
}

// checkSound returns why type t is not sound for data node n whose inputs
// have the types typ gives, or "" when every sample lies within t (or n
// is not a data op this rule judges). A division under control that is
// not reachable computes nothing.
func checkSound(n *Node, t types.Type, typ *Typing) string {
	switch {
	case n.Op == OpPhi:
		return checkSoundPhi(n, t, typ)
	case n.Op == OpRefine:
		return checkSoundRefine(n, t, typ)
	case !n.Op.IsBinary() && !n.Op.IsUnary():
		return ""
	}
	if unsampled(n, t, typ) {
		return ""
	}
	if n.Op.IsUnary() {
		ta := typ.Of(n.In[1])
		var abuf [maxSamples]int64
		for _, a := range samplePoints(abuf[:], ta, false) {
			if v := semUnary(n.Op, a); !t.Contains(v) {
				return fmt.Sprintf("typed %v, but %s%d is %d (%v within %v)", t, n.Op.Symbol(), a, v, n.In[1], ta)
			}
		}
		return ""
	}
	ta, tb := typ.Of(n.In[1]), typ.Of(n.In[2])
	shift := n.Op == OpShl || n.Op == OpSar || n.Op == OpShr
	var abuf, bbuf [maxSamples]int64
	as := samplePoints(abuf[:], ta, false, tb)
	bs := samplePoints(bbuf[:], tb, shift, ta)
	for _, a := range as {
		for _, b := range bs {
			if v, ok := semBinary(n.Op, a, b); ok && !t.Contains(v) {
				return fmt.Sprintf("typed %v, but %d %s %d is %d (%v within %v, %v within %v)",
					t, a, n.Op.Symbol(), b, v, n.In[1], ta, n.In[2], tb)
			}
		}
	}
	return ""
}

// unsampled reports whether checkSound passes the unary or binary node n
// claimed t without a sample: an operand missing or dead, a division
// under control not reached, or t holding every result of the op.
func unsampled(n *Node, t types.Type, typ *Typing) bool {
	for _, x := range n.In[1:] {
		if x == nil || x.dead {
			return true
		}
	}
	if c := n.In[0]; c != nil && (n.Op == OpDiv || n.Op == OpMod) && !typ.Of(c).IsCtrl() {
		return true
	}
	return allResults(n.Op, t)
}

// phiUnjudged reports whether checkSoundPhi passes Phi n without looking
// at its inputs: its Region is not one, is being built or not reached, or
// is a Loop not entered (or n is being built).
func phiUnjudged(n *Node, typ *Typing) bool {
	r := n.In[0]
	return r == nil || !r.Op.IsRegion() || r.InProgress() || n.InProgress() || !typ.Of(r).IsCtrl() ||
		r.Op == OpLoop && !typ.Of(r.In[1]).IsCtrl()
}

// phiArrives reports whether Phi input x arrives through region input c,
// which control may take: checkSoundPhi judges its value.
func phiArrives(c, x *Node, typ *Typing) bool {
	return c != nil && x != nil && !x.dead && typ.Of(c).IsCtrl()
}

// checkSoundPhi: a value arriving through a predecessor that control may
// take lies within the Phi's type. Which predecessors control takes is
// read from their types (reachability, not arithmetic, is trusted here).
func checkSoundPhi(n *Node, t types.Type, typ *Typing) string {
	if phiUnjudged(n, typ) {
		return ""
	}
	r := n.In[0]
	var buf [maxSamples]int64
	for i := 1; i < len(n.In) && i < len(r.In); i++ {
		c, x := r.In[i], n.In[i]
		if !phiArrives(c, x, typ) {
			continue
		}
		for _, v := range samplePoints(buf[:], typ.Of(x), false) {
			if !t.Contains(v) {
				return fmt.Sprintf("typed %v, but value %d, %v, arrives through %v within %v, as %d", t, i, x, c, typ.Of(x), v)
			}
		}
	}
	return ""
}

// CheckTransfer returns why the type t claimed for n is not sound for the
// types typ gives its inputs, or "": the type soundness rule for a
// checker that holds its own lattice values (opt.CheckSCCP).
func CheckTransfer(n *Node, t types.Type, typ *Typing) string {
	return checkSound(n, t, typ)
}

// sound is the verifier's type soundness rule.
func (v *verifier) sound(n *Node) {
	if msg := checkSound(n, n.Type(), nil); msg != "" {
		v.bad(n, "type-sound", "%s", msg)
	}
}

// checkSoundRefine: a Refine's type holds every value of its operand x
// that the branch it is pinned below lets through. For each sample a of
// x's type, if some sample b of the other operand of the If's condition
// makes the condition take the Refine's side, a must lie within the type.
// The condition is evaluated by this file's own semantics, not by the
// tables of relations refine.go narrows with; x compared with itself is
// evaluated on a alone; a condition of another form proves nothing, so
// the type must then hold all of x's.
func checkSoundRefine(n *Node, t types.Type, typ *Typing) string {
	if len(n.In) < 2 {
		return ""
	}
	p, x := n.In[0], n.In[1]
	if p == nil || p.Op != OpCProj || len(p.In) == 0 || p.In[0] == nil || p.In[0].Op != OpIf ||
		len(p.In[0].In) < 2 || x == nil || x.dead || !typ.Of(p).IsCtrl() {
		return ""
	}
	cond := p.In[0].In[1]
	if cond == nil || cond.dead {
		return ""
	}
	taken := func(c int64) bool { return (c != 0) == (p.Aux == 0) } // side 0 runs when c != 0
	if cond.IsConst() && !taken(cond.Aux) {
		return "" // this side is never reached
	}
	// eval is the condition for x = a and the other operand b; nil: a
	// condition of another form (or folded to this side) proves nothing.
	var other *Node
	var eval func(a, b int64) (int64, bool)
	switch {
	case cond.IsConst():
	case cond == x:
		eval = func(a, _ int64) (int64, bool) { return truth(a != 0), true }
	case cond.Op == OpNot && len(cond.In) > 1 && cond.In[1] == x:
		eval = func(a, _ int64) (int64, bool) { return truth(a == 0), true }
	case cond.Op.IsCompare() && len(cond.In) > 2 && cond.In[1] == x && cond.In[2] == x:
		// x REL x: one value on both sides, not two samples (if (v - z <
		// v) once z folded to 0: random seed 9303152). Its Refine may
		// take both facts, x < x and x > x: a side never reached.
		op := cond.Op
		eval = func(a, _ int64) (int64, bool) { return semBinary(op, a, a) }
	case cond.Op.IsCompare() && len(cond.In) > 2 && cond.In[1] == x:
		op := cond.Op
		other, eval = cond.In[2], func(a, b int64) (int64, bool) { return semBinary(op, a, b) }
	case cond.Op.IsCompare() && len(cond.In) > 2 && cond.In[2] == x:
		op := cond.Op
		other, eval = cond.In[1], func(a, b int64) (int64, bool) { return semBinary(op, b, a) }
	}
	passes := func(a, b int64) bool { // x = a gets through to this side
		if eval == nil {
			return true
		}
		c, ok := eval(a, b)
		return ok && taken(c)
	}
	tx := typ.Of(x)
	var abuf, bbuf [maxSamples]int64
	bs := append(bbuf[:0], 0)
	var to types.Type
	if other != nil {
		if other.dead {
			return ""
		}
		to = typ.Of(other)
		bs = samplePoints(bbuf[:], to, false, tx)
	}
	for _, a := range samplePoints(abuf[:], tx, false, to) {
		if t.Contains(a) {
			continue
		}
		for _, b := range bs {
			if passes(a, b) {
				if other == nil {
					return fmt.Sprintf("typed %v, but %v may be %d on side %d of %v", t, x, a, p.Aux, p.In[0])
				}
				return fmt.Sprintf("typed %v, but %v may be %d on side %d of %v (with %v = %d)", t, x, a, p.Aux, p.In[0], other, b)
			}
		}
	}
	return ""
}
