package son

import (
	"testing"

	"son/syntax"
)

// revivedLoopSrc is testdata/regress/gen_seed7500164.smp: the first loop
// always returns, so the code after it is dead at run time; the builder
// does not know it yet when it builds the for loop, whose exit dies once
// the types settle. foldOneSidedIfs then folds the for loop's If, and the
// loop, left without an exit, lives only by the Never keepInfiniteLoops
// gives it; 1 / v334 had no check, on the folded side's fact v334 != 0.
const revivedLoopSrc = `int v90;
while (v90 < 1) {
    v90++;
    return 0;
}
int v325;
v325 = 0 | v90;
for (int v334 = 0; v334; v334++)
    if (0 / (1 / v334)) {}
if (v325) {}
`

// TestBuildGuardsRevivedLoop: a division that only a loop revived by its
// Never keeps alive, and whose check went on the fact of a side
// foldOneSidedIfs folded, gets its check back (guardFolded counts the
// divisions after keepInfiniteLoops), with the rewrite checker on and
// off; the graph verifies and runs as the program does.
func TestBuildGuardsRevivedLoop(t *testing.T) {
	f, err := syntax.Parse("gen_seed7500164.smp", []byte(revivedLoopSrc))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { reguardHook = nil }()
	for _, opt := range []BuildOptions{{}, {Check: true}} {
		var unguardedAtFold []*Node // garbage too: the order of the steps must not matter
		reguardHook = func(g *Graph) {
			for _, n := range g.nodes.all() {
				if n != nil && unguarded(n) {
					unguardedAtFold = append(unguardedAtFold, n)
				}
			}
		}
		g := Build(f, opt)
		revived := 0
		for _, d := range unguardedAtFold {
			if d.dead {
				continue // swept
			}
			c := d.In[0]
			for c.Op == OpZeroCheck {
				c = c.In[0]
			}
			if c.Op != OpLoop || c.In[2].Op != OpCProj || c.In[2].In[0].Op != OpNever {
				continue // not in a loop kept by its Never
			}
			revived++
			if z := d.In[0]; z.Op != OpZeroCheck || z.In[1] != d.In[2] {
				t.Errorf("Check %v: after Build, %v hangs on %v, not on a check of %v", opt.Check, d, z, d.In[2])
			}
		}
		if revived == 0 {
			t.Fatalf("Check %v: no division of a loop kept by its Never was unguarded after the folds: the test tests nothing", opt.Check)
		}
		if after := unsafeDivisions(g); len(after) > 0 {
			t.Errorf("Check %v: after Build, %v still need a check", opt.Check, after)
		}
		if err := Verify(g); err != nil {
			t.Errorf("Check %v: Verify: %v", opt.Check, err)
		}
		for _, arg := range []int64{0, 1, -7, 7500164} {
			if v, err := Run(g, arg, Limits{}); v != 0 || err != nil {
				t.Errorf("Check %v: Run(%d) = %d, %v; want 0", opt.Check, arg, v, err)
			}
		}
	}
}
