package gsa_test

import (
	"testing"
	"time"

	"son/cfg"
	"son/compile"
	"son/gsa"
	"son/internal/gen"
	"son/loops"
	"son/pred"
)

// TestLarge builds the GSA form of random programs of 10,000 statements,
// of each shape: the construction stays fast and its predicates small
// (sizes logged per block, as docs/GSA.md reports them), the semantic
// validator with the certified solver accepts them in a number of questions
// linear in the blocks, and the GSA form runs to the SSA form's result.
func TestLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large programs")
	}
	for _, shape := range []gen.Shape{gen.Straight, gen.Branchy, gen.Loopy, gen.Mixed} {
		src := gen.Program(gen.Config{Seed: 1, Size: 10_000, Shape: shape})
		u, err := compile.Compile("large.smp", []byte(src), compile.Options{StopAfter: "gvn"})
		if err != nil {
			t.Fatal(err)
		}
		f := u.Func
		start := time.Now()
		if err := loops.Prepare(f); err != nil {
			t.Fatal(err)
		}
		prep := time.Since(start)
		start = time.Now()
		g, err := gsa.Build(f)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		start = time.Now()
		if err := gsa.Check(f, g); err != nil {
			t.Fatal(err)
		}
		check := time.Since(start)
		start = time.Now()
		var st gsa.SolverStats
		if err := gsa.CheckPredicates(f, g, gsa.Certified{Stats: &st, Prover: pred.NewProver()}); err != nil {
			t.Errorf("%v: %v", shape, err)
		}
		sem := time.Since(start)
		t.Logf("%v: %d questions (%d by rules, %d by tables, %d by certificates of %d lemmas, %d by models); validation %.1f× the construction",
			shape, st.Questions, st.ByRule, st.ByTable, st.ByRUP, st.Lemmas, st.ByModel, float64(check+sem)/float64(took))
		if st.Questions > 8*len(f.Blocks) {
			t.Errorf("%v: %d questions for %d blocks", shape, st.Questions, len(f.Blocks))
		}
		total, most := 0, 0
		for _, n := range gsa.Sizes(g) {
			total += n
			most = max(most, n)
		}
		t.Logf("%v: %d blocks; prepare %v, build %v, check %v; predicate size %d in all, %.2f per block, at most %d",
			shape, len(f.Blocks), prep, took, check, total, float64(total)/float64(len(f.Blocks)), most)
		if per := float64(total) / float64(len(f.Blocks)); per > 50 {
			t.Errorf("%v: predicate size %.1f per block", shape, per)
		}
		for _, arg := range []int64{0, 7} {
			want, werr := cfg.Run(f, arg, cfg.Limits{Steps: 10_000_000})
			got, err := gsa.Run(g, arg, cfg.Limits{Steps: 20_000_000})
			if (werr == nil) != (err == nil) || got != want {
				t.Errorf("%v: arg %d: gsa.Run %d, %v; cfg.Run %d, %v", shape, arg, got, err, want, werr)
			}
		}
	}
}
