package ref

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"son/syntax"
)

// run parses src and runs it with arg, returning the value or the error
// as text: "LINE:COL: runtime error: MSG" for a runtime error with a
// position.
func run(t *testing.T, src string, arg, steps int64) string {
	t.Helper()
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", short(err.Error()), short(src))
	}
	v, err := Run(f, arg, Limits{Steps: steps})
	var rt *RuntimeError
	switch {
	case err == nil:
		return fmt.Sprint(v)
	case !errors.As(err, &rt):
		t.Fatalf("not a runtime error: %v", err)
	case rt.Pos.IsKnown():
		return rt.Pos.String() + ": " + err.Error()
	}
	return err.Error()
}

// short is s, or its start if it is long.
func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

func TestRun(t *testing.T) {
	const divZero = ": runtime error: division by zero"
	tests := []struct {
		src  string
		arg  int64
		want string
	}{
		// Programs, returns, falling off the end.
		{"", 5, "0"},
		{"int twice = arg * 2;\nreturn twice + 1;", 5, "11"},
		{"int x = arg * 2;\nif (x > 2)\n    return x;", 1, "0"},
		{"int x = arg * 2;\nif (x > 2)\n    return x;", 2, "4"},
		{"return 1; ", 0, "1"},
		{"if (arg) return 1; else return 2; return 3;", 0, "2"},
		{"if (arg) return 1; else return 2; return 3;", -4, "1"},

		// Wrapping arithmetic.
		{"return 9223372036854775807 + arg;", 1, "-9223372036854775808"},
		{"return -9223372036854775808 - arg;", 1, "9223372036854775807"},
		{"return arg * 4611686018427387904;", 2, "-9223372036854775808"},
		{"return -arg;", -9223372036854775808, "-9223372036854775808"},
		{"return - 9223372036854775808 + arg;", 0, "-9223372036854775808"},
		{"return 0xFFFFFFFFFFFFFFFF + arg;", 0, "-1"},

		// Division truncates; MinInt / -1 and MinInt % -1 do not trap.
		{"return 7 / arg;", -2, "-3"},
		{"return -7 / arg;", 2, "-3"},
		{"return -7 % arg;", 2, "-1"},
		{"return 7 % arg;", -2, "1"},
		{"return -9223372036854775808 / arg;", -1, "-9223372036854775808"},
		{"return -9223372036854775808 % arg;", -1, "0"},
		{"return 5 % arg;", -1, "0"},
		{"return (7/2 == 3) + 2*(-7/2 == -3) + 4*(7/-2 == -3) + 8*(-7/-2 == 3)\n     + 16*(7%2 == 1) + 32*(-7%2 == -1) + 64*(7%-2 == 1) + 128*(-7%-2 == -1);", 0, "255"},

		// Division by zero, at the operator: / % /= %=.
		{"int x = 12;\nreturn x / arg;", 0, "2:10" + divZero},
		{"return 1 +\n  5 % arg;", 0, "2:5" + divZero},
		{"int x = 3;\n  x /= arg;\nreturn x;", 0, "2:5" + divZero},
		{"int x = 3;\nx %= arg - arg;", 7, "2:3" + divZero},
		{"10 / arg;\nreturn 3;", 0, "1:4" + divZero},
		{"return 1 / 0;", 5, "1:10" + divZero},
		{"return (arg / 0) / 0;", 0, "1:13" + divZero},    // the inner division runs first
		{"int x = 3;\nx /= 1 / arg;", 0, "2:8" + divZero}, // the operand, before the /=

		// Shifts: counts mod 64, >> arithmetic, >>> logical.
		{"return 1 << 64 + arg;", 0, "1"},
		{"return 1 << 65 + arg;", 0, "2"},
		{"return -16 >> 2 + arg;", 0, "-4"},
		{"return -16 >>> 60 + arg;", 0, "15"},
		{"return 1 << arg;", -1, "-9223372036854775808"},
		{"return -1 >>> arg;", 1, "9223372036854775807"},
		{"return -1 >> arg;", 63, "-1"},
		{"int a = 1 << 64;\nint b = 1 << 65;\nint c = -16 >> 2;\nint d = -16 >>> 60;\nint e = 1 << -1;\nreturn a + b * 10 + c * 100 + d * 1000 + (e < 0) * 10000 + arg;", 0, "24621"},

		// Bitwise, comparisons, not.
		{"return 1 | 2 ^ 3 & 6;", 0, "1"},
		{"return (arg & 12) + (arg | 1) * 100 + (arg ^ 5) * 10000;", 10, "151108"},
		{"return (arg < 3) + (arg <= 3) * 2 + (arg > 3) * 4 + (arg >= 3) * 8 + (arg == 3) * 16 + (arg != 3) * 32;", 3, "26"},
		{"return !arg + !!arg * 10;", 0, "1"},
		{"return !arg + !!arg * 10;", -5, "10"},
		{"return -9223372036854775808 < arg;", 9223372036854775807, "1"},

		// Bool masking to the low bit; var and val never mask.
		{"bool even = 6;\nbool odd = 7;\nbool b = arg;\nbool t = arg > 5;\nreturn even * 1000 + odd * 100 + b * 10 + t;", 7, "111"},
		{"bool even = 6;\nbool odd = 7;\nbool b = arg;\nbool t = arg > 5;\nreturn even * 1000 + odd * 100 + b * 10 + t;", -2, "100"},
		{"bool b = 1; b += 1; return b;", 0, "0"},
		{"bool b; b++; b++; b++; return b;", 0, "1"},
		{"bool b = -1; return b;", 0, "1"},
		{"var t = true;\nt = 2;\nreturn t;", 0, "2"},
		{"val v = arg > 1; var w = v + 5; return w;", 3, "6"},
		{"int a = 1, b = a + 1, c;\nbool done;\nvar n = arg;\nval limit = 10;\nn += limit;\nreturn a * 1000 + b * 100 + c * 10 + done + n;", 0, "1210"},

		// Chained comparisons: once each, left to right, stopping early.
		{"int inRange = 1 <= arg < 10;\nint ordered = 1 < 2 < 3 > 0;\nint eq = 3 == 3 == 1;\nreturn inRange * 100 + ordered * 10 + eq;", 5, "111"},
		{"int inRange = 1 <= arg < 10;\nint ordered = 1 < 2 < 3 > 0;\nint eq = 3 == 3 == 1;\nreturn inRange * 100 + ordered * 10 + eq;", 10, "11"},
		{"return 0 < arg < 100 / arg;", 0, "0"},
		{"return 0 < arg < 100 / arg;", 5, "1"},
		{"return 0 <= arg < 100 / arg;", 0, "1:23" + divZero},
		{"return 1 < 2 < arg > 0 >= -1;", 3, "1"},
		{"return 1 < 2 < arg > 0 >= -1;", 2, "0"},
		{"return 3 > 2 > 1 / arg;", 0, "1:18" + divZero},

		// && || ?: evaluate only what decides.
		{"int safe = arg != 0 && 100 / arg > 10;\nint either = arg == 0 || 100 / arg > 10;\nreturn safe * 10 + either;", 0, "1"},
		{"int safe = arg != 0 && 100 / arg > 10;\nint either = arg == 0 || 100 / arg > 10;\nreturn safe * 10 + either;", 4, "11"},
		{"int safe = arg != 0 && 100 / arg > 10;\nint either = arg == 0 || 100 / arg > 10;\nreturn safe * 10 + either;", 50, "0"},
		{"return 5 && 7;", 0, "1"},
		{"return arg || 0;", -3, "1"},
		{"return arg || 1 / arg;", 0, "1:17" + divZero},
		{"int q = arg == 0 ? 0 : 100 / arg;\nint sign = arg > 0 ? 1 : arg < 0 ? -1 : 0;\nreturn q * 10 + sign;", 7, "141"},
		{"int q = arg == 0 ? 0 : 100 / arg;\nint sign = arg > 0 ? 1 : arg < 0 ? -1 : 0;\nreturn q * 10 + sign;", -7, "-141"},
		{"return arg ? 1 / 0 : 2;", 0, "2"},
		{"return arg ? 1 / 0 : 2;", 1, "1:16" + divZero},
		{"return arg ? arg ? 1 : 2 : 3;", 1, "1"},

		// Scopes, shadowing, declarations in loops.
		{"int x = 1; { int x = 2; x = x + 10; } return x;", 0, "1"},
		{"int arg = 5; return arg;", 9, "5"},
		{"int s = 0; for (int i = 0; i < 3; i++) { int j; j += i; s = s * 10 + j; } return s;", 0, "12"},
		{"arg = arg + 1; return arg;", 4, "5"},

		// Loops, break and continue.
		{"int s = 0;\nfor (int i = 0, j = 10; i < j; i++) s += j - i;\nint k = 0;\nfor (k = arg; k < 8;) k++;\nfor (;;) {\n    s++;\n    if (s % 7 == 0) break;\n}\nreturn s * 100 + k;", 0, "5608"},
		{"int sum = 0;\nfor (int i = 0; i < arg; i++) {\n    if (i % 3 == 0)\n        continue;\n    if (sum > 100)\n        break;\n    sum += i;\n}\nint n = 0;\nwhile (n * n < sum)\n    n++;\nreturn sum * 1000 + n;", 10, "27006"},
		{"int n = 0; while (n < 10) { n++; if (n % 2) continue; n += 100; } return n;", 0, "102"},
		{"int c = 0; for (int i = 0; i < 3; i++) for (int j = 0; j < 5; j++) { if (j == 2) break; c++; } return c;", 0, "6"},
		{"int x = arg;\nx = x + 1;\nx *= 2 + 3;\nx -= 1;\nx++;\n--x;\nx <<= 2;\nx >>>= 1;\nx %= 1000;\nreturn x;", 3, "38"},
		{"int i = 0;\nwhile (1) {\n    if (i == arg)\n        return i * 10;\n    i = i + 1;\n}", 3, "30"},
	}
	for _, tt := range tests {
		if got := run(t, tt.src, tt.arg, 0); got != tt.want {
			t.Errorf("arg %d:\n%s\ngot  %s\nwant %s", tt.arg, tt.src, got, tt.want)
		}
	}
}

// TestSteps checks the unit of the step limit: one step per statement
// executed and per expression node evaluated.
func TestSteps(t *testing.T) {
	tests := []struct {
		src   string
		arg   int64
		steps int64 // exactly the steps the run takes
	}{
		{"", 0, 0},
		{";", 0, 1},
		{"return 1;", 0, 2},                                // return, 1
		{"int x = arg * 2; return x + 1;", 0, 8},           // decl, *, arg, 2; return, +, x, 1
		{"int x; x++; x += 2; return x;", 0, 6},            // decl; x++; x+=, 2; return, x
		{"return arg && 1 / 0;", 0, 3},                     // return, &&, arg: the right operand is skipped
		{"return arg || 2 || 3;", 0, 5},                    // return, ||, ||, arg, 2: 3 is skipped
		{"return 1 < arg < 2 / 0;", 0, 4},                  // return, chain, 1, arg: 1 < 0 is false
		{"return 1 < arg < 2;", 5, 5},                      // return, chain, 1, arg, 2
		{"return arg ? 7 : 8;", 0, 4},                      // return, ?:, arg, 8
		{"{ { } }", 0, 2},                                  // two blocks
		{"while (arg) arg--; return 0;", 2, 8},             // while; (arg, arg--) x2, arg; return, 0
		{"for (int i = 0; i < 2; i++) ; return 0;", 0, 18}, // for; decl, 0; 2x(<, i, 2; ;; i++); <, i, 2; return, 0
	}
	for _, tt := range tests {
		f, err := syntax.Parse("t.smp", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(f, tt.arg, Limits{Steps: max(tt.steps, 1)}); err != nil && tt.steps > 0 {
			t.Errorf("%q with %d steps: %v", tt.src, tt.steps, err)
		}
		if tt.steps == 0 {
			continue
		}
		_, err = Run(f, tt.arg, Limits{Steps: tt.steps - 1})
		want := fmt.Sprintf("runtime error: step limit exceeded (%d steps)", tt.steps-1)
		if tt.steps == 1 {
			want = "" // a limit of 0 is the default
		}
		if got := fmt.Sprint(err); want != "" && got != want {
			t.Errorf("%q with %d steps: got %s, want %s", tt.src, tt.steps-1, got, want)
		}
	}
}

// TestStepLimit checks that a program that never ends stops at the
// limit, with the error at no position, and that the default limit stops
// one within seconds.
func TestStepLimit(t *testing.T) {
	if got := run(t, "int n = 0;\nwhile (true)\n    n++;", 0, 10000); got != "runtime error: step limit exceeded (10000 steps)" {
		t.Errorf("got %s", got)
	}
	if got := run(t, "for (;;) {}", 0, 7); got != "runtime error: step limit exceeded (7 steps)" {
		t.Errorf("got %s", got)
	}
	if testing.Short() {
		return
	}
	start := time.Now()
	got := run(t, "int n = 0;\nwhile (true) { n = n + 1; if (n < 0) break; }", 0, 0)
	if want := fmt.Sprintf("runtime error: step limit exceeded (%d steps)", DefaultSteps); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the default limit took %v to stop a loop", d)
	}
	t.Logf("%d steps in %v", DefaultSteps, time.Since(start))
}

// TestDeep runs the trees that are deepest for an evaluator: long left
// spines, which the parser does not bound, and nesting at the parser's
// limit, where every parenthesis opens a whole tower of precedences.
func TestDeep(t *testing.T) {
	const n = 1_000_000
	sum := "return arg" + strings.Repeat(" + 1", n) + ";"
	if got := run(t, sum, 5, 0); got != fmt.Sprint(n+5) {
		t.Errorf("a sum of %d terms: got %s", n+1, got)
	}
	and := "return arg" + strings.Repeat(" && 1", n) + ";"
	if got := run(t, and, 5, 0); got != "1" {
		t.Errorf("%d &&: got %s", n, got)
	}
	if got := run(t, and, 0, 0); got != "0" {
		t.Errorf("%d && with arg 0: got %s", n, got)
	}
	or := "return arg" + strings.Repeat(" || arg", n) + " || 1 / arg;"
	if got := run(t, or, 0, 0); got != fmt.Sprintf("1:%d: runtime error: division by zero", len(or)-5) {
		t.Errorf("%d ||: got %s", n, got)
	}
	chain := "return 0" + strings.Repeat(" < arg", n/2) + ";"
	if got := run(t, chain, 3, 0); got != "0" { // 3 < 3 is false
		t.Errorf("a chain of %d: got %s", n/2, got)
	}
	if got := run(t, "return 0 < arg"+strings.Repeat(" <= arg", n/2)+";", 3, 0); got != "1" {
		t.Errorf("a true chain of %d: got %s", n/2, got)
	}
	// Nesting at the limit: each level is a tower of every precedence,
	// so the right operands nest ten deep per parenthesis.
	const depth = 4990 // two levels each: the - and the (
	level := "0 || 1 && 1 | 0 ^ 0 & 1 == 1 < 2 << 0 + 0 * -("
	tower := "return " + strings.Repeat(level, depth) + "arg" + strings.Repeat(")", depth) + ";"
	if got := run(t, tower, 5, 0); got != "1" {
		t.Errorf("nested %d deep: got %s", depth, got)
	}
	const depth2 = 9990
	cond := "return " + strings.Repeat("arg ? ", depth2) + "7" + strings.Repeat(" : 0", depth2) + ";"
	if got := run(t, cond, 1, 0); got != "7" {
		t.Errorf("?: nested %d deep: got %s", depth2, got)
	}
	// A long else-if ladder: statements nest too.
	var b strings.Builder
	for i := range depth2 {
		fmt.Fprintf(&b, "if (arg == %d) return %d; else ", i, i*2)
	}
	b.WriteString("return -1;")
	if got := run(t, b.String(), depth2-1, 0); got != fmt.Sprint(2*(depth2-1)) {
		t.Errorf("an else-if ladder of %d: got %s", depth2, got)
	}
}

// TestNotResolved: Run reports a tree it cannot run as an error, not a
// panic.
func TestNotResolved(t *testing.T) {
	if _, err := Run(nil, 0, Limits{}); err == nil {
		t.Error("nil file: no error")
	}
	f, err := syntax.Parse("t.smp", []byte("int x = 1; return x;"))
	if err != nil {
		t.Fatal(err)
	}
	f.NumVars = 1 // x no longer has a place
	var rt *RuntimeError
	if _, err := Run(f, 0, Limits{}); err == nil || errors.As(err, &rt) {
		t.Errorf("a variable out of range: got %v, want an error that is not the program's", err)
	}
	broken := []*syntax.File{
		{Body: &syntax.BlockStmt{List: []syntax.Stmt{&syntax.ReturnStmt{Value: &syntax.ChainExpr{}}}}},
		{Body: &syntax.BlockStmt{List: []syntax.Stmt{&syntax.ReturnStmt{}}}},
		{Body: &syntax.BlockStmt{List: []syntax.Stmt{nil}}},
		{Body: &syntax.BlockStmt{List: []syntax.Stmt{&syntax.BreakStmt{}}}},
		{Body: &syntax.BlockStmt{List: []syntax.Stmt{&syntax.ReturnStmt{Value: &syntax.ChainExpr{
			X: []syntax.Expr{&syntax.IntLit{}, &syntax.IntLit{}}}}}}},
	}
	for i, f := range broken {
		f.Arg, f.NumVars = &syntax.Var{}, 1
		if _, err := Run(f, 0, Limits{}); err == nil || errors.As(err, &rt) {
			t.Errorf("broken tree %d: got %v, want an error that is not the program's", i, err)
		}
	}
}
