package compile

import (
	"fmt"
	"runtime"
	"testing"

	"son/opt"
)

// BenchmarkAnalysis times the combined analysis and the check of its
// solution (opt.Analyze, opt.CheckSCCP: what the sccp pass runs before its
// rewrite, checks off), again and again on the graph that the peephole pass
// left on BenchmarkScaling's programs. Neither changes the graph, so each
// run solves the same equations, with no graph to make again between runs:
// many runs in the time Scaling/sccp takes for a few, for levers of the
// solver alone. Its graph stays in the caches more than the pass's does.
func BenchmarkAnalysis(b *testing.B) {
	for _, target := range scalingNodes[1:3] {
		b.Run(fmt.Sprint(target), func(b *testing.B) {
			src, n := scalingProgram(b, target)
			u, err := Compile("gen.smp", src, Options{StopAfter: "peephole"})
			if err != nil {
				b.Fatal(err)
			}
			g := u.Graph
			evals := 0
			benchRepeated(b, n, func() error {
				s, err := opt.Analyze(g, opt.Combined, nil)
				if err == nil {
					err = opt.CheckSCCP(g, opt.Combined, s)
				}
				if err == nil {
					evals = s.Evals
					s.Release()
				}
				return err
			})
			b.ReportMetric(float64(evals)/float64(n), "evals/node")
		})
	}
}

// benchRepeated runs run b.N times on input made before it (each run
// leaving it as it was), and reports allocations and the CPU time per
// node of n: the loop of the benchmarks that time a pass's parts alone.
func benchRepeated(b *testing.B, n int, run func() error) {
	b.Helper()
	runtime.GC()
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := readCPU()
	b.ResetTimer()
	for range b.N {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportCPUPerNode(b, n, readCPU().since(c0))
}
