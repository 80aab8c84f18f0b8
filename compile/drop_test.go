package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"son/cfg"
	"son/gcm"
	"son/son"
)

// TestDropGraph: with Options.DropGraph the graph is sealed after cleanup
// (son.Graph.Seal), the graph and gcm's schedule are gone after gcm and the SSA function after outssa, with checking on or
// off, and nothing else changes: the statistics of every pass (those
// after gcm repeat its counts), the RTL function and its results.
func TestDropGraph(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.smp")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, check := range []bool{false, true} {
			keep, err := Compile(file, src, Options{Check: check})
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			var graph *son.Graph
			drop, err := Compile(file, src, Options{Check: check, DropGraph: true, AfterPass: func(u *Unit, pass string) error {
				seen = append(seen, pass)
				// build … cleanup: the graph is there; gcm: gone once its
				// checker and son.Verify have read it, before AfterPass
				if (u.Graph == nil) != (len(seen) > 5) {
					t.Errorf("%s: after %s the graph is %v", file, pass, u.Graph)
				}
				if u.Graph != nil {
					graph = u.Graph
					if u.Graph.Sealed() { // sealed once cleanup is checked, after AfterPass
						t.Errorf("%s: after %s the graph is sealed", file, pass)
					}
				}
				if pass == "gcm" && (graph == nil || !graph.Sealed()) {
					t.Errorf("%s: the graph gcm read was not sealed", file)
				}
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			if drop.Graph != nil || drop.GCM != nil || drop.SSA != nil {
				t.Errorf("%s: left Graph %p, GCM %p, SSA %p", file, drop.Graph, drop.GCM, drop.SSA)
			}
			for i := range keep.Stats {
				k, d := keep.Stats[i], drop.Stats[i]
				k.Time, d.Time = 0, 0
				if !reflect.DeepEqual(k, d) {
					t.Errorf("%s: stats of %s: %+v with the graph kept, %+v dropped", file, k.Name, k, d)
				}
			}
			// outssa made the RTL function of the SSA one in place
			// (outssa.TranslateInPlace): the same as its copy.
			if k, d := cfg.Print(keep.Func), cfg.Print(drop.Func); k != d {
				t.Errorf("%s: RTL function with the graph kept:\n%s\ndropped:\n%s", file, k, d)
			}
			for _, arg := range []int64{0, 1, 5, -2} {
				v1, err1 := cfg.Run(keep.Func, arg, cfg.Limits{Steps: limitSteps})
				v2, err2 := cfg.Run(drop.Func, arg, cfg.Limits{Steps: limitSteps})
				if v1 != v2 || (err1 == nil) != (err2 == nil) {
					t.Errorf("%s(%d): %d, %v kept; %d, %v dropped", file, arg, v1, err1, v2, err2)
				}
			}
		}
	}
}

// TestSealedGraphSchedules: gcm schedules a sealed graph (son.Graph.Seal,
// as DropGraph has it after cleanup) as it does the same graph unsealed,
// gcm's checker accepts the result, and son.Verify the graph.
func TestSealedGraphSchedules(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata/*.smp", "../examples/*.smp"} {
		m, _ := filepath.Glob(dir)
		files = append(files, m...)
	}
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		open, err := Compile(file, src, Options{StopAfter: "cleanup"})
		if err != nil {
			continue // a program with a source error, or one that fails on purpose
		}
		sealed, err := Compile(file, src, Options{StopAfter: "cleanup"})
		if err != nil {
			t.Fatalf("%s: %v the second time", file, err)
		}
		sealed.Graph.Seal()
		r1, err1 := gcm.Schedule(open.Graph)
		r2, err2 := gcm.Schedule(sealed.Graph)
		if err1 != nil || err2 != nil {
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Errorf("%s: gcm: %v unsealed, %v sealed", file, err1, err2)
			}
			continue
		}
		if p1, p2 := cfg.Print(r1.Func), cfg.Print(r2.Func); p1 != p2 {
			t.Errorf("%s: gcm's function unsealed:\n%s\nsealed:\n%s", file, p1, p2)
		}
		if err := gcm.Check(sealed.Graph, r2.Func); err != nil {
			t.Errorf("%s: gcm's checker on the sealed graph: %v", file, err)
		}
		if err := son.Verify(sealed.Graph); err != nil {
			t.Errorf("%s: sealed graph after gcm: %v", file, err)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d programs scheduled", n)
	}
}

// TestDropGraphFreesGraph: with Options.DropGraph nothing the unit keeps
// after gcm reaches the graph, not even the zerocheck pass's report,
// whose nodes reach every other node by their edges: the graph's Start
// node is collected before gvn ends.
func TestDropGraphFreesGraph(t *testing.T) {
	// The second division's ZeroCheck of arg is removed, dominated by the
	// first: the report names nodes of the graph.
	src := []byte("int y = 100 / arg;\nint z = 200 / arg;\nreturn y + z;\n")
	for _, check := range []bool{false, true} {
		var freed atomic.Bool
		removed := 0
		_, err := Compile("div.smp", src, Options{Check: check, DropGraph: true, AfterPass: func(u *Unit, pass string) error {
			switch pass {
			case "zerocheck":
				removed = len(u.ZeroChecks)
			case "cleanup":
				// A cleanup, not a finalizer: the graph is a cycle.
				runtime.AddCleanup(u.Graph.Start, func(f *atomic.Bool) { f.Store(true) }, &freed)
			case "gvn":
				for i := 0; i < 100 && !freed.Load(); i++ {
					runtime.GC()
					time.Sleep(time.Millisecond)
				}
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		if removed != 1 {
			t.Fatalf("check %v: the zerocheck pass removed %d ZeroChecks, want 1", check, removed)
		}
		if !freed.Load() {
			t.Errorf("check %v: the graph is still reachable after gcm", check)
		}
	}
}

// TestGCMCheckerWithoutTheGraph: under DropGraph with checking on, gcm's
// checker runs on the record of the graph (gcm.RecordGraph) after the
// graph is gone, and still stops a scheduler that swaps the operands of a
// subtraction; the graph's Start node is collected before the checker
// starts.
func TestGCMCheckerWithoutTheGraph(t *testing.T) {
	src := []byte("return 100 - arg;")
	var freed atomic.Bool
	swap := func(u *Unit) error {
		runtime.AddCleanup(u.Graph.Start, func(f *atomic.Bool) { f.Store(true) }, &freed)
		if err := schedule(u); err != nil {
			return err
		}
		for _, b := range u.Func.Blocks {
			for _, in := range b.Instrs {
				if in.Op == cfg.OpSub {
					in.Args[0], in.Args[1] = in.Args[1], in.Args[0]
				}
			}
		}
		return nil
	}
	i := slices.IndexFunc(Passes, func(p Pass) bool { return p.Name == "gcm" })
	old := Passes[i].check
	defer func() { Passes[i].check = old }()
	graphGone := false
	Passes[i].check = func(u *Unit) error {
		for k := 0; k < 100 && !freed.Load(); k++ {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		graphGone = u.Graph == nil && freed.Load()
		return old(u)
	}
	withPass(t, "gcm", swap, func() {
		_, err := Compile("t.smp", src, Options{Check: true, DropGraph: true})
		wantCheckerError(t, err, "gcm", "op: Sub#")
	})
	if !graphGone {
		t.Errorf("the graph was still reachable when gcm's checker ran")
	}
}
