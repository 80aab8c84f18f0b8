package shrink

import (
	"strings"
	"testing"
	"time"

	"son/internal/gen"
	"son/syntax"
)

// divByVar is a toy failure: the program divides by a declared variable
// (not arg, not a literal).
func divByVar(src string) bool {
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		return false
	}
	found := false
	walkExprs(f.Body, func(x syntax.Expr) {
		if b, ok := x.(*syntax.BinaryExpr); ok && b.Op == syntax.QUO {
			if n, ok := b.Y.(*syntax.Name); ok && n.Name != "arg" {
				found = true
			}
		}
	})
	return found
}

func lines(src string) int { return strings.Count(strings.TrimSpace(src), "\n") + 1 }

// shrinkChecked shrinks src and checks what always holds: the result still
// fails, parses, is no larger, and the budget was kept.
func shrinkChecked(t *testing.T, src string, fails func(string) bool) (string, Stats) {
	t.Helper()
	out, st := ShrinkStats(src, fails)
	if !fails(out) {
		t.Fatalf("the shrunk program does not fail:\n%s", out)
	}
	if _, err := syntax.Parse("out.smp", []byte(out)); err != nil {
		t.Fatalf("the shrunk program does not parse: %v\n%s", err, out)
	}
	if len(out) > len(src) {
		t.Fatalf("the shrunk program is larger (%d bytes) than the input (%d)", len(out), len(src))
	}
	if st.Calls > MaxCalls || st.Bytes > MaxBytes+len(src)+len(out) {
		t.Fatalf("over budget: %+v", st)
	}
	return out, st
}

func TestShrinkDivisionByVariable(t *testing.T) {
	src := `// A program with a division by a variable deep inside.
int a = arg * 3 + 7;
int b = 0;
for (int i = 0; i < 10; i++) {
    if (a > 5) {
        b += i;
        while (b < 100) {
            b = b * 2 + 1;
            if (b % 3 == 0) break;
        }
    } else {
        b -= a << 2;
    }
}
int c = a - b;
if (c != 0) {
    b = (a + 1) * (b / c) - 42;
}
return a + b + c;
`
	out, st := shrinkChecked(t, src, divByVar)
	t.Logf("%d lines -> %d lines, %+v:\n%s", lines(src), lines(out), st, out)
	if n := lines(out); n > 3 {
		t.Errorf("shrunk to %d lines, want at most 3:\n%s", n, out)
	}
}

func TestShrinkGenerated(t *testing.T) {
	// Generated programs of every shape, with the toy predicate, and with
	// a predicate that needs two things at once.
	// (A branchy program of any size may have thousands of lines: the
	// generator nests ifs to depth 12 whatever the size asked for.)
	for seed := int64(0); seed < 32; seed++ {
		src := gen.Program(gen.Config{Seed: seed, Size: 40, Shape: gen.Shape(seed % 4)})
		if divByVar(src) {
			out, _ := shrinkChecked(t, src, divByVar)
			if n := lines(out); n > 4 {
				t.Errorf("seed %d: shrunk to %d lines, want at most 4:\n%s", seed, n, out)
			}
		}
		both := func(s string) bool { return strings.Contains(s, "while") && strings.Contains(s, "%") }
		if both(src) {
			out, _ := shrinkChecked(t, src, both)
			if n := lines(out); n > 5 {
				t.Errorf("seed %d: while and %%: shrunk to %d lines, want at most 5:\n%s", seed, n, out)
			}
		}
	}
}

// TestShrinkEdits checks each kind of edit on a program made for it.
func TestShrinkEdits(t *testing.T) {
	has := func(subs ...string) func(string) bool {
		return func(s string) bool {
			for _, sub := range subs {
				if !strings.Contains(s, sub) {
					return false
				}
			}
			return true
		}
	}
	tests := []struct {
		name  string
		src   string
		fails func(string) bool
		want  string
	}{
		{"delete statements", "int x = 1;\nint y = 2;\nx = x + y;\nreturn 7;", has("return"), "return 0;\n"},
		{"if to then", "if (arg) {\n    arg = 5;\n} else {\n    arg = 6;\n}", has("arg = 5"), "arg = 5;\n"},
		{"if to else", "if (arg) {\n    arg = 5;\n} else {\n    arg = 6;\n}", has("arg = 6"), "arg = 6;\n"},
		{"drop else", "if (arg) arg = 5; else arg = 6;", has("if", "arg = 5"), "if (0)\n    arg = 5;\n"},
		{"while to body", "while (arg < 10) {\n    arg = arg + 1;\n}", has("arg = ", "+"), "arg = 0 + 0;\n"},
		{"loop condition", "while (arg < 10) {\n    arg = arg + 1;\n}", has("while", "= ", "+"), "while (0)\n    arg = 0 + 0;\n"},
		{"for to body", "for (int i = 0; i < 3; i++) {\n    arg = i * 2;\n}", has("*"), "0 * 0;\n"},
		{"for keeps init", "for (int i = 0; i < 3; i++) {\n    arg = i * 2;\n}", has("int i", "i * "), "int i;\ni * 0;\n"},
		{"operand", "return (arg + 5) * -(arg ^ 3);", has("^"), "0 ^ 0;\n"},
		{"chain operand", "return 1 < arg <= 3 ? 7 : 8;", has("<="), "0 <= 0;\n"},
		{"smaller literal", "return 1000;", func(s string) bool {
			if !strings.HasPrefix(s, "return") {
				return false
			}
			f, err := syntax.Parse("t", []byte(s))
			if err != nil {
				return false
			}
			big := false
			walkExprs(f.Body, func(x syntax.Expr) {
				if l, ok := x.(*syntax.IntLit); ok && l.Value > 5 {
					big = true
				}
			})
			return big
		}, "return 7;\n"},
		{"declarator", "int a = 1, b = 2, c = 3;\nreturn b;", has("b"), "int b;\n"},
		{"flatten", "{\n    {\n        int x = 3;\n        return x;\n    }\n}", has("return x"), "int x;\nreturn x;\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := shrinkChecked(t, tt.src, tt.fails)
			if out != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
		})
	}
}

func TestShrinkNoFailure(t *testing.T) {
	calls := 0
	src := "int x = 1;\nreturn x;"
	out := Shrink(src, func(string) bool { calls++; return false })
	if out != src || calls != 1 {
		t.Errorf("a program that does not fail: got %q after %d calls, want it unchanged after 1", out, calls)
	}
	// A program that does not parse cannot be shrunk on its tree.
	bad := "int x = ;"
	if out := Shrink(bad, func(string) bool { return true }); out != bad {
		t.Errorf("a program that does not parse: got %q", out)
	}
}

func TestShrinkDeterministic(t *testing.T) {
	src := gen.Program(gen.Config{Seed: 7, Size: 80, Shape: gen.Mixed})
	fails := func(s string) bool { return strings.Contains(s, "%") || strings.Contains(s, ">>") }
	a, _ := shrinkChecked(t, src, fails)
	b, _ := shrinkChecked(t, src, fails)
	if a != b {
		t.Errorf("two shrinks of the same program differ:\n%s\n---\n%s", a, b)
	}
}

// TestShrinkBudget: shrinking ends, within its budget, on a large program,
// even with a predicate that almost every candidate satisfies and one that
// fails only on the exact input.
func TestShrinkBudget(t *testing.T) {
	src := gen.Program(gen.Config{Seed: 3, Size: 2000, Shape: gen.Mixed})
	start := time.Now()
	out, st := shrinkChecked(t, src, divByVar)
	t.Logf("2,000 statements (%d lines, %d bytes) -> %d lines in %v: %+v\n%s",
		lines(src), len(src), lines(out), time.Since(start), st, out)
	if n := lines(out); n > 4 {
		t.Errorf("shrunk to %d lines, want at most 4", n)
	}

	// Any change makes it pass: every candidate is a call, and the
	// budget ends the shrink.
	start = time.Now()
	exact := func(s string) bool { return s == src }
	out, st = shrinkChecked(t, src, exact)
	t.Logf("only the input fails: %v, %+v", time.Since(start), st)
	if out != src {
		t.Errorf("changed a program on which no change fails")
	}

	// Anything but the empty program fails: the end is one statement.
	nonEmpty := func(s string) bool { return strings.TrimSpace(s) != "" }
	out, st = shrinkChecked(t, src, nonEmpty)
	t.Logf("any non-empty program fails: %+v: %q", st, out)
	if lines(out) != 1 {
		t.Errorf("want a program of one line, got\n%s", out)
	}
}
