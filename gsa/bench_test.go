package gsa_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"son/cfg"
	"son/compile"
	"son/gsa"
	"son/internal/gen"
	"son/loops"
	"son/pred"
)

// benchSet is a set of prepared SSA functions: every program of a
// directory, or one random program of 10,000 statements.
type benchSet struct {
	name  string
	funcs []*cfg.Func
}

func benchSets(b *testing.B) []benchSet {
	b.Helper()
	prepare := func(name string, src []byte) *cfg.Func {
		u, err := compile.Compile(name, src, compile.Options{StopAfter: "gvn"})
		if err != nil {
			b.Fatal(err)
		}
		if err := loops.Prepare(u.Func); err != nil {
			b.Fatal(err)
		}
		return u.Func
	}
	var sets []benchSet
	for _, dir := range []string{"testdata", "bench"} {
		files, _ := filepath.Glob(filepath.Join("..", dir, "*.smp"))
		s := benchSet{name: dir}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			s.funcs = append(s.funcs, prepare(file, src))
		}
		sets = append(sets, s)
	}
	for _, shape := range []gen.Shape{gen.Straight, gen.Branchy, gen.Loopy, gen.Mixed} {
		src := gen.Program(gen.Config{Seed: 1, Size: 10_000, Shape: shape})
		sets = append(sets, benchSet{name: "large-" + shape.String(), funcs: []*cfg.Func{prepare("large.smp", []byte(src))}})
	}
	return sets
}

// BenchmarkGSA times, on each set, the construction (gsa.Build) and the
// validation with every answer proved (gsa.Validate: gsa.Check, then
// gsa.CheckPredicates with gsa.Certified; -norules without the structural
// rules, every question to tables or to the solver with its certificate
// checked), and reports the questions asked, how they were decided, and
// the predicates' size per block; ratio times the two alternately and
// reports validate/build. docs/PERFORMANCE.md gives the table:
//
//	go test ./gsa -run '^$' -bench GSA -benchtime 20x
func BenchmarkGSA(b *testing.B) {
	for _, s := range benchSets(b) {
		gs := make([]*gsa.Func, len(s.funcs))
		blocks, size := 0, 0
		for i, f := range s.funcs {
			g, err := gsa.Build(f)
			if err != nil {
				b.Fatal(err)
			}
			gs[i] = g
			blocks += len(f.Blocks)
			for _, n := range gsa.Sizes(g) {
				size += n
			}
		}
		b.Run(s.name+"/build", func(b *testing.B) {
			for b.Loop() {
				for _, f := range s.funcs {
					if _, err := gsa.Build(f); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(size)/float64(blocks), "predsize/block")
		})
		for _, v := range []struct {
			name    string
			noRules bool
		}{{"validate", false}, {"validate-norules", true}} {
			b.Run(s.name+"/"+v.name, func(b *testing.B) {
				var st gsa.SolverStats
				for b.Loop() {
					// A fresh GSA function each time, as the pipeline's: the
					// matrix computes on demand, and keeps, the entries the
					// validator asks for beyond those the code uses.
					b.StopTimer()
					for i, f := range s.funcs {
						gs[i], _ = gsa.Build(f)
					}
					b.StartTimer()
					st = gsa.SolverStats{}
					for i, f := range s.funcs {
						if err := gsa.Validate(f, gs[i], gsa.Certified{Stats: &st, Prover: pred.NewProver(), NoRules: v.noRules}); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(st.Questions), "questions")
				b.ReportMetric(float64(st.ByRule), "byrule")
				b.ReportMetric(float64(st.ByTable), "bytable")
				b.ReportMetric(float64(st.ByRUP), "certificates")
				b.ReportMetric(float64(blocks), "blocks")
			})
		}
		// The budget itself: each iteration builds, then validates what it
		// built, as the pipeline does. The two, timed alternately, see the
		// same load; validate/build is the median of the iterations'
		// ratios, which a pause in one of the two (the machine is shared,
		// the collector runs when it will) does not move, and total the
		// ratio of the sums.
		b.Run(s.name+"/ratio", func(b *testing.B) {
			var build, validate time.Duration
			var ratios []float64
			for b.Loop() {
				var bt, vt time.Duration
				for _, f := range s.funcs {
					t0 := time.Now()
					g, err := gsa.Build(f)
					t1 := time.Now()
					if err == nil {
						err = gsa.Validate(f, g, gsa.Certified{Prover: pred.NewProver()})
					}
					bt, vt = bt+t1.Sub(t0), vt+time.Since(t1)
					if err != nil {
						b.Fatal(err)
					}
				}
				build, validate = build+bt, validate+vt
				ratios = append(ratios, float64(vt)/float64(bt))
			}
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "validate/build")
			b.ReportMetric(float64(validate)/float64(build), "total")
		})
	}
}
