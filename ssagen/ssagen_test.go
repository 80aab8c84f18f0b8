package ssagen

import (
	"strings"
	"testing"

	"son/cfg"
	"son/ssacheck"
)

// fig2 follows paper 003's figure 2 (its text describes it): x and y are
// defined at the entry and each redefined in one arm; only x is used
// after the junction, so pruned SSA needs no Phi for y there; the
// temporary t (v3) is assigned and used within each arm, so semi-pruned
// SSA needs none for it either, while minimal SSA has all three.
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

// fig9 follows paper 003's figure 9: a loop whose head needs a Phi for
// the y it increments (v2); the loop's test (v4) and the body's constant
// (v5) have definitions whose frontier is the head too, but no definition
// on the entry edge, so their Phis are dropped in every flavour; x (v1)
// is used after the loop with its entry version.
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

var figures = []struct {
	name, rtl string
	want      map[Flavour]string
}{
	{"fig2", fig2, map[Flavour]string{
		Minimal: `func fig2 level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	v3 = Add v1 v2
	v4 = Copy v3
	jump b4
b3:  ; preds b1, depth 0
	v5 = Sub v1 v2
	v6 = Copy v5
	jump b4
b4:  ; preds b2 b3, depth 0
	v7 = Phi v4 v1
	v8 = Phi v2 v6
	v9 = Phi v3 v5
	return v7
`,
		SemiPruned: `func fig2 level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	v3 = Add v1 v2
	v4 = Copy v3
	jump b4
b3:  ; preds b1, depth 0
	v5 = Sub v1 v2
	v6 = Copy v5
	jump b4
b4:  ; preds b2 b3, depth 0
	v7 = Phi v4 v1
	v8 = Phi v2 v6
	return v7
`,
		Pruned: `func fig2 level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	v3 = Add v1 v2
	v4 = Copy v3
	jump b4
b3:  ; preds b1, depth 0
	v5 = Sub v1 v2
	v6 = Copy v5
	jump b4
b4:  ; preds b2 b3, depth 0
	v7 = Phi v4 v1
	return v7
`,
	}},
	{"fig9", fig9, map[Flavour]string{
		Minimal: `func fig9 level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 0
	jump b2
b2:  ; preds b1 b3, depth 0
	v3 = Phi v2 v6
	v4 = Lt v3 v1
	branch v4 b3 b4
b3:  ; preds b2, depth 0
	v5 = Const 1
	v6 = Add v3 v5
	jump b2
b4:  ; preds b2, depth 0
	v7 = Add v1 v3
	return v7
`,
	}},
}

func TestFigures(t *testing.T) {
	for _, fig := range figures {
		rtl, err := cfg.Parse(fig.rtl)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range Flavours {
			want, ok := fig.want[fl]
			if !ok {
				want = fig.want[Minimal]
			}
			res, err := Build(rtl, fl)
			if err != nil {
				t.Fatalf("%s %v: %v", fig.name, fl, err)
			}
			if got := cfg.Print(res.Func); got != want {
				t.Errorf("%s %v: got\n%s\nwant\n%s", fig.name, fl, got, want)
			}
			if err := cfg.Verify(res.Func); err != nil {
				t.Errorf("%s %v: %v", fig.name, fl, err)
			}
			if err := ssacheck.Validate(rtl, res.Func, res.Hint); err != nil {
				t.Errorf("%s %v: %v", fig.name, fl, err)
			}
			if res.Placed < res.Phis {
				t.Errorf("%s %v: %d Phis placed, %d kept", fig.name, fl, res.Placed, res.Phis)
			}
			if n := strings.Count(want, "= Phi"); res.Phis != n {
				t.Errorf("%s %v: Phis = %d, want %d", fig.name, fl, res.Phis, n)
			}
		}
	}
}

// Build refuses an RTL function that reads a register on a path where it
// is not assigned, and one that is not normalized.
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct{ rtl, want string }{
		{`func f level RTL
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	v2 = Const 1
	jump b4
b3:
	jump b4
b4:
	return v2
`, "ssagen: b4: term (return v2): v2 may be used before it is assigned"},
		{`func f level RTL
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	v2 = Const 1
	jump b3
b3:
	v3 = Add v1 v2
	return v3
`, "critical-edge"},
	} {
		rtl, err := cfg.Parse(c.rtl)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range Flavours {
			_, err := Build(rtl, fl)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: got %v, want %q", fl, err, c.want)
			}
		}
	}
}
