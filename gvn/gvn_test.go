package gvn

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"son/cfg"
	"son/internal/numbering"
)

// parse reads a function in cfg's text form and requires it well formed.
func parse(t *testing.T, text string) *cfg.Func {
	t.Helper()
	f, err := cfg.Parse(text)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if err := cfg.Verify(f); err != nil {
		t.Fatalf("input: %v", err)
	}
	return f
}

// results runs f on each argument.
func results(f *cfg.Func, args []int64) []string {
	var out []string
	for _, a := range args {
		v, err := cfg.Run(f, a, cfg.Limits{Steps: 100000})
		if err != nil {
			out = append(out, "error: "+err.Error())
		} else {
			out = append(out, strconv.FormatInt(v, 10))
		}
	}
	return out
}

// optimize runs the pass on text, requires the result well formed, equal
// to want and computing what the input computed, and returns the stats.
func optimize(t *testing.T, text, want string, args ...int64) Stats {
	t.Helper()
	f := parse(t, text)
	before := results(f, args)
	st, err := Optimize(f)
	if err != nil {
		t.Fatalf("Optimize: %v", err)
	}
	if err := cfg.Verify(f); err != nil {
		t.Fatalf("output: %v\n%s", err, cfg.Print(f))
	}
	if got := cfg.Print(f); got != want {
		t.Errorf("after gvn:\n%s\nwant:\n%s", got, want)
	}
	after := results(f, args)
	if strings.Join(before, ",") != strings.Join(after, ",") {
		t.Errorf("results %v before, %v after", before, after)
	}
	return st
}

// The loop of testdata/gvn_loop_phis.smp as gcm schedules it: i and j
// start at 0 and step by 1, so they are equal, and so are i*3 and j*3.
// Their Phis are congruent only if one assumes them so while looking at
// the back edge: the optimistic partition does; a pessimistic numbering,
// such as the graph's hash-consing, which names v9 apart from v8 until
// it has seen that v23 equals v22, which needs v9 equal to v8, does not.
const loopPhis = `func loop level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 0
	v16 = Const 3
	v21 = Const 1
	jump b2
b2:  ; preds b1 b3, depth 1
	v8 = Phi v6 v22
	v9 = Phi v6 v23
	v10 = Phi v6 v20
	v11 = Lt v8 v4
	branch v11 b3 b4
b3:  ; preds b2, depth 1
	v17 = Mul v8 v16
	v18 = Add v10 v17
	v19 = Mul v9 v16
	v20 = Add v18 v19
	v22 = Add v8 v21
	v23 = Add v21 v9
	jump b2
b4:  ; preds b2, depth 0
	return v10
`

func TestLoopInductionVariablesMerged(t *testing.T) {
	st := optimize(t, loopPhis, `func loop level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 0
	v16 = Const 3
	v21 = Const 1
	jump b2
b2:  ; preds b1 b3, depth 1
	v8 = Phi v6 v22
	v10 = Phi v6 v20
	v11 = Lt v8 v4
	branch v11 b3 b4
b3:  ; preds b2, depth 1
	v17 = Mul v8 v16
	v18 = Add v10 v17
	v20 = Add v18 v17
	v22 = Add v8 v21
	jump b2
b4:  ; preds b2, depth 0
	return v10
`, 0, 1, 5, 100)
	if want := (Stats{Replaced: 3, Copies: 3, Removed: 3}); st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
}

// TestOptimisticNumbering: the partition puts v9 with v8 and v23 (j+1,
// written 1+j) with v22 (i+1): congruent Phis of one loop, found only by
// assuming them equal first.
func TestOptimisticNumbering(t *testing.T) {
	f := parse(t, loopPhis)
	p, err := Number(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]cfg.Reg{{9, 8}, {23, 22}, {19, 17}} {
		if p.N.Of(pair[0]) != p.N.Of(pair[1]) {
			t.Errorf("v%d has number %v, v%d %v: want equal", pair[0], p.N.Of(pair[0]), pair[1], p.N.Of(pair[1]))
		}
	}
	for _, pair := range [][2]cfg.Reg{{8, 10}, {22, 20}, {6, 21}, {4, 6}} {
		if p.N.Of(pair[0]) == p.N.Of(pair[1]) {
			t.Errorf("v%d and v%d share number %v", pair[0], pair[1], p.N.Of(pair[0]))
		}
	}
	if p.Values != 14 || p.Classes != 11 {
		t.Errorf("%d values in %d classes, want 14 in 11", p.Values, p.Classes)
	}
}

// ifArms computes a+b in both arms of an if (once as b+a) and after the
// join. All three are congruent, but no definition dominates another:
// nothing is replaced (that would take partial redundancy elimination).
const ifArms = `func arms level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 2
	v3 = Mul v1 v2
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	v5 = Add v1 v3
	jump b4
b3:  ; preds b1, depth 0
	v6 = Add v3 v1
	jump b4
b4:  ; preds b2 b3, depth 0
	v7 = Phi v5 v6
	v8 = Add v1 v3
	v9 = Sub v7 v8
	return v9
`

func TestIfArmsNotDominated(t *testing.T) {
	f := parse(t, ifArms)
	p, err := Number(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.N.Of(5) != p.N.Of(6) || p.N.Of(5) != p.N.Of(8) || p.N.Of(7) == p.N.Of(5) {
		t.Errorf("numbers v5 %v, v6 %v, v8 %v, v7 %v: want the Adds together, the Phi apart",
			p.N.Of(5), p.N.Of(6), p.N.Of(8), p.N.Of(7))
	}
	st := optimize(t, ifArms, cfg.Print(parse(t, ifArms)), 0, 3)
	if st != (Stats{}) {
		t.Errorf("stats %+v, want nothing done", st)
	}
}

// TestIfArmsAfterDominating: with a+b computed before the if, the three
// later ones are its copies, and the Phi of two copies of it stays a Phi
// of the same register twice (GVN_spec does not equate a Phi with its
// arguments).
func TestIfArmsAfterDominating(t *testing.T) {
	in := strings.Replace(ifArms, "\tv3 = Mul v1 v2\n", "\tv3 = Mul v1 v2\n\tv4 = Add v3 v1\n\tcheck v4\n", 1)
	optimize(t, in, `func arms level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 2
	v3 = Mul v1 v2
	v4 = Add v3 v1
	check v4
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	jump b4
b3:  ; preds b1, depth 0
	jump b4
b4:  ; preds b2 b3, depth 0
	v7 = Phi v4 v4
	v9 = Sub v7 v4
	return v9
`, 0, 3, -5)
}

// TestUnusedDivisionRemovedCheckKept: two divisions of the same values;
// the second becomes a copy of the first, and goes; its check stays.
func TestUnusedDivisionRemovedCheckKept(t *testing.T) {
	optimize(t, `func div level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 100
	check v1
	v3 = Div v2 v1
	v4 = Const 100
	check v1
	v5 = Div v4 v1
	v6 = Add v3 v5
	return v6
`, `func div level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 100
	check v1
	v3 = Div v2 v1
	check v1
	v6 = Add v3 v3
	return v6
`, 1, 7, 0)
}

// TestConstantsByValue: Consts of one value are one class; of different
// values, not; and Neg of each follows.
func TestConstantsByValue(t *testing.T) {
	optimize(t, `func k level SSA
b1:  ; entry, depth 0
	v1 = Const 5
	v2 = Const 5
	v3 = Const 6
	v4 = Neg v1
	v5 = Neg v2
	v6 = Neg v3
	v7 = Add v4 v5
	v8 = Add v7 v6
	return v8
`, `func k level SSA
b1:  ; entry, depth 0
	v1 = Const 5
	v3 = Const 6
	v4 = Neg v1
	v6 = Neg v3
	v7 = Add v4 v4
	v8 = Add v7 v6
	return v8
`, 0)
}

// TestValidatorRejects: each proposal of Number, broken by hand, and the
// validator's exact message; the function is left as it was.
func TestValidatorRejects(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		breakIt func(p *Proposal)
		want    string
	}{
		{
			name: "two ops in one class",
			text: ifArms,
			breakIt: func(p *Proposal) {
				p.N[9] = p.N.Of(5)
			},
			want: "gvn: function arms: spec-op: v5 and v9 have number v5, but they are defined by v5 = Add v1 v3 (b2 instr 0) and v9 = Sub v7 v8 (b4 instr 1)",
		},
		{
			name: "Phis of different blocks",
			text: twoLoops,
			breakIt: func(p *Proposal) {
				p.N[20] = 10
			},
			want: "gvn: function two: spec-phi-block: v10 and v20 have number v10, but they are Phis of different blocks: v10 = Phi v2 v12 (b2 phi 0) and v20 = Phi v2 v22 (b4 phi 0)",
		},
		{
			name: "replacement by a definition that does not dominate",
			text: ifArms,
			breakIt: func(p *Proposal) {
				p.Replace = append(p.Replace, Replacement{Dst: 8, By: 5})
			},
			want: "gvn: function arms: replace-dom: v8 is replaced by v5, whose definition v5 = Add v1 v3 (b2 instr 0) does not strictly dominate v8 = Add v1 v3 (b4 instr 0)",
		},
		{
			name: "replacement by a later instruction of the block",
			text: loopPhis,
			breakIt: func(p *Proposal) {
				p.Replace = []Replacement{{Dst: 17, By: 19}}
			},
			want: "gvn: function loop: replace-dom: v17 is replaced by v19, whose definition v19 = Mul v9 v16 (b3 instr 2) does not strictly dominate v17 = Mul v8 v16 (b3 instr 0)",
		},
		{
			name: "arguments of different numbers",
			text: loopPhis,
			breakIt: func(p *Proposal) {
				p.N[10] = 8 // v10 (the sum) with the counters: v20 is not v22
			},
			want: "gvn: function loop: spec-args: v8 and v10 have number v8, but argument 1 of v8 = Phi v6 v22 (b2 phi 0) and v10 = Phi v6 v20 (b2 phi 2) differ in number",
		},
		{
			name: "replacement of another number",
			text: loopPhis,
			breakIt: func(p *Proposal) {
				p.Replace = []Replacement{{Dst: 20, By: 18}}
			},
			want: "gvn: function loop: replace-number: v20 (number v20) is replaced by v18 (number v18)",
		},
		{
			name: "a replacement replaced",
			text: loopPhis,
			breakIt: func(p *Proposal) {
				p.Replace = append(p.Replace, Replacement{Dst: 8, By: 9})
			},
			want: "gvn: function loop: replace-kept: v9 is replaced by v8, which is replaced too",
		},
		{
			name: "a register the function lacks",
			text: loopPhis,
			breakIt: func(p *Proposal) {
				p.N[99] = 8
			},
			want: "gvn: function loop: numbering: v99 has number v8, but the function has no register v99",
		},
		{
			name: "a number the function lacks",
			text: loopPhis,
			breakIt: func(p *Proposal) {
				p.N[20] = 99
			},
			want: "gvn: function loop: numbering: v20 has number v99, which is not a register of the function",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := parse(t, c.text)
			text := cfg.Print(f)
			p, err := Number(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Validate(f, p); err != nil {
				t.Fatalf("the unbroken proposal: %v", err)
			}
			c.breakIt(p)
			_, err = Validate(f, p)
			var inv *Invalid
			if !errors.As(err, &inv) || err.Error() != c.want {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
			if cfg.Print(f) != text {
				t.Errorf("the validator changed the function")
			}
		})
	}
}

// twoLoops counts to arg twice, in two loops one after the other: their
// Phis are in different blocks, so never congruent; the Const 1 of the
// second loop is congruent with the entry's, but a Const is replaced only
// by one of its own block (a constant is cheaper to compute again than to
// keep in a register), so nothing changes.
const twoLoops = `func two level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 0
	v3 = Const 1
	jump b2
b2:  ; preds b1 b3, depth 1
	v10 = Phi v2 v12
	v11 = Lt v10 v1
	branch v11 b3 b7
b3:  ; preds b2, depth 1
	v12 = Add v10 v3
	jump b2
b7:  ; preds b2, depth 0
	jump b4
b4:  ; preds b7 b5, depth 1
	v20 = Phi v2 v22
	v21 = Lt v20 v1
	branch v21 b5 b6
b5:  ; preds b4, depth 1
	v24 = Const 1
	v22 = Add v20 v24
	jump b4
b6:  ; preds b4, depth 0
	v30 = Add v10 v20
	return v30
`

func TestTwoLoopsPhisApart(t *testing.T) {
	optimize(t, twoLoops, twoLoops, 0, 4)
}

// TestParameters: a register used but never defined (a parameter, in
// paper 003) makes the function ill formed, which the validator rejects
// whatever the numbering; Number keeps such registers apart.
func TestParameters(t *testing.T) {
	f, err := cfg.Parse("func p level SSA\nb1:\n\tv3 = Add v1 v2\n\treturn v3\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Validate(f, &Proposal{N: Numbering{2: 1}})
	want := "gvn: function p: input: cfg: function p is not well formed:\n\tb1: instr 0 (v3 = Add v1 v2): undefined: v1 is never defined\n\tb1: instr 0 (v3 = Add v1 v2): undefined: v2 is never defined"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	p, err := Number(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.N.Of(1) == p.N.Of(2) {
		t.Errorf("Number put the parameters v1 and v2 together")
	}
}

// TestNumberRefusesBrokenInput: no panic on a function that is not at the
// SSA level, has no blocks or defines a register twice.
func TestNumberRefusesBrokenInput(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"func r level RTL\nb1:\n\tv1 = Arg\n\treturn v1\n", "gvn: function r is at the RTL level, not SSA"},
		{"func d level SSA\nb1:\n\tv1 = Arg\n\tv1 = Arg\n\treturn v1\n", "gvn: v1 is defined twice (second time in b1)"},
	} {
		f, err := cfg.Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Number(f); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	if _, err := Number(&cfg.Func{Name: "e"}); err == nil || err.Error() != "gvn: function e has no blocks" {
		t.Errorf("no blocks: got %v", err)
	}
	// Blocks are found by ID: two blocks of one ID, a successor of
	// another function that has the ID of one of this function's, and a
	// nil successor are refused, not taken for one another.
	ret := cfg.Term{Kind: cfg.TermReturn, Reg: 1}
	arg := []*cfg.Instr{{Op: cfg.OpArg, Dst: 1}}
	b1, b2 := &cfg.Block{ID: 1, Instrs: arg, Term: ret}, &cfg.Block{ID: 1, Term: ret}
	if _, err := Number(&cfg.Func{Name: "i", Level: cfg.SSA, Blocks: []*cfg.Block{b1, b2}}); err == nil || err.Error() != "gvn: b1 has the ID of the block at position 0" {
		t.Errorf("two blocks of one ID: got %v", err)
	}
	for _, s := range []*cfg.Block{{ID: 1}, nil} {
		b := &cfg.Block{ID: 1, Instrs: arg, Term: cfg.Term{Kind: cfg.TermJump}}
		b.SetSuccs(s)
		if _, err := Number(&cfg.Func{Name: "s", Level: cfg.SSA, Blocks: []*cfg.Block{b}}); err == nil || err.Error() != "gvn: b1 has a successor that is not a block of the function" {
			t.Errorf("successor %v: got %v", s, err)
		}
	}
}

// TestRemoveDeadTable: removeDead with a table that numbers every
// definition (Apply's, the validator's) removes what it does without one; with
// one that misses a definition, or numbers two alike, it makes its own
// and still does.
func TestRemoveDeadTable(t *testing.T) {
	const text = `func dead level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 3
	v3 = Add v1 v2
	v4 = Mul v3 v3
	v5 = Sub v1 v2
	return v5
`
	const want = `func dead level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 3
	v5 = Sub v1 v2
	return v5
`
	for _, c := range []struct {
		name string
		regs []int64 // numbered 0, 1, … in this order
	}{
		{"every definition", []int64{5, 4, 3, 2, 1}},
		{"one missing", []int64{1, 3, 4, 5}}, // v2, which v5 reads
		{"two alike", nil},
		{"none", []int64{}},
	} {
		f := parse(t, text)
		index := numbering.New(5, 5)
		n := len(c.regs)
		for i, r := range c.regs {
			index.Set(r, int32(i))
		}
		if c.regs == nil {
			for r := int64(1); r <= 5; r++ {
				index.Set(r, int32(r%2)) // v1, v3, v5 all 1
			}
			n = 5
		}
		if got := removeDead(f, index, n); got != 2 {
			t.Errorf("%s: removed %d, want 2", c.name, got)
		}
		if got := cfg.Print(f); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, want)
		}
	}
}
