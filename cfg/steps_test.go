package cfg_test

import (
	"fmt"
	"strings"
	"testing"

	"son/cfg"
	"son/compile"
	"son/son"
)

// minSteps returns the least step limit under which run completes, by
// bisection: the number of steps the run takes.
func minSteps(t *testing.T, run func(limit int64) error) int64 {
	t.Helper()
	lo, hi := int64(0), int64(1)
	for run(hi) != nil {
		if lo, hi = hi, 2*hi; hi > 1<<40 {
			t.Fatalf("no limit is enough: %v", run(hi))
		}
	}
	for hi-lo > 1 { // run(lo) fails or lo is 0, run(hi) completes
		mid := lo + (hi-lo)/2
		if run(mid) == nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// sumTerms is a loop of n iterations whose body adds terms terms.
func sumTerms(n, terms int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "int s = 0; int i = 0;\nwhile (i < %d) {\n\ts = s", n)
	for k := 1; k <= terms; k++ {
		fmt.Fprintf(&b, " + (i ^ %d)", k)
	}
	b.WriteString(";\n\ti++;\n}\nreturn s;\n")
	return b.String()
}

// TestStepsAgreeAcrossLevels: one step is one operation at both levels
// (son.Run: a control move or a data node evaluated; cfg.Run: a Phi
// assigned, an instruction or a terminator executed), so the same program
// takes about as many steps at each. cfg.Run takes fewer, 0.7 to 0.8 times
// as many on these loops: it computes a constant once, where son.Run
// evaluates it again in each environment (each pass through a region);
// the test holds the ratio between 1/2 and 1.
func TestStepsAgreeAcrossLevels(t *testing.T) {
	for _, src := range []string{
		`int i = 0; while (i < 10) i++; return i;`,
		`int s = 0; for (int i = 0; i < 10; i++) s += i; return s;`,
		`int s = 0; for (int i = 0; i < 10; i++) for (int j = 0; j < i; j++) s += i * j; return s;`,
		sumTerms(10, 100),
	} {
		u, err := compile.Compile("t.smp", []byte(src), compile.Options{Check: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		sonSteps := minSteps(t, func(n int64) error { _, err := son.Run(u.Graph, 0, son.Limits{Steps: n}); return err })
		cfgSteps := minSteps(t, func(n int64) error { _, err := cfg.Run(u.Func, 0, cfg.Limits{Steps: n}); return err })
		r := float64(cfgSteps) / float64(sonSteps)
		t.Logf("%d steps in son.Run, %d in cfg.Run: %.2f", sonSteps, cfgSteps, r)
		if r < 0.5 || r > 1 {
			t.Errorf("%s\n%d steps in son.Run, %d in cfg.Run: ratio %.2f, want 0.5 to 1", src, sonSteps, cfgSteps, r)
		}
		if sonSteps < 10 {
			t.Errorf("%s: %d steps: the loop cannot have run", src, sonSteps)
		}
	}
}

// BenchmarkDefaultStepLimit times a run that reaches the default step
// limit, at each level, on loops that never end: a tight one, and wide
// ones whose body sums 100 or 1,000 terms (the worst case known: at the
// graph level each step is a data node evaluated, through the memo).
// Run it with -benchtime 1x: one iteration is a whole run. The figures are
// in docs/PERFORMANCE.md.
func BenchmarkDefaultStepLimit(b *testing.B) {
	for _, c := range []struct {
		name, src string
	}{
		{"tight", "int s = 0; while (arg == 0) s = s + 1; return s;"},
		{"wide100", sumTerms(1_000_000_000, 100)},
		{"wide1000", sumTerms(1_000_000_000, 1000)},
		{"phis100", manyPhis(100)},
		{"divs100", manyDivs(100)},
	} {
		u, err := compile.Compile("bench.smp", []byte(c.src), compile.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(u.Graph.Live()) < 10 {
			b.Fatalf("%s: the loop was optimized away:\n%s", c.name, son.Print(u.Graph))
		}
		want := fmt.Sprintf("runtime error: step limit exceeded (%d steps)", son.DefaultSteps)
		b.Run("son/"+c.name, func(b *testing.B) {
			for range b.N {
				if _, err := son.Run(u.Graph, 0, son.Limits{}); err == nil || err.Error() != want {
					b.Fatalf("%v, want %s", err, want)
				}
			}
		})
		b.Run("cfg/"+c.name, func(b *testing.B) {
			for range b.N {
				if _, err := cfg.Run(u.Func, 0, cfg.Limits{}); err == nil || err.Error() != want {
					b.Fatalf("%v, want %s", err, want)
				}
			}
		})
	}
}

// manyPhis is a loop that never ends (with arg 0) and updates n variables: n Phis
// assigned on each entry to the loop.
func manyPhis(n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "int a%d = arg + %d;\n", k, k)
	}
	b.WriteString("while (arg == 0) {\n")
	for k := range n {
		fmt.Fprintf(&b, "\ta%d = a%d + a%d;\n", k, k, (k+1)%n)
	}
	b.WriteString("}\nreturn a0;\n")
	return b.String()
}

// manyDivs is a loop that never ends (with arg 0) whose body divides by n different
// values, each behind its check.
func manyDivs(n int) string {
	var b strings.Builder
	b.WriteString("int s = 0; int i = 1;\nwhile (arg == 0) {\n\ts = s")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, " + 1000 / (i | %d)", k)
	}
	b.WriteString(";\n\ti++;\n}\nreturn s;\n")
	return b.String()
}
