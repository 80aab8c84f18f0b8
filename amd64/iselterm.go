// The terms of the selection checker (iselcheck.go): values over a
// block's inputs, hash-consed and normalized so that two computations of
// one value meet in one term. Cost: a map look-up per term made.

package amd64

import (
	"math/big"
	mbits "math/bits"
	"slices"
	"strconv"
	"strings"

	"son/cfg"
)

// tid names a term of a termTable.
type tid int32

// tkind is a term's operation. A term is a constant, an atom (an input,
// an unknown, or an operation that is not linear) or a linear form: a
// sum of atoms times constants plus a constant, mod 2^64.
type tkind uint8

const (
	tConst tkind = iota // k
	tIn                 // the value of RTL register k on entry to the block (argOrigin: the argument)
	tFresh              // a value nothing is known of (k: a serial number)
	tLin                // sum of lin[i].c * lin[i].t, plus k
	tAnd                // a & b, a <= b
	tOr                 // a | b, a <= b
	tXor                // a ^ b, a <= b
	tMul                // a * b, a <= b, neither a constant
	tMulHi              // the high 64 bits of the signed 128-bit product a * b, a <= b
	tShl                // a << (b mod 64), b not a constant
	tSar                // a >> (b mod 64), arithmetic
	tShr                // a >>> (b mod 64), logical
	tDiv                // a / b, truncating (b is never 0 where it is evaluated: the RTL's Check)
	tMod                // a % b, b not a constant
	tEq                 // a == 0, 1 or 0 (a is a difference)
	tNe                 // a != 0
	tLt                 // a < b, signed
	tLe                 // a <= b, signed
	tUlt                // a < b, unsigned
	tUle                // a <= b, unsigned
	tSet8               // a with its low byte set to b (setcc)
)

var tkindNames = [...]string{"const", "in", "fresh", "lin", "and", "or", "xor", "mul", "mulhi", "shl", "sar", "shr",
	"div", "mod", "eq0", "ne0", "lt", "le", "ult", "ule", "set8"}

type linItem struct {
	t tid
	c int64 // the coefficient, mod 2^64
}

type term struct {
	kind tkind
	a, b tid
	k    int64
	lin  []linItem // of a tLin: at least one item, sorted by t, no zero coefficient
}

type termKey struct {
	kind tkind
	a, b tid
	k    int64
}

// termTable holds the terms of one RTL block's check (reset between
// blocks: selChecker.checkBlock says why no term outlives its block).
type termTable struct {
	terms []term
	index map[termKey]tid
	lins  map[string]tid
	key   []byte
	fresh int64
	peak  int                           // the most terms held at once before a reset (the tests')
	big   struct{ p, m, e, t *big.Int } // scratch for certify
}

func newTermTable() *termTable {
	t := &termTable{index: map[termKey]tid{}, lins: map[string]tid{}}
	t.big.p, t.big.m, t.big.e, t.big.t = new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	return t
}

// resetKeep is the most terms a table keeps its slice and maps for
// across reset: a larger block's are dropped, so that clearing costs
// no more than the block made, and one large block's memory does not
// stay for the rest of the function.
const resetKeep = 1 << 8

// reset forgets every term, so that the next one made is tid 0 again;
// the serial numbers of fresh terms go on (messages name them).
func (tt *termTable) reset() {
	tt.peak = max(tt.peak, len(tt.terms))
	if len(tt.terms) > resetKeep {
		tt.terms, tt.index, tt.lins = nil, map[termKey]tid{}, map[string]tid{}
		return
	}
	clear(tt.terms) // the forms' items go with them
	tt.terms = tt.terms[:0]
	clear(tt.index)
	clear(tt.lins)
}

func (tt *termTable) get(x tid) *term { return &tt.terms[x] }

func (tt *termTable) mk(kind tkind, a, b tid, k int64) tid {
	key := termKey{kind, a, b, k}
	if x, ok := tt.index[key]; ok {
		return x
	}
	x := tid(len(tt.terms))
	tt.terms = append(tt.terms, term{kind: kind, a: a, b: b, k: k})
	tt.index[key] = x
	return x
}

func (tt *termTable) konst(k int64) tid { return tt.mk(tConst, 0, 0, k) }
func (tt *termTable) input(r int64) tid { return tt.mk(tIn, 0, 0, r) }

// freshTerm is a new unknown value.
func (tt *termTable) freshTerm() tid {
	tt.fresh++
	return tt.mk(tFresh, 0, 0, tt.fresh)
}

func (tt *termTable) isConst(x tid) (int64, bool) {
	t := tt.get(x)
	return t.k, t.kind == tConst
}

// maxLin is the most items of a linear form that another is made from
// item by item: a larger one is an atom of the forms made from it, so
// that a long chain of sums (a straight-line program accumulating
// thousands of values) costs linear time, not quadratic. That finds fewer
// equal values (none the selector's code needs: it reassociates only
// within a few instructions), never a false one.
const maxLin = 32

// linOf is x as a linear form: its items (appended to buf) and constant.
func (tt *termTable) linOf(buf []linItem, x tid) ([]linItem, int64) {
	t := tt.get(x)
	switch {
	case t.kind == tConst:
		return buf, t.k
	case t.kind == tLin && len(t.lin) <= maxLin:
		return append(buf, t.lin...), t.k
	}
	return append(buf, linItem{x, 1}), 0
}

// mkLin is the term of the linear form items + k: items are sorted and
// merged, zero coefficients dropped, and the division patterns of
// divMagic recognized (recognizeMagic).
func (tt *termTable) mkLin(items []linItem, k int64) tid {
	items = normItems(items)
	if r, rk, ok := tt.recognizeMagic(items, k); ok {
		return tt.mkLin(r, rk)
	}
	return tt.mkLinNoRecog(items, k)
}

// normItems sorts items by term, adds the coefficients of a term met
// twice and drops zeros, in place.
func normItems(items []linItem) []linItem {
	slices.SortFunc(items, func(x, y linItem) int { return int(x.t) - int(y.t) })
	out := items[:0]
	for _, it := range items {
		if n := len(out); n > 0 && out[n-1].t == it.t {
			out[n-1].c += it.c
			if out[n-1].c == 0 {
				out = out[:n-1]
			}
			continue
		}
		if it.c != 0 {
			out = append(out, it)
		}
	}
	return out
}

// lincomb is ca*a + cb*b.
func (tt *termTable) lincomb(ca int64, a tid, cb int64, b tid) tid {
	var buf [8]linItem
	ia, ka := tt.linOf(buf[:0], a)
	for i := range ia {
		ia[i].c *= ca
	}
	n := len(ia)
	ib, kb := tt.linOf(ia, b)
	for i := n; i < len(ib); i++ {
		ib[i].c *= cb
	}
	return tt.mkLin(ib, ca*ka+cb*kb)
}

func (tt *termTable) add(a, b tid) tid         { return tt.lincomb(1, a, 1, b) }
func (tt *termTable) sub(a, b tid) tid         { return tt.lincomb(1, a, -1, b) }
func (tt *termTable) neg(a tid) tid            { return tt.lincomb(-1, a, 0, a) }
func (tt *termTable) scale(a tid, c int64) tid { return tt.lincomb(c, a, 0, a) }
func (tt *termTable) addConst(a tid, c int64) tid {
	return tt.lincomb(1, a, 1, tt.konst(c))
}

func sorted(a, b tid) (tid, tid) {
	if b < a {
		return b, a
	}
	return a, b
}

func (tt *termTable) mul(a, b tid) tid {
	if c, ok := tt.isConst(a); ok {
		return tt.scale(b, c)
	}
	if c, ok := tt.isConst(b); ok {
		return tt.scale(a, c)
	}
	a, b = sorted(a, b)
	return tt.mk(tMul, a, b, 0)
}

func (tt *termTable) mulHi(a, b tid) tid {
	ca, oka := tt.isConst(a)
	cb, okb := tt.isConst(b)
	if oka && okb {
		hi, _ := mbits.Mul64(uint64(ca), uint64(cb))
		if ca < 0 {
			hi -= uint64(cb)
		}
		if cb < 0 {
			hi -= uint64(ca)
		}
		return tt.konst(int64(hi))
	}
	if oka && ca == 0 || okb && cb == 0 {
		return tt.konst(0)
	}
	a, b = sorted(a, b)
	return tt.mk(tMulHi, a, b, 0)
}

func (tt *termTable) and(a, b tid) tid {
	ca, oka := tt.isConst(a)
	cb, okb := tt.isConst(b)
	if oka && !okb { // the constant second
		a, b, ca, cb, oka, okb = b, a, cb, ca, okb, oka
	}
	switch {
	case oka && okb:
		return tt.konst(ca & cb)
	case okb && cb == 0: // (a constant a is second, or both are)
		return tt.konst(0)
	case okb && cb == -1:
		return a
	case a == b:
		return a
	case okb && cb&1 == 1 && tt.isBool(a): // 0 or 1 keeps its low bit
		return a
	case okb && cb&1 == 0 && tt.isBool(a):
		return tt.konst(0)
	}
	if okb && cb < 0 && cb&-cb == -cb { // (x + bias) & -2^k = 2^k * (x / 2^k)
		k := mbits.TrailingZeros64(uint64(-cb))
		if x, ok := tt.biased(a, k); ok {
			return tt.scale(tt.div(x, tt.konst(1<<k)), 1<<k)
		}
	}
	a, b = sorted(a, b)
	return tt.mk(tAnd, a, b, 0)
}

func (tt *termTable) or(a, b tid) tid {
	ca, oka := tt.isConst(a)
	cb, okb := tt.isConst(b)
	switch {
	case oka && okb:
		return tt.konst(ca | cb)
	case oka && ca == 0:
		return b
	case okb && cb == 0:
		return a
	case oka && ca == -1 || okb && cb == -1:
		return tt.konst(-1)
	case a == b:
		return a
	}
	a, b = sorted(a, b)
	return tt.mk(tOr, a, b, 0)
}

func (tt *termTable) xor(a, b tid) tid {
	ca, oka := tt.isConst(a)
	cb, okb := tt.isConst(b)
	switch {
	case oka && okb:
		return tt.konst(ca ^ cb)
	case oka && ca == 0:
		return b
	case okb && cb == 0:
		return a
	case oka && ca == -1: // ^x = -x - 1
		return tt.addConst(tt.neg(b), -1)
	case okb && cb == -1:
		return tt.addConst(tt.neg(a), -1)
	case a == b:
		return tt.konst(0)
	}
	a, b = sorted(a, b)
	return tt.mk(tXor, a, b, 0)
}

// shl is a << (b mod 64): by a constant, a product.
func (tt *termTable) shl(a, b tid) tid {
	if c, ok := tt.isConst(b); ok {
		return tt.scale(a, int64(1)<<(uint64(c)&63))
	}
	return tt.mk(tShl, a, b, 0)
}

// sar is a >> (b mod 64). By 63 it is -(a >>> 63), the sign as 0 or -1;
// (x + bias) >> k is x / 2^k (biased).
func (tt *termTable) sar(a, b tid) tid {
	c, ok := tt.isConst(b)
	if !ok {
		return tt.mk(tSar, a, b, 0)
	}
	c &= 63
	if ca, ok := tt.isConst(a); ok {
		return tt.konst(ca >> c)
	}
	switch {
	case c == 0:
		return a
	case c == 63:
		return tt.neg(tt.shr(a, tt.konst(63)))
	}
	if x, ok := tt.biased(a, int(c)); ok {
		return tt.div(x, tt.konst(1<<c))
	}
	return tt.mk(tSar, a, tt.konst(c), 0)
}

// shr is a >>> (b mod 64). By 63, of a value whose sign is y's (y >> s,
// or -(y >>> 63)), it is y >>> 63.
func (tt *termTable) shr(a, b tid) tid {
	c, ok := tt.isConst(b)
	if !ok {
		return tt.mk(tShr, a, b, 0)
	}
	c &= 63
	if ca, ok := tt.isConst(a); ok {
		return tt.konst(int64(uint64(ca) >> c))
	}
	if c == 0 {
		return a
	}
	if c == 63 {
		t := tt.get(a)
		if t.kind == tSar {
			if _, ok := tt.isConst(t.b); ok {
				return tt.shr(t.a, b)
			}
		}
		if t.kind == tLin && t.k == 0 && len(t.lin) == 1 && t.lin[0].c == -1 && tt.isSign(t.lin[0].t) {
			return t.lin[0].t
		}
	}
	return tt.mk(tShr, a, tt.konst(c), 0)
}

// isSign reports whether x is y >>> 63 for some y.
func (tt *termTable) isSign(x tid) bool {
	t := tt.get(x)
	if t.kind != tShr {
		return false
	}
	c, ok := tt.isConst(t.b)
	return ok && c == 63
}

// bias is the term (x < 0 ? 2^k - 1 : 0) as divConst computes it: the
// sign bit for k = 1, else (x >> 63) >>> (64 - k).
func (tt *termTable) bias(x tid, k int) tid {
	s := tt.sar(x, tt.konst(63))
	return tt.shr(s, tt.konst(int64(64-k)))
}

// biased returns x when a is x + bias(x, k), 1 <= k <= 62.
func (tt *termTable) biased(a tid, k int) (tid, bool) {
	if k < 1 || k > 62 {
		return 0, false
	}
	t := tt.get(a)
	if t.kind != tLin {
		return 0, false
	}
	for i, it := range t.lin {
		if it.c != 1 || tt.get(it.t).kind != tShr {
			continue
		}
		rest := make([]linItem, 0, len(t.lin)-1)
		rest = append(append(rest, t.lin[:i]...), t.lin[i+1:]...)
		x := tt.mkLin(rest, t.k)
		if tt.bias(x, k) == it.t {
			return x, true
		}
	}
	return 0, false
}

// div is a / b, truncating. By a negative constant (not MinInt) it is
// -(a / -b), so that one quotient has one term.
func (tt *termTable) div(a, b tid) tid {
	if c, ok := tt.isConst(b); ok {
		if ca, ok := tt.isConst(a); ok && c != 0 {
			return tt.konst(cfg.EvalBinary(cfg.OpDiv, ca, c))
		}
		switch {
		case c == 1:
			return a
		case c == -1:
			return tt.neg(a)
		case c < 0 && c != -c:
			return tt.neg(tt.div(a, tt.konst(-c)))
		}
	}
	return tt.mk(tDiv, a, b, 0)
}

// mod is a % b; by a constant c it is a - c*(a / c).
func (tt *termTable) mod(a, b tid) tid {
	if c, ok := tt.isConst(b); ok && c != 0 {
		if ca, ok := tt.isConst(a); ok {
			return tt.konst(cfg.EvalBinary(cfg.OpMod, ca, c))
		}
		return tt.sub(a, tt.scale(tt.div(a, b), c))
	}
	return tt.mk(tMod, a, b, 0)
}

// isBool reports whether x is 0 or 1 whatever its inputs.
func (tt *termTable) isBool(x tid) bool {
	t := tt.get(x)
	switch t.kind {
	case tEq, tNe, tLt, tLe, tUlt, tUle:
		return true
	case tConst:
		return t.k == 0 || t.k == 1
	}
	return tt.isSign(x)
}

// eqz is d == 0, d's sign made canonical; of a boolean B, B == 0 is not
// B and B - 1 == 0 is B; x - 2^k*(x / 2^k) == 0 (x % 2^k == 0) is
// x & (2^k - 1) == 0.
func (tt *termTable) eqz(d tid) tid { return tt.zeroTest(d, true) }
func (tt *termTable) nez(d tid) tid { return tt.zeroTest(d, false) }

func (tt *termTable) zeroTest(d tid, eq bool) tid {
	if c, ok := tt.isConst(d); ok {
		return tt.konst(b2i((c == 0) == eq))
	}
	t := tt.get(d)
	if t.kind == tLin && t.lin[0].c < 0 {
		d, t = tt.neg(d), nil
		t = tt.get(d)
	}
	if tt.isBool(d) {
		if eq {
			return tt.not(d)
		}
		return d
	}
	if t.kind == tLin && len(t.lin) == 1 && t.lin[0].c == 1 && t.k == -1 && tt.isBool(t.lin[0].t) {
		if eq {
			return t.lin[0].t
		}
		return tt.not(t.lin[0].t)
	}
	if t.kind == tLin {
		if x, c, ok := tt.remainder(t); ok {
			return tt.zeroTest(tt.and(x, tt.konst(c-1)), eq)
		}
	}
	if eq {
		return tt.mk(tEq, d, 0, 0)
	}
	return tt.mk(tNe, d, 0, 0)
}

// remainder returns x and c when the form t is ±(x - c*(x / c)), c a
// power of two: x % c, which is 0 exactly when x & (c-1) is.
func (tt *termTable) remainder(t *term) (tid, int64, bool) {
	for i, it := range t.lin {
		q := tt.get(it.t)
		if q.kind != tDiv {
			continue
		}
		c, ok := tt.isConst(q.b)
		if !ok || c < 2 || c&(c-1) != 0 || it.c != c && it.c != -c {
			continue
		}
		rest := make([]linItem, 0, len(t.lin)-1)
		rest = append(append(rest, t.lin[:i]...), t.lin[i+1:]...)
		x := tt.mkLin(rest, t.k)
		if it.c == c {
			x = tt.neg(x)
		}
		if x == q.a {
			return x, c, true
		}
	}
	return 0, 0, false
}

// not is the negation of a boolean term.
func (tt *termTable) not(x tid) tid {
	t := *tt.get(x)
	switch t.kind {
	case tConst:
		return tt.konst(1 - t.k)
	case tEq:
		return tt.nez(t.a)
	case tNe:
		return tt.eqz(t.a)
	case tLt:
		return tt.le(t.b, t.a)
	case tLe:
		return tt.lt(t.b, t.a)
	case tUlt:
		return tt.ule(t.b, t.a)
	case tUle:
		return tt.ult(t.b, t.a)
	}
	return tt.mk(tEq, x, 0, 0) // a sign bit
}

func (tt *termTable) eq(a, b tid) tid { return tt.eqz(tt.sub(a, b)) }
func (tt *termTable) ne(a, b tid) tid { return tt.nez(tt.sub(a, b)) }

func (tt *termTable) cmp(kind tkind, a, b tid) tid {
	ca, oka := tt.isConst(a)
	cb, okb := tt.isConst(b)
	if oka && okb {
		switch kind {
		case tLt:
			return tt.konst(b2i(ca < cb))
		case tLe:
			return tt.konst(b2i(ca <= cb))
		case tUlt:
			return tt.konst(b2i(uint64(ca) < uint64(cb)))
		}
		return tt.konst(b2i(uint64(ca) <= uint64(cb)))
	}
	if a == b {
		return tt.konst(b2i(kind == tLe || kind == tUle))
	}
	return tt.mk(kind, a, b, 0)
}

func (tt *termTable) lt(a, b tid) tid  { return tt.cmp(tLt, a, b) }
func (tt *termTable) le(a, b tid) tid  { return tt.cmp(tLe, a, b) }
func (tt *termTable) ult(a, b tid) tid { return tt.cmp(tUlt, a, b) }
func (tt *termTable) ule(a, b tid) tid { return tt.cmp(tUle, a, b) }

func b2i(c bool) int64 {
	if c {
		return 1
	}
	return 0
}

// binary applies an RTL binary op.
func (tt *termTable) binary(op cfg.Op, a, b tid) tid {
	switch op {
	case cfg.OpAdd:
		return tt.add(a, b)
	case cfg.OpSub:
		return tt.sub(a, b)
	case cfg.OpMul:
		return tt.mul(a, b)
	case cfg.OpDiv:
		return tt.div(a, b)
	case cfg.OpMod:
		return tt.mod(a, b)
	case cfg.OpAnd:
		return tt.and(a, b)
	case cfg.OpOr:
		return tt.or(a, b)
	case cfg.OpXor:
		return tt.xor(a, b)
	case cfg.OpShl:
		return tt.shl(a, b)
	case cfg.OpSar:
		return tt.sar(a, b)
	case cfg.OpShr:
		return tt.shr(a, b)
	case cfg.OpEq:
		return tt.eq(a, b)
	case cfg.OpNe:
		return tt.ne(a, b)
	case cfg.OpLt:
		return tt.lt(a, b)
	case cfg.OpLe:
		return tt.le(a, b)
	}
	return tt.freshTerm()
}

// recognizeMagic finds in a linear form a quotient by a constant as
// divMagic computes it, q = (hi(M*x) + σx) >> s plus the fix-up (x >>> 63
// for a positive divisor, the sign of the shifted value for a negative
// one), and replaces it with x / d when certify proves (M, s, σ) right for
// d. The form's other items stay: c*q is taken out and c*(x/d) put in.
func (tt *termTable) recognizeMagic(items []linItem, k int64) ([]linItem, int64, bool) {
	for i, it := range items {
		t := tt.get(it.t)
		var hi tid
		var s int64
		switch t.kind {
		case tMulHi:
			hi = it.t
		case tSar:
			c, ok := tt.isConst(t.b)
			if !ok {
				continue
			}
			s = c
			hi = tt.hiOf(t.a)
			if hi < 0 {
				continue
			}
		default:
			continue
		}
		h := tt.get(hi)
		x, mt := h.a, h.b
		M, ok := tt.isConst(mt)
		if !ok {
			x, mt = h.b, h.a
			if M, ok = tt.isConst(mt); !ok {
				continue
			}
		}
		for _, pos := range []bool{true, false} {
			sigma := int64(0)
			if pos && M < 0 {
				sigma = 1
			} else if !pos && M > 0 {
				sigma = -1
			}
			xi, xk := tt.linOf(nil, x)
			for n := range xi {
				xi[n].c *= sigma
			}
			L := tt.mkLinNoRecog(append(slices.Clip(xi), linItem{hi, 1}), xk*sigma)
			if s > 0 && t.a != L {
				continue
			}
			var fix tid
			if pos {
				fix = tt.shr(x, tt.konst(63))
			} else {
				fix = tt.shr(L, tt.konst(63))
			}
			j := slices.IndexFunc(items, func(o linItem) bool { return o.t == fix })
			if j < 0 || j == i || items[j].c != it.c {
				continue
			}
			d, ok := tt.certify(M, uint(s), sigma, pos)
			if !ok {
				continue
			}
			c := it.c
			out := make([]linItem, 0, len(items)+2)
			for n, o := range items {
				if n != i && n != j {
					out = append(out, o)
				}
			}
			if s == 0 {
				// q's own items were hi + σx + fix: hi and fix are gone,
				// σx is taken out of x's coefficient.
				for _, o := range xi {
					out = append(out, linItem{o.t, -c * o.c})
				}
				k -= c * xk * sigma
			}
			q := tt.div(x, tt.konst(d))
			out, qk := tt.linOf(out, tt.scale(q, c))
			return out, k + qk, true
		}
	}
	return nil, 0, false
}

// hiOf returns the tMulHi of a when a is one or a linear form with one
// with coefficient 1 (hi + σx: certify's caller checks the rest), else -1.
func (tt *termTable) hiOf(a tid) tid {
	t := tt.get(a)
	if t.kind == tMulHi {
		return a
	}
	if t.kind != tLin {
		return -1
	}
	for _, it := range t.lin {
		if it.c == 1 && tt.get(it.t).kind == tMulHi {
			return it.t
		}
	}
	return -1
}

// mkLinNoRecog is mkLin without the recognition of quotients (for the
// patterns' own parts).
func (tt *termTable) mkLinNoRecog(items []linItem, k int64) tid {
	items = normItems(items)
	if len(items) == 1 && items[0].c == 1 && k == 0 {
		return items[0].t
	}
	if len(items) == 0 {
		return tt.konst(k)
	}
	key := tt.key[:0]
	key = strconv.AppendInt(key, k, 36)
	for _, it := range items {
		key = append(key, ' ')
		key = strconv.AppendInt(key, int64(it.t), 36)
		key = append(key, ':')
		key = strconv.AppendInt(key, it.c, 36)
	}
	tt.key = key
	if x, ok := tt.lins[string(key)]; ok {
		return x
	}
	ks := string(key)
	if k != 0 {
		// The form without k first, so that it is older than every
		// form it is shifted by (substMemo counts on it).
		tt.mkLinNoRecog(slices.Clone(items), 0)
	}
	x := tid(len(tt.terms))
	tt.terms = append(tt.terms, term{kind: tLin, k: k, lin: slices.Clone(items)})
	tt.lins[ks] = x
	return x
}

// certify returns the divisor d for which the multiplier M (with σx
// added, σ = ±1 or 0) and shift s compute the truncated quotient, or
// false. The effective multiplier E = M + σ*2^64 must be positive for a
// positive divisor (pos), negative for a negative one; with m = |E| and
// p = 64 + s, d is floor(2^p / m) + 1, e = m*d - 2^p >= 1, and for every
// n in [0, 2^63 - 1], e*n < (d - n mod d) * 2^p; for n in [1, 2^63] the
// same (pos: or equal). That makes floor(m*x / 2^p) + [x < 0] = x / d
// (pos), and with q0 = floor(-m*x / 2^p), q0 + [q0 < 0] = x / -d: m*x/2^p
// is x/d plus e*x/(d*2^p), which the bound keeps from reaching the next
// integer (Granlund and Montgomery, PLDI 1994, section 5; Warren,
// Hacker's Delight, 10-4 and 10-5, whose conditions on nc this is, made
// exact over both signs).
func (tt *termTable) certify(M int64, s uint, sigma int64, pos bool) (int64, bool) {
	if s > 63 {
		return 0, false
	}
	b := &tt.big
	m := b.m.SetInt64(M)
	if sigma != 0 {
		m.Add(m, b.t.Lsh(big.NewInt(sigma), 64))
	}
	if (m.Sign() > 0) != pos || m.Sign() == 0 {
		return 0, false
	}
	m.Abs(m)
	if m.BitLen() > 64 {
		return 0, false
	}
	p := b.p.Lsh(big.NewInt(1), 64+s)
	dq := new(big.Int).Quo(p, m)
	dq.Add(dq, big.NewInt(1))
	if dq.BitLen() > 63 || dq.Int64() < 2 {
		return 0, false
	}
	d := dq.Int64()
	e := b.e.Mul(m, dq)
	e.Sub(e, p)
	if e.Sign() <= 0 {
		return 0, false
	}
	// worst is the largest e*n - (d - n mod d)*2^p over n in [1, top]:
	// for each residue it grows with n, and over the residues' largest n
	// it is largest at top's residue or at d - 1.
	worst := func(top *big.Int) int {
		R := new(big.Int).Mod(top, dq)
		a := new(big.Int).Mul(e, top)
		a.Sub(a, new(big.Int).Mul(new(big.Int).Sub(dq, R), p))
		n2 := new(big.Int).Sub(top, R)
		n2.Sub(n2, big.NewInt(1))
		c := new(big.Int).Mul(e, n2)
		c.Sub(c, p)
		return max(a.Sign(), c.Sign())
	}
	n := new(big.Int).Lsh(big.NewInt(1), 63)
	if worst(new(big.Int).Sub(n, big.NewInt(1))) >= 0 {
		return 0, false
	}
	w := worst(n)
	if w > 0 || w == 0 && !pos {
		return 0, false
	}
	if !pos {
		d = -d
	}
	return d, true
}

// String writes x for messages.
func (tt *termTable) String(x tid) string {
	var sb strings.Builder
	tt.write(&sb, x, 0)
	return sb.String()
}

func (tt *termTable) write(sb *strings.Builder, x tid, depth int) {
	if depth > 6 {
		sb.WriteString("…")
		return
	}
	t := tt.get(x)
	switch t.kind {
	case tConst:
		sb.WriteString(strconv.FormatInt(t.k, 10))
	case tIn:
		if t.k == argOrigin {
			sb.WriteString("arg")
		} else {
			sb.WriteString("v" + strconv.FormatInt(t.k, 10))
		}
	case tFresh:
		sb.WriteString("?" + strconv.FormatInt(t.k, 10))
	case tLin:
		sb.WriteString("(")
		for i, it := range t.lin {
			if i > 0 {
				sb.WriteString(" + ")
			}
			if it.c != 1 {
				sb.WriteString(strconv.FormatInt(it.c, 10) + "*")
			}
			tt.write(sb, it.t, depth+1)
		}
		if t.k != 0 {
			sb.WriteString(" + " + strconv.FormatInt(t.k, 10))
		}
		sb.WriteString(")")
	case tEq, tNe:
		sb.WriteString(tkindNames[t.kind] + "(")
		tt.write(sb, t.a, depth+1)
		sb.WriteString(")")
	default:
		sb.WriteString(tkindNames[t.kind] + "(")
		tt.write(sb, t.a, depth+1)
		sb.WriteString(", ")
		tt.write(sb, t.b, depth+1)
		sb.WriteString(")")
	}
}
