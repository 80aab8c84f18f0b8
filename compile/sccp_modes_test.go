package compile

import (
	"os"
	"testing"

	"son/cfg"
	"son/opt"
	"son/son"
)

// TestProgramsEveryAnalysis compiles every program of testdata and
// examples with each analysis the sccp pass offers, checked: each mode's
// solution must pass the checker of its own equations, its rewrite the
// rewrite checker, and the results must be the run: lines' at both levels.
// (TestPrograms covers the combined analysis.)
func TestProgramsEveryAnalysis(t *testing.T) {
	files := programFiles(t, "../testdata", "../examples")
	for _, mode := range []opt.Mode{opt.ConstOnly, opt.ReachOnly, opt.Iterated} {
		t.Run(mode.String(), func(t *testing.T) {
			for _, file := range files {
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				d, err := parseDirectives(string(src))
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				u, err := compileWithin(t, file, src, Options{Check: true, SCCP: mode})
				if err != nil {
					t.Errorf("%s: %v", file, err)
					continue
				}
				for _, r := range d.Runs {
					got, err := son.Run(u.Graph, r.Arg, son.Limits{Steps: d.Steps})
					if diff := checkRun(r, got, err); diff != "" {
						t.Errorf("%s:%d: arg %d: %s", file, r.Line, r.Arg, diff)
					}
					got, err = cfg.Run(u.Func, r.Arg, cfg.Limits{Steps: d.Steps})
					if diff := checkRun(r, got, err); diff != "" {
						t.Errorf("%s:%d: cfg.Run: arg %d: %s", file, r.Line, r.Arg, diff)
					}
				}
			}
		})
	}
}

// TestIssue12ConstOnly: issue 12's program, on which the constant-only
// analysis finds x constant while taking both sides of the if as
// reachable, compiles in every mode, checked, and returns 0; before, the
// const and iterated modes failed with a check of the combined equations.
func TestIssue12ConstOnly(t *testing.T) {
	src := []byte("int x; while (arg) x = -x; if (x) return 1;")
	for _, mode := range []opt.Mode{opt.Combined, opt.ConstOnly, opt.ReachOnly, opt.Iterated} {
		for _, check := range []bool{false, true} {
			u, err := Compile("issue12.smp", src, Options{Check: check, SCCP: mode})
			if err != nil {
				t.Errorf("%v, check %v: %v", mode, check, err)
				continue
			}
			if v, err := cfg.Run(u.Func, 0, cfg.Limits{}); err != nil || v != 0 {
				t.Errorf("%v, check %v: run(0) = %d, %v; want 0", mode, check, v, err)
			}
		}
	}
}
