package son

import (
	"math"
	"math/bits"

	"son/types"
)

// Compute is the transfer function of every op: the type of n given the
// types of its inputs, as typ reports them (nil: the types the nodes
// hold). The peephole calls it with nil; the combined analysis (opt.SCCP) and its
// checker call it with their own lattice values. It is monotone: higher
// input types never give a lower result. Control types carry reachability:
// a control node is reachable only when its type is Ctrl, and a Phi meets
// only the inputs whose region input is reachable (Click–Cooper, tables V
// and VI).
func Compute(n *Node, typ *Typing) types.Type {
	switch n.Op {
	case OpStart:
		return startType
	case OpStop:
		// The end is reached when a Return is.
		for _, r := range n.In {
			if r != nil && typ.Of(r).IsCtrl() {
				return types.Ctrl
			}
		}
		return types.XCtrl
	case OpXCtrl:
		return types.XCtrl
	case OpConstant:
		if n.Type().IsTop() {
			return types.Top
		}
		return types.Const(n.Aux)
	case OpScope:
		return types.Bottom
	case OpCProj, OpProj:
		p := typ.Of(n.In[0])
		if p.IsTuple() && int(n.Aux) < p.Len() {
			return p.Elem(int(n.Aux))
		}
		if n.Op == OpCProj {
			return types.XCtrl
		}
		return types.Top
	case OpIf:
		return ifType(typ.Of(n.In[0]), typ.Of(n.In[1]))
	case OpNever:
		if typ.Of(n.In[0]).IsCtrl() {
			return tupleCC
		}
		return tupleXX
	case OpRegion:
		for _, c := range n.In[1:] {
			if c != nil && typ.Of(c).IsCtrl() {
				return types.Ctrl
			}
		}
		return types.XCtrl
	case OpLoop:
		// A loop is reached only through its entry.
		return ctrlType(typ.Of(n.In[1]))
	case OpReturn, OpZeroCheck:
		// A ZeroCheck passes control on whenever it is reached: its
		// failure is an exit of its own, so even a check of the constant
		// 0 keeps the code after it alive as far as types go.
		return ctrlType(typ.Of(n.In[0]))
	case OpPhi:
		return phiType(n, typ)
	case OpRefine:
		return refineType(n, typ)
	case OpDiv, OpMod:
		if c := n.In[0]; c != nil && !typ.Of(c).IsCtrl() {
			return types.Top
		}
	}
	switch {
	case n.Op.IsBinary():
		a, b := typ.Of(n.In[1]), typ.Of(n.In[2])
		return binaryType(n.Op, &a, &b)
	case n.Op.IsUnary():
		return unaryType(n.Op, typ.Of(n.In[1]))
	}
	panic("son: Compute of " + n.Op.String())
}

// Compute is the type of n from the types stored in its inputs.
func (g *Graph) Compute(n *Node) types.Type { return Compute(n, nil) }

var (
	startType = types.Tuple(types.Ctrl, types.Int)
	tupleCC   = types.Tuple(types.Ctrl, types.Ctrl)
	tupleCX   = types.Tuple(types.Ctrl, types.XCtrl)
	tupleXC   = types.Tuple(types.XCtrl, types.Ctrl)
	tupleXX   = types.Tuple(types.XCtrl, types.XCtrl)
)

func ctrlType(c types.Type) types.Type {
	if c.IsCtrl() {
		return types.Ctrl
	}
	return types.XCtrl
}

// ifType: an undefined condition reaches neither side (optimistic), a
// condition that cannot be 0 only the true side, the constant 0 only the
// false side (paper 001, table VI).
func ifType(c, p types.Type) types.Type {
	switch {
	case !c.IsCtrl() || p.IsTop():
		return tupleXX
	case p.IsInt() && !p.Contains(0):
		return tupleCX
	case p.IsConst(): // the constant 0
		return tupleXC
	}
	return tupleCC
}

// phiType meets the inputs that arrive through reachable region inputs. A
// Phi of a loop still being built has the declared type of its variable
// (Aux 1 for bool).
func phiType(n *Node, typ *Typing) types.Type {
	r := n.In[0]
	if r == nil || !r.Op.IsRegion() {
		// The region collapsed into a single predecessor; the Phi is
		// about to become its only input.
		if len(n.In) > 1 && n.In[1] != nil {
			return typ.Of(n.In[1])
		}
		return types.Top
	}
	if r.InProgress() {
		if n.Aux == 1 {
			return types.Bool
		}
		return types.Int
	}
	if r.Op == OpLoop && !typ.Of(r.In[1]).IsCtrl() {
		return types.Top // the loop is never entered
	}
	t := types.Top
	for i := 1; i < len(n.In) && i < len(r.In); i++ {
		if c := r.In[i]; c != nil && n.In[i] != nil && typ.Of(c).IsCtrl() {
			// The meet with Top, or with the same value, is the other
			// value (types.Meet's own first answers), without the call.
			switch x := typ.Of(n.In[i]); {
			case t.IsTop() || x.Same(&t):
				t = x
			case !x.IsTop():
				t = types.Meet(t, x)
			}
		}
	}
	return t
}

// binaryType is the type of a op b. It and the functions it calls take
// the operands by pointer: two types are ten words, more than the
// registers of a call hold, so each call copied them.
func binaryType(op Op, a, b *types.Type) types.Type {
	if a.IsTop() || b.IsTop() {
		return types.Top
	}
	if !a.IsInt() || !b.IsInt() {
		if op.IsCompare() {
			return types.Bool
		}
		return types.Int
	}
	r := rangeType(op, a, b)
	if r.IsInt() && !r.IsConst() {
		r = knownBits(op, r, a, b)
	}
	return r
}

// rangeType is the range part of binaryType, for integer a and b.
func rangeType(op Op, a, b *types.Type) types.Type {
	if (op == OpDiv || op == OpMod) && b.IsConst() && b.Value() == 0 {
		// Never computed: the ZeroCheck before it stops the program. Not
		// Top, though: a Top condition would make the code after the check
		// look dead, and the check that must still trap with it. 0 is
		// within what every divisor range holding 0 gives, so the
		// function stays monotone.
		return types.Zero
	}
	if a.IsConst() && b.IsConst() {
		return types.Const(EvalBinary(op, a.Value(), b.Value()))
	}
	switch op {
	case OpAdd:
		if !addOverflows(a.Lo(), b.Lo()) && !addOverflows(a.Hi(), b.Hi()) {
			return types.Range(a.Lo()+b.Lo(), a.Hi()+b.Hi())
		}
	case OpSub:
		if !subOverflows(a.Lo(), b.Hi()) && !subOverflows(a.Hi(), b.Lo()) {
			return types.Range(a.Lo()-b.Hi(), a.Hi()-b.Lo())
		}
	case OpMul:
		return mulRange(a, b)
	case OpDiv:
		return divRange(a, b)
	case OpMod:
		return modRange(a, b)
	case OpAnd:
		switch {
		case a.Lo() >= 0 && b.Lo() >= 0:
			return types.Range(0, min(a.Hi(), b.Hi()))
		case a.Lo() >= 0:
			return types.Range(0, a.Hi())
		case b.Lo() >= 0:
			return types.Range(0, b.Hi())
		}
	case OpOr:
		if a.Lo() >= 0 && b.Lo() >= 0 {
			return types.Range(max(a.Lo(), b.Lo()), allOnes(max(a.Hi(), b.Hi())))
		}
	case OpXor:
		if a.Lo() >= 0 && b.Lo() >= 0 {
			return types.Range(0, allOnes(max(a.Hi(), b.Hi())))
		}
	case OpShl:
		if b.IsConst() {
			s := uint64(b.Value()) & 63
			if lo, hi := a.Lo()<<s, a.Hi()<<s; lo>>s == a.Lo() && hi>>s == a.Hi() {
				return types.Range(lo, hi)
			}
		}
	case OpSar:
		if b.IsConst() {
			s := uint64(b.Value()) & 63
			return types.Range(a.Lo()>>s, a.Hi()>>s)
		}
		// x>>s lies between x and 0 (or -1).
		return types.Range(min(a.Lo(), 0), max(a.Hi(), 0))
	case OpShr:
		if a.Lo() >= 0 {
			if b.IsConst() {
				s := uint64(b.Value()) & 63
				return types.Range(a.Lo()>>s, a.Hi()>>s)
			}
			return types.Range(0, a.Hi())
		}
		if b.IsConst() && b.Value()&63 != 0 {
			return types.Range(0, int64(uint64(math.MaxUint64)>>(uint64(b.Value())&63)))
		}
	case OpEq:
		if a.Hi() < b.Lo() || b.Hi() < a.Lo() {
			return types.False
		}
		return types.Bool
	case OpNe:
		if a.Hi() < b.Lo() || b.Hi() < a.Lo() {
			return types.True
		}
		return types.Bool
	case OpLt:
		switch {
		case a.Hi() < b.Lo():
			return types.True
		case a.Lo() >= b.Hi():
			return types.False
		}
		return types.Bool
	case OpLe:
		switch {
		case a.Hi() <= b.Lo():
			return types.True
		case a.Lo() > b.Hi():
			return types.False
		}
		return types.Bool
	}
	return types.Int
}

// knownBits narrows r, the range of a op b, by the bits of the result
// that the known bits of a and b fix (types/bits.go): a 0 in either
// operand of & is a 0, a 1 in either of | a 1, and so on; a shift by a
// constant moves the known bits and fills with known bits; a product has
// the trailing zeros of both factors; == is false, != true, when a bit is
// known 1 on one side and 0 on the other.
func knownBits(op Op, r types.Type, a, b *types.Type) types.Type {
	az, ao, bz, bo := a.Zeros(), a.Ones(), b.Zeros(), b.Ones()
	var z, o uint64
	switch op {
	case OpAnd:
		z, o = az|bz, ao&bo
	case OpOr:
		z, o = az&bz, ao|bo
	case OpXor:
		known := (az | ao) & (bz | bo)
		o = (ao ^ bo) & known
		z = known &^ o
	case OpMul:
		tz := bits.TrailingZeros64(^az) + bits.TrailingZeros64(^bz)
		z = lowMask(tz)
	case OpShl:
		if !b.IsConst() {
			z = lowMask(bits.TrailingZeros64(^az)) // 0 << x is 0, 8*y << x a multiple of 8
			break
		}
		s := uint64(b.Value()) & 63
		z, o = az<<s|lowMask(int(s)), ao<<s
	case OpSar:
		if b.IsConst() {
			s := uint64(b.Value()) & 63
			z, o = uint64(int64(az)>>s), uint64(int64(ao)>>s)
		}
	case OpShr:
		if b.IsConst() {
			s := uint64(b.Value()) & 63
			z, o = az>>s|^(math.MaxUint64>>s), ao>>s
		}
	case OpEq, OpNe:
		if ao&bz != 0 || az&bo != 0 {
			if op == OpEq {
				return types.False
			}
			return types.True
		}
		return r
	default:
		return r
	}
	return types.WithBits(r, z, o)
}

// lowMask has the k low bits set (all for k >= 64).
func lowMask(k int) uint64 {
	if k >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(k) - 1
}

func unaryType(op Op, a types.Type) types.Type {
	if a.IsTop() {
		return types.Top
	}
	if !a.IsInt() {
		if op == OpNot {
			return types.Bool
		}
		return types.Int
	}
	if a.IsConst() {
		return types.Const(EvalUnary(op, a.Value()))
	}
	switch op {
	case OpMinus:
		if a.Lo() != math.MinInt64 {
			return types.Range(-a.Hi(), -a.Lo())
		}
		return types.Int
	case OpNot:
		if !a.Contains(0) {
			return types.False
		}
		return types.Bool
	}
	panic("son: unaryType of " + op.String())
}

// allOnes is the smallest 2^k-1 at or above v >= 0.
func allOnes(v int64) int64 {
	return int64(uint64(math.MaxUint64) >> bits.LeadingZeros64(uint64(v)))
}

// mulRange: a product is bilinear, so its extremes are at the corners.
func mulRange(a, b *types.Type) types.Type {
	corners := [4][2]int64{{a.Lo(), b.Lo()}, {a.Lo(), b.Hi()}, {a.Hi(), b.Lo()}, {a.Hi(), b.Hi()}}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, c := range corners {
		if mulOverflows(c[0], c[1]) {
			return types.Int
		}
		p := c[0] * c[1]
		lo, hi = min(lo, p), max(hi, p)
	}
	return types.Range(lo, hi)
}

// divRange: truncating division by a constant is monotone in the dividend;
// otherwise the quotient is no larger in magnitude than the dividend.
func divRange(a, b *types.Type) types.Type {
	if b.IsConst() {
		c := b.Value()
		switch {
		case c > 0:
			return types.Range(a.Lo()/c, a.Hi()/c)
		case c == -1:
			if a.Lo() == math.MinInt64 {
				return types.Int
			}
			return types.Range(-a.Hi(), -a.Lo())
		case c < -1:
			return types.Range(a.Hi()/c, a.Lo()/c)
		}
	}
	if a.Lo() >= 0 && b.Lo() >= 0 {
		return types.Range(0, a.Hi())
	}
	if a.Lo() != math.MinInt64 {
		m := max(-a.Lo(), a.Hi())
		return types.Range(-m, m)
	}
	return types.Int
}

// modRange: the remainder has the dividend's sign, and is smaller in
// magnitude than both the divisor and the dividend. The bound from a
// divisor that is not a constant is rounded up to 2^k-1: a Phi that feeds
// its own divisor would otherwise narrow by one per round of the peephole
// worklist.
func modRange(a, b *types.Type) types.Type {
	mb := int64(math.MaxInt64)
	if b.Lo() != math.MinInt64 {
		mb = max(-b.Lo(), b.Hi(), 1) - 1
		if !b.IsConst() {
			mb = allOnes(mb)
		}
	}
	switch {
	case a.Lo() >= 0:
		return types.Range(0, min(a.Hi(), mb))
	case a.Hi() <= 0:
		return types.Range(max(a.Lo(), -mb), 0)
	}
	return types.Range(max(a.Lo(), -mb), min(a.Hi(), mb))
}
