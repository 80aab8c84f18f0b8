package compile

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"son/amd64"
	"son/elf"
	"son/internal/gcpolicy"
	"son/internal/gen"
	"son/regalloc"
	"son/syntax"
)

// BenchmarkFrontEnd measures the front end, the passes up to and
// including peephole (parse, build with a peephole on every new node, the
// peephole fixpoint): on the examples, and on generated programs of
// growing size, reporting the cost per statement and per node made, so
// that growth faster than linear shows.
func BenchmarkFrontEnd(b *testing.B) {
	b.Run("examples", func(b *testing.B) {
		files, _ := filepath.Glob("../examples/*.smp")
		var srcs [][]byte
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			srcs = append(srcs, src)
		}
		b.ReportAllocs()
		for range b.N {
			for i, src := range srcs {
				if _, err := Compile(files[i], src, frontEnd); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	for _, shape := range []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy} {
		for _, size := range []int{1_000, 10_000, 100_000} {
			src := []byte(gen.Program(gen.Config{Seed: 1, Size: size, Shape: shape, KeepLive: true}))
			b.Run(fmt.Sprintf("%v/%d", shape, size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				var made int
				for range b.N {
					u, err := Compile("gen.smp", src, frontEnd)
					if err != nil {
						b.Fatal(err)
					}
					made = u.Graph.MaxID()
				}
				ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(ns/float64(size), "ns/stmt")
				b.ReportMetric(ns/float64(made), "ns/node")
				b.ReportMetric(float64(made), "nodes")
			})
		}
	}
}

// frontEnd stops the pipeline after the front end: parse, build, and the
// peephole fixpoint.
var frontEnd = Options{StopAfter: "peephole"}

// TestFrontEndWorkIsLinear checks, by counting work rather than timing it,
// that the front end (parse, build and the peephole fixpoint) stays
// linear: on a program ten times larger, the nodes made, the peepholes run
// and the allocations per live node grow by no more than a third.
func TestFrontEndWorkIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a 20,000-statement program; -short skips it")
	}
	type work struct{ made, peeps, allocs float64 }
	measure := func(size int) work {
		src := []byte(gen.Program(gen.Config{Seed: 7, Size: size, KeepLive: true}))
		var u *Unit
		allocs := testing.AllocsPerRun(1, func() {
			var err error
			if u, err = Compile("gen.smp", src, frontEnd); err != nil {
				t.Fatal(err)
			}
		})
		live := float64(u.Stats[0].Nodes)
		return work{float64(u.Graph.MaxID()) / live, float64(u.Graph.Stats.Peepholes) / live, allocs / live}
	}
	small, large := measure(2_000), measure(20_000)
	for _, c := range []struct {
		what         string
		small, large float64
	}{
		{"nodes made per live node", small.made, large.made},
		{"peepholes per live node", small.peeps, large.peeps},
		{"allocations per live node", small.allocs, large.allocs},
	} {
		t.Logf("%s: %.2f at 2k statements, %.2f at 20k", c.what, c.small, c.large)
		if c.large > 1.33*c.small {
			t.Errorf("%s grows from %.2f to %.2f: not linear", c.what, c.small, c.large)
		}
	}
}

// scalingNodes are the sizes of BenchmarkScaling: live nodes of the graph
// the build pass makes.
var scalingNodes = []int{1_000, 10_000, 100_000, 1_000_000}

// scalingProgram returns a generated program (mixed shape, KeepLive)
// whose graph after build has about nodes live nodes (within 10% if one
// of 20 tries finds one), and that number. The nodes grow in steps with the
// generator's size, differently for each seed, so each try guesses a size
// from the nodes per statement of the one before, with the next seed.
func scalingProgram(b testing.TB, nodes int) ([]byte, int) {
	b.Helper()
	var best []byte
	bestN := 0
	size := 2_000
	for seed := int64(1); seed <= 20; seed++ {
		src := []byte(gen.Program(gen.Config{Seed: seed, Size: size, KeepLive: true}))
		u, err := Compile("gen.smp", src, Options{StopAfter: "build"})
		if err != nil {
			b.Fatal(err)
		}
		n := len(u.Graph.Live())
		if best == nil || abs(n-nodes) < abs(bestN-nodes) {
			best, bestN = src, n
		}
		if 10*abs(n-nodes) <= nodes {
			break
		}
		size = max(1, size*nodes/n)
	}
	return best, bestN
}

func abs(x int) int { return max(x, -x) }

// unitBefore returns a unit of src on which the passes before Passes[i]
// have run.
func unitBefore(b *testing.B, src []byte, i int) *Unit {
	u := &Unit{Name: "gen.smp", Src: src}
	for _, q := range Passes[:i] {
		if err := q.run(u); err != nil {
			b.Fatal(err)
		}
	}
	return u
}

// BenchmarkScaling times parsing and each pass alone on generated programs
// of about 1k, 10k, 100k and 1M nodes (the live nodes of the graph build
// makes: n below), and reports time and allocations per node of n, so that
// growth faster than linear shows from one size to the next; walk/N, a
// single walk of the graph, is the linear yardstick to compare with. Each pass
// runs on the graph the passes before it left, made afresh, outside the
// timer, for each iteration. At a million nodes run it with -benchtime 1x.
func BenchmarkScaling(b *testing.B) {
	for _, target := range scalingNodes {
		if testing.Short() && target > 10_000 {
			continue
		}
		// Made on first use, so that a -bench pattern that picks other
		// sizes does not pay for generating this one.
		var src []byte
		var n int
		program := func(b *testing.B) {
			if src == nil {
				src, n = scalingProgram(b, target)
			}
			b.ResetTimer()
		}
		b.Run(fmt.Sprintf("parse/%d", target), func(b *testing.B) {
			program(b)
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range b.N {
				if _, err := syntax.Parse("gen.smp", src); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			reportPerNode(b, n, after.Mallocs-before.Mallocs)
		})
		// The control: one walk of the graph (Graph.Live), linear by
		// construction. Its time per node grows only as the graph outgrows
		// the caches, and so does a pass's that is linear.
		b.Run(fmt.Sprintf("walk/%d", target), func(b *testing.B) {
			program(b)
			u := &Unit{Name: "gen.smp", Src: src}
			if err := build(u); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for range b.N {
				if len(u.Graph.Live()) != n {
					b.Fatal("the walk does not find the graph's nodes")
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			reportPerNode(b, n, after.Mallocs-before.Mallocs)
		})
		// The whole of son build in one go: parse to the executable's
		// bytes, checks off (but regalloc.Check, which son build always
		// runs), each level dropped when done with as son build does.
		b.Run(fmt.Sprintf("pipeline/%d", target), func(b *testing.B) {
			program(b)
			benchPipeline(b, src, n, false)
		})
		// The same under son's collector policy, as son build runs it
		// (benchPipeline says what this measures and what not).
		b.Run(fmt.Sprintf("pipeline-policy/%d", target), func(b *testing.B) {
			program(b)
			benchPipeline(b, src, n, true)
		})
		for i, p := range Passes {
			b.Run(fmt.Sprintf("%s/%d", p.Name, target), func(b *testing.B) {
				program(b)
				b.ReportAllocs()
				var cost runCost
				peeps := 0
				for range b.N {
					b.StopTimer()
					u := unitBefore(b, src, i)
					peeps -= peepholes(u)
					cost.run(b, func() error { return p.run(u) })
					peeps += peepholes(u)
					b.StartTimer()
				}
				cost.report(b, n)
				// Peepholes the pass ran: work counted, not timed.
				b.ReportMetric(float64(peeps)/float64(b.N)/float64(n), "peeps/node")
			})
		}
		// The backend after the last pass: instruction selection, register
		// allocation and assembly (amd64); instruction selection alone
		// (isel) and its checker alone (iselcheck), register allocation
		// alone (regalloc), and the allocation's checker alone (regcheck).
		for _, stage := range []string{"amd64", "isel", "iselcheck", "regalloc", "regcheck"} {
			b.Run(fmt.Sprintf("%s/%d", stage, target), func(b *testing.B) {
				program(b)
				b.StopTimer()
				u, err := Compile("gen.smp", src, Options{})
				if err != nil {
					b.Fatal(err)
				}
				var rf *regalloc.Func
				var res *regalloc.Result
				var vf *amd64.VFunc
				if stage != "amd64" && stage != "isel" {
					if vf, err = amd64.Select(u.Func, u.Name); err != nil {
						b.Fatal(err)
					}
				}
				if stage == "regalloc" || stage == "regcheck" {
					rf = vf.RegallocFunc()
					if res, err = regalloc.Allocate(rf); err != nil {
						b.Fatal(err)
					}
				}
				// As for the passes above (run back to back, each run
				// paid for the collections the ones before caused, and
				// the stage looked 1.5 to 2 times dearer than gcm).
				b.ReportAllocs()
				var cost runCost
				for range b.N {
					b.StopTimer()
					cost.run(b, func() error {
						var err error
						switch stage {
						case "amd64":
							_, err = amd64.Compile(u.Func, u.Name, nil, 0)
						case "isel":
							_, err = amd64.Select(u.Func, u.Name)
						case "iselcheck":
							err = amd64.CheckSelection(u.Func, vf, u.Name)
						case "regalloc":
							_, err = regalloc.Allocate(rf)
						default:
							err = regalloc.Check(rf, res)
						}
						return err
					})
					b.StartTimer()
				}
				cost.report(b, n)
			})
		}
	}
}

// runCost adds up what the timed runs of a pass or stage cost. The
// garbage of what ran before is collected before each run, untimed, so
// that the run is charged for its own work only; with fresh set, the
// collected heap's pages are also given back to the system, so that the
// run takes fresh ones from it as a new process does.
type runCost struct {
	mallocs, bytes uint64
	gcs            uint32 // collections
	cpu            cpuTimes
	runs           int // timed spans
	fresh          bool
}

// run times f as one run of b; the timer is stopped on entry and left
// stopped.
func (c *runCost) run(b *testing.B, f func() error) {
	if c.fresh {
		debug.FreeOSMemory()
	} else {
		runtime.GC()
	}
	c.time(b, f)
}

// time times f as one span of b, whose timer is stopped on entry and left
// stopped, and adds up what it cost.
func (c *runCost) time(b *testing.B, f func() error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	runtime.LockOSThread()
	c0 := readCPU()
	b.StartTimer()
	err := f()
	b.StopTimer()
	spent := readCPU().since(c0)
	runtime.UnlockOSThread()
	if err != nil {
		b.Fatal(err)
	}
	if c.runs++; c.runs == 1 {
		c.cpu = spent
	} else {
		c.cpu = c.cpu.plus(spent)
	}
	runtime.ReadMemStats(&after)
	c.count(&before, &after)
}

// count adds what was allocated and collected from before to after.
func (c *runCost) count(before, after *runtime.MemStats) {
	c.mallocs += after.Mallocs - before.Mallocs
	c.bytes += after.TotalAlloc - before.TotalAlloc
	c.gcs += after.NumGC - before.NumGC
}

// report gives the allocations and, where the platform tells it, the
// process's CPU time per live node: on a machine shared with other jobs
// the wall time counts their turns too, the CPU time much less.
func (c *runCost) report(b *testing.B, n int) {
	reportPerNode(b, n, c.mallocs)
	reportCPUPerNode(b, n, c.cpu)
}

// benchPipeline compiles src, whose graph after build has n live nodes,
// as son build does: every pass with checks off, selection, allocation
// checked by regalloc.Check, assembly, the ELF file's bytes. Besides the
// time, allocations and CPU time per live node, it reports the allocations
// and bytes per node made, the measure of issue 19: per node build
// actually made (made: Graph.Stats.Made after build), and per ID it gave
// out (ids: the graph's MaxID after build, which counts the nodes the
// peepholes replaced at once and those the builder folded without making
// them), so that an ID kept for a node not made does not lower the first;
// and the collections per compile (gcs/op).
//
// Without policy, the compiles run back to back under the test process's
// collector, Go's default (GOGC 100, a 4 MB minimum goal): a compile pays
// the collections its growing heap causes, and those of the garbage the
// compiles before it left (the pipeline row of the earlier tables).
//
// With policy, they run under son's own (package gcpolicy), started with
// the budget of src's size before the first and stopped after the last:
// no proportional collection, and none at all until the heap nears the
// budget. As the budget is one compile's, each compile starts as a son
// process does: the garbage of the compile before is collected and the
// heap's free pages given back to the system, untimed, so that the
// compile has only src and the test's own data live and takes fresh
// pages (the page faults, system time, are in cpu-ns/node). Back to back,
// the garbage would fill the budget in turn, and each compile would pay
// its share of a collection son build does not make (its allocation over
// the room the budget leaves, of a collection that marks what is then
// live: 0.25 a compile at 10k, 0.33 at 100k), and would reuse the pages
// of the compiles before. What the row does not measure: a process's
// start and exit, reading the source and writing the executable. If the
// environment sets GOGC or GOMEMLIMIT, son leaves the collector to them,
// and the row is skipped.
func benchPipeline(b *testing.B, src []byte, n int, policy bool) {
	made, ids := 0, 0
	o := Options{DropGraph: true, AfterPass: func(u *Unit, pass string) error {
		if pass == "build" {
			made, ids = u.Graph.Stats.Made, u.Graph.MaxID()
		}
		return nil
	}}
	compile := func() error {
		u, err := Compile("gen.smp", src, o)
		if err != nil {
			return err
		}
		p, err := amd64.Compile(u.Func, u.Name, u.Src, amd64.CheckAllocation)
		if err != nil {
			return err
		}
		_, err = (&elf.Exec{Text: p.Code, Entry: p.Entry}).Bytes()
		return err
	}
	b.ReportAllocs()
	var cost runCost
	if policy {
		if !gcpolicy.Start() {
			b.Skip("GOGC or GOMEMLIMIT set: son leaves the collector to them")
		}
		defer gcpolicy.Stop()
		gcpolicy.SetSource(len(src))
		b.StopTimer()
		b.ResetTimer()
		cost.fresh = true
		for range b.N {
			cost.run(b, compile)
		}
	} else {
		runtime.GC()
		b.StopTimer()
		b.ResetTimer()
		cost.time(b, func() error {
			for range b.N {
				if err := compile(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	bytes := float64(cost.bytes) / float64(b.N)
	reportPerNode(b, n, cost.mallocs)
	b.ReportMetric(bytes/float64(n), "B/node")
	reportCPUPerNode(b, n, cost.cpu)
	b.ReportMetric(float64(made), "made")
	b.ReportMetric(float64(cost.mallocs)/float64(b.N)/float64(made), "allocs/made")
	b.ReportMetric(bytes/float64(made), "B/made")
	b.ReportMetric(float64(ids), "ids")
	b.ReportMetric(float64(cost.mallocs)/float64(b.N)/float64(ids), "allocs/id")
	b.ReportMetric(bytes/float64(ids), "B/id")
	b.ReportMetric(float64(cost.gcs)/float64(b.N), "gcs/op")
}

// TestPipelinePolicy: the pipeline-policy row compiles a small program
// with no collection, as son build does, and leaves the collector as it
// found it. It runs the row for five compiles (-test.benchtime 5x): the
// flag and the collector's settings, the process's own, are put back
// however the test ends, for the tests and benchmarks after it.
func TestPipelinePolicy(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the row is skipped")
	}
	benchtime := flag.Lookup("test.benchtime")
	if benchtime == nil {
		t.Fatal("no -test.benchtime flag: not run by go test")
	}
	old := benchtime.Value.String()
	if err := benchtime.Value.Set("5x"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := benchtime.Value.Set(old); err != nil {
			t.Errorf("-test.benchtime %q not put back: %v", old, err)
		}
	}()
	src := []byte(gen.Program(gen.Config{Seed: 1, Size: 300, KeepLive: true}))
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	r := testing.Benchmark(func(b *testing.B) { benchPipeline(b, src, 1, true) })
	if r.N != 5 {
		t.Fatalf("the row ran %d compiles, want 5", r.N)
	}
	if gcs, ok := r.Extra["gcs/op"]; !ok || gcs != 0 {
		t.Errorf("gcs/op = %v (reported %v), want 0: a small program collected under son's policy", gcs, ok)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the row the percent is %d, want 100, as before it", got)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("after the row the memory limit is %d, want %d, as before it", got, limit)
	}
}

// peepholes returns how many peepholes u's graph has run so far.
func peepholes(u *Unit) int {
	if u.Graph == nil {
		return 0
	}
	return u.Graph.Stats.Peepholes
}

// reportPerNode reports the time and the allocations (mallocs, over all
// b.N iterations) per node of a graph of n nodes.
func reportPerNode(b *testing.B, n int, mallocs uint64) {
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/float64(n), "ns/node")
	b.ReportMetric(float64(mallocs)/float64(b.N)/float64(n), "allocs/node")
	b.ReportMetric(float64(n), "nodes")
}

// reportCPUPerNode reports the CPU time spent over all b.N iterations,
// per node of a graph of n nodes, where it is known: the process's
// (cpu-ns/node), and the thread's that ran them (thread-ns/node), which
// leaves out the collector's background work and the runtime's other
// threads: on the runs of 1k nodes, a third of the process's figure.
func reportCPUPerNode(b *testing.B, n int, spent cpuTimes) {
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) / float64(n) }
	if spent.procOK {
		b.ReportMetric(per(spent.proc), "cpu-ns/node")
	}
	if spent.threadOK {
		b.ReportMetric(per(spent.thread), "thread-ns/node")
	}
}

// cpuTimes is CPU time as the process (cpuNow) and the calling thread
// (threadCPUNow) count it, each with whether the system tells it. The
// thread's is the benchmark's own only while its goroutine is locked to
// the thread (runtime.LockOSThread) from the first reading to the last.
type cpuTimes struct {
	proc, thread     time.Duration
	procOK, threadOK bool
}

// readCPU reads both clocks now.
func readCPU() cpuTimes {
	var c cpuTimes
	c.proc, c.procOK = cpuNow()
	c.thread, c.threadOK = threadCPUNow()
	return c
}

// since is the time spent from c0 to c.
func (c cpuTimes) since(c0 cpuTimes) cpuTimes {
	return cpuTimes{c.proc - c0.proc, c.thread - c0.thread, c.procOK && c0.procOK, c.threadOK && c0.threadOK}
}

// plus adds up two spans of time.
func (c cpuTimes) plus(d cpuTimes) cpuTimes {
	return cpuTimes{c.proc + d.proc, c.thread + d.thread, c.procOK && d.procOK, c.threadOK && d.threadOK}
}
