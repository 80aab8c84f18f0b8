package compile

import (
	"fmt"
	"runtime/debug"
	"testing"
)

// BenchmarkPassAlone runs one pass of the graph passes, once per
// iteration, on BenchmarkScaling's programs, with nothing else inside
// runPassAlone: no collection, no memory statistics. It is for callgrind's
// --toggle-collect=son/compile.runPassAlone (docs/PERFORMANCE.md, fix19):
// the collector is off and the goroutine's stack grown beforehand, since
// a stack copy inside the toggled call ends callgrind's collection there.
// With the collector off, each iteration's unit stays: run it a few
// times (-benchtime 3x), not for a second.
func BenchmarkPassAlone(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, target := range scalingNodes[1:3] {
		var src []byte
		for i, p := range Passes {
			if i > 0 && Passes[i-1].Name == "cleanup" {
				break // the graph passes end with cleanup
			}
			b.Run(fmt.Sprintf("%s/%d", p.Name, target), func(b *testing.B) {
				if src == nil {
					src, _ = scalingProgram(b, target)
				}
				growStack(1 << 10)
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					u := unitBefore(b, src, i)
					b.StartTimer()
					if err := runPassAlone(p, u); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// runPassAlone is the toggled call of BenchmarkPassAlone.
//
//go:noinline
func runPassAlone(p Pass, u *Unit) error { return p.run(u) }

// growStack grows the goroutine's stack by about 16 KB a level.
//
//go:noinline
func growStack(levels int) byte {
	var pad [16 << 10]byte
	pad[levels%len(pad)] = byte(levels)
	if levels == 0 {
		return pad[0]
	}
	return growStack(levels-1) + pad[levels%len(pad)]
}
