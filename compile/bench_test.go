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
// cost per statement and per node made, so that growth faster than linear
// shows.
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
			src := []byte(gen.Program(gen.Config{Seed: 1, Size: size, Shape: shape, KeepLive: true}))
			b.Run(fmt.Sprintf("%v/%d", shape, size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				var made int
				for range b.N {
					u, err := Compile("gen.smp", src, Options{})
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

// TestFrontEndWorkIsLinear checks, by counting work rather than timing it,
// that building and the peephole fixpoint stay linear: on a program ten
// times larger, the nodes made, the peepholes run and the allocations per
// live node grow by no more than a third.
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
			if u, err = Compile("gen.smp", src, Options{}); err != nil {
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

// BenchmarkPasses times each pass alone on generated programs, reporting
// the cost per live node of the graph the pass starts from (for build, the
// graph it makes).
func BenchmarkPasses(b *testing.B) {
	for _, size := range []int{10_000, 100_000} {
		src := []byte(gen.Program(gen.Config{Seed: 1, Size: size, KeepLive: true}))
		for i, p := range Passes {
			b.Run(fmt.Sprintf("%s/%d", p.Name, size), func(b *testing.B) {
				b.ReportAllocs()
				nodes := 0
				for range b.N {
					b.StopTimer()
					u := &Unit{Name: "gen.smp", Src: src}
					for _, q := range Passes[:i] {
						if err := q.run(u); err != nil {
							b.Fatal(err)
						}
					}
					if u.Graph != nil {
						nodes = len(u.Graph.Live())
					}
					b.StartTimer()
					if err := p.run(u); err != nil {
						b.Fatal(err)
					}
					if nodes == 0 {
						b.StopTimer()
						nodes = len(u.Graph.Live())
						b.StartTimer()
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
				b.ReportMetric(float64(nodes), "nodes")
			})
		}
	}
}
