package pred

import (
	"encoding/binary"
	"slices"
)

// Simplification is untrusted: the validator checks the predicates that
// end up in the code, so a wrong simplification is caught there (or, if
// it keeps the matrix coherent and well-exclusive, is harmless). It must
// still be sound to keep the validator complete, and in this logic a
// rule of Boolean algebra may not be: with a = ½, a ∨ ¬a is ½, not 1, and
// a ∧ ¬a is ½, not 0. The rules used are the laws of Kleene algebras
// (distributive lattices with De Morgan's negation), which hold for
// min, max and 1-x on {0, ½, 1}:
//
//	¬¬p = p, ¬(p ∧ q) = ¬p ∨ ¬q and dually     (negation normal form)
//	(p ∧ q) ∧ r = p ∧ q ∧ r                    (flattening)
//	p ∧ True = p, p ∧ False = False, dually    (constants; ¬Undef = Undef)
//	p ∧ p = p, p ∨ p = p                       (idempotence)
//	p ∧ (p ∨ q) = p, p ∨ (p ∧ q) = p           (absorption)
//	(c ∧ p) ∨ (c ∧ q) = c ∧ (p ∨ q), dually    (factoring a common part)
//
// Nothing is done with complementary atoms: a ∨ ¬a and a ∧ ¬a stay.
// SimplifyGate goes further where only "evaluates to 1" matters.

// Simplify returns a predicate with the same three-valued value as p in
// every state (Equivalent holds), in negation normal form (¬ only on
// atoms) and hash-consed: equal subterms, up to the order of operands,
// are one node. Each node of p's DAG is simplified once per polarity, and
// no rule makes a predicate larger, so the result (as a tree) is never
// larger than p's negation normal form, at most twice p. Each ∧ or ∨ costs
// O(m log m) for its m operands (maxLook bounds what it reads below
// them), so the whole costs O(E log E) for the E edges of p's DAG.
func Simplify(p *Pred) *Pred { return newSimplifier(false).simp(p, true) }

// SimplifyGate is Simplify plus two rules that keep exactly the states
// where p evaluates to 1, but may turn a ½ into a 0: a conjunction
// holding an atom and its negation is False (a ∧ ¬a is 0 or ½, never 1),
// and Undef is False. In negation normal form ∧ and ∨ are monotone in
// "is 1" (p ∧ q is 1 iff both are, p ∨ q iff either is), so these rules
// are sound for a predicate that is only ever asked whether it is 1: a
// γ or η gate, and every question of query.go. The result must not be
// put under a ¬ afterwards, where 0 and ½ differ.
func SimplifyGate(p *Pred) *Pred { return newSimplifier(true).simp(p, true) }

// maxLook bounds the rules that look into an operand's operands:
// flattening happens only when the result has at most maxLook operands,
// absorption and factoring look only into operands of at most maxLook
// operands. Without it, flattening a shared conjunction into each of its
// users copies it once per user: the joins of n diamonds in sequence,
// each conjoining the previous join, would cost n² (TestSimplifySharing).
const maxLook = 16

type simplifier struct {
	gate   bool
	memo   map[encKey]*Pred
	id     map[*Pred]int    // the interned nodes, numbered
	intern map[string]*Pred // the interned node of each structural key
	ids    []int            // scratch for node
	key    []byte
}

func newSimplifier(gate bool) *simplifier {
	s := &simplifier{gate: gate, memo: map[encKey]*Pred{}, id: map[*Pred]int{}, intern: map[string]*Pred{}}
	for _, k := range []Kind{False, True, Undef} {
		s.id[Const(k)] = len(s.id)
	}
	return s
}

// simp is p (pos) or ¬p (!pos), simplified.
func (s *simplifier) simp(p *Pred, pos bool) *Pred {
	k := encKey{p, pos}
	if r, ok := s.memo[k]; ok {
		return r
	}
	var r *Pred
	switch p.Kind {
	case True, False:
		r = Const(p.Kind)
		if !pos {
			r = Const(dual(p.Kind))
		}
	case Atom:
		r = s.node(&Pred{Kind: Atom, Reg: p.Reg})
		if !pos {
			r = s.node(&Pred{Kind: Not, Args: []*Pred{r}})
		}
	case Not:
		if len(p.Args) == 1 {
			r = s.simp(p.Args[0], !pos)
		} else {
			r = s.undef()
		}
	case And, Or:
		args := make([]*Pred, len(p.Args))
		for i, a := range p.Args {
			args[i] = s.simp(a, pos)
		}
		kind := p.Kind
		if !pos {
			kind = dual(kind)
		}
		r = s.mk(kind, args, true)
	default:
		r = s.undef()
	}
	s.memo[k] = r
	return r
}

func (s *simplifier) undef() *Pred {
	if s.gate {
		return Const(False)
	}
	return Const(Undef)
}

// dual swaps ∧ and ∨, True and False.
func dual(k Kind) Kind {
	switch k {
	case And:
		return Or
	case Or:
		return And
	case True:
		return False
	case False:
		return True
	}
	return k
}

// mk is the simplified ∧ or ∨ (kind) of args, which are simplified and
// interned; factor allows the factoring rule (not for the parts that
// factoring itself builds, which bounds the work to one factoring per
// node).
func (s *simplifier) mk(kind Kind, args []*Pred, factor bool) *Pred {
	absorbing, unit := False, True
	if kind == Or {
		absorbing, unit = True, False
	}
	// Flatten the operands of the same kind only if the result has at
	// most maxLook operands, so that factoring can still see into it.
	n := 0
	for _, a := range args {
		if a.Kind == kind {
			n += len(a.Args)
		} else {
			n++
		}
	}
	seen := ptrSet{list: make([]*Pred, 0, n)}
	for _, a := range args {
		if a.Kind == kind && n <= maxLook {
			for _, b := range a.Args {
				if b.Kind == absorbing {
					return Const(absorbing)
				}
				seen.addNew(b, unit)
			}
			continue
		}
		if a.Kind == absorbing {
			return Const(absorbing)
		}
		seen.addNew(a, unit)
	}
	flat := seen.list
	if s.gate && kind == And {
		for _, b := range flat {
			if b.Kind == Not && seen.has(b.Args[0]) {
				return Const(False) // a ∧ ¬a is never 1
			}
		}
	}
	// Absorption: p ∧ (p ∨ q) = p.
	var kept []*Pred
	for i, b := range flat {
		if b.Kind == dual(kind) && len(b.Args) <= maxLook && slices.ContainsFunc(b.Args, seen.has) {
			if kept == nil {
				kept = append(make([]*Pred, 0, len(flat)), flat[:i]...)
			}
			continue
		}
		if kept != nil {
			kept = append(kept, b)
		}
	}
	if kept != nil {
		flat = kept
	}
	switch len(flat) {
	case 0:
		return Const(unit)
	case 1:
		return flat[0]
	}
	if factor {
		if r := s.factor(kind, flat); r != nil {
			return r
		}
	}
	return s.node(&Pred{Kind: kind, Args: flat})
}

// factor rewrites (c ∧ p) ∨ (c ∧ q) as c ∧ (p ∨ q), and dually, when all
// of args share the part c; nil when they share nothing.
func (s *simplifier) factor(kind Kind, args []*Pred) *Pred {
	inner := dual(kind)
	parts := func(a *Pred) []*Pred {
		if a.Kind == inner && len(a.Args) <= maxLook {
			return a.Args
		}
		return []*Pred{a}
	}
	count := map[*Pred]int{}
	for _, a := range args {
		for _, c := range parts(a) {
			count[c]++
		}
	}
	var common []*Pred
	for _, c := range parts(args[0]) {
		if count[c] == len(args) {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return nil
	}
	isCommon := map[*Pred]bool{}
	for _, c := range common {
		isCommon[c] = true
	}
	rests := make([]*Pred, len(args))
	for i, a := range args {
		var rest []*Pred
		for _, c := range parts(a) {
			if !isCommon[c] {
				rest = append(rest, c)
			}
		}
		rests[i] = s.mk(inner, rest, false)
	}
	return s.mk(inner, append(common, s.mk(kind, rests, false)), false)
}

// node interns n, whose operands are interned: the key is the kind, the
// register and the operands' numbers in increasing order (∧ and ∨ are
// commutative); the first node of a key keeps its operands' order.
func (s *simplifier) node(n *Pred) *Pred {
	ids := s.ids[:0]
	for _, a := range n.Args {
		ids = append(ids, s.id[a])
	}
	slices.Sort(ids)
	key := binary.AppendUvarint(s.key[:0], uint64(n.Kind))
	key = binary.AppendVarint(key, int64(n.Reg))
	for _, i := range ids {
		key = binary.AppendUvarint(key, uint64(i))
	}
	s.ids, s.key = ids, key
	if r, ok := s.intern[string(key)]; ok {
		return r
	}
	s.intern[string(key)] = n
	s.id[n] = len(s.id)
	return n
}

// ptrSet is a set of predicates, a list while small and a map after.
type ptrSet struct {
	list []*Pred
	m    map[*Pred]bool
}

func (s *ptrSet) has(p *Pred) bool {
	if s.m != nil {
		return s.m[p]
	}
	return slices.Contains(s.list, p)
}

// addNew adds p unless it is the unit constant or already there.
func (s *ptrSet) addNew(p *Pred, unit Kind) {
	if p.Kind != unit && !s.has(p) {
		s.add(p)
	}
}

func (s *ptrSet) add(p *Pred) {
	s.list = append(s.list, p)
	switch {
	case s.m != nil:
		s.m[p] = true
	case len(s.list) > maxLook:
		s.m = make(map[*Pred]bool, 2*len(s.list))
		for _, q := range s.list {
			s.m[q] = true
		}
	}
}
