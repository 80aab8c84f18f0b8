package pred

import (
	"fmt"
	"testing"

	"son/cfg"
)

// chainGates are the γ predicates of an else-if chain of n conditions
// (n+1 arms): arm i is ¬c1 ∧ ... ∧ ¬c(i-1) ∧ ci, the last arm all negated.
// The shape a switch or an else-if ladder gives, and the widest common
// query: its atoms grow with the chain.
func chainGates(n int) []*Pred {
	gates := make([]*Pred, n+1)
	var prefix []*Pred
	for i := range n + 1 {
		c := Cond(cfg.Reg(i + 1))
		if i == n {
			gates[i] = NewAnd(prefix...)
			break
		}
		gates[i] = NewAnd(append(append([]*Pred(nil), prefix...), c)...)
		prefix = append(prefix, NewNot(c))
	}
	return gates
}

// BenchmarkDisjoint is one well-exclusivity query between the first and
// the last arm of an else-if chain of n conditions (n atoms; the table up
// to 6, the solver with its certificate checked above).
func BenchmarkDisjoint(b *testing.B) {
	for _, n := range []int{2, 4, 6, 7, 8, 9, 12, 24, 48} {
		g := chainGates(n)
		b.Run(fmt.Sprintf("atoms=%d", n), func(b *testing.B) {
			for b.Loop() {
				if r, err := Disjoint(g[0], g[n]); err != nil || !r.Holds {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// BenchmarkCoherent is COHSDOM at the join of an else-if chain of n
// conditions: the n+1 arms imply the join's predicate, True.
func BenchmarkCoherent(b *testing.B) {
	for _, n := range []int{2, 6, 12, 48} {
		g := chainGates(n)
		edges := make([]*Pred, len(g))
		for i := range edges {
			edges[i] = Const(True)
		}
		none := func(cfg.Reg) bool { return false }
		// The join's predicate as the construction would write it
		// before simplification: the disjunction of the arms.
		join := NewOr(g...)
		b.Run(fmt.Sprintf("atoms=%d", n), func(b *testing.B) {
			for b.Loop() {
				if r, err := CoherentAt(g, edges, join, none); err != nil || !r.Holds {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// BenchmarkSimplify simplifies the join predicate of n if-then-else
// diamonds in sequence (a DAG whose tree has 2^n leaves).
func BenchmarkSimplify(b *testing.B) {
	for _, n := range []int{4, 16, 64} {
		p := Cond(1000)
		for i := range n {
			x := Cond(cfg.Reg(i + 1))
			p = NewOr(NewAnd(p, x), NewAnd(p, NewNot(x)))
		}
		b.Run(fmt.Sprintf("diamonds=%d", n), func(b *testing.B) {
			for b.Loop() {
				Simplify(p)
			}
		})
	}
}

// BenchmarkCheckRUP checks gophersat's certificate for the pigeonhole
// formula PHP(n+1, n) (the solver runs outside the timing).
func BenchmarkCheckRUP(b *testing.B) {
	for _, n := range []int{4, 5, 6} {
		f := pigeonhole(n)
		_, proof, err := solveCNF(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("php=%d/lemmas=%d", n, len(proof)), func(b *testing.B) {
			for b.Loop() {
				if err := CheckRUP(f, proof); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
