package pred

// Structural entailment: a sound, incomplete proof of Implies and
// Disjoint from the shape of the predicates alone, for the questions the
// GSA validator asks most (a path predicate and the conjunctions it is
// made of). Each rule is figure 6 at the value 1 — a conjunction is 1
// iff each operand is, a disjunction iff one is, False and Undef never
// are, two nodes equal node for node have the same value, an atom and
// its negation are never both 1 — so a derivation is a proof as
// checkable as a truth table, and a question it does not settle goes to
// the tables or the certified solver. Results are memoized on pairs of
// nodes: the cost is at most the product of the two DAGs' sizes, in
// practice the conjunctions' lengths.

// Entails reports whether the rules derive "q is 1 whenever p is 1".
// False means no derivation was found, not that the implication fails.
func Entails(p, q *Pred) bool { return NewProver().Entails(p, q) }

// Excludes reports whether the rules derive "p and q are never both 1".
// False means no derivation was found.
func Excludes(p, q *Pred) bool { return NewProver().Excludes(p, q) }

// Prover answers Entails and Excludes keeping what it derived, so that
// the questions of one validation share their common parts (what holds
// of a pair of nodes holds in every question).
type Prover struct{ ent, exc structural }

// NewProver returns a Prover that has derived nothing yet.
func NewProver() *Prover {
	eq, ops := map[[2]*Pred]bool{}, map[*Pred]map[*Pred]bool{}
	return &Prover{structural{memo: map[[2]*Pred]bool{}, eq: eq, ops: ops}, structural{memo: map[[2]*Pred]bool{}, eq: eq, ops: ops}}
}

// Entails is the function Entails, with the prover's memory.
func (v *Prover) Entails(p, q *Pred) bool { return v.ent.entails(p, q) }

// Equal reports whether p and q are the same node for node (so each
// implies the other), with the prover's memory of the pairs found equal.
func (v *Prover) Equal(p, q *Pred) bool { return v.ent.equal(p, q) }

// Excludes is the function Excludes, with the prover's memory.
func (v *Prover) Excludes(p, q *Pred) bool { return v.exc.excludes(p, q) }

type structural struct {
	memo map[[2]*Pred]bool        // entails or excludes, by pair (one call does one)
	eq   map[[2]*Pred]bool        // pairs found equal node for node
	ops  map[*Pred]map[*Pred]bool // the operands of a wide ∧, as a set
}

func (s *structural) entails(p, q *Pred) bool {
	if p == nil || q == nil {
		return false // malformed: left to the questions, which report it
	}
	if p == q || q.Kind == True || p.Kind == False || p.Kind == Undef || s.operand(p, q) {
		return true // the last, q an operand of p, is the common case: no memo
	}
	key := [2]*Pred{p, q}
	if r, ok := s.memo[key]; ok {
		return r
	}
	s.memo[key] = false // a cycle would be a malformed DAG: no proof
	r := false
	switch {
	case q.Kind == And: // p ⟹ each operand (iff)
		r = true
		for _, b := range q.Args {
			r = r && s.entails(p, b)
		}
	case p.Kind == Or: // each operand ⟹ q (iff)
		r = true
		for _, a := range p.Args {
			r = r && s.entails(a, q)
		}
	default:
		r = s.equal(p, q)
		// First the common case, at no search: p is a conjunction, q a
		// disjunction one of whose operands has only operands of p.
		for i := 0; !r && q.Kind == Or && i < len(q.Args); i++ {
			r = s.shallow(p, q.Args[i])
		}
		for i := 0; !r && p.Kind == And && i < len(p.Args); i++ {
			r = s.entails(p.Args[i], q) // one operand of p ⟹ q
		}
		for i := 0; !r && q.Kind == Or && i < len(q.Args); i++ {
			r = s.entails(p, q.Args[i]) // p ⟹ one operand of q
		}
	}
	s.memo[key] = r
	return r
}

func (s *structural) excludes(p, q *Pred) bool {
	if p == nil || q == nil {
		return false
	}
	never := func(k Kind) bool { return k == False || k == Undef }
	if never(p.Kind) || never(q.Kind) {
		return true
	}
	key := [2]*Pred{p, q}
	if r, ok := s.memo[key]; ok {
		return r
	}
	s.memo[key] = false
	r := false
	switch {
	case p.Kind == Or: // each operand excludes q (iff)
		r = true
		for _, a := range p.Args {
			r = r && s.excludes(a, q)
		}
	case q.Kind == Or:
		r = true
		for _, b := range q.Args {
			r = r && s.excludes(p, b)
		}
	default:
		r = complementary(p, q) || complementary(q, p)
		for i := 0; !r && p.Kind == And && i < len(p.Args); i++ {
			r = s.excludes(p.Args[i], q) // one operand of p excludes q
		}
		for i := 0; !r && q.Kind == And && i < len(q.Args); i++ {
			r = s.excludes(p, q.Args[i])
		}
	}
	s.memo[key] = r
	return r
}

// operand reports whether q is one of the operands of the conjunction p,
// by pointer: the common case (a path predicate's conjunct), in constant
// time once p's operands are a set.
func (s *structural) operand(p, q *Pred) bool {
	if p.Kind != And {
		return false
	}
	if len(p.Args) < 8 {
		for _, a := range p.Args {
			if a == q {
				return true
			}
		}
		return false
	}
	set, ok := s.ops[p]
	if !ok {
		set = make(map[*Pred]bool, len(p.Args))
		for _, a := range p.Args {
			set[a] = true
		}
		s.ops[p] = set
	}
	return set[q]
}

// shallow reports whether b is p, an operand of p, or a conjunction of
// operands of p (by pointer).
func (s *structural) shallow(p, b *Pred) bool {
	if b == p || s.operand(p, b) {
		return true
	}
	if b.Kind != And || p.Kind != And {
		return false
	}
	for _, a := range b.Args {
		if a.Kind != True && !s.operand(p, a) {
			return false
		}
	}
	return true
}

// complementary reports whether p is an atom and q its negation.
func complementary(p, q *Pred) bool {
	return p.Kind == Atom && q.Kind == Not && len(q.Args) == 1 && q.Args[0] != nil &&
		q.Args[0].Kind == Atom && q.Args[0].Reg == p.Reg
}

// equal reports whether p and q are the same node for node.
func (s *structural) equal(p, q *Pred) bool {
	if p == q {
		return true
	}
	if p == nil || q == nil || p.Kind != q.Kind || p.Reg != q.Reg || len(p.Args) != len(q.Args) {
		return false
	}
	key := [2]*Pred{p, q}
	if s.eq[key] {
		return true
	}
	for i := range p.Args {
		if !s.equal(p.Args[i], q.Args[i]) {
			return false
		}
	}
	s.eq[key] = true
	return true
}

// Small reports whether a question over ps is small enough for truth
// tables (at most six atoms in all): then the tables, a few microseconds,
// are the cheaper proof, and the structural rules need not be tried.
func Small(ps ...*Pred) bool {
	regs, err := scan(ps)
	return err == nil && len(regs) <= tableLimit
}
