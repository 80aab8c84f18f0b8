package opt

import (
	"strings"
	"testing"

	"son/son"
)

// countOps counts the live nodes of an op.
func countOps(g *son.Graph, op son.Op) int {
	k := 0
	for _, n := range g.Live() {
		if n.Op == op {
			k++
		}
	}
	return k
}

// TestZeroCheckElim: the cases of paper 000's criterion, each with the
// checks left after the pass, checked, and the program's results kept.
func TestZeroCheckElim(t *testing.T) {
	for _, c := range []struct {
		name          string
		src           string
		before, after int // ZeroChecks before and after the pass
	}{
		{"loop after a check outside", `
			int s = 100 / arg;
			int i = 0;
			while (i < 5) { s = s + 1000 / arg; i++; }
			return s;`, 2, 1},
		{"two divisions in sequence", "int a = 10 / arg; int b = 20 / arg; return a + b;", 2, 1},
		{"a division and a remainder", "return 10 / arg + 10 % arg;", 2, 1},
		{"checks in the two branches of an if", "int r = 0; if (arg > 5) r = 10 / arg; else r = 20 / arg; return r;", 2, 2},
		{"a check in one branch, then after the if", "int r = 0; if (arg > 5) r = 10 / arg; return r + 30 / arg;", 2, 2},
		{"a check before the if, then in a branch", "int r = 7 / arg; if (arg > 5) r = 10 / arg; return r;", 2, 1},
		{"a division by a constant", "return arg / 7 + arg % 3;", 0, 0},
		{"different values", "return 10 / arg + 10 / (arg - 1);", 2, 2},
		{"a value that changes in the loop", `
			int i = 0; int s = 0;
			while (i < 4) { s = s + 100 / (i - 2); i++; }
			return s;`, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := peepholed(t, c.src)
			ref := peepholed(t, c.src)
			if k := countOps(g, son.OpZeroCheck); k != c.before {
				t.Fatalf("%d ZeroChecks before, want %d", k, c.before)
			}
			removed := ZeroCheckElim(g)
			if err := CheckZeroCheckElim(g, removed); err != nil {
				t.Fatal(err)
			}
			if err := son.Verify(g); err != nil {
				t.Fatal(err)
			}
			if k := countOps(g, son.OpZeroCheck); k != c.after {
				t.Errorf("%d ZeroChecks after, want %d:\n%s", k, c.after, son.Listing(g))
			}
			if len(removed) != c.before-c.after {
				t.Errorf("%d removals reported, want %d", len(removed), c.before-c.after)
			}
			for _, arg := range []int64{-3, 0, 1, 2, 7} {
				want, werr := son.Run(ref, arg, son.Limits{})
				got, gerr := son.Run(g, arg, son.Limits{})
				if got != want || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
					t.Errorf("arg %d: %d %v, want %d %v", arg, got, gerr, want, werr)
				}
			}
		})
	}
}

// TestCheckZeroCheckElimRejects: witnesses that do not justify a removal.
func TestCheckZeroCheckElimRejects(t *testing.T) {
	for _, c := range []struct {
		name    string
		src     string
		corrupt func(g *son.Graph, rs []Removal) []Removal
		want    string
	}{
		{"witness that does not dominate", "int r = 0; if (arg > 5) r = 10 / arg; return r + 30 / arg;",
			func(g *son.Graph, rs []Removal) []Removal {
				// Remove the check after the if, pretending the one in the
				// branch dominates it.
				var checks []*son.Node
				for _, n := range g.Live() {
					if n.Op == son.OpZeroCheck {
						checks = append(checks, n)
					}
				}
				inBranch, after := checks[0], checks[1]
				if after.In[0].Op != son.OpRegion {
					inBranch, after = after, inBranch
				}
				r := Removal{Check: after, Value: after.In[1], Pred: after.In[0], Witness: inBranch}
				for _, u := range append([]*son.Node(nil), after.Out...) {
					if u.Op == son.OpDiv {
						g.SetIn(u, 0, inBranch)
						r.Divs = append(r.Divs, u)
					}
				}
				g.Subsume(after, after.In[0])
				return []Removal{r}
			}, "does not dominate"},
		{"witness of another value", "int a = 10 / arg; int b = 20 / arg; return a + b + 5 / (arg + 1);",
			func(g *son.Graph, rs []Removal) []Removal {
				for _, n := range g.Live() {
					if n.Op == son.OpZeroCheck && n.In[1] != rs[0].Value {
						rs[0].Witness = n
					}
				}
				return rs
			}, "is not a live check of"},
		{"division pinned elsewhere", "int a = 10 / arg; int b = 20 / arg; return a + b;",
			func(g *son.Graph, rs []Removal) []Removal {
				g.SetIn(rs[0].Divs[0], 0, g.Start.Proj(0))
				return rs
			}, "is not pinned to the witness"},
		{"check still there", "int a = 10 / arg; int b = 20 / arg; return a + b;",
			func(g *son.Graph, rs []Removal) []Removal {
				rs[0].Check = rs[0].Witness
				return rs
			}, "still in the graph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := peepholed(t, c.src)
			var rs []Removal
			if !strings.HasPrefix(c.name, "witness that") {
				rs = ZeroCheckElim(g)
				if len(rs) == 0 {
					t.Fatal("nothing removed")
				}
			}
			rs = c.corrupt(g, rs)
			err := CheckZeroCheckElim(g, rs)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}
