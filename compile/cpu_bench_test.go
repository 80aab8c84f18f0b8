package compile

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// cpuNow is the CPU time the process has used, user and system.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMiddleCPU times the middle passes (sccp, zerocheck, cleanup,
// gcm) on BenchmarkScaling's programs of 10k and 100k nodes by the CPU
// time of the process (getrusage) while the pass alone runs, per node of
// the graph build makes: on a machine shared with other jobs the wall
// time counts their turns too, the CPU time much less. Each iteration
// makes the pass's input afresh outside the measure, as BenchmarkScaling
// does.
func BenchmarkMiddleCPU(b *testing.B) {
	for _, size := range []int{10_000, 100_000} {
		var src []byte
		var n int
		for i, p := range Passes {
			if i < 2 || i > 5 {
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", p.Name, size), func(b *testing.B) {
				if src == nil {
					src, n = scalingProgram(b, size)
				}
				var cpu time.Duration
				var mallocs uint64
				for range b.N {
					u := &Unit{Name: "gen.smp", Src: src}
					for _, q := range Passes[:i] {
						if err := q.run(u); err != nil {
							b.Fatal(err)
						}
					}
					runtime.GC()
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					c0 := cpuNow()
					if err := p.run(u); err != nil {
						b.Fatal(err)
					}
					cpu += cpuNow() - c0
					runtime.ReadMemStats(&after)
					mallocs += after.Mallocs - before.Mallocs
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/node")
				b.ReportMetric(float64(mallocs)/float64(b.N)/float64(n), "allocs/node")
			})
		}
	}
}
