package compile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"son/amd64"
	"son/internal/gen"
	"son/internal/testenv"
)

// TestCheckSelectionAccepts: amd64.CheckSelection accepts the selection of
// every program of testdata, its regressions and examples, and of random
// programs of every shape: it never rejects a right selection of them.
func TestCheckSelectionAccepts(t *testing.T) {
	files := programFiles(t, "../testdata", "../testdata/regress", "../examples")
	eachCompiled(t, files, func(file string, _ []byte, u *Unit) { checkSelection(t, file, u) })
	n := 200
	if testing.Short() {
		n = 40
	}
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := range n {
		src := gen.Program(gen.Config{Seed: int64(seed), Size: 10 + seed%40, Shape: shapes[seed%4]})
		u, err := Compile("gen.smp", []byte(src), Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkSelection(t, fmt.Sprintf("seed %d", seed), u)
	}
}

func checkSelection(t *testing.T, name string, u *Unit) {
	t.Helper()
	vf, err := amd64.Select(u.Func, u.Name)
	if err != nil {
		t.Fatalf("%s: Select: %v", name, err)
	}
	if err := amd64.CheckSelection(u.Func, vf, u.Name); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// TestMeasureSelection runs amd64.Select (SON_MEASURE=isel) or
// amd64.CheckSelection (SON_MEASURE=check) SON_MEASURE_N times on the
// 10k-node program of BenchmarkScaling, with the collector off, for
// callgrind (docs/PERFORMANCE.md, "iselcheck14"): BenchmarkScaling
// collects before each run, and the collector's sweep then runs inside
// the function callgrind counts.
func TestMeasureSelection(t *testing.T) {
	what := os.Getenv("SON_MEASURE")
	switch what {
	case "":
		t.Skip("a measuring harness: set SON_MEASURE to isel or check")
	case "isel", "check":
	default:
		t.Fatalf("SON_MEASURE=%q: want isel or check", what)
	}
	n := testenv.Int(t, "SON_MEASURE_N", 1, "a number of runs")
	src, _ := scalingProgram(t, 10000)
	u, err := Compile("gen.smp", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vf, err := amd64.Select(u.Func, u.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	for range n {
		if what == "isel" {
			measureSelect(u)
		} else if err := measureCheck(u, vf); err != nil {
			t.Fatal(err)
		}
	}
}

//go:noinline
func measureSelect(u *Unit) { _, _ = amd64.Select(u.Func, u.Name) }

//go:noinline
func measureCheck(u *Unit, vf *amd64.VFunc) error { return amd64.CheckSelection(u.Func, vf, u.Name) }
