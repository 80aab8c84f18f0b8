package son

import (
	"math"
	"os"
	"testing"

	"son/syntax"
	"son/types"
)

// TestQuickReguardAgrees: every division the quick test of the builder's
// reguard counts safe (someUnguarded: walkShowsSafe, from control Start
// reaches) is safe for nonZeroBelow too,
// after Build and after the peepholes.
func TestQuickReguardAgrees(t *testing.T) {
	checked := 0
	for name, f := range recyclePrograms(t) {
		g := Build(f, BuildOptions{})
		for round := range 2 {
			if round == 1 {
				if err := optimize(g); err != nil {
					continue
				}
			}
			safe := newCtrlTree(g).nonZeroBelow(g)
			reached := g.ctrlReached()
			for _, n := range g.Live() {
				if !unguarded(n) || !reached[n.In[0].ID] {
					continue
				}
				if walkShowsSafe(n) {
					checked++
					if !safe[n.ID] {
						t.Errorf("%s (round %d): %v below %v is safe by the walk up, not by nonZeroBelow", name, round, n, n.In[0])
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no division shown safe by the walk up: the test tests nothing")
	}
}

// unsafeDivisions lists the live divisions that reguard would guard: not
// right below a check of their divisor, whose type does not exclude 0,
// and not below a side that proves it is not 0 (nonZeroBelow).
func unsafeDivisions(g *Graph) []*Node {
	safe := newCtrlTree(g).nonZeroBelow(g)
	var need []*Node
	for _, n := range g.Live() {
		if !unguarded(n) || safe[n.ID] {
			continue
		}
		if c := n.In[0]; c.IsControl() && c.Op != OpIf && c.Op != OpNever && c.Op != OpReturn && c.Op != OpStop {
			need = append(need, n)
		}
	}
	return need
}

// TestBuildReguards: a generated program (seed 2370) where the build's
// foldOneSidedIfs leaves a remainder whose check went on a folded side:
// the quick test sees it, reguard gives it its check back, and the graph
// verifies.
func TestBuildReguards(t *testing.T) {
	src, err := os.ReadFile("testdata/reguard_seed2370.smp")
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("reguard_seed2370.smp", src)
	if err != nil {
		t.Fatal(err)
	}
	var before []*Node
	reguardHook = func(g *Graph) {
		before = unsafeDivisions(g)
		live := g.liveSet()
		defer g.giveMarks(live)
		if some := g.someUnguarded(live); len(before) > 0 && !some {
			t.Errorf("someUnguarded says no division needs a check, and %v does", before)
		}
	}
	defer func() { reguardHook = nil }()
	g := Build(f, BuildOptions{})
	if len(before) == 0 {
		t.Fatal("no division needed a check after foldOneSidedIfs: the test tests nothing")
	}
	if after := unsafeDivisions(g); len(after) > 0 {
		t.Errorf("after Build, %v still need a check", after)
	}
	if err := Verify(g); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// TestExcludesZeroAgrees: excludesZero, read off the relation and the
// constant, says what narrowing int by the fact says (a range without 0,
// or Top, or x != 0), for one fact and for two, which sideExcludesZero
// joins by "either".
func TestExcludesZeroAgrees(t *testing.T) {
	type fact struct {
		r rel
		c int64
	}
	byNarrowing := func(facts ...fact) bool {
		ty, ne := types.Int, false
		for _, f := range facts {
			ne = ne || f.r == relNe && f.c == 0
			ty = narrow(f.r, ty, types.Const(f.c))
		}
		return ne || ty.ExcludesZero() || ty.IsTop()
	}
	consts := []int64{math.MinInt64, math.MinInt64 + 1, -2, -1, 0, 1, 2, math.MaxInt64 - 1, math.MaxInt64}
	var facts []fact
	for _, r := range []rel{relEq, relNe, relLt, relLe, relGt, relGe} {
		for _, c := range consts {
			facts = append(facts, fact{r, c})
		}
	}
	for _, f := range facts {
		if got, want := excludesZero(f.r, f.c), byNarrowing(f); got != want {
			t.Errorf("x %d %d: excludesZero %v, narrowing %v", f.r, f.c, got, want)
		}
		for _, g := range facts {
			got := excludesZero(f.r, f.c) || excludesZero(g.r, g.c)
			if want := byNarrowing(f, g); got != want {
				t.Errorf("x %d %d and x %d %d: either %v, narrowing %v", f.r, f.c, g.r, g.c, got, want)
			}
		}
	}
}
