package regalloc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"son/amd64"
	"son/compile"
	"son/internal/gen"
	"son/internal/testenv"
	"son/regalloc"
)

// TestSpillPrograms allocates the test programs, the examples and
// generated programs that spill, and requires regalloc.Check to accept
// every allocation, and some to spill and split around a loop.
//
// For a campaign, SON_SPILL=n allocates n more generated programs, seeds
// SON_SPILL_SEED (default 1000) on, of every shape, with every early
// return guarded (gen.Config.KeepLive), of SON_SPILL_SIZE statements
// (default 100 to 1000, varying with the seed).
func TestSpillPrograms(t *testing.T) {
	type program struct {
		name string
		src  []byte
	}
	var progs []program
	for _, pat := range []string{"../testdata/*.smp", "../examples/*.smp"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			progs = append(progs, program{filepath.Base(f), src})
		}
	}
	for seed := int64(1); seed <= 6; seed++ {
		progs = append(progs, program{"gen.smp", []byte(gen.Program(gen.Config{Seed: seed, Size: 400 * int(seed), KeepLive: true}))})
	}
	more := testenv.Int(t, "SON_SPILL", 0, "a number of programs")
	first := testenv.Int(t, "SON_SPILL_SEED", 1000, "a seed")
	size := testenv.Int(t, "SON_SPILL_SIZE", 0, "a number of statements")
	for seed := first; seed < first+more; seed++ {
		c := gen.Config{Seed: seed, Size: int(size), Shape: gen.Shape((seed%4 + 4) % 4), KeepLive: true}
		if size == 0 {
			c.Size = 100 + int((seed%10+10)%10)*100
		}
		progs = append(progs, program{fmt.Sprintf("gen%d.smp", seed), []byte(gen.Program(c))})
	}
	spilled, split := 0, 0
	for _, p := range progs {
		u, err := compile.Compile(p.name, p.src, compile.Options{})
		if err != nil {
			continue // the programs that fail to compile on purpose
		}
		vf, err := amd64.Select(u.Func, u.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		f := vf.RegallocFunc()
		res, err := regalloc.Allocate(f)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if err := regalloc.Check(f, res); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if res.Spilled > 0 {
			spilled++
		}
		split += res.Split
	}
	if spilled < 3 || split == 0 {
		t.Errorf("%d allocations spilled, %d loops split: spilling is barely tested", spilled, split)
	}
	t.Logf("%d programs, %d spilled, %d loops split", len(progs), spilled, split)
}
