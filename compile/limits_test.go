package compile

import (
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"son/cfg"
	"son/son"
	"son/syntax"
)

// The resource limits: programs at and past the limits of the front end,
// and large ones, go through the whole pipeline (every check on) and the
// interpreter (with a step limit), and give a result or a clean error,
// never a crash, a hang or a stack overflow.

// limitSteps is the step limit of the runs of this file.
const limitSteps = 10_000_000

// limitRun is one run of a program of this file and what it must give:
// a value, or a runtime error starting with Err.
type limitRun struct {
	Arg   int64
	Value int64
	Err   string
}

// compileAndRun compiles src with every check on and runs it with each
// argument, requiring the results of runs. It returns the compilation's
// error if there is one (and then runs nothing).
func compileAndRun(t *testing.T, name, src string, runs ...limitRun) error {
	t.Helper()
	start := time.Now()
	u, err := Compile(name, []byte(src), Options{Check: true})
	if err != nil {
		var list syntax.ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("%s: not a source error: %v", name, err)
		}
		return err
	}
	compiled := time.Since(start)
	for _, r := range runs {
		v, err := son.Run(u.Graph, r.Arg, son.Limits{Steps: limitSteps})
		checkLimitRun(t, name+": son.Run", r, v, err)
		if u.Func != nil {
			v, err := cfg.Run(u.Func, r.Arg, cfg.Limits{Steps: limitSteps})
			checkLimitRun(t, name+": cfg.Run", r, v, err)
		}
	}
	t.Logf("%s: %d bytes, %d nodes, compiled in %v, run in %v", name, len(src), len(u.Graph.Live()),
		compiled.Round(time.Millisecond), (time.Since(start) - compiled).Round(time.Millisecond))
	return nil
}

// checkLimitRun compares the outcome of one run with r.
func checkLimitRun(t *testing.T, name string, r limitRun, v int64, err error) {
	t.Helper()
	switch {
	case r.Err == "" && err != nil:
		t.Errorf("%s: arg %d: want %d, got %v", name, r.Arg, r.Value, err)
	case r.Err == "" && v != r.Value:
		t.Errorf("%s: arg %d: want %d, got %d", name, r.Arg, r.Value, v)
	case r.Err != "" && (err == nil || !strings.HasPrefix(err.Error(), r.Err)):
		t.Errorf("%s: arg %d: want %s..., got %d, %v", name, r.Arg, r.Err, v, err)
	}
	if _, ok := runtimeMsg(err); err != nil && !ok {
		t.Errorf("%s: arg %d: %v is not a runtime error of the program", name, r.Arg, err)
	}
}

// wantSourceError requires err to be the one source error want at line:col.
func wantSourceError(t *testing.T, name string, err error, line, col int, want string) {
	t.Helper()
	var list syntax.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("%s: want the error %q, got %v", name, want, err)
	}
	if len(list) != 1 || int(list[0].Pos.Line) != line || int(list[0].Pos.Col) != col || !strings.HasPrefix(list[0].Msg, want) {
		msg := err.Error()
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		t.Fatalf("%s: want one error %d:%d: %s, got %s", name, line, col, want, msg)
	}
}

func TestLimitNestedParens(t *testing.T) {
	const limit = 10_000
	src := func(n int) string {
		return "return " + strings.Repeat("(", n) + "arg + 1" + strings.Repeat(")", n) + ";\n"
	}
	if err := compileAndRun(t, "parens10000", src(limit), limitRun{Arg: 41, Value: 42}); err != nil {
		t.Fatalf("10,000 nested parentheses: %v", err)
	}
	// The 10,001st '(' is at column 8 + 10,000.
	err := compileAndRun(t, "parens10001", src(limit+1))
	wantSourceError(t, "parens10001", err, 1, 8+limit, fmt.Sprintf("nesting too deep (limit %d)", limit))
}

func TestLimitNestedBlocks(t *testing.T) {
	n := 10_000
	src := "int x = arg;\n" + strings.Repeat("{\n", n) + "x = x * 2;\n" + strings.Repeat("}\n", n) + "return x;\n"
	if err := compileAndRun(t, "blocks", src, limitRun{Arg: 21, Value: 42}); err != nil {
		t.Fatal(err)
	}
	err := compileAndRun(t, "blocks10001", strings.Repeat("{", n+1)+strings.Repeat("}", n+1))
	wantSourceError(t, "blocks10001", err, 1, n+1, "nesting too deep (limit 10000)")
}

func TestLimitNestedIfs(t *testing.T) {
	// if (arg > 0) if (arg > 1) ... x = 1; with 10,000 ifs: x is 1 when
	// arg > 9,999.
	n := 10_000
	var b strings.Builder
	b.WriteString("int x = 0;\n")
	for i := range n {
		fmt.Fprintf(&b, "if (arg > %d)\n", i)
	}
	b.WriteString("x = 1;\nreturn x;\n")
	if err := compileAndRun(t, "ifs", b.String(),
		limitRun{Arg: 0, Value: 0}, limitRun{Arg: 5000, Value: 0}, limitRun{Arg: 10_000, Value: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestLimitNestedLoops(t *testing.T) {
	// 200 loops nested, each running arg times: once each with arg 1; with
	// arg 2, 2^200 trips: the step limit.
	n := 200
	var b strings.Builder
	b.WriteString("int s = 0;\n")
	for i := range n {
		fmt.Fprintf(&b, "for (int k%d = 0; k%d < arg; k%d++)\n", i, i, i)
	}
	b.WriteString("s++;\nreturn s;\n")
	if err := compileAndRun(t, "loops", b.String(),
		limitRun{Arg: 0, Value: 0}, limitRun{Arg: 1, Value: 1},
		limitRun{Arg: 2, Err: "runtime error: step limit exceeded"}); err != nil {
		t.Fatal(err)
	}
}

func TestLimitLongLine(t *testing.T) {
	// One line of a million characters: arg+arg+...+arg, 250,000 terms,
	// through every pass with every check on, the interpreters run after
	// each. arg has 250,000 users: the verifier must be linear in them.
	sum := func(terms int) string { return "return " + strings.Repeat("arg+", terms-1) + "arg;" }
	terms := 250_000
	src := sum(terms)
	if len(src) < 1_000_000 {
		t.Fatalf("the line has %d characters", len(src))
	}
	start := time.Now()
	after := func(u *Unit, pass string) error {
		for _, arg := range []int64{1, -3} {
			want := limitRun{Arg: arg, Value: arg * int64(terms)}
			v, err := son.Run(u.Graph, arg, son.Limits{Steps: limitSteps})
			checkLimitRun(t, "son.Run after "+pass, want, v, err)
			if u.Func != nil {
				v, err := cfg.Run(u.Func, arg, cfg.Limits{Steps: limitSteps})
				checkLimitRun(t, "cfg.Run after "+pass, want, v, err)
			}
		}
		return nil
	}
	if _, err := Compile("longline", []byte(src), Options{Check: true, AfterPass: after}); err != nil {
		t.Fatal(err)
	}
	t.Logf("longline: %d characters, compiled and run after every pass in %v", len(src), time.Since(start).Round(time.Millisecond))

}

func TestLimitLongLiteral(t *testing.T) {
	digits := strings.Repeat("1234567890", 10_000)
	err := compileAndRun(t, "literal", "int x = 1;\nreturn "+digits+";\n")
	wantSourceError(t, "literal", err, 2, 8, "integer literal out of range: "+digits)
}

// straightLine returns a program of n statements without control flow
// over five variables, every statement live: each updates a variable by
// an invertible operation (+, -, ^) with a value computed from the others,
// so that every value flows into the sum the program returns. Divisors are
// odd, so the program always returns a value.
func straightLine(n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	vars := []string{"a", "b", "c", "d", "e"}
	terms := []string{"%s * %d", "%s >> %d", "%s << %d", "%s / (%s | 1)", "%s %% (%s | 1)", "%s & %s", "%s | %s", "(%s + %s)"}
	var b strings.Builder
	b.WriteString("int a = arg, b = arg + 1, c = 3, d = arg * 7, e = -arg;\n")
	for range n - 2 {
		// y and z differ from x: each statement is then a bijection of
		// the variables' values, and the result depends on arg.
		i := r.Intn(len(vars))
		x, y, z := vars[i], vars[(i+1+r.Intn(4))%5], vars[(i+1+r.Intn(4))%5]
		term := terms[r.Intn(len(terms))]
		if strings.Count(term, "%d") > 0 {
			term = fmt.Sprintf(term, y, 1+r.Intn(9))
		} else {
			term = fmt.Sprintf(term, y, z)
		}
		fmt.Fprintf(&b, "%s %s= %s;\n", x, []string{"+", "-", "^"}[r.Intn(3)], term)
	}
	b.WriteString("return a + b + c + d + e;\n")
	return b.String()
}

// referenceRuns runs src at the reference level (after build) with each
// argument and returns the runs any level must repeat.
func referenceRuns(t *testing.T, name, src string, args ...int64) []limitRun {
	t.Helper()
	u, err := Compile(name, []byte(src), Options{StopAfter: "build"})
	if err != nil {
		t.Fatal(err)
	}
	var runs []limitRun
	for _, arg := range args {
		v, err := son.Run(u.Graph, arg, son.Limits{Steps: limitSteps})
		r := limitRun{Arg: arg, Value: v}
		if err != nil {
			r.Err = err.Error()
		}
		runs = append(runs, r)
	}
	return runs
}

// TestLimitStraightLine compiles (every check on) and runs 200,000
// statements of straight-line code, and logs what that costs in memory.
func TestLimitStraightLine(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: 200,000 statements take several seconds")
	}
	const n = 200_000
	src := straightLine(n, 1)
	want := referenceRuns(t, "straight", src, 0, 1, -7)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := before.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // sample the heap while the pipeline runs
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	start := time.Now()
	u, err := Compile("straight", []byte(src), Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	compiled := time.Since(start)
	for _, r := range want {
		v, err := son.Run(u.Graph, r.Arg, son.Limits{Steps: limitSteps})
		checkLimitRun(t, "son.Run", r, v, err)
		if u.Func != nil {
			v, err := cfg.Run(u.Func, r.Arg, cfg.Limits{Steps: limitSteps})
			checkLimitRun(t, "cfg.Run", r, v, err)
		}
	}
	close(done)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	peak = max(peak, after.HeapInuse)
	t.Logf("%d statements (%.1f MB of source): compiled in %v, %d live nodes at the end, run with 0, 1 and -7 in %v: %v",
		n, float64(len(src))/1e6, compiled.Round(time.Millisecond), len(u.Graph.Live()),
		(time.Since(start) - compiled).Round(time.Millisecond), []int64{want[0].Value, want[1].Value, want[2].Value})
	t.Logf("memory: %.0f MB allocated in all, peak heap in use %.0f MB above the start (sampled every 10 ms), %.0f MB obtained from the OS",
		float64(after.TotalAlloc-before.TotalAlloc)/1e6, float64(peak-before.HeapInuse)/1e6, float64(after.Sys)/1e6)

}
