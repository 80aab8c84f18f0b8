package pred

import (
	"fmt"
	"math/rand"
	"testing"

	"son/cfg"
)

// genPreds reads two predicates over 1 to 9 atoms from data (both sides
// of tableAtoms, so both the tables and the solver are exercised).
func genPreds(data []byte) (p, q *Pred) {
	i := 0
	next := func() int {
		if i >= len(data) {
			return 0
		}
		i++
		return int(data[i-1])
	}
	atoms := next()%9 + 1
	var gen func(depth int) *Pred
	gen = func(depth int) *Pred {
		k := next() % 10
		switch {
		case depth < 2:
			k = 6 + k%4 // ¬, ∧, ∨ near the root
		case depth >= 5:
			k = 3
		}
		switch k {
		case 0:
			return Const(False)
		case 1:
			return Const(True)
		case 2:
			return Const(Undef)
		case 3, 4, 5:
			return Cond(cfg.Reg(next()%atoms + 1))
		case 6:
			return NewNot(gen(depth + 1))
		}
		args := make([]*Pred, next()%4+1)
		for j := range args {
			args[j] = gen(depth + 1)
		}
		if k < 8 {
			return NewAnd(args...)
		}
		return NewOr(args...)
	}
	return gen(0), gen(0)
}

// bruteForce evaluates ps by Eval in every state of their atoms, calling
// f with the values; it stops when f returns false.
func bruteForce(ps []*Pred, f func(st map[cfg.Reg]Val, vals []Val) bool) {
	regs := atomsOf(ps)
	n := 1
	for range regs {
		n *= 3
	}
	vals := make([]Val, len(ps))
	memo := map[*Pred]Val{}
	for s := range n {
		st := map[cfg.Reg]Val{}
		d := s
		for _, r := range regs {
			st[r] = Val(d % 3)
			d /= 3
		}
		env := stateEnv(st)
		clear(memo)
		for i, p := range ps {
			vals[i] = Eval(p, env)
			if v := evalShared(p, env, memo); v != vals[i] {
				panic(fmt.Sprintf("evalShared(%v) = %v, Eval %v in %v", p, v, vals[i], st))
			}
		}
		if !f(st, vals) {
			return
		}
	}
}

// checkQuestions answers each question on the predicates of data by
// tables and by the solver (its certificates checked, or its model) and
// compares with brute force; it also checks the table evaluator against
// Eval and both simplifiers' contracts.
func checkQuestions(t *testing.T, data []byte) {
	p, q := genPreds(data)
	defer func(l int) { tableLimit = l }(tableLimit)
	questions := []struct {
		name string
		ask  func(p, q *Pred) (Result, error)
		bad  func(v []Val) bool
	}{
		{"valid", func(p, _ *Pred) (Result, error) { return Valid(p) }, func(v []Val) bool { return v[0] != V1 }},
		{"unsat", func(p, _ *Pred) (Result, error) { return Unsat(p) }, func(v []Val) bool { return v[0] == V1 }},
		{"implies", Implies, func(v []Val) bool { return v[0] == V1 && v[1] != V1 }},
		{"disjoint", Disjoint, func(v []Val) bool { return v[0] == V1 && v[1] == V1 }},
		{"equivalent", Equivalent, func(v []Val) bool { return v[0] != v[1] }},
	}
	for _, qu := range questions {
		want := true
		bruteForce([]*Pred{p, q}, func(_ map[cfg.Reg]Val, v []Val) bool {
			want = !qu.bad(v)
			return want
		})
		for _, limit := range []int{tableAtoms, -1} {
			tableLimit = limit
			r, err := qu.ask(p, q)
			if err != nil {
				t.Fatalf("%s(%v, %v) limit %d: %v", qu.name, p, q, limit, err)
			}
			if r.Holds != want {
				t.Fatalf("%s(%v, %v) limit %d: holds = %v, brute force %v", qu.name, p, q, limit, r.Holds, want)
			}
		}
	}
	// The structural rules are sound: a derivation only where the
	// question holds.
	for _, pq := range [][2]*Pred{{p, q}, {q, p}, {p, NewOr(p, q)}, {NewAnd(p, q), q}} {
		if Entails(pq[0], pq[1]) {
			bruteForce(pq[:], func(st map[cfg.Reg]Val, v []Val) bool {
				if v[0] == V1 && v[1] != V1 {
					t.Fatalf("Entails(%v, %v) but not in %v", pq[0], pq[1], st)
				}
				return true
			})
		}
		if Excludes(pq[0], pq[1]) {
			bruteForce(pq[:], func(st map[cfg.Reg]Val, v []Val) bool {
				if v[0] == V1 && v[1] == V1 {
					t.Fatalf("Excludes(%v, %v) but both 1 in %v", pq[0], pq[1], st)
				}
				return true
			})
		}
	}
	// The projections of one Projection, shared over p and q, and of one
	// told by an exact filter which nodes hold an atom to drop, are
	// Project's, node for node.
	v := NewProver()
	drop := func(r cfg.Reg) bool { return r%2 == 0 }
	holds := func(x *Pred) bool {
		for _, r := range atomsOf([]*Pred{x}) {
			if drop(r) {
				return true
			}
		}
		return false
	}
	shared, filtered := NewProjection(drop), NewProjectionFiltered(drop, holds)
	for _, x := range []*Pred{p, q, NewOr(q, p)} {
		want := Project(x, drop)
		for _, got := range []*Pred{shared.Of(x), filtered.Of(x)} {
			if !v.Equal(got, want) {
				t.Fatalf("projection of %v: %v, Project %v", x, got, want)
			}
		}
	}
	gates := []*Pred{p, q, NewNot(p)}
	want := true
	bruteForce(gates, func(_ map[cfg.Reg]Val, v []Val) bool {
		n := 0
		for _, x := range v {
			if x == V1 {
				n++
			}
		}
		want = n < 2
		return want
	})
	for _, limit := range []int{tableAtoms, -1} {
		tableLimit = limit
		r, err := WellExclusive(gates)
		if err != nil || r.Holds != want {
			t.Fatalf("WellExclusive(%v) limit %d: %+v, %v; brute force %v", gates, limit, r, err, want)
		}
	}
	tableLimit = tableAtoms
	if regs := atomsOf([]*Pred{p}); len(regs) <= tableAtoms {
		tb := newTable(regs)
		one, zero := tb.eval(p)
		s := 0
		bruteForce([]*Pred{p}, func(_ map[cfg.Reg]Val, v []Val) bool {
			bit := func(x []uint64) bool { return x[s/64]>>(s%64)&1 == 1 }
			if bit(one) != (v[0] == V1) || bit(zero) != (v[0] == V0) {
				t.Fatalf("table of %v in state %d: 1 %v 0 %v, Eval %v", p, s, bit(one), bit(zero), v[0])
			}
			s++
			return true
		})
	}
	sp, gp := Simplify(p), SimplifyGate(p)
	if Size(sp) > 2*Size(p) {
		t.Fatalf("Simplify(%v) = %v grew from %d to %d nodes", p, sp, Size(p), Size(sp))
	}
	bruteForce([]*Pred{p, sp, gp}, func(st map[cfg.Reg]Val, v []Val) bool {
		if v[0] != v[1] {
			t.Fatalf("Simplify(%v) = %v: %v instead of %v in %v", p, sp, v[1], v[0], st)
		}
		if (v[0] == V1) != (v[2] == V1) {
			t.Fatalf("SimplifyGate(%v) = %v: %v instead of %v in %v", p, gp, v[2], v[0], st)
		}
		return true
	})
}

func FuzzQuestions(f *testing.F) {
	f.Add([]byte{2, 7, 3, 0, 6, 3, 0})
	f.Add([]byte{8, 9, 2, 8, 1, 3, 4, 7, 9, 2, 3, 5, 6, 8, 2, 3, 1, 4, 2})
	f.Fuzz(checkQuestions)
}

// TestRandomQuestions runs checkQuestions on random inputs, so that the
// fuzz target's checks run with every go test.
func TestRandomQuestions(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	n := 250
	if testing.Short() {
		n = 50
	}
	for range n {
		data := make([]byte, 200)
		rng.Read(data)
		checkQuestions(t, data)
	}
}
