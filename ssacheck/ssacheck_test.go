package ssacheck

import (
	"strings"
	"testing"

	"son/cfg"
)

// fig2 is paper 003's figure 2 program (see package ssagen's tests) and
// fig2SSA its pruned SSA form, written by hand, with its hint.
const fig2 = `func fig2 level RTL
b1:
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:
	v3 = Add v1 v2
	v1 = Copy v3
	jump b4
b3:
	v3 = Sub v1 v2
	v2 = Copy v3
	jump b4
b4:
	return v1
`

const fig2SSA = `func fig2 level SSA
b1:
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:
	v3 = Add v1 v2
	v4 = Copy v3
	jump b4
b3:
	v5 = Sub v1 v2
	v6 = Copy v5
	jump b4
b4:
	v7 = Phi v4 v1
	return v7
`

func fig2Hint() *Hint {
	return &Hint{
		Def:  [][]int32{{1, 1}, {1, 2}, {2, 2}, {}},
		Phis: [][]PhiHint{nil, nil, nil, {{Reg: 1, Index: 3}}},
	}
}

// fig9 is a loop; fig9SSA its SSA form.
const fig9 = `func fig9 level RTL
b1:
	v1 = Arg
	v2 = Const 0
	jump b2
b2:
	v4 = Lt v2 v1
	branch v4 b3 b4
b3:
	v5 = Const 1
	v2 = Add v2 v5
	jump b2
b4:
	v6 = Add v1 v2
	return v6
`

const fig9SSA = `func fig9 level SSA
b1:
	v1 = Arg
	v2 = Const 0
	jump b2
b2:
	v3 = Phi v2 v6
	v4 = Lt v3 v1
	branch v4 b3 b4
b3:
	v5 = Const 1
	v6 = Add v3 v5
	jump b2
b4:
	v7 = Add v1 v3
	return v7
`

func fig9Hint() *Hint {
	return &Hint{
		Def:  [][]int32{{1, 1}, {1}, {1, 3}, {1}},
		Phis: [][]PhiHint{nil, {{Reg: 2, Index: 2}}, nil, nil},
	}
}

func parse(t *testing.T, text string) *cfg.Func {
	t.Helper()
	f, err := cfg.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The validator accepts the hand-written forms and rejects each broken
// one with the problem named: the block, the register, the rule.
var cases = []struct {
	name     string
	rtl, ssa string
	edit     func(string) string // applied to ssa
	hint     func() *Hint
	editHint func(*Hint)
	want     string // the problems, one a line; "" to accept
}{
	{name: "fig2 pruned", rtl: fig2, ssa: fig2SSA, hint: fig2Hint},
	{name: "fig9", rtl: fig9, ssa: fig9SSA, hint: fig9Hint},
	{
		name: "missing phi", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		edit: func(s string) string {
			return strings.Replace(s, "\tv7 = Phi v4 v1\n\treturn v7", "\treturn v4", 1)
		},
		editHint: func(h *Hint) { h.Phis[3] = nil },
		want:     "b4: term (return v4): use: v4 is v1_2, but no single definition of v1 reaches here: the local typing gives v1 ⊥",
	},
	{
		name: "phi arguments from the wrong predecessors", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		edit: func(s string) string { return strings.Replace(s, "Phi v4 v1", "Phi v1 v4", 1) },
		want: "b2: edge to b4, argument 0 of phi 0 (v7 = Phi v1 v4): use: v1 is v1_1, but the local typing gives v1 the index 2 here (v4)\n" +
			"b3: edge to b4, argument 1 of phi 0 (v7 = Phi v1 v4): use: v4 is v1_2, but the local typing gives v1 the index 1 here (v1)",
	},
	{
		name: "use renamed to a non-dominating definition", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		edit: func(s string) string { return strings.Replace(s, "return v7", "return v4", 1) },
		want: "b4: term (return v4): use: v4 is v1_2, but the local typing gives v1 the index 3 here (v7)",
	},
	{
		name: "use renamed to a definition in the loop body", rtl: fig9, ssa: fig9SSA, hint: fig9Hint,
		edit: func(s string) string { return strings.Replace(s, "v7 = Add v1 v3", "v7 = Add v1 v6", 1) },
		want: "b4: instr 0 (v7 = Add v1 v6): use: v6 is v2_3, but the local typing gives v2 the index 2 here (v3)",
	},
	{
		name: "wrong index in the hint", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		editHint: func(h *Hint) { h.Def[2][1] = 1 },
		want:     "b3: instr 1 (v6 = Copy v5): unique-def: the hint names v6 v2_1, but v2 is v2_1 already",
	},
	{
		name: "wrong variable for a phi in the hint", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		editHint: func(h *Hint) { h.Phis[3][0].Reg = 2 },
		want: "b4: phi 0 (v7 = Phi v4 v1): erasure: v4 is v1_2, but the RTL uses v2 here\n" +
			"b4: phi 0 (v7 = Phi v4 v1): erasure: v1 is v1_1, but the RTL uses v2 here\n" +
			"b4: term (return v7): erasure: v7 is v2_3, but the RTL uses v1 here",
	},
	{
		name: "erasure changes an operation", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		edit: func(s string) string { return strings.Replace(s, "v5 = Sub v1 v2", "v5 = Add v1 v2", 1) },
		want: "b3: instr 0 (v5 = Add v1 v2): erasure: the RTL has v3 = Sub v1 v2 here",
	},
	{
		name: "phi at a block that is not a junction", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		edit: func(s string) string {
			return strings.Replace(s, "b2:\n\tv3 = Add v1 v2", "b2:\n\tv8 = Phi v1\n\tv3 = Add v1 v2", 1)
		},
		editHint: func(h *Hint) { h.Phis[1] = []PhiHint{{Reg: 1, Index: 4}} },
		want:     "b2: phi 0 (v8 = Phi v1): phi-block: Phis in a block with 1 predecessors, not a junction",
	},
	{
		name: "register defined twice", rtl: fig2, ssa: fig2SSA, hint: fig2Hint,
		edit: func(s string) string { return strings.Replace(s, "v6 = Copy v5", "v4 = Copy v5", 1) },
		want: "b3: instr 1 (v4 = Copy v5): unique-def: v4 is defined twice (it is already v1_2)",
	},
}

func TestValidate(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ssa := c.ssa
			if c.edit != nil {
				ssa = c.edit(ssa)
			}
			h := c.hint()
			if c.editHint != nil {
				c.editHint(h)
			}
			err := Validate(parse(t, c.rtl), parse(t, ssa), h)
			got := ""
			if err != nil {
				e, ok := err.(*Error)
				if !ok {
					t.Fatalf("not an *Error: %v", err)
				}
				got = strings.Join(e.Problems, "\n")
			}
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestValidateNoPanic feeds the validator functions and hints of the
// wrong shapes.
func TestValidateNoPanic(t *testing.T) {
	rtl := parse(t, fig2)
	ssa := parse(t, fig2SSA)
	for _, h := range []*Hint{{}, {Def: make([][]int32, 4), Phis: make([][]PhiHint, 4)}} {
		if err := Validate(rtl, ssa, h); err == nil {
			t.Errorf("hint %v accepted", h)
		}
	}
	if err := Validate(rtl, parse(t, fig9SSA), fig2Hint()); err == nil {
		t.Error("another function's SSA form accepted")
	}
	if err := Validate(rtl, rtl, fig2Hint()); err == nil {
		t.Error("the RTL accepted as its own SSA form")
	}
}
