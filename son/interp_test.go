package son

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"son/syntax"
)

// runCase is a program and its results, worked out by hand from the
// language rules (ARCHITECTURE.md), never taken from son.
type runCase struct {
	src  string
	want map[int64]string // arg → value, or the error text
}

var runCases = []runCase{
	{`return 42;`, map[int64]string{0: "42", 7: "42"}},
	{`return arg;`, map[int64]string{0: "0", 7: "7", -3: "-3"}},
	{`return arg*2+1;`, map[int64]string{5: "11", -5: "-9"}},
	{`int a = 5;`, map[int64]string{0: "0", 9: "0"}}, // no return: 0
	{`int a; int b = a + 1; return b;`, map[int64]string{0: "1"}},
	{`var x = 3; val y = x + 1; x = x * y; return x;`, map[int64]string{0: "12"}},
	{`int x = 1; { int x = 2; arg = arg + x; } return arg + x;`, map[int64]string{0: "3", 10: "13"}},

	// Wrapping arithmetic, truncating division, shifts mod 64.
	{`return arg + 1;`, map[int64]string{math.MaxInt64: "-9223372036854775808"}},
	{`return -arg;`, map[int64]string{math.MinInt64: "-9223372036854775808", 5: "-5"}},
	{`return arg * 3;`, map[int64]string{math.MaxInt64: "9223372036854775805"}},
	{`return arg / -1;`, map[int64]string{math.MinInt64: "-9223372036854775808", 7: "-7"}},
	{`return arg % -1;`, map[int64]string{math.MinInt64: "0", 7: "0"}},
	{`return arg / 2;`, map[int64]string{-7: "-3", 7: "3"}},
	{`return arg % 2;`, map[int64]string{-7: "-1", 7: "1"}},
	{`return 7 / arg;`, map[int64]string{-2: "-3", 2: "3", 0: "runtime error: division by zero"}},
	{`return 7 % arg;`, map[int64]string{-2: "1", 2: "1", 0: "runtime error: division by zero"}},
	{`return -7 % arg;`, map[int64]string{-2: "-1", 2: "-1"}},
	{`return 1 << arg;`, map[int64]string{3: "8", 63: "-9223372036854775808", 64: "1", 65: "2", -1: "-9223372036854775808"}},
	{`return arg >> 1;`, map[int64]string{-3: "-2", 3: "1"}},
	{`return arg >>> 60;`, map[int64]string{-1: "15", 16: "0"}},
	{`return -16 >> arg;`, map[int64]string{2: "-4", 64: "-16"}},
	{`int x = arg; x += 3; x *= 2; x -= 1; x /= 3; x %= 4; x <<= 2; x >>= 1; x |= 1; x &= 7; x ^= 2; return x;`,
		map[int64]string{5: "1"}}, // 8 16 15 5 1 4 2 3 3 1

	// Booleans are 0 and 1; a bool variable keeps the low bit.
	{`bool b = arg; return b;`, map[int64]string{2: "0", 3: "1", -1: "1"}},
	{`bool b = true; b = !b; return b + 10;`, map[int64]string{0: "10"}},
	{`return 5 && 7;`, map[int64]string{0: "1"}},
	{`return arg || 0;`, map[int64]string{9: "1", 0: "0"}},
	{`return !arg;`, map[int64]string{9: "0", 0: "1"}},
	{`return (arg < 3) + (arg == 3)*10 + (arg >= 3)*100;`, map[int64]string{2: "1", 3: "110", 4: "100"}},

	// Short circuits and ?: do not evaluate the other side.
	{`return arg != 0 && 10/arg > 2;`, map[int64]string{0: "0", 3: "1", 5: "0"}},
	{`return arg == 0 || 10/arg > 2;`, map[int64]string{0: "1", 4: "0", 3: "1"}},
	{`return arg ? 100/arg : -1;`, map[int64]string{0: "-1", 7: "14"}},
	{`return arg > 0 ? arg : -arg;`, map[int64]string{-5: "5", 7: "7"}},
	{`return 1 < arg < 5;`, map[int64]string{1: "0", 3: "1", 5: "0"}},
	{`return arg < 10 <= arg*2 < 30;`, map[int64]string{4: "0", 5: "1", 9: "1", 15: "0"}},

	// Control flow.
	{`if (arg < 0) return -1; if (arg == 0) return 0; return 1;`, map[int64]string{-9: "-1", 0: "0", 9: "1"}},
	{`while (arg < 10) arg++; return arg;`, map[int64]string{3: "10", 20: "20"}},
	{`int s=0; for(int i=1;i<=arg;i++) s=s+i; return s;`, map[int64]string{10: "55", 0: "0"}},
	{`int r=1; while(arg>1){r=r*arg; arg--;} return r;`,
		map[int64]string{5: "120", 20: "2432902008176640000", 21: "-4249290049419214848"}},
	{`int a=0; int b=1; int i=0; while(i<arg){int t=a+b; a=b; b=t; i++;} return a;`,
		map[int64]string{0: "0", 1: "1", 10: "55", 90: "2880067194370816120"}},
	// (Euclid's algorithm is in iterateCases: Iterate does not end on it.)
	{`int n=arg; int c=0; while(n!=1){ if(n%2==0) n=n/2; else n=3*n+1; c++; } return c;`,
		map[int64]string{1: "0", 6: "8", 27: "111"}},
	{`int s=0; for(int i=0;i<arg;i++){ for(int j=0;j<i;j++){ s=s+j; } } return s;`, map[int64]string{4: "4", 5: "10"}},
	{`int s=0; for(int i=0;i<100;i++){ if(i%2) continue; if(i>10) break; s=s+i; } return s;`, map[int64]string{0: "30"}},
	{`for(int i=0;;i++){ if(i*i >= arg) return i; }`, map[int64]string{0: "0", 17: "5", 16: "4"}},
	{`int i=0; while(1){ i++; if(i==arg) break; } return i;`, map[int64]string{3: "3", 1: "1"}},

	// A swap in a loop: the Phis are assigned in parallel on the back edge.
	{`int a=1; int b=2; int i=0; while(i<arg){int t=a; a=b; b=t; i++;} return a*10+b;`,
		map[int64]string{0: "12", 1: "21", 2: "12", 7: "21"}},
	// The same through three rotating variables.
	{`int a=1; int b=2; int c=3; int i=0; while(i<arg){int t=a; a=b; b=c; c=t; i++;} return a*100+b*10+c;`,
		map[int64]string{0: "123", 1: "231", 2: "312", 3: "123"}},

	// Memoisation must not outlive the loop iteration: i*7 after the loop
	// is the same node as i*7 in the body, evaluated for a new i.
	{`int i=0; int s=0; while (i < 3) { s = i*7; i++; } return s + i*7;`, map[int64]string{0: "35"}},
	{`int i = 0; int s = 0; while (i < 4) { int d = i * i; s = s + d; i = i + 1; } return s + i*100;`, map[int64]string{0: "414"}},
	{`int i=0; int x=0; int last=0; while(i<3){ x = i*10; last = x + 1; i++; } return last + x;`, map[int64]string{0: "41"}},
	{`int i=0; int s=0; while(i<arg){ s = s + (i<2); i++; } return s*10 + (i<2);`, map[int64]string{1: "11", 5: "20"}},

	// A ZeroCheck on a path that is not taken does not fail.
	{`if (arg) return 10/arg; return -1;`, map[int64]string{0: "-1", 5: "2"}},
	{`int x = 0; if (arg > 5) x = 100 % (arg - 10); return x;`, map[int64]string{0: "0", 10: "runtime error: division by zero", 13: "1"}},

	// Division by the constant 0 stops the program where it is reached,
	// whatever the code after it looks like.
	{`int x = 1/0; return 3;`, map[int64]string{0: "runtime error: division by zero"}},
	{`if (arg) { int x = 1/0; return x; } return 2;`, map[int64]string{0: "2", 1: "runtime error: division by zero"}},
	{`int x = 1/0; if (x) return 1; return 2;`, map[int64]string{0: "runtime error: division by zero", 5: "runtime error: division by zero"}},
	{`if (arg) { arg = 1/0; if (arg) return 1; } return 2;`, map[int64]string{0: "2", 1: "runtime error: division by zero"}},

	// Regions entered again and again, each with its own Phis, found in
	// an order that interleaves them (the interpreter's list of Phis by
	// region): a loop in a loop, then a join in the outer loop.
	{`int a = 0; int b = 1; int s = 0;
	  for (int i = 0; i < arg; i++) {
	      int j = 0;
	      while (j < i) { a = a + j; b = b * 2 % 1000; j++; }
	      if (i % 2) s = s + a; else s = s - b;
	  }
	  return s * 1000000 + a * 1000 + b;`, map[int64]string{0: "1", 1: "-999999", 3: "-8998992"}},
}

func TestRun(t *testing.T) {
	for _, tc := range runCases {
		f, err := syntax.Parse("t.smp", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		g := Build(f, BuildOptions{})
		for arg, want := range tc.want {
			if got := runResult(g, arg, Limits{}); got != want {
				t.Errorf("%s\narg %d after Build: got %s, want %s", tc.src, arg, got, want)
			}
		}
		if !safeOptimize(t, g, tc.src) {
			continue
		}
		for arg, want := range tc.want {
			if got := runResult(g, arg, Limits{}); got != want {
				t.Errorf("%s\narg %d after Iterate: got %s, want %s\n%s", tc.src, arg, got, want, safePrint(g))
			}
		}
	}
}

func TestStepLimit(t *testing.T) {
	tests := []struct {
		src   string
		steps int64
		want  string
	}{
		{`while(1){}`, 50, "runtime error: step limit exceeded (50 steps)"},
		{`while(1){ arg++; }`, 1, "runtime error: step limit exceeded (1 steps)"},
		{`while(arg){}`, 1000, "runtime error: step limit exceeded (1000 steps)"},
		{`int i=0; while(i<10) i++; return i;`, 1000, "10"},
		{`int i=0; while(i<10) i++; return i;`, 5, "runtime error: step limit exceeded (5 steps)"},
		{`return 3;`, 1000, "3"},
	}
	for _, tt := range tests {
		g := buildSrc(t, tt.src)
		for _, opt := range []bool{false, true} {
			if opt {
				optimize(g)
			}
			if got := runResult(g, 1, Limits{Steps: tt.steps}); got != tt.want {
				t.Errorf("%s with %d steps (optimized %v): got %s, want %s", tt.src, tt.steps, opt, got, tt.want)
			}
		}
	}
	// The error is a *RuntimeError with the bare message.
	g := buildSrc(t, `while(1){}`)
	_, err := Run(g, 0, Limits{Steps: 50})
	var re *RuntimeError
	if !errors.As(err, &re) || re.Msg != "step limit exceeded (50 steps)" || re.Pos.IsKnown() {
		t.Errorf("step limit error = %#v", err)
	}
	// Limits{} means the default budget, which a short loop does not reach.
	g = buildSrc(t, `int i=0; while(i<100000) i++; return i;`)
	if got := runResult(g, 0, Limits{}); got != "100000" {
		t.Errorf("100000 iterations with the default budget: %s", got)
	}
}

func TestDivisionByZeroError(t *testing.T) {
	tests := []struct {
		src string
		pos syntax.Pos // of the operator
	}{
		{"return 10/arg;", syntax.Pos{Line: 1, Col: 10}},
		{"return 10%arg;", syntax.Pos{Line: 1, Col: 10}},
		{"int x = 1;\nx = x + 100 % arg;\nreturn x;", syntax.Pos{Line: 2, Col: 13}},
		{"int x = 8;\n  x /= arg;\nreturn x;", syntax.Pos{Line: 2, Col: 5}},
		{"int x = 8;\nif (arg < 1)\n\treturn x / (arg*2);\nreturn 0;", syntax.Pos{Line: 3, Col: 11}},
	}
	for _, tt := range tests {
		g := buildSrc(t, tt.src)
		for _, opt := range []bool{false, true} {
			if opt {
				optimize(g)
			}
			_, err := Run(g, 0, Limits{})
			var re *RuntimeError
			if !errors.As(err, &re) {
				t.Errorf("%q: err = %v, want a *RuntimeError", tt.src, err)
				continue
			}
			if err.Error() != "runtime error: division by zero" || re.Msg != "division by zero" || re.Pos != tt.pos {
				t.Errorf("%q (optimized %v): %q at %v, want division by zero at %v", tt.src, opt, err, re.Pos, tt.pos)
			}
		}
	}
}

// TestZeroCheckNotTaken: the graph does hold a ZeroCheck, on a path the
// run does not take.
func TestZeroCheckNotTaken(t *testing.T) {
	// (Not 10/arg: below if (arg), arg is not 0 and needs no check.)
	g := buildSrc(t, `if (arg) return 10/(arg+1); return -1;`)
	optimize(g)
	if n := countOps(g)["ZeroCheck"]; n != 1 {
		t.Fatalf("%d ZeroChecks, want 1:\n%s", n, Listing(g))
	}
	for arg, want := range map[int64]string{0: "-1", 3: "2", -10: "-1"} {
		if got := runResult(g, arg, Limits{}); got != want {
			t.Errorf("arg %d: %s, want %s", arg, got, want)
		}
	}
}

// TestRunInternalErrors: a malformed graph is reported as an error of son,
// not as a runtime error of the program.
func TestRunInternalErrors(t *testing.T) {
	g := NewGraph("t")
	_, err := Run(g, 0, Limits{})
	var re *RuntimeError
	if err == nil || errors.As(err, &re) || !strings.HasPrefix(err.Error(), "son.Run: ") {
		t.Errorf("Run of a graph without control: %v", err)
	}
}

// TestRunDivisionAboveItsCheck: evaluating a division where control has
// not surely passed its ZeroCheck is an internal error, even when the
// divisor happens not to be 0, in two hand-broken graphs that Verify
// rejects.
func TestRunDivisionAboveItsCheck(t *testing.T) {
	// The hand-made graph, with the check moved into the false arm and
	// the division still used after the merge.
	h := newHandGraph()
	zcF := h.g.NewNode(OpZeroCheck, 0, h.f, h.arg)
	h.g.SetIn(h.r, 2, zcF)
	h.g.SetIn(h.dv, 0, zcF)
	h.g.SetIn(h.ret, 0, h.r) // the old check dies
	if err := Verify(h.g); err == nil || !strings.Contains(err.Error(), h.ret.String()+": zerocheck-dom:") {
		t.Errorf("Verify = %v, want zerocheck-dom at %v", err, h.ret)
	}
	want := fmt.Sprintf("son.Run: %v evaluated at %v, where control has not surely passed %v", h.dv, h.r, zcF)
	if _, err := Run(h.g, 5, Limits{}); err == nil || err.Error() != want {
		t.Errorf("Run(5) = %v, want %s", err, want)
	}
	// On the false arm the check is passed, and stops the program.
	if got := runResult(h.g, 0, Limits{}); got != "runtime error: division by zero" {
		t.Errorf("Run(0) = %s", got)
	}

	// A check in a loop body, passed on every iteration, does not guard
	// the division after the loop: there the divisor has moved on (with
	// arg 3 it is 0; with 10 it is not, and the run is still wrong).
	g := buildSrc(t, `int i = 0; int s = 0; while (i < 3) { s = 100 / (arg - i); i++; } return s;`)
	var div *Node
	for _, n := range g.Live() {
		if n.Op == OpDiv {
			div = n
		}
	}
	if div == nil || div.In[0] == nil || div.In[0].Op != OpZeroCheck {
		t.Fatalf("no checked division in\n%s", Listing(g))
	}
	ret := onlyReturn(t, g)
	g.SetIn(ret, 1, div)
	if err := Verify(g); err == nil || !strings.Contains(err.Error(), ret.String()+": zerocheck-dom:") {
		t.Errorf("Verify = %v, want zerocheck-dom at %v", err, ret)
	}
	for _, arg := range []int64{3, 10} {
		want := fmt.Sprintf("son.Run: %v evaluated at %v, where control has not surely passed %v", div, ret.In[0], div.In[0])
		if _, err := Run(g, arg, Limits{}); err == nil || err.Error() != want {
			t.Errorf("Run(%d) = %v, want %s", arg, err, want)
		}
	}
}

// TestStepLimitBoundsWork: a step is a control move or a data node
// evaluated, so a loop whose body sums 100 terms stops at the limit after
// about a three-hundredth as many iterations as steps, not half as many
// (when only control moves counted, a run could do any amount of work per
// step). Scaled down from issue 12's reproducer; the iterations done are
// read from the loop's Phi where the run stopped.
func TestStepLimitBoundsWork(t *testing.T) {
	var b strings.Builder
	b.WriteString("int s = 0; int i = 0;\nwhile (i < 1000000000) {\n\ts = s")
	for k := 1; k <= 100; k++ {
		fmt.Fprintf(&b, " + (i ^ %d)", k)
	}
	b.WriteString(";\n\ti++;\n}\nreturn s;\n")
	g := buildSrc(t, b.String())
	if err := optimize(g); err != nil {
		t.Fatal(err)
	}
	if n := countOps(g)["Xor"]; n != 100 {
		t.Fatalf("%d Xors, want 100:\n%s", n, Listing(g))
	}
	i := loopPhi(t, g, "i")
	var iters []int64
	for _, limit := range []int64{100_000, 1_000_000} {
		it := newInterp(g, 0, Limits{Steps: limit})
		_, err := it.run()
		want := fmt.Sprintf("runtime error: step limit exceeded (%d steps)", limit)
		if err == nil || err.Error() != want || it.steps != limit {
			t.Fatalf("limit %d: %v after %d steps, want %s", limit, err, it.steps, want)
		}
		n, _ := it.phiValue(i)
		t.Logf("limit %d: stopped in iteration %d, %.1f steps per iteration", limit, n, float64(limit)/float64(n))
		// Each iteration evaluates at least the 100 Xors and 100 Adds,
		// and at most every node of the graph once per environment.
		if perIter := limit / n; perIter < 200 || perIter > int64(len(g.Live())) {
			t.Errorf("limit %d: %d iterations, %d steps each: want 200 to %d", limit, n, perIter, len(g.Live()))
		}
		iters = append(iters, n)
	}
	if r := float64(iters[1]) / float64(iters[0]); r < 9.5 || r > 10.5 {
		t.Errorf("ten times the steps runs %.2f times the iterations, want 10", r)
	}
}

// TestInterpEpochWraps: the memo's epochs are 32 bits; when they run out
// the memo is cleared and they start again, so that no value memoized
// 2^32 epochs before is read as current, and a run across the wrap
// computes what it computes from epoch 1.
func TestInterpEpochWraps(t *testing.T) {
	g := buildSrc(t, "int s = 0; int i = 0;\nwhile (i < 50) {\n\ts = s + i * arg + (s >> 3);\n\ti++;\n}\nreturn s;\n")
	if err := optimize(g); err != nil {
		t.Fatal(err)
	}
	want, err := Run(g, 7, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, before := range []uint32{1, 10, 60} { // epochs left before the wrap
		it := newInterp(g, 7, Limits{})
		it.epoch = ^uint32(0) - before
		got, err := it.run()
		if err != nil || got != want {
			t.Errorf("%d epochs before the wrap: %d, %v; want %d", before, got, err, want)
		}
		if before < 50 && it.epoch > 100 {
			t.Errorf("%d epochs before the wrap: the run ended at epoch %d, past no wrap", before, it.epoch)
		}
	}
	// Values memoized at epoch 1, 2^32 epochs ago: stale at the next epoch 1.
	it := newInterp(g, 7, Limits{})
	for id := range it.memoAt {
		it.memoAt[id], it.memoVal[id] = 1, -12345
	}
	it.epoch = ^uint32(0)
	it.newEpoch()
	if it.epoch != 1 {
		t.Fatalf("after the last epoch, epoch %d; want 1", it.epoch)
	}
	for id, e := range it.memoAt {
		if e == it.epoch {
			t.Fatalf("node %d: the value of 2^32 epochs ago (%d) reads as current", id, it.memoVal[id])
		}
	}
}
