package pred

import (
	"math/rand"
	"strings"
	"testing"
)

// stepped: lemma [a] then [c] then [] refute it; [¬a] is not RUP.
var stepped = CNF{Vars: 4, Clauses: [][]int{
	{1, 2}, {1, -2},
	{-1, 3, 4}, {-1, 3, -4}, {-1, -3, 4}, {-1, -3, -4},
}}

func TestCheckRUP(t *testing.T) {
	tests := []struct {
		name  string
		f     CNF
		proof [][]int
		err   string // "" when the proof must be accepted
	}{
		{"real proof", stepped, [][]int{{1}, {3}, {}}, ""},
		{"lemma with a true literal", stepped, [][]int{{1}, {1, 2}, {3}, {}}, ""},
		{"empty clause by propagation", CNF{Vars: 1, Clauses: [][]int{{1}, {-1}}}, [][]int{{}}, ""},
		{"literal flipped", stepped, [][]int{{-1}, {3}, {}}, "rup: lemma 0 [-1] is not implied by unit propagation"},
		{"lemma skipped", stepped, [][]int{{1}, {}}, "rup: lemma 1 [] is not implied by unit propagation"},
		{"no empty clause", stepped, [][]int{{1}, {3}}, "rup: the proof does not end with the empty clause"},
		{"empty proof", stepped, nil, "rup: the proof does not end with the empty clause"},
		{"empty clause too early", stepped, [][]int{{}, {1}, {3}, {}}, "rup: lemma 0 is the empty clause before the end of the proof"},
		{"clause removed", CNF{Vars: 4, Clauses: stepped.Clauses[1:]}, [][]int{{1}, {3}, {}}, "rup: lemma 0 [1] is not implied by unit propagation"},
		{"literal out of range", stepped, [][]int{{5}, {}}, "rup: lemma 0: literal 5 out of range 1..4"},
		{"bad clause", CNF{Vars: 1, Clauses: [][]int{{0}}}, [][]int{{}}, "rup: clause 0: literal 0 out of range 1..1"},
	}
	for _, tt := range tests {
		err := CheckRUP(tt.f, tt.proof)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: rejected: %v", tt.name, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.err)
		}
	}
}

// pigeonhole is PHP(n+1, n): n+1 pigeons in n holes, minimally
// unsatisfiable, so that without any one clause no refutation exists.
func pigeonhole(n int) CNF {
	v := func(p, h int) int { return p*n + h + 1 }
	f := CNF{Vars: (n + 1) * n}
	for p := 0; p <= n; p++ {
		var c []int
		for h := range n {
			c = append(c, v(p, h))
		}
		f.Clauses = append(f.Clauses, c)
	}
	for h := range n {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				f.Clauses = append(f.Clauses, []int{-v(p, h), -v(q, h)})
			}
		}
	}
	return f
}

// TestSolverCertificates runs gophersat on pigeonhole formulas: its
// certificates check, and the same certificate is rejected once any
// clause of the formula is removed (the formula is then satisfiable) or
// once its final empty clause is cut.
func TestSolverCertificates(t *testing.T) {
	for n := 2; n <= 5; n++ {
		f := pigeonhole(n)
		model, proof, err := solveCNF(f)
		if err != nil || model != nil {
			t.Fatalf("PHP(%d): model %v, err %v", n, model, err)
		}
		if n >= 4 && len(proof) < 2 {
			t.Errorf("PHP(%d): a proof of %d lemmas; unit propagation alone cannot refute it", n, len(proof))
		}
		for i := range f.Clauses {
			g := CNF{Vars: f.Vars, Clauses: append(append([][]int(nil), f.Clauses[:i]...), f.Clauses[i+1:]...)}
			if err := CheckRUP(g, proof); err == nil {
				t.Errorf("PHP(%d) without clause %d: the certificate is accepted", n, i)
			}
		}
		if err := CheckRUP(f, proof[:len(proof)-1]); err == nil || !strings.Contains(err.Error(), "empty clause") {
			t.Errorf("PHP(%d): a cut certificate gives %v", n, err)
		}
	}
}

// TestSolverRandom compares the solver's answers on random 3-CNF with
// brute force; every UNSAT answer's certificate is checked inside
// solveCNF, every SAT answer's model against the clauses.
func TestSolverRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const vars = 12
	sat, unsat := 0, 0
	for range 300 {
		f := CNF{Vars: vars}
		for range 40 + rng.Intn(30) {
			c := make([]int, 3)
			for j := range c {
				c[j] = rng.Intn(vars) + 1
				if rng.Intn(2) == 0 {
					c[j] = -c[j]
				}
			}
			f.Clauses = append(f.Clauses, c)
		}
		model, _, err := solveCNF(f)
		if err != nil {
			t.Fatal(err)
		}
		want := false
		m := make([]bool, vars+1)
		for a := 0; a < 1<<vars && !want; a++ {
			for v := 1; v <= vars; v++ {
				m[v] = a>>(v-1)&1 == 1
			}
			want = satisfies(f, m)
		}
		if (model != nil) != want {
			t.Fatalf("%v: solver says satisfiable = %v, brute force %v", f.Clauses, model != nil, want)
		}
		if want {
			sat++
		} else {
			unsat++
		}
	}
	if sat == 0 || unsat == 0 {
		t.Errorf("the random formulas are %d satisfiable, %d not: one side is untested", sat, unsat)
	}
}
