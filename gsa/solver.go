package gsa

import (
	"fmt"

	"son/pred"
)

// Certified is the Solver of the pipeline, every answer proved. An
// implication between predicates equal node for node holds; otherwise
// pred's structural rules are tried (pred.Entails, pred.Excludes: a
// derivation from figure 6 at the value 1, enough for every question of
// a correct construction on our programs); a question they do not
// settle goes to pred's questions, whose answers carry their evidence —
// a truth table over every state for at most six atoms, beyond that
// gophersat's answer, an UNSAT one counting only once pred.CheckRUP
// accepts its certificate and a SAT one only once its model is
// confirmed by Eval. The solver is therefore not trusted; an answer that
// does not check is an error, never a yes. Stats, if set, counts the
// questions and how they were decided; Prover, if set, keeps the
// equalities and derivations from one question to the next (one Prover
// per validation).
type Certified struct {
	Stats   *SolverStats
	Prover  *pred.Prover // the structural rules' memory, shared by the questions; nil for none
	NoRules bool         // skip equalities and rules: every question to tables or the solver (to measure them)
}

// SolverStats counts the questions a Certified solver answered.
type SolverStats struct {
	Questions int // all of them
	ByRule    int // derived by the structural rules
	ByTable   int // decided by truth tables
	ByRUP     int // UNSAT, certificate checked
	ByModel   int // SAT, model checked
	Lemmas    int // the certificates' lemmas, in all
}

func (s Certified) rule() {
	if s.Stats != nil {
		s.Stats.Questions++
		s.Stats.ByRule++
	}
}

func (s Certified) count(r pred.Result) {
	if s.Stats == nil {
		return
	}
	s.Stats.Questions++
	switch r.Evidence {
	case pred.ByTable:
		s.Stats.ByTable++
	case pred.ByRUP:
		s.Stats.ByRUP++
		s.Stats.Lemmas += r.Lemmas
	case pred.ByModel:
		s.Stats.ByModel++
	}
}

// Implies asks pred.Implies: whenever p evaluates to 1, q does.
func (s Certified) Implies(p, q *pred.Pred) (bool, error) {
	if !s.NoRules && (s.Prover != nil && s.Prover.Equal(p, q) || s.Prover == nil && Equal(p, q)) { // p ⟹ p: the common case of a block whose row is its idom
		s.rule()
		return true, nil
	}
	if !s.NoRules && (s.Prover != nil && s.Prover.Entails(p, q) || s.Prover == nil && pred.Entails(p, q)) {
		s.rule()
		return true, nil
	}
	r, err := pred.Implies(p, q)
	if err != nil {
		return false, fmt.Errorf("implication not decided: %w", err)
	}
	s.count(r)
	return r.Holds, nil
}

// Disjoint asks pred.Disjoint: p and q never both evaluate to 1.
func (s Certified) Disjoint(p, q *pred.Pred) (bool, error) {
	if !s.NoRules && (s.Prover != nil && s.Prover.Excludes(p, q) || s.Prover == nil && pred.Excludes(p, q)) {
		s.rule()
		return true, nil
	}
	r, err := pred.Disjoint(p, q)
	if err != nil {
		return false, fmt.Errorf("exclusivity not decided: %w", err)
	}
	s.count(r)
	return r.Holds, nil
}
