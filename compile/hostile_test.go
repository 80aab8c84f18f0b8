package compile

import (
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"son/amd64"
	"son/cfg"
	"son/internal/hostile"
	"son/son"
)

// The resource promises of docs/LANGUAGE.md ("Limits"), checked on the
// hostile shapes of package hostile: the work of all that son check does
// (every pass with every check on, then instruction selection, register
// allocation checked by regalloc.Check, and assembly), counted (nodes
// made, peepholes, allocations, bytes allocated), not timed, grows at most
// about tenfold from a program to one ten times its size. A pass quadratic in a chain's length, in the
// nesting or in the width of a join multiplies some count by a hundred.

// hostileWork is what one compilation cost.
type hostileWork struct {
	nodes, peeps, allocs, bytes float64
	// joins is the sum over the Regions and Phis the builder made of
	// their inputs squared: what the analysis and code motion pay for a
	// join evaluated once per input (a wide join is quadratic).
	joins float64
	// liveIn is the size of the live-in sets of the SSA function out of
	// SSA gets (cfg.LiveIn after gvn): a value used far from where it is
	// placed is live across every block between, and what lists live
	// sets (out of SSA's checker) pays for it.
	liveIn float64
}

// compileCounted compiles src as son check does and counts its work.
func compileCounted(t *testing.T, name, src string) (*Unit, hostileWork) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	joins, liveIn := 0, 0
	after1 := func(u *Unit, pass string) error {
		if pass == "gvn" {
			liveIn = cfg.LiveIn(u.Func)
		}
		if pass == "build" {
			for _, n := range u.Graph.Live() {
				if n.Op == son.OpRegion || n.Op == son.OpPhi {
					joins += len(n.In) * len(n.In)
				}
			}
		}
		return nil
	}
	u, err := Compile(name, []byte(src), Options{Check: true, AfterPass: after1})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// The rest of son check: instruction selection, register allocation
	// checked by regalloc.Check, assembly.
	if _, err := amd64.Compile(u.Func, u.Name, u.Src, amd64.CheckAll); err != nil {
		t.Fatalf("%s: native code: %v", name, err)
	}
	runtime.ReadMemStats(&after)
	return u, hostileWork{
		nodes:  float64(u.Graph.MaxID()),
		peeps:  float64(u.Graph.Stats.Peepholes),
		allocs: float64(after.Mallocs - before.Mallocs),
		bytes:  float64(after.TotalAlloc - before.TotalAlloc),
		joins:  float64(joins),
		liveIn: float64(liveIn),
	}
}

func TestHostileShapesGrowLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles 200 KB programs of every shape; -short skips it")
	}
	const small, large = 20_000, 200_000
	// The counts may grow a little more than the size: the shapes are
	// not exactly ten times longer, and maps and slices grow by steps.
	const most = 13.0
	for _, s := range hostile.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			srcS, srcL := s.Program(small), s.Program(large)
			uS, ws := compileCounted(t, s.Name, srcS)
			_, wl := compileCounted(t, s.Name, srcL)
			size := float64(len(srcL)) / float64(len(srcS))
			for _, c := range []struct {
				what         string
				small, large float64
			}{
				{"nodes made", ws.nodes, wl.nodes},
				{"peepholes", ws.peeps, wl.peeps},
				{"allocations", ws.allocs, wl.allocs},
				{"bytes allocated", ws.bytes, wl.bytes},
				{"join inputs squared", ws.joins, wl.joins},
				{"live-in entries", ws.liveIn, wl.liveIn},
			} {
				if c.what == "live-in entries" && s.Name == "loops" {
					// The constants of each level of the nest are
					// loop-invariant: code motion takes them out of the
					// whole nest, live across every level below theirs,
					// so the live sets grow with the square of the depth
					// up to hostile.MaxDepth (20 KB nest ~800 deep, 200 KB
					// 4,990), then linearly (1 MB: 5.2× the 200 KB count).
					continue
				}
				growth := 1.0 // nothing of the kind at either size
				switch {
				case c.small > 0:
					growth = c.large / c.small
				case c.large > 0:
					growth = math.Inf(1)
				}
				t.Logf("%s: %.0f for %d bytes, %.0f for %d bytes: %.1f× for %.1f× the source", c.what, c.small, len(srcS), c.large, len(srcL), growth, size)
				if growth > most {
					t.Errorf("%s grow %.1f× for %.1f× the source: not linear", c.what, growth, size)
				}
			}
			// The small program computes the same at both levels.
			for _, arg := range []int64{0, 1, 7, -3} {
				v1, err1 := son.Run(uS.Graph, arg, son.Limits{Steps: limitSteps})
				v2, err2 := cfg.Run(uS.Func, arg, cfg.Limits{Steps: limitSteps})
				if v1 != v2 || (err1 == nil) != (err2 == nil) {
					t.Errorf("arg %d: son.Run gives %d, %v; cfg.Run %d, %v", arg, v1, err1, v2, err2)
				}
			}
		})
	}
}

// TestHostileChainValues runs long chains of &&, ||, ?: and comparisons,
// many times wider than one join (maxJoin in son/build.go), at both
// levels, for arguments that stop them at their first, a middle and their
// last operand, and past it.
func TestHostileChainValues(t *testing.T) {
	const n = 1000 // operands
	var and, or, cond, cmp strings.Builder
	and.WriteString("return arg > 0")
	or.WriteString("return arg == 0")
	cond.WriteString("return ")
	cmp.WriteString("return arg")
	for i := 1; i < n; i++ {
		and.WriteString(" && arg > " + strconv.Itoa(i))
		or.WriteString(" || arg == " + strconv.Itoa(i))
		cond.WriteString("arg == " + strconv.Itoa(i) + " ? " + strconv.Itoa(7*i) + " : ")
		cmp.WriteString(" < arg + " + strconv.Itoa(i))
	}
	cond.WriteString("-1")
	for _, b := range []*strings.Builder{&and, &or, &cond, &cmp} {
		b.WriteString(";\n")
	}
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	for _, tc := range []struct {
		name string
		src  string
		want func(arg int64) int64
		args []int64
	}{
		{"and", and.String(), func(a int64) int64 { return b2i(a > n-1) }, []int64{0, 1, 500, 999, 1000, 5000}},
		{"or", or.String(), func(a int64) int64 { return b2i(a >= 0 && a < n) }, []int64{-1, 0, 1, 33, 500, 999, 1000}},
		{"cond", cond.String(), func(a int64) int64 {
			if a >= 1 && a < n {
				return 7 * a
			}
			return -1
		}, []int64{0, 1, 31, 32, 33, 999, 1000}},
		// arg + i wraps past the largest int: the chain fails there.
		{"cmp", cmp.String(), func(a int64) int64 { return b2i(a <= math.MaxInt64-(n-1)) },
			[]int64{0, -5, math.MaxInt64 - 999, math.MaxInt64 - 998, math.MaxInt64 - 500, math.MaxInt64}},
	} {
		u, err := Compile(tc.name, []byte(tc.src), Options{Check: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, arg := range tc.args {
			want := tc.want(arg)
			if v, err := son.Run(u.Graph, arg, son.Limits{Steps: limitSteps}); err != nil || v != want {
				t.Errorf("%s: son.Run(%d) = %d, %v; want %d", tc.name, arg, v, err, want)
			}
			if v, err := cfg.Run(u.Func, arg, cfg.Limits{Steps: limitSteps}); err != nil || v != want {
				t.Errorf("%s: cfg.Run(%d) = %d, %v; want %d", tc.name, arg, v, err, want)
			}
		}
	}
}

// TestHostileMillionTermAnd is the crash of issue 12: 1,100,000 terms of
// 1&&1&&...&&1 made the builder recurse once per && and overflow Go's
// stack. It compiles and returns 1.
func TestHostileMillionTermAnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3.3 MB program; -short skips it")
	}
	src := "return 1" + strings.Repeat("&&1", 1_099_999) + ";\n"
	u, err := Compile("and.smp", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := cfg.Run(u.Func, 0, cfg.Limits{Steps: limitSteps}); err != nil || v != 1 {
		t.Errorf("cfg.Run = %d, %v; want 1", v, err)
	}
}
