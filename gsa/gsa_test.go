package gsa_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"son/cfg"
	"son/compile"
	"son/gsa"
	"son/loops"
	"son/pred"
	"son/ref"
	"son/syntax"
)

// build compiles the program file through gvn, prepares its loops and
// builds its GSA form; it returns the prepared SSA function too.
func build(t *testing.T, file string) (*cfg.Func, *gsa.Func) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	u, err := compile.Compile(file, src, compile.Options{StopAfter: "gvn"})
	if err != nil {
		t.Fatal(err)
	}
	f := u.Func
	if err := loops.Prepare(f); err != nil {
		t.Fatal(err)
	}
	g, err := gsa.Build(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, g
}

// reference is ref.Run's result of the program file on arg.
func reference(t *testing.T, file string, arg int64) int64 {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ast, err := syntax.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ref.Run(ast, arg, ref.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const figure2 = "testdata/figure2.smp"

// TestFigure2 is paper 004's running example: the exact GSA form, μs at
// the loop header, γs at the two junctions of the if-else chain, ηs at
// the exit, and the predicate matrix entries the code uses.
func TestFigure2(t *testing.T) {
	f, g := build(t, figure2)
	want := `func testdata/figure2.smp level GSA
; predicates: size 17 over 11 blocks, 1.55 per block
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 1
	v15 = Const 9
	v21 = Const 2
	v24 = Const 50
	jump b2
b2:  ; preds b1 b9, depth 1
	v8 = μ(v6, v38)
	v9 = μ(v6, v39)
	v10 = Lt v9 v4           ; line 7
	branch v10 b3 b11        ; line 7
b3:  ; preds b2, depth 1
	v16 = Lt v8 v15          ; line 8
	branch v16 b4 b5         ; line 8
b4:  ; preds b3, depth 1
	v22 = Add v8 v21         ; line 8
	jump b9
b5:  ; preds b3, depth 1
	v25 = Lt v24 v8          ; line 9
	branch v25 b6 b7         ; line 9
b6:  ; preds b5, depth 1
	v30 = Add v8 v6          ; line 9
	jump b8
b7:  ; preds b5, depth 1
	v32 = Mul v8 v21         ; line 10
	jump b8
b8:  ; preds b6 b7, depth 1, predicate size 3
	v35 = γ(v8 > 50: v30, ¬(v8 > 50): v32)
	jump b9
b9:  ; preds b4 b8, depth 1, predicate size 8
	v38 = γ(v8 < 9: v22, ¬(v8 < 9) ∧ (v8 > 50 ∨ ¬(v8 > 50)): v35)
	v39 = Add v9 v6          ; line 7
	jump b2
b11:  ; preds b2, depth 0, predicate size 6
	v40 = η(¬(v9 < v4): v8)
	v41 = η(¬(v9 < v4): v8)
	v42 = η(¬(v9 < v4): v9)
	jump b10
b10:  ; preds b11, depth 0
	return v40               ; line 11
`
	if got := gsa.Print(g); got != want {
		t.Errorf("GSA:\n%s\nwant:\n%s", got, want)
	}
	wantP := `P(b2, b11) = ¬(v9 < v4)
P(b3, b4) = v8 < 9
P(b3, b8) = ¬(v8 < 9) ∧ (v8 > 50 ∨ ¬(v8 > 50))
P(b5, b6) = v8 > 50
P(b5, b7) = ¬(v8 > 50)
`
	if got := gsa.PrintMatrix(g); got != wantP {
		t.Errorf("matrix:\n%s\nwant:\n%s", got, wantP)
	}
	// R: the μs v8 and v9 are copied at the exit b11 by v41 and v42
	// (v40 is the loop-closed form's copy of v8, not fresh).
	if got := len(g.Rename); got != 2 {
		t.Errorf("R has %d registers, want 2: %v", got, g.Rename)
	}
	for _, mu := range []cfg.Reg{8, 9} {
		if rs := g.Rename[mu]; len(rs) != 1 || g.Code.Blocks[rs[0].At].ID != 11 {
			t.Errorf("R(%v) = %v, want one η at b11", mu, rs)
		}
	}
	if err := gsa.Check(f, g); err != nil {
		t.Errorf("Check: %v", err)
	}
	for _, arg := range []int64{-3, 0, 1, 2, 5, 8, 10, 40} {
		want := reference(t, figure2, arg)
		got, err := gsa.Run(g, arg, cfg.Limits{})
		if err != nil || got != want {
			t.Errorf("gsa.Run(%d) = %d, %v; want %d", arg, got, err, want)
		}
	}
}

// TestRoundTripSize: on every program of testdata/, examples/ and bench/,
// the SSA function back from GSA has no more Phis and instructions than
// the prepared one (a one-argument Phi of a pad becomes a Copy, or
// nothing if unused; the ηs of μs, which nothing uses, leave nothing),
// and is well formed.
func TestRoundTripSize(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata", "../examples", "../bench"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.smp"))
		files = append(files, fs...)
	}
	size := func(f *cfg.Func) (n int) {
		for _, b := range f.Blocks {
			n += len(b.Phis) + len(b.Instrs)
		}
		return n
	}
	etas := 0
	for _, file := range files {
		f, g := build(t, file)
		for _, rs := range g.Rename {
			etas += len(rs)
		}
		back, err := gsa.ToSSA(g)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := cfg.Verify(back); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if a, b := size(f), size(back); b > a {
			t.Errorf("%s: %d Phis and instructions before, %d after the round trip", file, a, b)
		}
	}
	if etas == 0 {
		t.Fatal("no η of a μ in any program")
	}
}

// TestRoundTrip translates figure 2 back to SSA: well formed, the same
// results, Phis where the merges were and copies for the ηs.
func TestRoundTrip(t *testing.T) {
	_, g := build(t, figure2)
	back, err := gsa.ToSSA(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Verify(back); err != nil {
		t.Fatal(err)
	}
	text := cfg.Print(back)
	for _, line := range []string{"v8 = Phi v6 v38", "v38 = Phi v22 v35", "v35 = Phi v30 v32", "v40 = Copy v8"} {
		if !strings.Contains(text, "\t"+line) {
			t.Errorf("no %q in\n%s", line, text)
		}
	}
	// The ηs of the μs v8 and v9 (v41, v42) are used by nothing: their
	// Copies are gone.
	for _, line := range []string{"v41 = Copy", "v42 = Copy"} {
		if strings.Contains(text, "\t"+line) {
			t.Errorf("dead %q in\n%s", line, text)
		}
	}
	for _, arg := range []int64{0, 3, 10} {
		want := reference(t, figure2, arg)
		if got, err := cfg.Run(back, arg, cfg.Limits{}); err != nil || got != want {
			t.Errorf("cfg.Run(%d) = %d, %v; want %d", arg, got, err, want)
		}
	}
	// The γ's arguments are found by their predicates, not their order.
	m := mergeOf(t, g, 38)
	m.Args[0], m.Args[1] = m.Args[1], m.Args[0]
	m.Preds = []*pred.Pred{m.Preds[1], m.Preds[0]}
	back2, err := gsa.ToSSA(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cfg.Print(back2), "\tv38 = Phi v22 v35") {
		t.Errorf("γ arguments swapped: the Phi changed:\n%s", cfg.Print(back2))
	}
	m.Preds = []*pred.Pred{pred.Cond(25), pred.Cond(25)}
	if _, err := gsa.ToSSA(g); err == nil || err.Error() != "gsa.ToSSA: b9: v38 = γ: no argument is guarded by predecessor b4's predicate r16" {
		t.Errorf("wrong predicates: got %v", err)
	}
}

// mergeOf returns the merge instruction defining r.
func mergeOf(t *testing.T, g *gsa.Func, r cfg.Reg) *gsa.Merge {
	t.Helper()
	for _, ms := range g.Merges {
		for _, m := range ms {
			if m.Dst == r {
				return m
			}
		}
	}
	t.Fatalf("no merge defines %v", r)
	return nil
}

// TestRunSemantics checks figure 7's rules where they differ from SSA's:
// a γ selects by predicate, the first that is 1, whatever the edge; an
// atom over a register without a value is ½; an η whose predicate is not
// 1 is stuck.
func TestRunSemantics(t *testing.T) {
	_, g := build(t, figure2)
	m := mergeOf(t, g, 38) // v38 = γ(v8 < 9: v22, ...: v35)
	// Swapped pairs: the same selection.
	m.Args[0], m.Args[1] = m.Args[1], m.Args[0]
	m.Preds[0], m.Preds[1] = m.Preds[1], m.Preds[0]
	if got, err := gsa.Run(g, 10, cfg.Limits{}); err != nil || got != 74 {
		t.Errorf("swapped γ pairs: got %d, %v; want 74", got, err)
	}
	// The first argument whose predicate is 1 wins over a later True:
	// the same selection as before.
	m.Preds = []*pred.Pred{pred.NewNot(pred.Cond(16)), pred.Const(pred.True)}
	if got, err := gsa.Run(g, 10, cfg.Limits{}); err != nil || got != 74 {
		t.Errorf("γ(¬(v8 < 9): v35, True: v22): got %d, %v; want 74", got, err)
	}
	// An atom over v42, which has no value inside the loop, is ½: the γ
	// passes over it to the next argument, v22, whatever the edge: x + 2
	// up to 9, then v22's stale value 9 once x < 9 fails and b4 no longer
	// runs.
	m.Preds = []*pred.Pred{pred.Cond(42), pred.Const(pred.True)}
	if got, err := gsa.Run(g, 10, cfg.Limits{}); err != nil || got != 9 {
		t.Errorf("γ(v42 ≠ 0: v35, True: v22): got %d, %v; want 9", got, err)
	}
	m.Preds = []*pred.Pred{pred.Cond(42), pred.NewNot(pred.Cond(42))}
	_, err := gsa.Run(g, 3, cfg.Limits{})
	if err == nil || err.Error() != "gsa.Run: b9: v38 = γ: no predicate evaluates to 1 (coming from b4)" {
		t.Errorf("γ of ½ predicates: got %v", err)
	}
	// An η whose predicate is ½.
	_, g = build(t, figure2)
	for _, es := range g.Etas {
		for _, e := range es {
			e.Pred = pred.NewAnd(e.Pred, pred.Cond(42))
		}
	}
	_, err = gsa.Run(g, 3, cfg.Limits{})
	if err == nil || !strings.HasPrefix(err.Error(), "gsa.Run: b11: v40 = η(¬(r10) ∧ r42, v8): the predicate is ½, not 1") {
		t.Errorf("η of a ½ predicate: got %v", err)
	}
}

// TestRunSteps: the GSA form takes the steps of its SSA form (the same
// unit as cfg.Run) plus one per η executed, and stops at the limit.
func TestRunSteps(t *testing.T) {
	f, g := build(t, figure2)
	// Find the fewest steps each needs by bisection on the limit.
	need := func(run func(lim int64) error) int64 {
		lo, hi := int64(1), int64(10_000)
		for lo < hi {
			mid := (lo + hi) / 2
			if run(mid) == nil {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return lo
	}
	for _, arg := range []int64{0, 4, 9} {
		ssa := need(func(lim int64) error { _, err := cfg.Run(f, arg, cfg.Limits{Steps: lim}); return err })
		gs := need(func(lim int64) error { _, err := gsa.Run(g, arg, cfg.Limits{Steps: lim}); return err })
		// One exit, three ηs: the loop-closed form's Phi, which was a
		// step in SSA too, and two fresh ones.
		if gs != ssa+2 {
			t.Errorf("arg %d: %d steps in GSA, %d in SSA; want 2 more", arg, gs, ssa)
		}
		_, err := gsa.Run(g, arg, cfg.Limits{Steps: gs - 1})
		if re, ok := err.(*cfg.RuntimeError); !ok || !strings.HasPrefix(re.Msg, "step limit exceeded") {
			t.Errorf("arg %d: %d steps: got %v, want the step limit", arg, gs-1, err)
		}
	}
}

// TestDOT draws figure 2: each block a box of its printed lines, merges
// and ηs included; the back edge to the header dashed, branches labeled.
func TestDOT(t *testing.T) {
	_, g := build(t, figure2)
	text := gsa.DOT(g, "figure 2")
	for _, want := range []string{
		"digraph \"testdata/figure2.smp\" {\n\tlabel=\"figure 2\";\n",
		`n7 [label="b8:  ; preds b6 b7, depth 1, predicate size 3\l    v35 = γ(v8 > 50: v30, ¬(v8 > 50): v32)\l    jump b9\l"];`,
		"\tn8 -> n1 [style=dashed];\n",
		"\tn1 -> n9 [label=\"F\"];\n",
		`    v40 = η(¬(v9 < v4): v8)\l`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// TestPredicatesOnPrograms runs the semantic validator, with the
// brute-force solver, on the GSA form of every program of testdata/ and
// examples/: the construction's matrix is coherent and well-exclusive.
// Questions over more than 8 atoms are too large for the solver and are
// counted, not decided.
func TestPredicatesOnPrograms(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata", "../examples"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.smp"))
		files = append(files, fs...)
	}
	asked, tooLarge := 0, 0
	for _, file := range files {
		f, g := build(t, file)
		err := gsa.CheckPredicates(f, g, countingSolver{gsa.Brute{MaxAtoms: 8}, &asked})
		for _, e := range unwrap(err) {
			if errors.Is(e, gsa.ErrTooLarge) {
				tooLarge++
				continue
			}
			t.Errorf("%s: %v", file, e)
		}
	}
	if asked == 0 {
		t.Fatal("no question asked")
	}
	t.Logf("%d programs, %d questions, %d too large for the brute-force solver", len(files), asked, tooLarge)
}

type countingSolver struct {
	s gsa.Solver
	n *int
}

func (c countingSolver) Implies(p, q *pred.Pred) (bool, error) {
	*c.n++
	return c.s.Implies(p, q)
}

func (c countingSolver) Disjoint(p, q *pred.Pred) (bool, error) {
	*c.n++
	return c.s.Disjoint(p, q)
}

// unwrap lists the errors joined in err.
func unwrap(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
