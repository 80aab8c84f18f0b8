package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"son/cfg"
	"son/internal/gen"
	"son/internal/testenv"
	"son/lower"
	"son/son"
	"son/ssacheck"
	"son/ssagen"
	"son/syntax"
)

// The second way in: source → RTL (package lower) → SSA (package ssagen,
// in each flavour, validated by package ssacheck), each run by cfg.Run and
// checked against the reference semantics on every program of testdata/
// and examples/ (their run: lines) and on random programs.

// lowerChecked lowers src and verifies the RTL.
func lowerChecked(t *testing.T, name string, src []byte) *cfg.Func {
	t.Helper()
	file, err := syntax.Parse(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	f, err := lower.Func(file, strings.TrimSuffix(filepath.Base(name), ".smp"))
	if err != nil {
		t.Fatalf("%s: lower: %v", name, err)
	}
	if err := cfg.Verify(f); err != nil {
		t.Fatalf("%s: lower: %v\n%s", name, err, cfg.Print(f))
	}
	if f.Level != cfg.RTL {
		t.Fatalf("%s: lower: level %v", name, f.Level)
	}
	return f
}

func TestViaRTLPrograms(t *testing.T) {
	files := programFiles(t, "../testdata", "../examples")
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".smp"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := parseDirectives(string(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range viaRTLFuncs(t, file, src) {
				for _, r := range d.Runs {
					got, err := cfg.Run(v.f, r.Arg, cfg.Limits{Steps: d.Steps})
					if diff := checkRun(r, got, err); diff != "" {
						t.Errorf("%s:%d: %s: arg %d: %s", file, r.Line, v.name, r.Arg, diff)
					}
				}
			}
		})
	}
}

// namedFunc is a function of the second way and the stage it comes from.
type namedFunc struct {
	name string
	f    *cfg.Func
}

// viaRTLFuncs returns the functions of the second way for src, checked:
// the RTL, and its SSA form in each flavour, which must pass cfg.Verify
// and ssacheck.Validate.
func viaRTLFuncs(t *testing.T, name string, src []byte) []namedFunc {
	t.Helper()
	rtl := lowerChecked(t, name, src)
	fs := []namedFunc{{"rtl", rtl}}
	for _, fl := range ssagen.Flavours {
		res, err := ssagen.Build(rtl, fl)
		if err != nil {
			t.Fatalf("%s: ssagen %v: %v\n%s", name, fl, err, cfg.Print(rtl))
		}
		if err := cfg.Verify(res.Func); err != nil {
			t.Fatalf("%s: ssagen %v: %v\n%s", name, fl, err, cfg.Print(res.Func))
		}
		if err := ssacheck.Validate(rtl, res.Func, res.Hint); err != nil {
			t.Fatalf("%s: ssagen %v: %v\n%s", name, fl, err, cfg.Print(res.Func))
		}
		fs = append(fs, namedFunc{"ssa " + fl.String(), res.Func})
	}
	return fs
}

// TestViaRTLRandom takes random programs the second way: 60 by default
// (20 with -short), SON_VIA_RANDOM=n for a campaign.
func TestViaRTLRandom(t *testing.T) {
	n := int64(60)
	if testing.Short() {
		n = 20
	}
	n = testenv.Int(t, "SON_VIA_RANDOM", n, "a number of programs")
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := int64(0); seed < n; seed++ {
		c := gen.Config{Seed: seed, Size: 10 + int(seed%40), Shape: shapes[seed%4]}
		src := gen.Program(c)
		args := randomArgs(seed)
		want, err := referenceResults(src, args)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, v := range viaRTLFuncs(t, "seed"+strconv.FormatInt(seed, 10), []byte(src)) {
			for i, arg := range args {
				got := runResult(cfg.Run(v.f, arg, cfg.Limits{Steps: randomSteps * 10}))
				if got != want[i] && want[i] != "" {
					t.Errorf("seed %d (%v): %s: arg %d: want %q, got %q\n%s", seed, c.Shape, v.name, arg, want[i], got, src)
				}
			}
		}
		// The whole pipeline the second way, with every check, in one
		// flavour per seed; the final graph and blocks run.
		fl := ssagen.Flavours[seed%3]
		u, err := Compile("seed.smp", []byte(src), Options{Check: true, Via: "rtl", ViaSSA: fl})
		if err != nil {
			t.Fatalf("seed %d (%v): via rtl %v: %v\n%s", seed, c.Shape, fl, err, src)
		}
		for i, arg := range args {
			got := runResult(cfg.Run(u.Func, arg, cfg.Limits{Steps: randomSteps * 10}))
			if got != want[i] && want[i] != "" {
				t.Errorf("seed %d (%v): via rtl %v, after gcm: arg %d: want %q, got %q\n%s", seed, c.Shape, fl, arg, want[i], got, src)
			}
		}
	}
}

// runResult formats the outcome of cfg.Run as referenceResults does.
func runResult(v int64, err error) string {
	var rt *cfg.RuntimeError
	switch {
	case err == nil:
		return strconv.FormatInt(v, 10)
	case errors.As(err, &rt) && rt.Msg == "division by zero":
		return "error: division by zero at " + rt.Pos.String()
	}
	return "error: " + err.Error()
}

// viaMargin is how many more nodes than the first way's the final graph
// of the second way may have (docs/OPTIMIZATIONS.md lists the
// differences).
const viaMargin = 2

// TestViaRTLPipeline compiles every program the second way in, source →
// RTL → SSA → Sea of Nodes, through every pass with every check, and runs
// it after every pass (son.Run, and cfg.Run from gcm on) against its run:
// lines, in each SSA flavour. The final graph must be the size of the
// first way's within viaMargin nodes; the differences are logged.
func TestViaRTLPipeline(t *testing.T) {
	files := programFiles(t, "../testdata", "../examples")
	var same, smaller, larger [3]int
	var diffs []string
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := parseDirectives(string(src))
		if err != nil {
			t.Fatal(err)
		}
		first, err := Compile(file, src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, fl := range ssagen.Flavours {
			after := func(u *Unit, pass string) error {
				for _, r := range d.Runs {
					got, err := son.Run(u.Graph, r.Arg, son.Limits{Steps: d.Steps})
					if diff := checkRun(r, got, err); diff != "" {
						t.Errorf("%s:%d: via rtl %v, pass %s: arg %d: %s", file, r.Line, fl, pass, r.Arg, diff)
					}
					if u.Func != nil {
						got, err := cfg.Run(u.Func, r.Arg, cfg.Limits{Steps: d.Steps})
						if diff := checkRun(r, got, err); diff != "" {
							t.Errorf("%s:%d: via rtl %v, pass %s, cfg.Run: arg %d: %s", file, r.Line, fl, pass, r.Arg, diff)
						}
					}
				}
				return nil
			}
			u, err := Compile(file, src, Options{Check: true, Via: "rtl", ViaSSA: fl, AfterPass: after})
			if err != nil {
				t.Fatalf("%s: via rtl %v: %v", file, fl, err)
			}
			a, b := len(first.Graph.Live()), len(u.Graph.Live())
			switch {
			case a == b:
				same[fl]++
			case b < a:
				smaller[fl]++
			default:
				larger[fl]++
			}
			// The facts from the branches (Refines, issue 18) are the
			// builder's: the second way, from RTL, has none, and may be
			// larger by what they fold.
			refined := first.Graph.Stats.Refines > 0
			if b > a+viaMargin && !refined {
				t.Errorf("%s: via rtl %v: the final graph has %d nodes, the first way's %d: more than %d more", file, fl, b, a, viaMargin)
			}
			if a != b {
				diffs = append(diffs, fmt.Sprintf("%s, %v: %d nodes, %d the first way", filepath.Base(file), fl, b, a))
			}
		}
	}
	for _, fl := range ssagen.Flavours {
		t.Logf("final graphs, %v SSA: %d the same size as the first way's, %d smaller, %d larger", fl, same[fl], smaller[fl], larger[fl])
	}
	for _, d := range diffs {
		t.Log(d)
	}
}
