package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"son/compile"
	"son/internal/faults/outcome"
	"son/syntax"
)

func TestClassifyCompile(t *testing.T) {
	err := errors.New("graph is not well formed:\n\tDiv#9: zerocheck: ...")
	for _, c := range []struct {
		err    error
		kind   outcome.Kind
		detail string
	}{
		{nil, outcome.None, ""},
		{&compile.CheckError{Pass: "sccp", Guard: compile.GuardSon, Err: err}, outcome.Verifier, "son.Verify after sccp: graph is not well formed:"},
		{&compile.CheckError{Pass: "gcm", Guard: compile.GuardCfg, Err: err}, outcome.Verifier, "cfg.Verify after gcm: graph is not well formed:"},
		{&compile.CheckError{Pass: "zerocheck", Guard: compile.GuardChecker, Err: err}, outcome.Checker, "checker after zerocheck: graph is not well formed:"},
		{&compile.CheckError{Pass: "gcm", Guard: compile.GuardPass, Err: err}, outcome.Pass, "pass after gcm: graph is not well formed:"},
		{fmt.Errorf("wrapped: %w", &compile.CheckError{Pass: "build", Guard: compile.GuardSon, Err: err}), outcome.Verifier, "son.Verify after build: graph is not well formed:"},
		{syntax.ErrorList{}, outcome.Pass, "compile error: "},
	} {
		k, detail := classifyCompile(c.err)
		if k != c.kind || !strings.HasPrefix(detail, c.detail) || (c.detail == "" && detail != "") {
			t.Errorf("%v: got %q %q, want %q %q", c.err, k, detail, c.kind, c.detail)
		}
	}
}

func TestCompare(t *testing.T) {
	pos := syntax.Pos{Line: 3, Col: 7}
	div := result{Err: "division by zero", Pos: pos}
	for _, c := range []struct {
		want, got result
		diff      string
	}{
		{result{Value: 5}, result{Value: 5}, ""},
		{div, div, ""},
		{result{Value: 5}, result{Value: 6}, "got 6, want 5"},
		{div, result{Err: "division by zero", Pos: syntax.Pos{Line: 3, Col: 9}}, `got error "division by zero" at 3:9, want error "division by zero" at 3:7`},
		{result{Value: 5}, div, `got error "division by zero" at 3:7, want 5`},
		{result{Value: 5}, result{Err: "step limit exceeded (10 steps)"}, "no result within 4x the reference's step limit; want 5"},
		{result{Value: 5}, result{Internal: errors.New("son.Run: Div#4 divides by zero without a ZeroCheck\nmore")}, "son.Run: Div#4 divides by zero without a ZeroCheck"},
	} {
		if d := compare(c.want, c.got); d != c.diff {
			t.Errorf("compare(%v, %v) = %q, want %q", c.want, c.got, d, c.diff)
		}
	}
}

func TestDirectives(t *testing.T) {
	d, err := directives("// A program.\n// run: 3 => 4\n  // run: -7 => error: division by zero at 5:9\n// steps: 1000\nreturn arg;\n")
	if err != nil || fmt.Sprint(d.args) != "[3 -7]" || d.steps != 1000 || fmt.Sprint(d.expect) != "map[-7:division by zero at 5:9 3:4]" {
		t.Errorf("got %+v %v, want [3 -7] with 4 and division by zero, steps 1000", d, err)
	}
	if _, err := directives("return 1;\n"); err == nil || err.Error() != "no run: line" {
		t.Errorf("no run line: got %v", err)
	}
	if _, err := directives("// run: x => 1\n"); err == nil || err.Error() != "line 1: malformed run: line" {
		t.Errorf("malformed: got %v", err)
	}
	div := result{Err: "division by zero", Pos: syntax.Pos{Line: 2, Col: 3}}
	for _, c := range []struct {
		r    result
		want string
		diff string
	}{
		{result{Value: 4}, "4", ""},
		{result{Value: 5}, "4", "the reference gives 5, the run: line says 4"},
		{div, "division by zero at 2:3", ""},
		{div, "division by zero at 2:4", "the reference gives division by zero at 2:3, the run: line says division by zero at 2:4"},
		{div, "4", "the reference gives division by zero at 2:3, the run: line says 4"},
		{result{Value: 4}, "division by zero at 2:3", "the reference gives 4, the run: line says division by zero at 2:3"},
		{result{Err: "step limit exceeded (10 steps)"}, "4", "the reference gives step limit exceeded (10 steps), the run: line says 4"},
		{result{Value: 4}, "step limit exceeded", ""},
	} {
		if d := expected(c.r, c.want); d != c.diff {
			t.Errorf("expected(%v, %q) = %q, want %q", c.r, c.want, d, c.diff)
		}
	}
}

// TestProbeUnchangedTree runs the probe's checks on a few programs of the
// tree, which must pass them all: what the campaign's baseline requires.
func TestProbeUnchangedTree(t *testing.T) {
	progs, err := programSet("../../..", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) < 100 {
		t.Fatalf("%d programs, want testdata/ and examples/ and 2 generated", len(progs))
	}
	ran := 0
	for _, p := range progs {
		if !strings.Contains(p.name, "div") && !strings.HasPrefix(p.name, "gen/") {
			continue
		}
		ran++
		line, hung := runBounded(p, 60*time.Second)
		if hung || line.Guard != outcome.None || line.Diff != outcome.None {
			t.Errorf("%s: %+v", p.name, line)
		}
	}
	if ran < 12 {
		t.Errorf("ran %d programs, want the ten or so of testdata/div_* and 2 generated", ran)
	}
}
