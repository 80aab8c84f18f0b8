package son

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"son/syntax"
)

// peepholeCase is one case of testdata/peephole.txt.
type peepholeCase struct {
	name string
	line int // of the ### line
	src  string
	want string         // son.Print after Iterate
	ops  map[string]int // live nodes by op name, for the ops listed
}

func readPeepholeCases(t *testing.T) []peepholeCase {
	t.Helper()
	data, err := os.ReadFile("testdata/peephole.txt")
	if err != nil {
		t.Fatal(err)
	}
	var cases []peepholeCase
	var cur *peepholeCase
	var src []string
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			cases = append(cases, peepholeCase{name: line[4:], line: i + 1, ops: map[string]int{}})
			cur, src = &cases[len(cases)-1], nil
		case cur == nil, line == "":
		case strings.HasPrefix(line, "=> "):
			cur.src = strings.Join(src, "\n")
			cur.want = line[3:]
		case strings.HasPrefix(line, "ops:"):
			for _, f := range strings.Fields(line[4:]) {
				op, n, ok := strings.Cut(f, "=")
				k, err := strconv.Atoi(n)
				if !ok || err != nil || OpByName(op) == OpInvalid {
					t.Fatalf("testdata/peephole.txt:%d: bad op count %q", i+1, f)
				}
				cur.ops[op] = k
			}
		case cur.want != "":
			t.Fatalf("testdata/peephole.txt:%d: text after the => line", i+1)
		default:
			src = append(src, line)
		}
	}
	for _, c := range cases {
		if c.want == "" {
			t.Fatalf("testdata/peephole.txt:%d: case %q has no => line", c.line, c.name)
		}
	}
	return cases
}

// buildSrc parses and builds a program, failing the test on a source error.
func buildSrc(t *testing.T, src string) *Graph {
	t.Helper()
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return Build(f, BuildOptions{})
}

// optimize runs the peepholes to a fixpoint, as the pipeline does.
func optimize(g *Graph) error {
	g.PushAll()
	if err := g.Iterate(); err != nil {
		return err
	}
	g.StripRefines() // as the pipeline's cleanup pass does at the end
	return g.Iterate()
}

// countOps counts the live nodes of g by op name.
func countOps(g *Graph) map[string]int {
	n := map[string]int{}
	for _, x := range g.Live() {
		n[x.Op.String()]++
	}
	return n
}

// peepholeArgs are the arguments each program is run on before and after
// Iterate.
var peepholeArgs = []int64{-7, -1, 0, 1, 2, 3, 5, 10, 64}

// runAll runs g on every argument and formats each result or error.
func runAll(g *Graph, args []int64) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = runResult(g, a, Limits{Steps: 100_000})
	}
	return out
}

// runResult runs g on arg and formats the value or error; a panic of the
// interpreter is reported as such instead of ending the test binary.
func runResult(g *Graph, arg int64, lim Limits) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("panic: %v", r)
		}
	}()
	v, err := Run(g, arg, lim)
	if err != nil {
		return err.Error()
	}
	return strconv.FormatInt(v, 10)
}

// safeOptimize runs the peepholes to a fixpoint, reporting an error or a
// panic of Iterate, or a graph that fails Verify, as an error of the test.
func safeOptimize(t *testing.T, g *Graph, what string) (ok bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: Iterate (seed %d) panics: %v", what, g.Seed, r)
			ok = false
		}
	}()
	if err := optimize(g); err != nil {
		t.Errorf("%s: Iterate (seed %d): %v", what, g.Seed, err)
		return false
	}
	verifyGraph(t, g, what+" after Iterate")
	return true
}

// verifyGraph reports what Verify finds wrong with g.
func verifyGraph(t *testing.T, g *Graph, what string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: Verify panics: %v", what, r)
		}
	}()
	if err := Verify(g); err != nil {
		t.Errorf("%s (seed %d): Verify: %v", what, g.Seed, err)
	}
}

// safePrint is Print, with a panic of the printer (a graph that uses a
// killed node) as its text.
func safePrint(g *Graph) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("panic: %v", r)
		}
	}()
	return Print(g)
}

// progress is g.Progress as text: "" at a fixpoint.
func progress(g *Graph) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("(Progress panics: %v)", r)
		}
	}()
	if n := g.Progress(); n != nil {
		return g.ListNode(n)
	}
	return ""
}

// safeProgress is g.Progress, with a panic reported as an error.
func safeProgress(t *testing.T, g *Graph, what string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: Progress panics: %v", what, r)
		}
	}()
	if n := g.Progress(); n != nil {
		t.Errorf("%s: seed %d: not at a fixpoint, a peephole still changes %s\n%s", what, g.Seed, g.ListNode(n), Listing(g))
	}
}

// compareRuns reports, in one error, the arguments on which the graph
// after Iterate computes something else than the graph after Build.
func compareRuns(t *testing.T, src string, args []int64, before, after []string) {
	t.Helper()
	var diffs []string
	for i := range args {
		if before[i] != after[i] {
			diffs = append(diffs, fmt.Sprintf("arg %d: %s after Build, %s after Iterate", args[i], before[i], after[i]))
		}
	}
	if len(diffs) > 0 {
		t.Errorf("%s: Iterate changed results:\n%s", src, strings.Join(diffs, "\n"))
	}
}

func TestPeephole(t *testing.T) {
	for _, c := range readPeepholeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			g := buildSrc(t, c.src)
			verifyGraph(t, g, c.src+" after Build")
			before := runAll(g, peepholeArgs)
			if !safeOptimize(t, g, c.src) {
				return
			}
			if got := safePrint(g); got != c.want {
				t.Errorf("testdata/peephole.txt:%d: %s\n got: %s\nwant: %s", c.line, c.src, got, c.want)
			}
			ops := countOps(g)
			for op, want := range c.ops {
				if ops[op] != want {
					t.Errorf("testdata/peephole.txt:%d: %s: %d live %s, want %d\n%s", c.line, c.src, ops[op], op, want, Listing(g))
				}
			}
			safeProgress(t, g, c.src)
			after := runAll(g, peepholeArgs)
			compareRuns(t, c.src, peepholeArgs, before, after)
		})
	}
}

// fixpointPrograms are programs with loops and nested ifs, for the
// order-independence test on top of the peephole cases.
var fixpointPrograms = []string{
	`int i=0; int s=0; while(i<arg){ if(i%2==0) s=s+i; i++;} return s;`,
	`int s=0; for(int i=0;i<arg;i++){ if(i==3) continue; if (i==7) break; s=s+i;} return s;`,
	`int a=1; int b=2; int i=0; while(i<arg){int t=a; a=b; b=t; i++;} return a*10+b;`,
	`int x=0; if(arg>0){ if(arg>10) x=2; else x=1; } else { if(arg<-10) x=-2; else x=-1; } return x;`,
	`int i=0; int j=0; int s=0; while(i<arg){ j=0; while(j<i){ s=s+j; j++; } i++; } return s;`,
	`int i=0; while(1){ if(i>=arg) break; i++; } return i;`,
	`for(int i=0;;i++){ if(i==arg) return i*2; }`,
	`int a=arg; int b=0; while(a>0){ if(a%3==0){ b=b+a; } else if(a%3==1){ b=b-1; } else { b=b*2; } a--; } return b;`,
	`int x=arg+1; int y=arg+1; int z=0; if(arg) z=x-y; else z=y-x; return z;`,
	`int n=arg; int c=0; while(n!=1 && c<1000){ if(n%2==0) n=n/2; else n=3*n+1; c++; } return c;`,
	`int r=1; int k=arg&15; while(k>0){ r=r*k; k--; } return r/(arg|1);`,
	`int a=0; while(arg<100){ arg=arg+1; if(arg==50) continue; a=a+arg; } return a;`,
	`bool f=false; int i=0; while(i<arg){ f=!f; i++; } return f;`,
	`int a=1; if(arg){ while(a<100) a=a*2; } else { while(a<1000) a=a*3; } return a;`,
	`while(1){ if(arg) return 1; }`,
	`int i=0; while(i<10){ i=i+1; } while(1){} return i;`,
	`int i=0; int j=0; while(i<arg){ i++; if(i==3) continue; if(i==5) continue; if(i==8) break; j=j+i; } return j*100+i;`,
	`int x=0; for(int i=0;i<arg;i++){ if(i%3==0){ if(i%2==0) x=x+1; else x=x+10; } else x=x+100; } return x;`,
	// A Region input found dead during Iterate, above a Region with Phis.
	`int i = 0; while (i < 2 && (0 <= i <= arg)) { i++; return 5; } return 1;`,
	// Removing the Phi inputs of a dead back edge kills the whole loop
	// (it divides by zero on every path).
	`int i = 0; while (i < 1) { int d = 0; while (arg % d) { arg += 1; d *= 0; } i++; }`,
}

// TestFixpointIsOrderIndependent: Iterate reaches the same graph whatever
// order it pulls the worklist in, and the graph it reaches is a fixpoint.
func TestFixpointIsOrderIndependent(t *testing.T) {
	var progs []string
	for _, c := range readPeepholeCases(t) {
		progs = append(progs, c.src)
	}
	progs = append(progs, fixpointPrograms...)
	for _, src := range progs {
		prints := map[string][]int64{} // print → seeds
		var order []string
		stuck := []int64{} // seeds that stopped short of a fixpoint
		for seed := int64(0); seed <= 20; seed++ {
			g := buildSrc(t, src)
			g.Seed = seed
			if !safeOptimize(t, g, src) {
				continue
			}
			got := safePrint(g)
			if prints[got] == nil {
				order = append(order, got)
			}
			prints[got] = append(prints[got], seed)
			if n := progress(g); n != "" {
				if len(stuck) == 0 {
					t.Errorf("%s\nseed %d: not at a fixpoint, a peephole still changes %s", src, seed, n)
				}
				stuck = append(stuck, seed)
			}
		}
		if len(order) > 1 {
			var b strings.Builder
			for _, p := range order {
				fmt.Fprintf(&b, "\nseeds %v: %s", prints[p], p)
			}
			t.Errorf("%s\nthe fixpoint depends on the worklist order:%s", src, b.String())
		}
		if len(stuck) > 1 {
			t.Errorf("%s\nseeds %v all stop short of a fixpoint", src, stuck)
		}
	}
}

// TestFixpointPrograms checks the optimized loop programs against the
// graph as built, on many arguments.
func TestFixpointPrograms(t *testing.T) {
	args := []int64{-20, -11, -3, -1, 0, 1, 2, 3, 4, 7, 8, 11, 27, 49, 50, 99}
	for _, src := range fixpointPrograms {
		g := buildSrc(t, src)
		before := runAll(g, args)
		if !safeOptimize(t, g, src) {
			continue
		}
		after := runAll(g, args)
		compareRuns(t, src, args, before, after)
	}
}

// TestNodeIDsNeverReused: IDs are handed out in increasing order, a killed
// node's ID stays empty, and an ID never stands for another node later.
func TestNodeIDsNeverReused(t *testing.T) {
	g := NewGraph("t")
	a := g.NewNode(OpConstant, 5)
	b := g.NewNode(OpConstant, 6)
	add := g.NewNode(OpAdd, 0, nil, a, b)
	if a.ID <= g.Stop.ID || b.ID != a.ID+1 || add.ID != b.ID+1 || g.MaxID() != add.ID+1 {
		t.Fatalf("IDs Start %d Stop %d, then %d %d %d, MaxID %d", g.Start.ID, g.Stop.ID, a.ID, b.ID, add.ID, g.MaxID())
	}
	g.Kill(add) // and with it a and b, left unused
	for _, n := range []*Node{add, a, b} {
		if !n.IsDead() || g.Node(n.ID) != nil {
			t.Errorf("%v after Kill: dead %v, g.Node = %v", n, n.IsDead(), g.Node(n.ID))
		}
	}
	c := g.NewNode(OpConstant, 7)
	if c.ID != add.ID+1 || g.Node(c.ID) != c {
		t.Errorf("new node after a kill has ID %d, want %d", c.ID, add.ID+1)
	}
	if g.Node(0) != nil || g.Node(g.MaxID()) != nil || g.Node(-1) != nil {
		t.Errorf("g.Node out of range is not nil")
	}

	// Through a whole build and fixpoint: every node alive before Iterate
	// keeps its ID or dies; nodes made by Iterate have new IDs.
	progs := append([]string(nil), fixpointPrograms...)
	for _, c := range readPeepholeCases(t) {
		progs = append(progs, c.src)
	}
	for _, src := range progs {
		g := buildSrc(t, src)
		max := g.MaxID()
		before := make([]*Node, max)
		for id := range before {
			before[id] = g.Node(id)
		}
		if !safeOptimize(t, g, src) {
			continue
		}
		if g.MaxID() < max {
			t.Errorf("%s: MaxID went down from %d to %d", src, max, g.MaxID())
		}
		for id := 1; id < max; id++ {
			n := g.Node(id)
			switch {
			case n == nil:
				if before[id] != nil && !before[id].IsDead() {
					t.Errorf("%s: %v left the table but is not dead", src, before[id])
				}
			case n != before[id]:
				t.Errorf("%s: ID %d was %v, now %v", src, id, before[id], n)
			}
		}
		for _, n := range g.Live() {
			if n.IsDead() || g.Node(n.ID) != n {
				t.Errorf("%s: live %v is dead or not in the table", src, n)
			}
		}
		ids := map[int]bool{}
		for _, n := range g.Live() {
			if ids[n.ID] {
				t.Errorf("%s: two live nodes with ID %d", src, n.ID)
			}
			ids[n.ID] = true
		}
	}
}

// TestOutEdgesMirrorInEdges: after build and Iterate, every live node's
// Out lists each user once per input edge and nothing else.
func TestOutEdgesMirrorInEdges(t *testing.T) {
	progs := append([]string(nil), fixpointPrograms...)
	for _, c := range readPeepholeCases(t) {
		progs = append(progs, c.src)
	}
	for _, src := range progs {
		g := buildSrc(t, src)
		if !safeOptimize(t, g, src) {
			continue
		}
		for _, n := range g.Live() {
			want := map[*Node]int{}
			for _, x := range n.In {
				if x != nil {
					want[x]++
				}
			}
			for x, k := range want {
				got := 0
				for _, u := range x.Out {
					if u == n {
						got++
					}
				}
				if got != k {
					t.Errorf("%s: %v uses %v %d times, but appears %d times in its Out", src, n, x, k, got)
				}
			}
			for _, u := range n.Out {
				if u.IsDead() {
					t.Errorf("%s: %v has dead user %v", src, n, u)
				}
			}
		}
	}
}

// TestPrintShapes checks the printer's forms that the peephole cases do
// not reach: several returns (split again, as the cleanup pass leaves
// them) and a Phi seen again inside its loop.
func TestPrintShapes(t *testing.T) {
	tests := []struct{ src, want string }{
		{`int i=0; while(i<arg) i=i+2; return i;`, `return Phi(Loop,0,(Phi_i+2));`},
		{`if(arg==1) return 3; if(arg==2) return 4; return 5;`, `Stop[ return 3; return 4; return 5; ]`},
		{`while(1){}`, `return Top;`},
		{`return -arg;`, `return (-arg);`},
		{`int x=arg>>>3; return x>>1;`, `return ((arg>>>3)>>1);`},
	}
	for _, tt := range tests {
		g := buildSrc(t, tt.src)
		optimize(g)
		g.SplitReturns()
		if got := Print(g); got != tt.want {
			t.Errorf("%s\n got: %s\nwant: %s", tt.src, got, tt.want)
		}
	}
}

// iterateCases are programs whose fixpoint must be reached in bounded
// time. A peephole that keeps rewriting (or a type that narrows by one
// value per visit) would make Iterate run forever, so each program runs in
// a child process that is killed after a time limit.
var iterateCases = []struct {
	src   string
	seeds []int64
	print string           // son.Print after Iterate, "" to skip
	runs  map[int64]string // arg → result after Iterate
}{
	// A Phi of a dead loop must not become its own back-edge value.
	{`for (int j = 0; j < 0; j++) { int i = 0; while (i < 2) i++; return i; }`, []int64{0, 1, 2, 3}, "return 0;",
		map[int64]string{0: "0", 5: "0"}},
	// A remainder by a loop Phi: its range narrows by one per visit.
	{`int b = 36; while (b) b = arg % b; return b;`, []int64{0, 1}, "",
		map[int64]string{0: "0", 7: "0", 100: "0"}},
	{`int a=arg; int b=36; while(b!=0){int t=a%b; a=b; b=t;} return a;`, []int64{0, 1}, "",
		map[int64]string{48: "12", 17: "1", 0: "36", -8: "4"}},
	// Loops that do terminate fast today, as a baseline for the harness.
	{`int i=0; while(i<arg) i++; return i;`, []int64{0, 1, 2}, "return Phi(Loop,0,(Phi_i+1));",
		map[int64]string{0: "0", 9: "9"}},
	{`int b = 100; while (b > 7) b = b % 7 + b / 2; return b;`, []int64{0, 1}, "",
		map[int64]string{0: "5"}}, // 100 → 52 → 29 → 15 → 8 → 5
}

// TestIterateTerminates runs each of iterateCases in a child process (this
// test binary, running TestIterateChild) and fails if it does not finish
// within the time limit.
func TestIterateTerminates(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for i, tc := range iterateCases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestIterateChild$", "-test.v")
		cmd.Env = append(os.Environ(), "SON_ITERATE_CHILD="+strconv.Itoa(i))
		out, err := cmd.Output()
		timedOut := ctx.Err() != nil
		cancel()
		text := string(out)
		if timedOut {
			// The lines printed so far say which seeds finished.
			t.Errorf("%s: Iterate did not finish within 5s (killed); the child got this far:\n%s", tc.src, childLines(text))
			continue
		}
		if err != nil {
			t.Errorf("%s: child failed: %v\n%s", tc.src, err, text)
			continue
		}
		for _, seed := range tc.seeds {
			if tc.print != "" {
				want := fmt.Sprintf("seed %d print %s", seed, tc.print)
				if !strings.Contains(text, want+"\n") {
					t.Errorf("%s: want %q in\n%s", tc.src, want, childLines(text))
				}
			}
			for arg, v := range tc.runs {
				want := fmt.Sprintf("seed %d arg %d = %s", seed, arg, v)
				if !strings.Contains(text, want+"\n") {
					t.Errorf("%s: want %q in\n%s", tc.src, want, childLines(text))
				}
			}
		}
	}
}

// childLines keeps the lines of the child's output that it printed itself.
func childLines(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "seed ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestIterateChild is the child process of TestIterateTerminates.
func TestIterateChild(t *testing.T) {
	i, err := strconv.Atoi(os.Getenv("SON_ITERATE_CHILD"))
	if err != nil {
		t.Skip("runs only as the child of TestIterateTerminates")
	}
	tc := iterateCases[i]
	for _, seed := range tc.seeds {
		g := buildSrc(t, tc.src)
		g.Seed = seed
		fmt.Printf("seed %d start\n", seed)
		if err := optimize(g); err != nil {
			fmt.Printf("seed %d Iterate: %s\n", seed, strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		fmt.Printf("seed %d print %s\n", seed, safePrint(g))
		for arg := range tc.runs {
			fmt.Printf("seed %d arg %d = %s\n", seed, arg, runResult(g, arg, Limits{Steps: 1_000_000}))
		}
	}
}

// TestIterateWalks checks that Iterate walks the whole graph as often as
// it must and no more: a sweep leaves the inputs of what it removed to
// revisit, and when they do not change, no second walk follows; a new
// Never exit, though, always needs a walk and a sweep after it.
func TestIterateWalks(t *testing.T) {
	for _, tc := range []struct {
		src   string
		walks int
	}{
		{"int i = 0; int j = 0; while (i < arg) { i++; j++; } return i;", 1},
		{"return arg + 1;", 1},
		// The ?: leaves a Region and Phi that the peepholes fold away, so
		// that x's Phi and increment only keep each other alive: the sweep
		// removes them and revisits their inputs, which do not change.
		{"int x = 0; while (1) { x++; x ? 0 : 1; }", 1},
		// Only the fixpoint finds that the break is never taken (sum stays
		// 0): the loop gets its Never exit, its new nodes go through the
		// worklist, and the graph must then be walked and swept again,
		// though the worklist changed nothing (found by FuzzCompile). Two
		// walks find the loop and see that its exit suffices, one sweeps.
		{"int sum; for (int i;; i++) { if (sum > 100) break; sum &= 2; }", 3},
	} {
		g := buildSrc(t, tc.src)
		before := g.Stats.Walks
		g.PushAll()
		if err := g.Iterate(); err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if got := g.Stats.Walks - before; got != tc.walks {
			t.Errorf("%s: Iterate walked the graph %d times, want %d", tc.src, got, tc.walks)
		}
		verifyGraph(t, g, tc.src)
	}
}

// TestNarrowingIsBounded: a loop counter tested against a constant, as in
// `while (i < 1) i++`, has a Refine below the test whose range narrows the
// Phi by one value per round of the worklist from the far end of int
// ([MinInt+k..1]); each round re-runs the peepholes of the loop's cycle and
// of every user. maxNarrow bounds the rounds: with 64 of them the peephole
// fixpoint of a generated program ran 13 peepholes per live node instead of
// about one.
func TestNarrowingIsBounded(t *testing.T) {
	var b strings.Builder
	const loops = 50
	for k := range loops {
		fmt.Fprintf(&b, "int c%d = 0; while (c%d < %d) c%d = c%d + 1; arg = arg + c%d;\n", k, k, k+1, k, k, k)
	}
	b.WriteString("return arg;")
	g := buildSrc(t, b.String())
	g.PushAll()
	before := g.Stats.Peepholes
	if err := g.Iterate(); err != nil {
		t.Fatal(err)
	}
	live := len(g.Live())
	peeps := g.Stats.Peepholes - before
	if peeps > 8*live {
		t.Errorf("Iterate ran %d peepholes on %d live nodes (over 8 per node)", peeps, live)
	}
	narrowed := 0
	for _, n := range g.Live() {
		if n.Op == OpPhi {
			if n.narrowed > maxNarrow {
				t.Errorf("%v narrowed %d times, over maxNarrow (%d)", n, n.narrowed, maxNarrow)
			}
			narrowed += int(n.narrowed)
		}
	}
	if narrowed == 0 {
		t.Errorf("no Phi narrowed: the program no longer shows the slow narrowing")
	}
	verifyGraph(t, g, "loops")
}
