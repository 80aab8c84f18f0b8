package gvn

import (
	"strings"
	"testing"
)

// divFunc has two divisions of the same values: gvn replaces the second
// by the first, and its check stays.
const divFunc = `func div level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 100
	check v1
	v3 = Div v2 v1
	v4 = Const 100
	check v1
	v5 = Div v4 v1
	v7 = Neg v1
	v6 = Add v3 v5
	v8 = Add v6 v7
	return v8
`

// TestCheckRewriteAcceptsTheRewrite: what Apply makes of a validated
// proposal passes CheckRewrite.
func TestCheckRewriteAcceptsTheRewrite(t *testing.T) {
	in, f := parse(t, divFunc), parse(t, divFunc)
	p, err := Number(f)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(f, p)
	if err != nil {
		t.Fatal(err)
	}
	if st := v.Apply(); st.Replaced != 2 {
		t.Fatalf("%v, want 2 replaced (v4 and v5)", st)
	}
	if err := CheckRewrite(in, f, v.Numbering()); err != nil {
		t.Errorf("CheckRewrite: %v", err)
	}
}

// TestCheckRewriteRejects: rewrites that Apply could make only with a bug
// are rejected, naming the block, the instruction and the rule.
func TestCheckRewriteRejects(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"a Neg taken for a copy", "\tv8 = Add v6 v7\n", "\tv8 = Add v6 v1\n",
			"b1: same: v8 = Add v6 v1 computes another thing than v8 = Add v6 v7"},
		{"a check dropped", "\tv4 = Const 100\n\tcheck v1\n", "\tv4 = Const 100\n",
			"b1: order: check v1 is gone"},
		{"a copy of another number", "\tv5 = Div v4 v1\n", "\tv5 = Copy v2\n",
			"b1: copy: v5 = Copy v2 copies a register of another number than v5's (v3)"},
		{"nothing changed", "", "",
			""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := parse(t, divFunc)
			p, err := Number(in)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Validate(in, p)
			if err != nil {
				t.Fatal(err)
			}
			out := parse(t, strings.Replace(divFunc, c.old, c.new, 1))
			err = CheckRewrite(in, out, v.Numbering())
			switch {
			case c.want == "" && err != nil:
				t.Errorf("CheckRewrite of an unchanged function: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
