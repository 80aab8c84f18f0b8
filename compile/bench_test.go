package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"son/internal/gen"
)

// BenchmarkFrontEnd measures parse, build and the peephole fixpoint: on
// the examples, and on generated programs of growing size, reporting the
// cost per live node so that growth faster than linear shows.
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
				if _, err := Compile(files[i], src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	for _, shape := range []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy} {
		for _, size := range []int{1_000, 10_000, 100_000} {
			src := []byte(gen.Program(gen.Config{Seed: 1, Size: size, Shape: shape}))
			b.Run(fmt.Sprintf("%v/%d", shape, size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				nodes := 0
				for range b.N {
					u, err := Compile("gen.smp", src, Options{})
					if err != nil {
						b.Fatal(err)
					}
					nodes = u.Stats[0].Nodes
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
				b.ReportMetric(float64(nodes), "nodes")
			})
		}
	}
}
