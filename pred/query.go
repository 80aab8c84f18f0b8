package pred

import (
	"fmt"
	"slices"

	"son/cfg"
)

// The validator's questions (paper 004, section 5.2 and 6.1). Each asks
// whether a property holds in every state, a state giving each atom a
// value in {0, ½, 1} independently: an atom is 0 or 1 when its register
// is defined and ½ when it is not, and the definitions quantify over all
// register states, so over all of {0,½,1}^atoms. Only "evaluates to 1"
// matters to every definition (γ and η fire on 1), so the questions are:
//
//	Valid(p)         p is 1 in every state: isTrue of COHEQ, Definition 5.2
//	Unsat(p)         p is 1 in no state
//	Implies(p, q)    whenever p is 1, q is 1: the semantic implication of
//	                 COHSDOM, Definition 5.2 (its footnote 2)
//	Disjoint(p, q)   p and q are never both 1: p × q, Definition 5.4
//	WellExclusive(g) a γ's gates are pairwise Disjoint: Definition 5.5
//	Equivalent(p, q) p and q have the same value in every state (the
//	                 simplifier's contract; stronger than Implies both ways)
//	CoherentAt(...)  COHSDOM itself, with the projection ↓j
//
// The paper asks a solver whether p →Ł q (Łukasiewicz's implication) is
// a tautology, which is "p ≤ q in every state": sufficient for the
// semantic implication, but stronger. Here the question is the
// definition itself, "no state has p = 1 and q ≠ 1", which the encoding
// of cnf.go expresses directly as T(p) ∧ ¬T(q); likewise Definition 5.4
// is T(p) ∧ T(q), where the paper needs p →Ł (q →Ł ¬q).
//
// A question over at most tableAtoms atoms is decided by truth tables
// (table.go); a larger one by the SAT solver, whose UNSAT answer counts
// only once CheckRUP accepts its certificate. Every "does not hold"
// answer comes with a state, and is returned only after Eval (figure 6,
// computing each shared node once) confirms that the property fails there.

// Evidence says how an answer was established.
type Evidence uint8

const (
	ByTable Evidence = iota // evaluated in every state (at most tableAtoms atoms)
	ByRUP                   // UNSAT of the CNF, by a RUP certificate CheckRUP accepted
	ByModel                 // the solver's model, checked on the clauses and by Eval
)

func (e Evidence) String() string {
	return [...]string{"table", "rup", "model"}[e]
}

// Result is the answer to one question.
type Result struct {
	Holds    bool            // the property holds in every state
	Counter  map[cfg.Reg]Val // when !Holds: a state where it fails, confirmed by Eval
	Evidence Evidence
	Lemmas   int    // the certificate's length, when Evidence is ByRUP
	Pair     [2]int // WellExclusive: the gates that overlap, when !Holds
}

// Valid reports whether p evaluates to 1 in every state (isTrue, in
// COHEQ of Definition 5.2: P_i,i models the empty path).
func Valid(p *Pred) (Result, error) {
	return ask("valid", []*Pred{p},
		func(o [][]uint64, _ [][]uint64, w int) uint64 { return ^o[0][w] },
		func(e *encoder, l []int) [][]int { return [][]int{{-l[0]}} },
		func(v []Val) bool { return v[0] != V1 })
}

// Unsat reports whether p evaluates to 1 in no state.
func Unsat(p *Pred) (Result, error) {
	return ask("unsat", []*Pred{p},
		func(o [][]uint64, _ [][]uint64, w int) uint64 { return o[0][w] },
		func(e *encoder, l []int) [][]int { return [][]int{{l[0]}} },
		func(v []Val) bool { return v[0] == V1 })
}

// Implies reports whether q evaluates to 1 in every state where p does:
// the semantic implication P ⟹ Q of Definition 5.2 (footnote 2).
func Implies(p, q *Pred) (Result, error) {
	return ask("implies", []*Pred{p, q},
		func(o [][]uint64, _ [][]uint64, w int) uint64 { return o[0][w] &^ o[1][w] },
		func(e *encoder, l []int) [][]int { return [][]int{{l[0]}, {-l[1]}} },
		func(v []Val) bool { return v[0] == V1 && v[1] != V1 })
}

// Disjoint reports whether p and q are mutually exclusive, p × q of
// Definition 5.4: no state makes both evaluate to 1. Well-exclusivity
// (Definition 5.5) is Disjoint for each pair of a γ's predicates.
func Disjoint(p, q *Pred) (Result, error) {
	return ask("disjoint", []*Pred{p, q},
		func(o [][]uint64, _ [][]uint64, w int) uint64 { return o[0][w] & o[1][w] },
		func(e *encoder, l []int) [][]int { return [][]int{{l[0]}, {l[1]}} },
		func(v []Val) bool { return v[0] == V1 && v[1] == V1 })
}

// WellExclusive reports whether gates are pairwise mutually exclusive:
// Definition 5.5 for one γ (its gates are P_d,n for the predecessors n of
// its node). When they are not, Pair names the first overlapping pair,
// by index, and Counter a state where both are 1. Over at most
// tableAtoms atoms in all, one truth table serves every pair.
func WellExclusive(gates []*Pred) (Result, error) {
	regs, err := scan(gates)
	if err != nil {
		return Result{}, fmt.Errorf("pred: well-exclusive: %v", err)
	}
	if len(regs) > tableLimit {
		all := Result{Holds: true, Evidence: ByTable}
		for i := range gates {
			for j := i + 1; j < len(gates); j++ {
				r, err := Disjoint(gates[i], gates[j])
				if err != nil || !r.Holds {
					r.Pair = [2]int{i, j}
					return r, err
				}
				if r.Evidence == ByRUP {
					all.Evidence = ByRUP
					all.Lemmas += r.Lemmas
				}
			}
		}
		return all, nil
	}
	t := newTable(regs)
	ones := make([][]uint64, len(gates))
	for i, g := range gates {
		ones[i], _ = t.eval(g)
	}
	both := make([]uint64, t.words)
	for i := range gates {
		for j := i + 1; j < len(gates); j++ {
			for w := range both {
				both[w] = ones[i][w] & ones[j][w]
			}
			both[len(both)-1] &= t.last // bits past 3^k are no state
			if st, found := t.first(both); found {
				r := Result{Evidence: ByTable, Counter: st, Pair: [2]int{i, j}}
				memo := map[*Pred]Val{}
				env := stateEnv(st)
				if evalShared(gates[i], env, memo) != V1 || evalShared(gates[j], env, memo) != V1 {
					return Result{}, fmt.Errorf("pred: well-exclusive: the counterexample %v does not make gates %d and %d both 1", st, i, j)
				}
				return r, nil
			}
		}
	}
	return Result{Holds: true, Evidence: ByTable}, nil
}

// Equivalent reports whether p and q have the same three-valued value in
// every state: the contract of Simplify.
func Equivalent(p, q *Pred) (Result, error) {
	return ask("equivalent", []*Pred{p, q},
		func(o [][]uint64, z [][]uint64, w int) uint64 {
			return (o[0][w] ^ o[1][w]) | (z[0][w] ^ z[1][w])
		},
		func(e *encoder, l []int) [][]int {
			return [][]int{{e.xor(l[0], l[1]), e.xor(l[2], l[3])}}
		},
		func(v []Val) bool { return v[0] != v[1] })
}

// CoherentAt is COHSDOM of Definition 5.2 for a node j strictly dominated
// by i: (⋁_k P_i,k ∧ c_k,j)↓j ⟹ P_i,j, where k ranges over j's
// predecessors, ins[k] is P_i,k, conds[k] is c_k,j (the atom or negated
// atom of k's branch to j, True when k goes to j unconditionally), pij is
// P_i,j and definedAtJ says which registers are defined at j (their atoms
// are projected to True).
func CoherentAt(ins, conds []*Pred, pij *Pred, definedAtJ func(cfg.Reg) bool) (Result, error) {
	if len(ins) != len(conds) {
		return Result{}, fmt.Errorf("pred: CoherentAt: %d predecessor predicates but %d edge conditions", len(ins), len(conds))
	}
	paths := make([]*Pred, len(ins))
	for k := range ins {
		paths[k] = NewAnd(ins[k], conds[k])
	}
	return Implies(Project(NewOr(paths...), definedAtJ), pij)
}

// Project is p↓j (section 5.2): every atom whose register drop says is
// defined at j, and its negation, is replaced by True. Above such atoms p
// is put in negation normal form (De Morgan's laws hold in this logic),
// so that "the negation of an atom" is a literal ¬c as in figure 5,
// whose projection is True, not ¬True.
func Project(p *Pred, drop func(cfg.Reg) bool) *Pred { return NewProjection(drop).Of(p) }

// Projection computes Project(p, drop) for many p with one drop (the
// projections at one block), sharing the work on their common subterms:
// each node is examined once, and projected once per polarity.
type Projection struct {
	drop    func(cfg.Reg) bool
	may     func(*Pred) bool // if set and false, the node holds no atom to drop
	touched map[*Pred]bool   // whether a node holds an atom to drop
	memo    map[encKey]*Pred // the projection of a node, by polarity
}

// NewProjection returns the projection that replaces the atoms drop says
// are defined at the node, and their negations, by True.
func NewProjection(drop func(cfg.Reg) bool) *Projection {
	return &Projection{drop: drop, touched: map[*Pred]bool{}, memo: map[encKey]*Pred{}}
}

// NewProjectionFiltered is NewProjection for a caller that knows, by a
// summary kept for many projections, which nodes may hold an atom to
// drop: may(p) false promises that none under p does, and p is then
// not walked. A may that breaks its promise makes the result wrong.
func NewProjectionFiltered(drop func(cfg.Reg) bool, may func(*Pred) bool) *Projection {
	j := NewProjection(drop)
	j.may = may
	return j
}

// Of is Project(p, drop).
func (j *Projection) Of(p *Pred) *Pred {
	// A subterm with no atom to drop is kept as it is (under a ¬ when
	// reached with negative polarity): the result shares it with p.
	if !j.mark(p) {
		return p
	}
	return j.walk(p, true)
}

func (j *Projection) mark(p *Pred) bool {
	if p == nil || j.drop == nil || j.may != nil && !j.may(p) {
		return false // nothing to drop; a nil is reported by the questions
	}
	if t, ok := j.touched[p]; ok {
		return t
	}
	t := p.Kind == Atom && j.drop(p.Reg)
	for _, a := range p.Args {
		t = j.mark(a) || t
	}
	j.touched[p] = t
	return t
}

func (j *Projection) walk(p *Pred, pos bool) *Pred {
	k := encKey{p, pos}
	if r, ok := j.memo[k]; ok {
		return r
	}
	var r *Pred
	switch {
	case !j.touched[p] && pos:
		r = p
	case !j.touched[p]:
		r = NewNot(p)
	}
	if r != nil {
		j.memo[k] = r
		return r
	}
	switch p.Kind {
	case True, False:
		r = p
		if !pos {
			r = Const(dual(p.Kind))
		}
	case Atom:
		switch {
		case j.drop(p.Reg):
			r = Const(True)
		case pos:
			r = p
		default:
			r = NewNot(p)
		}
	case Not:
		if len(p.Args) == 1 {
			r = j.walk(p.Args[0], !pos)
		} else {
			r = Const(Undef)
		}
	case And, Or:
		args := make([]*Pred, len(p.Args))
		for i, a := range p.Args {
			args[i] = j.walk(a, pos)
		}
		if (p.Kind == And) == pos {
			r = NewAnd(args...)
		} else {
			r = NewOr(args...)
		}
	default:
		r = Const(Undef)
	}
	j.memo[k] = r
	return r
}

// tableLimit is the most atoms a question decided by truth tables has:
// tableAtoms, or -1 in tests that make every question go to the solver.
var tableLimit = tableAtoms

// scan checks that ps are well formed (no nil predicate, a ¬ with one
// operand, known kinds: what Eval and the encodings would read
// differently) and lists the registers of their atoms in the order met.
func scan(ps []*Pred) ([]cfg.Reg, error) {
	var regs []cfg.Reg
	var seen map[cfg.Reg]bool
	visited := map[*Pred]bool{}
	var walk func(p *Pred) error
	walk = func(p *Pred) error {
		if p == nil {
			return fmt.Errorf("nil predicate")
		}
		if visited[p] {
			return nil
		}
		visited[p] = true
		switch p.Kind {
		case False, True, Undef, And, Or:
		case Atom:
			// A linear search while there are few atoms, a map after.
			switch {
			case seen != nil:
				if !seen[p.Reg] {
					seen[p.Reg] = true
					regs = append(regs, p.Reg)
				}
			case !slices.Contains(regs, p.Reg):
				regs = append(regs, p.Reg)
				if len(regs) == 16 {
					seen = map[cfg.Reg]bool{}
					for _, r := range regs {
						seen[r] = true
					}
				}
			}
		case Not:
			if len(p.Args) != 1 {
				return fmt.Errorf("¬ with %d operands", len(p.Args))
			}
		default:
			return fmt.Errorf("predicate of unknown kind %d", p.Kind)
		}
		for _, a := range p.Args {
			if err := walk(a); err != nil {
				return err
			}
		}
		return nil
	}
	for _, p := range ps {
		if err := walk(p); err != nil {
			return nil, err
		}
	}
	return regs, nil
}

// atomsOf lists the registers of ps's atoms, for tests.
func atomsOf(ps []*Pred) []cfg.Reg {
	regs, _ := scan(ps)
	return regs
}

// ask decides whether no state is bad. tableBad gives word w of the bad
// states from the predicates' truth tables (states where each is 1, where
// each is 0); assert gives the clauses saying "bad" from the literals
// T(p0), T(p1), ..., F(p0), F(p1), ...; bad says whether values of the
// predicates (by Eval) are bad, to confirm a counterexample.
func ask(what string, ps []*Pred,
	tableBad func(one, zero [][]uint64, w int) uint64,
	assert func(e *encoder, lits []int) [][]int,
	bad func([]Val) bool) (Result, error) {
	regs, err := scan(ps)
	if err != nil {
		return Result{}, fmt.Errorf("pred: %s: %v", what, err)
	}
	var res Result
	var counter map[cfg.Reg]Val
	if len(regs) <= tableLimit {
		t := newTable(regs)
		one, zero := make([][]uint64, len(ps)), make([][]uint64, len(ps))
		for i, p := range ps {
			one[i], zero[i] = t.eval(p)
		}
		v := make([]uint64, t.words)
		for w := range v {
			v[w] = tableBad(one, zero, w)
		}
		v[len(v)-1] &= t.last
		res.Evidence = ByTable
		counter, res.Holds = t.first(v)
		res.Holds = !res.Holds
	} else {
		e := newEncoder()
		lits := make([]int, 2*len(ps))
		for i, p := range ps {
			lits[i] = e.lit(p, true)
			lits[len(ps)+i] = e.lit(p, false)
		}
		e.cnf.Clauses = append(e.cnf.Clauses, assert(e, lits)...)
		model, proof, err := solveCNF(e.cnf)
		if err != nil {
			return Result{}, fmt.Errorf("pred: %s: %v", what, err)
		}
		if model == nil {
			return Result{Holds: true, Evidence: ByRUP, Lemmas: len(proof)}, nil
		}
		res.Evidence = ByModel
		counter = e.state(model)
	}
	if res.Holds {
		return res, nil
	}
	vals := make([]Val, len(ps))
	env := stateEnv(counter)
	memo := map[*Pred]Val{}
	for i, p := range ps {
		vals[i] = evalShared(p, env, memo)
	}
	if !bad(vals) {
		return Result{}, fmt.Errorf("pred: %s: the counterexample %v does not falsify the property (values %v)", what, counter, vals)
	}
	res.Counter = counter
	return res, nil
}

// evalShared is Eval computing each node of p's DAG once: Eval on a
// predicate whose subterms are shared is exponential in the worst case
// (the joins of diamonds in sequence, TestSimplifySharing).
func evalShared(p *Pred, env func(cfg.Reg) (int64, bool), memo map[*Pred]Val) Val {
	if v, ok := memo[p]; ok {
		return v
	}
	var v Val
	switch p.Kind {
	case Not:
		v = V1 - evalShared(p.Args[0], env, memo)
	case And:
		v = V1
		for _, a := range p.Args {
			v = min(v, evalShared(a, env, memo))
		}
	case Or:
		v = V0
		for _, a := range p.Args {
			v = max(v, evalShared(a, env, memo))
		}
	default:
		v = Eval(p, env)
	}
	memo[p] = v
	return v
}

// stateEnv is the register environment of a state: 1 and 0 are defined
// registers holding 1 and 0, ½ an undefined one.
func stateEnv(s map[cfg.Reg]Val) func(cfg.Reg) (int64, bool) {
	return func(r cfg.Reg) (int64, bool) {
		switch s[r] {
		case V1:
			return 1, true
		case V0:
			return 0, true
		}
		return 0, false
	}
}
