package pred

import (
	"fmt"
	"strings"
	"testing"

	"son/cfg"
)

var (
	a, b, c = Cond(1), Cond(2), Cond(3)
	na, nb  = NewNot(a), NewNot(b)
	tt, ff  = Const(True), Const(False)
	undef   = Const(Undef)
)

// question is one validator question for the tables below.
type question struct {
	name  string
	ask   func() (Result, error)
	holds bool
}

// bothWays runs each question by truth tables and again by the solver
// (tableLimit -1), checking the answer, the evidence and, when the
// property fails, that the counterexample is one (ask confirms it with
// Eval; here it must also be printed the same both ways when unique).
func bothWays(t *testing.T, qs []question) {
	t.Helper()
	defer func(l int) { tableLimit = l }(tableLimit)
	for _, limit := range []int{tableAtoms, -1} {
		tableLimit = limit
		for _, q := range qs {
			r, err := q.ask()
			if err != nil {
				t.Errorf("%s (limit %d): %v", q.name, limit, err)
				continue
			}
			if r.Holds != q.holds {
				t.Errorf("%s (limit %d): holds = %v, want %v (counter %v)", q.name, limit, r.Holds, q.holds, r.Counter)
			}
			want := ByTable
			switch {
			case limit < 0 && r.Holds:
				want = ByRUP
			case limit < 0:
				want = ByModel
			}
			if r.Evidence != want {
				t.Errorf("%s (limit %d): evidence %v, want %v", q.name, limit, r.Evidence, want)
			}
			if !r.Holds && r.Counter == nil {
				t.Errorf("%s (limit %d): fails without a counterexample", q.name, limit)
			}
		}
	}
}

func TestQuestions(t *testing.T) {
	bothWays(t, []question{
		// Three-valued logic: no excluded middle, no contradiction law.
		{"valid a ∨ ¬a", func() (Result, error) { return Valid(NewOr(a, na)) }, false},
		{"valid True", func() (Result, error) { return Valid(tt) }, true},
		{"valid ¬False ∨ a", func() (Result, error) { return Valid(NewOr(NewNot(ff), a)) }, true},
		{"valid Undef", func() (Result, error) { return Valid(undef) }, false},
		{"unsat a ∧ ¬a", func() (Result, error) { return Unsat(NewAnd(a, na)) }, true},
		{"unsat Undef ∨ False", func() (Result, error) { return Unsat(NewOr(undef, ff)) }, true},
		{"unsat a ∧ ¬b", func() (Result, error) { return Unsat(NewAnd(a, nb)) }, false},
		{"unsat ¬(a ∨ ¬a)", func() (Result, error) { return Unsat(NewNot(NewOr(a, na))) }, true},
		{"implies a ⟹ a ∨ b", func() (Result, error) { return Implies(a, NewOr(a, b)) }, true},
		{"implies a ∨ b ⟹ a", func() (Result, error) { return Implies(NewOr(a, b), a) }, false},
		{"implies a ∧ ¬a ⟹ False", func() (Result, error) { return Implies(NewAnd(a, na), ff) }, true},
		{"implies (a∧b) ∨ (a∧¬b) ⟹ a", func() (Result, error) { return Implies(NewOr(NewAnd(a, b), NewAnd(a, nb)), a) }, true},
		{"implies a ⟹ (a∧b) ∨ (a∧¬b)", func() (Result, error) { return Implies(a, NewOr(NewAnd(a, b), NewAnd(a, nb))) }, false},
		{"disjoint a, ¬a", func() (Result, error) { return Disjoint(a, na) }, true},
		{"disjoint a ∨ b, ¬a", func() (Result, error) { return Disjoint(NewOr(a, b), na) }, false},
		{"disjoint Undef, True", func() (Result, error) { return Disjoint(undef, tt) }, true},
		{"equivalent a ∧ ¬a, False", func() (Result, error) { return Equivalent(NewAnd(a, na), ff) }, false},
		{"equivalent ¬(a ∧ b), ¬a ∨ ¬b", func() (Result, error) { return Equivalent(NewNot(NewAnd(a, b)), NewOr(na, nb)) }, true},
		{"equivalent a ∨ ¬a, True", func() (Result, error) { return Equivalent(NewOr(a, na), tt) }, false},
	})
}

// TestCounterexamples checks the exact state given when a property fails,
// where only one state falsifies it.
func TestCounterexamples(t *testing.T) {
	defer func(l int) { tableLimit = l }(tableLimit)
	for _, limit := range []int{tableAtoms, -1} {
		tableLimit = limit
		tests := []struct {
			name string
			r    func() (Result, error)
			want string
		}{
			{"valid a ∨ ¬a", func() (Result, error) { return Valid(NewOr(a, na)) }, "map[v1:½]"},
			{"implies (a ∨ b) ∧ ¬b ⟹ ¬a", func() (Result, error) { return Implies(NewAnd(NewOr(a, b), nb), NewNot(a)) }, "map[v1:1 v2:0]"},
			{"disjoint a ∨ b, ¬a ∧ c", func() (Result, error) { return Disjoint(NewOr(a, b), NewAnd(na, b, c)) }, "map[v1:0 v2:1 v3:1]"},
		}
		for _, tt := range tests {
			r, err := tt.r()
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(r.Counter); got != tt.want {
				t.Errorf("%s (limit %d): counter %s, want %s", tt.name, limit, got, tt.want)
			}
		}
	}
}

// TestRunningExample is paper 004's figure 2: the γ at node 12 selects
// x2, x3, x4 by the paths from node 4 through nodes 6, 9 and 11, with
// atoms r1 = x1 < 9 and r2 = x1 > 50.
func TestRunningExample(t *testing.T) {
	lt9, gt50 := Cond(1), Cond(2)
	p6 := lt9
	p9 := NewAnd(gt50, NewNot(lt9))
	p11 := NewAnd(NewNot(gt50), NewNot(lt9))
	if got, want := p9.String(), "r2 ∧ ¬(r1)"; got != want {
		t.Errorf("P4,9 = %s, want %s (figure 2c: x1 > 50 ∧ ¬(x1 < 9))", got, want)
	}
	gates := []*Pred{p6, p9, p11}
	var qs []question
	// Well-exclusivity (Definition 5.5): the three are pairwise exclusive.
	for i := range gates {
		for j := i + 1; j < len(gates); j++ {
			qs = append(qs, question{fmt.Sprintf("P4,%d × P4,%d", i, j), func() (Result, error) { return Disjoint(gates[i], gates[j]) }, true})
		}
	}
	edges := []*Pred{tt, tt, tt}
	none := func(cfg.Reg) bool { return false }
	qs = append(qs,
		// COHSDOM at node 12 with P4,12 = True: paths join there.
		question{"coh(4,12) True", func() (Result, error) { return CoherentAt(gates, edges, tt, none) }, true},
		// A P4,12 that misses the paths through 9 and 11 is not coherent.
		question{"coh(4,12) x1<9", func() (Result, error) { return CoherentAt(gates, edges, lt9, none) }, false},
		// Projecting r2 (as if defined at 12) makes P4,9 ↓ = ¬r1: still
		// implied by ¬r1, but no longer by anything that names r2.
		question{"coh projected", func() (Result, error) {
			return CoherentAt(gates[1:], edges[1:], NewNot(lt9), func(r cfg.Reg) bool { return r == 2 })
		}, true},
		question{"coh not projected", func() (Result, error) {
			return CoherentAt(gates[1:2], edges[1:2], NewAnd(NewNot(lt9), NewNot(gt50)), none)
		}, false},
		// An overlapping pair, the GSA fault "two γ predicates overlap".
		question{"overlap", func() (Result, error) { return Disjoint(p6, NewNot(gt50)) }, false},
	)
	bothWays(t, qs)
	defer func(l int) { tableLimit = l }(tableLimit)
	for _, limit := range []int{tableAtoms, -1} {
		tableLimit = limit
		if r, err := WellExclusive(gates); err != nil || !r.Holds {
			t.Errorf("WellExclusive(figure 2) limit %d: %+v, %v", limit, r, err)
		}
		r, err := WellExclusive([]*Pred{p6, p9, NewNot(gt50)})
		if err != nil || r.Holds || r.Pair != [2]int{0, 2} || fmt.Sprint(r.Counter) != "map[v1:1 v2:0]" {
			t.Errorf("WellExclusive(overlap) limit %d: %+v, %v", limit, r, err)
		}
	}
	if _, err := CoherentAt(gates, edges[:2], tt, none); err == nil || err.Error() != "pred: CoherentAt: 3 predecessor predicates but 2 edge conditions" {
		t.Errorf("CoherentAt with mismatched lengths: %v", err)
	}
}

func TestProject(t *testing.T) {
	drop2 := func(r cfg.Reg) bool { return r == 2 }
	tests := []struct {
		p    *Pred
		want string
	}{
		{NewNot(NewAnd(a, b)), "¬(r1) ∨ True"},
		{NewAnd(nb, c), "True ∧ r3"},
		{NewNot(NewNot(b)), "True"},
		{NewNot(ff), "¬(False)"}, // nothing to drop: kept as it is
		{NewNot(NewOr(NewAnd(a, c), b)), "¬(r1 ∧ r3) ∧ True"},
		{NewOr(a, undef), "r1 ∨ Undef"},
	}
	for _, tt := range tests {
		if got := Project(tt.p, drop2).String(); got != tt.want {
			t.Errorf("Project(%v) = %s, want %s", tt.p, got, tt.want)
		}
	}
}

func TestMalformed(t *testing.T) {
	bad := []struct {
		p    *Pred
		want string
	}{
		{&Pred{Kind: Not}, "pred: valid: ¬ with 0 operands"},
		{&Pred{Kind: 9}, "pred: valid: predicate of unknown kind 9"},
		{NewAnd(a, nil), "pred: valid: nil predicate"},
	}
	for _, tt := range bad {
		if _, err := Valid(tt.p); err == nil || err.Error() != tt.want {
			t.Errorf("Valid(%#v) = %v, want %q", tt.p, err, tt.want)
		}
	}
	_, err := CoherentAt([]*Pred{a, nil}, []*Pred{tt, tt}, b, nil)
	if want := "pred: implies: nil predicate"; err == nil || err.Error() != want {
		t.Errorf("CoherentAt with a nil predicate: %v, want %q", err, want)
	}
}

// TestEncodingSize checks the encoding is linear and its clauses short:
// a conjunction of 1,000 atoms becomes a tree of gates of maxGate inputs.
func TestEncodingSize(t *testing.T) {
	atoms := make([]*Pred, 1000)
	for i := range atoms {
		atoms[i] = Cond(cfg.Reg(i + 1))
	}
	e := newEncoder()
	e.lit(NewAnd(atoms...), true)
	e.lit(NewOr(atoms...), false) // F(∨) is ∧ of the same F literals
	longest := 0
	for _, c := range e.cnf.Clauses {
		longest = max(longest, len(c))
	}
	if longest > maxGate+1 {
		t.Errorf("a clause of %d literals", longest)
	}
	// 1 + 1000 atom clauses; T(∧): 125 + 16 + 2 + 1 gates of at most 9
	// clauses each; F(∨) is a different conjunction (of the f_r).
	if n := len(e.cnf.Clauses); n > 1+1000+2*144*9 {
		t.Errorf("%d clauses for 2,000 atom occurrences", n)
	}
	if r, err := Implies(NewAnd(atoms...), NewNot(NewOr(NewNot(atoms[0]), NewNot(atoms[999])))); err != nil || !r.Holds {
		t.Errorf("Implies over 1,000 atoms: %+v %v", r, err)
	}
}

// phpPred is the pigeonhole formula PHP(n+1, n) as a predicate: every
// pigeon p in some hole (an atom x_p,h), no two in one hole.
func phpPred(n int) []*Pred {
	x := func(p, h int) *Pred { return Cond(cfg.Reg(p*n + h + 1)) }
	var cs []*Pred
	for p := 0; p <= n; p++ {
		var in []*Pred
		for h := range n {
			in = append(in, x(p, h))
		}
		cs = append(cs, NewOr(in...))
	}
	for h := range n {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				cs = append(cs, NewOr(NewNot(x(p, h)), NewNot(x(q, h))))
			}
		}
	}
	return cs
}

// TestQuestionNeedsSearch is a question unit propagation does not settle:
// the solver searches, and its certificate is checked on the encoding.
func TestQuestionNeedsSearch(t *testing.T) {
	cs := phpPred(4)
	r, err := Unsat(NewAnd(cs...))
	if err != nil || !r.Holds || r.Evidence != ByRUP || r.Lemmas < 2 {
		t.Fatalf("Unsat(PHP(5,4)) = %+v, %v", r, err)
	}
	// Without the last hole clause pigeons 3 and 4 share hole 3.
	r, err = Unsat(NewAnd(cs[:len(cs)-1]...))
	if err != nil || r.Holds || r.Evidence != ByModel {
		t.Fatalf("Unsat(PHP(5,4) less a clause) = %+v, %v", r, err)
	}
	if r.Counter[cfg.Reg(3*4+3+1)] != V1 || r.Counter[cfg.Reg(4*4+3+1)] != V1 {
		t.Errorf("counterexample %v does not put pigeons 3 and 4 in hole 3", r.Counter)
	}
}

// TestTamperedCertificate alters gophersat's certificate of a question
// before it is checked: the question fails with the checker's reason.
func TestTamperedCertificate(t *testing.T) {
	defer func() { tamper = nil }()
	p := NewAnd(phpPred(4)...)
	tests := []struct {
		name   string
		tamper func([][]int) [][]int
		want   string
	}{
		{"lemmas dropped", func(l [][]int) [][]int { return l[len(l)-1:] },
			"pred: unsat: the SAT solver's certificate is rejected: rup: lemma 0 [] is not implied by unit propagation"},
		{"first lemma's literals flipped", func(l [][]int) [][]int {
			l[0] = negate(append([]int(nil), l[0]...))
			return l
		}, "pred: unsat: the SAT solver's certificate is rejected: rup: lemma 0 "},
	}
	for _, tt := range tests {
		tamper = tt.tamper
		_, err := Unsat(p)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
