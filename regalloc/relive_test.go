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

// TestRelive allocates the test programs, the examples and generated
// programs that spill for several rounds, with each round after the
// first comparing relive's intervals, segments and hints with those of
// the whole liveness, and each allocation of more than one round (its
// last round folded, or a fold tried and given up) with the unfolded one
// (Allocate fails on a difference).
//
// For a campaign, SON_RELIVE=n allocates n more generated programs,
// seeds SON_RELIVE_SEED (default 1000) on, of every shape, with every
// early return guarded (gen.Config.KeepLive), of SON_RELIVE_SIZE
// statements (default 100 to 1000, varying with the seed).
func TestRelive(t *testing.T) {
	*regalloc.CheckRelive = true
	defer func() { *regalloc.CheckRelive = false }()
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
	more := testenv.Int(t, "SON_RELIVE", 0, "a number of programs")
	first := testenv.Int(t, "SON_RELIVE_SEED", 1000, "a seed")
	size := testenv.Int(t, "SON_RELIVE_SIZE", 0, "a number of statements")
	for seed := first; seed < first+more; seed++ {
		c := gen.Config{Seed: seed, Size: int(size), Shape: gen.Shape((seed%4 + 4) % 4), KeepLive: true}
		if size == 0 {
			c.Size = 100 + int((seed%10+10)%10)*100
		}
		progs = append(progs, program{fmt.Sprintf("gen%d.smp", seed), []byte(gen.Program(c))})
	}
	later := 0  // allocations that ran a round after the first
	folded := 0 // and those whose last round was folded, each compared with the unfolded allocation
	for _, p := range progs {
		u, err := compile.Compile(p.name, p.src, compile.Options{})
		if err != nil {
			continue // the programs that fail to compile on purpose
		}
		vf, err := amd64.Select(u.Func, u.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		res, err := regalloc.Allocate(vf.RegallocFunc())
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if res.Rounds > 1 {
			later++
		}
		folded += res.Folded
	}
	if later < 3 {
		t.Errorf("%d allocations ran more than one round: relive is barely tested", later)
	}
	if folded < 2 {
		t.Errorf("%d allocations folded their last round: foldLast is barely tested", folded)
	}
	t.Logf("%d programs, %d with more than one round, %d folded", len(progs), later, folded)
}
