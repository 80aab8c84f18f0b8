package ssagen

import (
	"fmt"
	"testing"

	"son/cfg"
	progen "son/internal/gen"
	"son/lower"
	"son/ssacheck"
	"son/syntax"
)

// benchRTL lowers a generated program of about size statements.
func benchRTL(b *testing.B, size int) *cfg.Func {
	b.Helper()
	src := progen.Program(progen.Config{Seed: 1, Size: size, Shape: progen.Mixed, KeepLive: true})
	file, err := syntax.Parse("bench.smp", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	f, err := lower.Func(file, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return f
}

func countInstrs(f *cfg.Func) int {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Phis) + len(b.Instrs) + 1
	}
	return n
}

// BenchmarkSSA measures, per function, the generation (Build) and the
// validation (ssacheck.Validate) of each flavour, as paper 003's section
// 9.1 does, with the size of the RTL (instrs, terminators included) and
// the number of Phis as metrics: ns/instr staying flat as the size grows
// by 10× is the linear cost.
//
//	go test ./ssagen -run '^$' -bench SSA -benchtime 3x
func BenchmarkSSA(b *testing.B) {
	for _, size := range benchSizes {
		rtl := benchRTL(b, size)
		n := countInstrs(rtl)
		for _, fl := range Flavours {
			b.Run(fmt.Sprintf("gen/%s/%d", fl, n), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					if res, err = Build(rtl, fl); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Placed), "placed")
				b.ReportMetric(float64(res.Phis), "phis")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/instr")
			})
			res, err := Build(rtl, fl)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("validate/%s/%d", fl, n), func(b *testing.B) {
				for b.Loop() {
					if err := ssacheck.Validate(rtl, res.Func, res.Hint); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Phis), "phis")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/instr")
			})
		}
	}
}

// benchSizes are the generator's sizes: about 17k, 120k and 1.2M RTL
// instructions.
var benchSizes = []int{1000, 10000, 100000}
