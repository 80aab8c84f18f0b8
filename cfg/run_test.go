package cfg

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"son/syntax"
)

func TestRun(t *testing.T) {
	for _, c := range readCases(t, "testdata/run.txt") {
		t.Run(c.name, func(t *testing.T) {
			f := mustParse(t, c.text)
			runs := directives(c.text, "run")
			if len(runs) == 0 {
				t.Fatalf("testdata/run.txt:%d: no run line", c.line)
			}
			for _, r := range runs {
				argText, want, ok := strings.Cut(r, " => ")
				arg, err := strconv.ParseInt(argText, 10, 64)
				if !ok || err != nil {
					t.Fatalf("testdata/run.txt:%d: bad run line %q", c.line, r)
				}
				if got := runResult(f, arg, Limits{}); got != want {
					t.Errorf("testdata/run.txt:%d: %s on %d = %s, want %s", c.line, c.name, arg, got, want)
				}
			}
		})
	}
}

// runResult is the value Run returns, or its error's message.
func runResult(f *Func, arg int64, lim Limits) string {
	v, err := Run(f, arg, lim)
	if err != nil {
		return err.Error()
	}
	return strconv.FormatInt(v, 10)
}

// caseText returns the function of the named section of a testdata file.
func caseText(t *testing.T, file, name string) string {
	t.Helper()
	for _, c := range readCases(t, file) {
		if c.name == name {
			return c.text
		}
	}
	t.Fatalf("%s: no case %q", file, name)
	return ""
}

// TestSwap proves that Phis are assigned in parallel: the SSA function
// swaps a and b on each round, and the same loop with the Phis replaced by
// copies run one after the other (a = b; b = a) loses a value.
func TestSwap(t *testing.T) {
	ssa := mustParse(t, caseText(t, "testdata/run.txt", "swap: parallel Phis"))
	// The Phis of b2 turned into copies at the end of each predecessor:
	// sequentially, as a wrong out-of-SSA would, and through a
	// temporary, as a right one would.
	const rtl = `func swap level RTL
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 1
	v3 = Const 2
	v20 = Const 0
	v21 = Const 10
	v4 = Copy v2
	v5 = Copy v3
	v6 = Copy v1
	jump b2
b2:  ; preds b1 b4, depth 1
	v7 = Ne v6 v20
	branch v7 b4 b3
b4:  ; preds b2, depth 1
	v9 = Const 1
	v8 = Sub v6 v9
	MOVES
	v6 = Copy v8
	jump b2
b3:  ; preds b2, depth 0
	v10 = Mul v4 v21
	v11 = Add v10 v5
	return v11
`
	sequential := mustParse(t, strings.Replace(rtl, "MOVES", "v4 = Copy v5\n\tv5 = Copy v4", 1))
	temp := mustParse(t, strings.Replace(rtl, "MOVES", "v30 = Copy v4\n\tv4 = Copy v5\n\tv5 = Copy v30", 1))
	for _, f := range []*Func{ssa, sequential, temp} {
		if err := Verify(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		arg                    int64
		parallel, onceAfterAll string
	}{
		{0, "12", "12"},
		{1, "21", "22"},
		{2, "12", "22"},
		{5, "21", "22"},
	} {
		if got := runResult(ssa, tt.arg, Limits{}); got != tt.parallel {
			t.Errorf("SSA swap on %d = %s, want %s (the Phis in parallel)", tt.arg, got, tt.parallel)
		}
		if got := runResult(temp, tt.arg, Limits{}); got != tt.parallel {
			t.Errorf("RTL swap through a temporary on %d = %s, want %s", tt.arg, got, tt.parallel)
		}
		if got := runResult(sequential, tt.arg, Limits{}); got != tt.onceAfterAll {
			t.Errorf("RTL sequential swap on %d = %s, want %s", tt.arg, got, tt.onceAfterAll)
		}
	}
}

func TestRunStepLimit(t *testing.T) {
	loop := mustParse(t, `func forever level SSA
b1:  ; entry, depth 0
	jump b2
b2:  ; preds b1 b2, depth 1
	jump b2
`)
	if err := Verify(loop); err != nil {
		t.Fatal(err)
	}
	_, err := Run(loop, 0, Limits{Steps: 50})
	var re *RuntimeError
	if !errors.As(err, &re) || re.Msg != "step limit exceeded (50 steps)" || re.Pos.IsKnown() ||
		err.Error() != "runtime error: step limit exceeded (50 steps)" {
		t.Errorf("Run = %#v, want a step limit RuntimeError", err)
	}

	// One step per Phi assigned, instruction and terminator: inc takes 4.
	inc := mustParse(t, caseText(t, "testdata/run.txt", "straight line"))
	if got := runResult(inc, 1, Limits{Steps: 4}); got != "2" {
		t.Errorf("inc in 4 steps = %s, want 2", got)
	}
	if got := runResult(inc, 1, Limits{Steps: 3}); got != "runtime error: step limit exceeded (3 steps)" {
		t.Errorf("inc in 3 steps = %s", got)
	}
	// sum on 10 takes 3 (entry) + 11 × (2 Phis + branch) + 10 × 4 (body)
	// + 1 (return) = 77 steps.
	sum := mustParse(t, caseText(t, "testdata/run.txt", "sum of 1..arg"))
	if got := runResult(sum, 10, Limits{Steps: 77}); got != "55" {
		t.Errorf("sum in 77 steps = %s, want 55", got)
	}
	if got := runResult(sum, 10, Limits{Steps: 76}); !strings.Contains(got, "step limit") {
		t.Errorf("sum in 76 steps = %s, want the step limit", got)
	}
}

// TestRunCheck checks that a Check of 0 stops the program with son.Run's
// error, at the Check's position.
func TestRunCheck(t *testing.T) {
	f := mustParse(t, caseText(t, "testdata/run.txt", "division with its check"))
	_, err := Run(f, 3, Limits{})
	var re *RuntimeError
	if !errors.As(err, &re) {
		t.Fatalf("Run = %v, want a *RuntimeError", err)
	}
	if err.Error() != "runtime error: division by zero" || re.Msg != "division by zero" || re.Pos != (syntax.Pos{Line: 1, Col: 12}) {
		t.Errorf("Run = %#v", re)
	}
}

// TestRunInternalErrors checks that a malformed function gives an error
// that is not the program's RuntimeError.
func TestRunInternalErrors(t *testing.T) {
	tests := []struct {
		name, text string
		edit       func(f *Func)
		arg        int64
		want       string
	}{
		{"Div by 0 with no Check", `func f level SSA
b1:
	v1 = Arg
	v2 = Div v1 v1
	return v2
`, nil, 0, "cfg.Run: b1: instr 1 (v2 = Div v1 v1): division by zero that no Check stopped"},
		{"Mod by 0 with no Check", `func f level SSA
b1:
	v1 = Arg
	v2 = Mod v1 v1
	return v2
`, nil, 0, "cfg.Run: b1: instr 1 (v2 = Mod v1 v1): division by zero that no Check stopped"},
		{"register with no value", `func f level RTL
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
`, nil, 0, "cfg.Run: b4: term (return v2): v2 has no value"},
		{"register with no value in an instruction", `func f level RTL
b1:
	v1 = Arg
	v3 = Add v1 v2
	return v3
`, nil, 0, "cfg.Run: b1: instr 1 (v3 = Add v1 v2): v2 has no value"},
		{"Phi argument with no value", `func f level SSA
b1:
	jump b2
b2:
	v1 = Phi v2
	v2 = Const 1
	return v1
`, nil, 0, "cfg.Run: b2: phi 0 (v1 = Phi v2): v2 has no value"},
		{"branch on no value", `func f level SSA
b1:
	branch v5 b2 b3
b2:
	return v5
b3:
	return v5
`, nil, 0, "cfg.Run: b1: term (branch v5 b2 b3): v5 has no value"},
		{"no terminator", `func f level SSA
b1:
	v1 = Arg
	jump b2
b2:
`, nil, 0, "cfg.Run: b2: the block has no terminator"},
		{"too few Phi arguments", `func f level SSA
b1:
	v1 = Arg
	jump b2
b2:
	v2 = Phi
	return v2
`, nil, 0, "cfg.Run: b2: phi 0 (v2 = Phi): no argument for predecessor 0, b1"},
		{"edge missing from Preds", `func f level SSA
b1:
	v1 = Arg
	jump b2
b2:
	return v1
`, func(f *Func) { f.Blocks[1].Preds = nil }, 0, "cfg.Run: b1: term (jump b2): b1 is not among the predecessors of b2"},
		{"no blocks", "func f level SSA\n", nil, 0, "cfg.Run: function f has no blocks"},
		{"nil instruction", "func f level SSA\nb1:\n\tv1 = Arg\n\treturn v1\n",
			func(f *Func) { f.Blocks[0].Instrs[0] = nil }, 0, "cfg.Run: b1: instr 0 is nil"},
		{"wrong arity", "func f level SSA\nb1:\n\tv1 = Arg\n\treturn v1\n",
			func(f *Func) { f.Blocks[0].Instrs[0].Args = []Reg{1} }, 0, "cfg.Run: b1: instr 0 (v1 = Arg v1): bad op or arity"},
		{"jump without a successor", "func f level SSA\nb1:\n\tv1 = Arg\n\treturn v1\n",
			func(f *Func) { f.Blocks[0].Term.Kind = TermJump }, 0, "cfg.Run: b1: term (jump): 0 successors"},
	}
	for _, tt := range tests {
		f := mustParse(t, tt.text)
		if tt.edit != nil {
			tt.edit(f)
		}
		_, err := Run(f, tt.arg, Limits{})
		var re *RuntimeError
		if err == nil || errors.As(err, &re) || err.Error() != tt.want {
			t.Errorf("%s: Run = %v, want the internal error %q", tt.name, err, tt.want)
		}
	}
}

// TestRunUnreachableGarbage checks that Run only looks at the blocks it
// reaches.
func TestRunUnreachableGarbage(t *testing.T) {
	f := mustParse(t, "func f level SSA\nb1:\n\tv1 = Arg\n\treturn v1\nb2:\n\tv2 = Add v9 v9\n")
	f.Blocks[1].Instrs = append(f.Blocks[1].Instrs, nil)
	if got := runResult(f, 7, Limits{}); got != "7" {
		t.Errorf("Run = %s, want 7", got)
	}
}

// TestRunManyPredecessors runs a join with more predecessors than the
// linear search in predIndex handles.
func TestRunManyPredecessors(t *testing.T) {
	// A switch on arg & 15: case k returns 100 + k through one join.
	var s strings.Builder
	s.WriteString("func sw level SSA\nb0:\n\tv1 = Arg\n\tv2 = Const 15\n\tv3 = And v1 v2\n\tjump b1\n")
	for k := 0; k < 16; k++ {
		// b(1+2k): test k; b(2+2k): the case.
		add := func(format string, args ...any) { fmt.Fprintf(&s, format, args...) }
		add("b%d:\n\tv%d = Const %d\n\tv%d = Eq v3 v%d\n\tbranch v%d b%d b%d\n",
			1+2*k, 10+4*k, k, 11+4*k, 10+4*k, 11+4*k, 2+2*k, 3+2*k)
		add("b%d:\n\tv%d = Const %d\n\tjump b99\n", 2+2*k, 12+4*k, 100+k)
	}
	s.WriteString("b33:\n\tv200 = Const -1\n\tjump b99\nb99:\n\tv201 = Phi")
	for k := 0; k < 16; k++ {
		fmt.Fprintf(&s, " v%d", 12+4*k)
	}
	s.WriteString(" v200\n\treturn v201\n")
	f := mustParse(t, s.String())
	if err := Verify(f); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []int64{0, 5, 15, 16, 31} {
		if got, want := runResult(f, arg, Limits{}), strconv.FormatInt(100+arg&15, 10); got != want {
			t.Errorf("switch on %d = %s, want %s", arg, got, want)
		}
	}
}

// TestRunSmallAllocates: a run of a small function allocates in
// proportion to it, not a chunk sized for large ones (the checkers test
// every level of every program by running it; with 4,096-element chunks
// a run of this loop cleared 200 KB, a third of a fuzzing input's time).
func TestRunSmallAllocates(t *testing.T) {
	f := mustParse(t, caseText(t, "testdata/run.txt", "sum of 1..arg"))
	if got := runResult(f, 10, Limits{}); got != "55" {
		t.Fatalf("sum of 1..10 = %s, want 55", got)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 10
	for range runs {
		Run(f, 10, Limits{})
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 16<<10 {
		t.Errorf("a run of a 4-block function allocates %d bytes, want at most 16 KB", per)
	}
}
