package gsa

import (
	"strings"
	"testing"

	"son/cfg"
	"son/pred"
)

// TestCheckBrokenShape: the validator reports a GSA function or an SSA
// function whose parts are missing or nil, each with its own message,
// where it used to panic (a nil instruction of the code, a nil block of
// f, a nil merge, a γ with fewer predicates than arguments).
func TestCheckBrokenShape(t *testing.T) {
	for _, c := range []struct {
		name    string
		breakIt func(f *cfg.Func, g *Func) (*cfg.Func, *Func)
		want    string
	}{
		{"no GSA function", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) { return f, nil },
			"gsa: no GSA function"},
		{"a block of the code missing", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			g.Code.Blocks = g.Code.Blocks[1:]
			return f, g
		}, "gsa: code: 11 blocks in f, 10 in the code, 11 merge and 11 η blocks"},
		{"a nil block of the code", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			g.Code.Blocks[2] = nil
			return f, g
		}, "gsa: b3: code: the code's block 2 is nil"},
		{"a nil instruction of the code", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			g.Code.Blocks[2].Instrs[0] = nil
			return f, g
		}, "gsa: b3: code: instruction 0 of the code is nil"},
		{"a Phi left in the code", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			g.Code.Blocks[1].Phis = f.Blocks[1].Phis
			return f, g
		}, "gsa: b2: code: 2 Phis in the code, which has merges instead"},
		{"a nil merge", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			g.Merges[1][0] = nil
			return f, g
		}, "gsa: b2: merge: merge instruction 0 is nil or a γ without one predicate per argument"},
		{"a γ short of a predicate", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			m := g.Merges[8][0]
			m.Preds = m.Preds[:1]
			return f, g
		}, "gsa: b9: merge: merge instruction 0 is nil or a γ without one predicate per argument"},
		{"a nil η", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			g.Etas[9][0] = nil
			return f, g
		}, "gsa: b11: eta: η 0 is nil"},
		{"a nil block of f", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			f.Blocks[3] = nil
			return f, g
		}, "gsa: f: block 3 is nil"},
		{"f with a nil instruction", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			f.Blocks[2].Instrs[0] = nil
			return f, g
		}, "gsa: f: b3: instruction 0 is nil"},
		{"f not at the SSA level", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			f.Level = cfg.RTL
			return f, g
		}, "gsa: f is not an SSA function"},
		{"f with a Phi short of an argument", func(f *cfg.Func, g *Func) (*cfg.Func, *Func) {
			f.Blocks[1].Phis[0].Args = f.Blocks[1].Phis[0].Args[:1]
			return f, g
		}, "gsa: f: b2: Phi 0 is nil or has not one argument per predecessor"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, g := parseFigure2(t, nil)
			f, g = c.breakIt(f, g)
			for name, check := range map[string]func() error{
				"Check":           func() error { return Check(f, g) },
				"Validate":        func() error { return Validate(f, g, brute{}) },
				"CheckPredicates": func() error { return CheckPredicates(f, g, Certified{Prover: pred.NewProver()}) },
			} {
				if got := errText(check()); got != c.want {
					t.Errorf("%s:\ngot  %s\nwant %s", name, got, c.want)
				}
			}
		})
	}
}

// TestBuildBroken: Build reports a function cfg.Verify refuses, where a
// nil block or instruction used to panic in the loop analysis or the copy
// of the code.
func TestBuildBroken(t *testing.T) {
	for _, c := range []struct {
		name    string
		breakIt func(f *cfg.Func) *cfg.Func
		want    string
	}{
		{"no function", func(f *cfg.Func) *cfg.Func { return nil }, "gsa: not an SSA function"},
		{"a nil block", func(f *cfg.Func) *cfg.Func { f.Blocks[3] = nil; return f },
			"gsa: cfg: function figure2 is not well formed:\n\tfunc: block: Blocks[3] is nil\n"},
		{"a nil instruction", func(f *cfg.Func) *cfg.Func { f.Blocks[2].Instrs[0] = nil; return f },
			"gsa: cfg: function figure2 is not well formed:\n\tb3: instr 0: instr: the instruction is nil\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := cfg.Parse(figure2SSA)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Build(c.breakIt(f))
			if got := errText(err); g != nil || !strings.HasPrefix(got+"\n", c.want) {
				t.Errorf("got %v, %s; want nil and an error beginning %q", g, got, c.want)
			}
		})
	}
}

// TestReadBroken: ToSSA, Print and DOT report a GSA function without the
// parts they read (Shape), where a nil block or instruction used to
// panic: ToSSA with an error, Print and DOT with a line saying why.
func TestReadBroken(t *testing.T) {
	for _, c := range []struct {
		name    string
		breakIt func(g *Func) *Func
		want    string
	}{
		{"no GSA function", func(g *Func) *Func { return nil }, "gsa: no GSA function"},
		{"no code", func(g *Func) *Func { g.Code = nil; return g }, "gsa: no GSA function"},
		{"a nil block of the code", func(g *Func) *Func { g.Code.Blocks[2] = nil; return g },
			"gsa: block 2: code: the code's block 2 is nil"},
		{"a nil instruction of the code", func(g *Func) *Func { g.Code.Blocks[2].Instrs[0] = nil; return g },
			"gsa: b3: code: instruction 0 of the code is nil"},
		{"a merge block missing", func(g *Func) *Func { g.Merges = g.Merges[1:]; return g },
			"gsa: code: 11 blocks in the code, 10 merge and 11 η blocks, 11 header flags"},
		{"no header flags", func(g *Func) *Func { g.Header = nil; return g },
			"gsa: code: 11 blocks in the code, 11 merge and 11 η blocks, 0 header flags"},
		{"a nil merge", func(g *Func) *Func { g.Merges[1][0] = nil; return g },
			"gsa: b2: merge: merge instruction 0 is nil or a γ without one predicate per argument"},
		{"a nil η", func(g *Func) *Func { g.Etas[9][0] = nil; return g }, "gsa: b11: eta: η 0 is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, g := parseFigure2(t, nil)
			g = c.breakIt(g)
			if f, err := ToSSA(g); f != nil || errText(err) != "gsa.ToSSA: "+c.want {
				t.Errorf("ToSSA: %v, %s; want nil, gsa.ToSSA: %s", f, errText(err), c.want)
			}
			if got, want := Print(g), "; broken GSA function: "+c.want+"\n"; got != want {
				t.Errorf("Print:\ngot  %q\nwant %q", got, want)
			}
			if got, want := DOT(g, "t"), "digraph gsa {\n\tn0 [shape=box, label="+cfg.DotQuote("broken GSA function: "+c.want)+"];\n}\n"; got != want {
				t.Errorf("DOT:\ngot  %q\nwant %q", got, want)
			}
		})
	}
	// A γ needs the matrix its arguments are matched by.
	_, g := parseFigure2(t, nil)
	g.Matrix = nil
	if f, err := ToSSA(g); f != nil || errText(err) != "gsa.ToSSA: b8: v35 = γ: no path predicate matrix" {
		t.Errorf("ToSSA without a matrix: %v, %s", f, errText(err))
	}
}
