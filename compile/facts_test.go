package compile

import (
	"os"
	"slices"
	"testing"

	"son/cfg"
	"son/son"
)

// TestBranchFactsChecks: the ZeroChecks left after the whole pipeline, by
// the source line of the division each guards. A division below a branch
// that proves its divisor is not 0 has none (if (d != 0), if (d > 0), the
// loop of gcd, a Refine of a Refine in gen_seed330, a value that is no
// Refine in zerocheck_branch_facts, by the zerocheck pass); one on the side
// where the divisor may be 0 keeps its own; in power_facts_reguard the branch that
// proved it was folded away on a type that rested on a loop's Refine, so
// StripRefines gives it its check back (line 16; line 17 is 0 / 0).
func TestBranchFactsChecks(t *testing.T) {
	for _, c := range []struct {
		file  string
		lines []int // lines of the checks left, in the order of the blocks
	}{
		{"../testdata/power_facts_zerocheck.smp", nil},
		{"../testdata/power_facts_zerocheck_sides.smp", []int{13}},
		{"../testdata/zerocheck_branch_facts.smp", []int{11}},
		{"../examples/gcd.smp", nil},
		{"../testdata/regress/gen_seed330.smp", []int{12}},
		{"../testdata/power_facts_reguard.smp", []int{16, 17}},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Compile(c.file, src, Options{Check: true})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		var lines []int
		for _, b := range u.Func.Blocks {
			for _, in := range b.Instrs {
				if in.Op == cfg.OpCheck {
					lines = append(lines, int(in.Pos.Line))
				}
			}
		}
		zc := 0
		for _, n := range u.Graph.Live() {
			if n.Op == son.OpZeroCheck {
				zc++
			}
		}
		if !slices.Equal(lines, c.lines) || zc != len(c.lines) {
			t.Errorf("%s: checks at lines %v (%d ZeroChecks in the graph), want %v", c.file, lines, zc, c.lines)
		}
	}
}
