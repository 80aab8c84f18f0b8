package outssa_test

import (
	"os"
	"path/filepath"
	"testing"

	"son/compile"
)

// TestExampleMoves: the moves that outssa leaves in each example, against
// the naive scheme's; coalescing must not get worse unnoticed. (Every
// example also runs at the RTL level in compile's program tables.)
func TestExampleMoves(t *testing.T) {
	for name, want := range map[string]compile.MoveStats{
		"break_continue.smp": {Naive: 10, Copies: 3},
		"collatz.smp":        {Naive: 6, Copies: 1},
		"digit_sum.smp":      {Naive: 4, Copies: 0},
		"factorial.smp":      {Naive: 4, Copies: 1},
		"fibonacci.smp":      {Naive: 6, Copies: 4},
		"gcd.smp":            {Naive: 4, Copies: 2},
		"isqrt.smp":          {Naive: 4, Copies: 3},
		"paper001_loop.smp":  {Naive: 2, Copies: 0},
		"paper002_if.smp":    {Naive: 2, Copies: 0},
		"popcount.smp":       {Naive: 4, Copies: 0}, // branch on the value itself: no Ne, no copy (issue 18)
		"powmod.smp":         {Naive: 8, Copies: 1},
		"primes.smp":         {Naive: 10, Copies: 5},
		"sum.smp":            {Naive: 4, Copies: 1},
		"times_table.smp":    {Naive: 8, Copies: 2},
	} {
		src, err := os.ReadFile(filepath.Join("..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		u, err := compile.Compile(name, src, compile.Options{Check: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := *u.Stats[len(u.Stats)-1].Moves; got != want {
			t.Errorf("%s: moves %+v, want %+v", name, got, want)
		}
	}
}
