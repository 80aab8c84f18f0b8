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
// the loop header, the paper's three-argument γ at the one junction of
// the if-else chain, ηs at the exit, and the predicate matrix entries the
// code uses.
func TestFigure2(t *testing.T) {
	f, g := build(t, figure2)
	want := `func testdata/figure2.smp level GSA
; predicates: size 16 over 10 blocks, 1.60 per block
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 1
	v19 = Const 9
	v26 = Const 2
	v30 = Const 50
	jump b2
b2:  ; preds b1 b8, depth 1
	v8 = μ(v6, v46)
	v9 = μ(v6, v47)
	v10 = Lt v9 v4           ; line 7
	branch v10 b3 b10        ; line 7
b3:  ; preds b2, depth 1
	v20 = Lt v8 v19          ; line 8
	branch v20 b4 b5         ; line 8
b4:  ; preds b3, depth 1
	v27 = Add v8 v26         ; line 8
	jump b8
b5:  ; preds b3, depth 1
	v31 = Lt v30 v8          ; line 9
	branch v31 b6 b7         ; line 9
b6:  ; preds b5, depth 1
	v37 = Add v8 v6          ; line 9
	jump b8
b7:  ; preds b5, depth 1
	v40 = Mul v8 v26         ; line 10
	jump b8
b8:  ; preds b4 b6 b7, depth 1, predicate size 10
	v46 = γ(v8 < 9: v27, ¬(v8 < 9) ∧ v8 > 50: v37, ¬(v8 < 9) ∧ ¬(v8 > 50): v40)
	v47 = Add v9 v6          ; line 7
	jump b2
b10:  ; preds b2, depth 0, predicate size 6
	v48 = η(¬(v9 < v4): v8)
	v49 = η(¬(v9 < v4): v8)
	v50 = η(¬(v9 < v4): v9)
	jump b9
b9:  ; preds b10, depth 0
	return v48               ; line 11
`
	if got := gsa.Print(g); got != want {
		t.Errorf("GSA:\n%s\nwant:\n%s", got, want)
	}
	wantP := `P(b2, b10) = ¬(v9 < v4)
P(b3, b4) = v8 < 9
P(b3, b6) = ¬(v8 < 9) ∧ v8 > 50
P(b3, b7) = ¬(v8 < 9) ∧ ¬(v8 > 50)
`
	if got := gsa.PrintMatrix(g); got != wantP {
		t.Errorf("matrix:\n%s\nwant:\n%s", got, wantP)
	}
	// R: the μs v8 and v9 are copied at the exit b10 by v49 and v50
	// (v48 is the loop-closed form's copy of v8, not fresh).
	if got := len(g.Rename); got != 2 {
		t.Errorf("R has %d registers, want 2: %v", got, g.Rename)
	}
	for _, mu := range []cfg.Reg{8, 9} {
		if rs := g.Rename[mu]; len(rs) != 1 || g.Code.Blocks[rs[0].At].ID != 10 {
			t.Errorf("R(%v) = %v, want one η at b10", mu, rs)
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
	for _, line := range []string{"v8 = Phi v6 v46", "v46 = Phi v27 v37 v40", "v48 = Copy v8"} {
		if !strings.Contains(text, "\t"+line) {
			t.Errorf("no %q in\n%s", line, text)
		}
	}
	// The ηs of the μs v8 and v9 (v49, v50) are used by nothing: their
	// Copies are gone.
	for _, line := range []string{"v49 = Copy", "v50 = Copy"} {
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
	m := mergeOf(t, g, 46)
	m.Args[0], m.Args[1], m.Args[2] = m.Args[1], m.Args[2], m.Args[0]
	m.Preds = []*pred.Pred{m.Preds[1], m.Preds[2], m.Preds[0]}
	back2, err := gsa.ToSSA(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cfg.Print(back2), "\tv46 = Phi v27 v37 v40") {
		t.Errorf("γ arguments rotated: the Phi changed:\n%s", cfg.Print(back2))
	}
	m.Preds = []*pred.Pred{pred.Cond(31), pred.Cond(31), pred.Cond(31)}
	if _, err := gsa.ToSSA(g); err == nil || err.Error() != "gsa.ToSSA: b8: v46 = γ: no argument is guarded by predecessor b4's predicate r20" {
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
	m := mergeOf(t, g, 46) // v46 = γ(v8 < 9: v27, ...: v37, ...: v40)
	// Swapped pairs: the same selection.
	m.Args[0], m.Args[1] = m.Args[1], m.Args[0]
	m.Preds[0], m.Preds[1] = m.Preds[1], m.Preds[0]
	if got, err := gsa.Run(g, 10, cfg.Limits{}); err != nil || got != 74 {
		t.Errorf("swapped γ pairs: got %d, %v; want 74", got, err)
	}
	// The first argument whose predicate is 1 wins over a later True
	// (coming from b4 or b6, True holds too): the same selection as before.
	m.Preds[2] = pred.Const(pred.True)
	if got, err := gsa.Run(g, 10, cfg.Limits{}); err != nil || got != 74 {
		t.Errorf("γ(¬(v8 < 9) ∧ v8 > 50: v37, v8 < 9: v27, True: v40): got %d, %v; want 74", got, err)
	}
	// An atom over v50, which has no value inside the loop, is ½: the γ
	// passes over it to the next argument, v27, whatever the edge: x + 2
	// up to 9, then v27's stale value 9 once x < 9 fails and b4 no longer
	// runs.
	m.Preds = []*pred.Pred{pred.Cond(50), pred.Const(pred.True), pred.Const(pred.True)}
	if got, err := gsa.Run(g, 10, cfg.Limits{}); err != nil || got != 9 {
		t.Errorf("γ(v50 ≠ 0: v37, True: v27, True: v40): got %d, %v; want 9", got, err)
	}
	m.Preds = []*pred.Pred{pred.Cond(50), pred.NewNot(pred.Cond(50)), pred.Cond(50)}
	_, err := gsa.Run(g, 3, cfg.Limits{})
	if err == nil || err.Error() != "gsa.Run: b8: v46 = γ: no predicate evaluates to 1 (coming from b4)" {
		t.Errorf("γ of ½ predicates: got %v", err)
	}
	// An η whose predicate is ½.
	_, g = build(t, figure2)
	for _, es := range g.Etas {
		for _, e := range es {
			e.Pred = pred.NewAnd(e.Pred, pred.Cond(50))
		}
	}
	_, err = gsa.Run(g, 3, cfg.Limits{})
	if err == nil || !strings.HasPrefix(err.Error(), "gsa.Run: b10: v48 = η(¬(r10) ∧ r50, v8): the predicate is ½, not 1") {
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
		`n7 [label="b8:  ; preds b4 b6 b7, depth 1, predicate size 10\l    v46 = γ(v8 < 9: v27, ¬(v8 < 9) ∧ v8 > 50: v37, ¬(v8 < 9) ∧ ¬(v8 > 50): v40)\l    v47 = Add v9 v6          ; line 7\l    jump b2\l"];`,
		"\tn7 -> n1 [style=dashed];\n",
		"\tn1 -> n8 [label=\"F\"];\n",
		`    v48 = η(¬(v9 < v4): v8)\l`,
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
