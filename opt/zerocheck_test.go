package opt

import (
	"slices"
	"strings"
	"testing"

	"son/son"
	"son/types"
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
		{"checks in the two branches of an if", "int r = 0; if (arg % 2 == 0) r = 10 / arg; else r = 20 / arg; return r;", 2, 2},
		{"a check in one branch, then after the if", "int r = 0; if (arg % 2 == 0) r = 10 / arg; return r + 30 / arg;", 2, 2},
		{"a check before the if, then in a branch", "int r = 7 / arg; if (arg % 2 == 0) r = 10 / arg; return r;", 2, 1},
		{"a division by a constant", "return arg / 7 + arg % 3;", 0, 0},
		{"different values", "return 10 / arg + 10 / (arg - 1);", 2, 2},
		// (A merge between the branch and the check: the peephole's walk up
		// stops at a Region, the pass's dominator tree does not.)
		{"below a branch proving the value is not 0", "int d = arg - 3; int q = 0; if (d != 0) { if (arg == 5) { q = 1; } q = q + 10 / (arg - 3); } return q;", 1, 0},
		{"below d == 7, and on its false side", "int d = arg - 3; int q = 0; if (d == 7) { if (arg == 5) { q = 1; } q = q + 10 / (arg - 3); } else { if (arg == 5) { q = 1; } q = q + 20 / (arg - 3); } return q;", 2, 1},
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
			before := RecordZeroCheck(g)
			removed := ZeroCheckElim(g)
			if err := CheckZeroCheckElim(before, g); err != nil {
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

// checks lists the live ZeroChecks of g in the order control passes them
// (the programs of these tests have no branches around them).
func checks(g *son.Graph) []*son.Node {
	var cs []*son.Node
	for n := g.Start.Proj(0); n != nil; {
		var next *son.Node
		for _, u := range n.Out {
			if u.IsControl() && u.Op != son.OpStop {
				next = u
			}
		}
		if next != nil && next.Op == son.OpZeroCheck {
			cs = append(cs, next)
		}
		n = next
		if n != nil && (n.Op == son.OpReturn || n.Op == son.OpIf) {
			break
		}
	}
	return cs
}

// removeCheck takes check c out of g as the pass does, pinning its
// divisions to w, and reports nothing.
func removeCheck(g *son.Graph, c, w *son.Node) {
	for _, u := range append([]*son.Node(nil), c.Out...) {
		if (u.Op == son.OpDiv || u.Op == son.OpMod) && u.In[0] == c {
			g.SetIn(u, 0, w)
		}
	}
	g.Subsume(c, c.In[0])
}

// TestCheckZeroCheckElimRejects: removals and changes the input does not
// justify, each made on the graph after (or instead of) the real pass and
// compared with the graph recorded before it. The pass's report is not
// given to the checker, so an unreported removal is found as any other.
func TestCheckZeroCheckElimRejects(t *testing.T) {
	for _, c := range []struct {
		name    string
		src     string
		real    bool // the real pass, run first in every case, removes something
		corrupt func(t *testing.T, g *son.Graph)
		want    string
	}{
		{"witness that does not dominate", "int r = 0; if (arg % 2 == 0) r = 10 / arg; return r + 30 / arg;", false,
			func(t *testing.T, g *son.Graph) {
				// Remove the check after the if, pretending the one in the
				// branch dominates it.
				var inBranch, after *son.Node
				for _, n := range g.Live() {
					if n.Op == son.OpZeroCheck && n.In[0].Op == son.OpRegion {
						after = n
					} else if n.Op == son.OpZeroCheck {
						inBranch = n
					}
				}
				removeCheck(g, after, inBranch)
			}, "removed: the check of Proj#"},
		{"witness of another value", "int a = arg - 1; 100 / arg; 100 / a; return 5;", false,
			// The fault of issue 11: a dominating check of any value.
			func(t *testing.T, g *son.Graph) {
				cs := checks(g)
				if len(cs) != 2 || cs[0].In[1] == cs[1].In[1] {
					t.Fatalf("checks %v, want two of different values", cs)
				}
				removeCheck(g, cs[1], cs[0])
				if v, err := son.Run(g, 1, son.Limits{}); err != nil || v != 5 {
					t.Fatalf("run(1) = %d, %v: want the wrong 5 the fault gives", v, err)
				}
			}, "removed: the check of Sub#"},
		{"division pinned elsewhere", "int a = 10 / arg; int b = 20 / arg; return a + b;", true,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpDiv && n.In[1].Aux == 20 {
						g.SetIn(n, 0, g.Start.Proj(0))
						return
					}
				}
				t.Fatal("no division of 20")
			}, "repinned: was pinned to the removed ZeroCheck#"},
		{"check removed on the side where the value may be 0", "int d = arg - 3; int q = 0; if (d == 7) { if (arg == 5) { q = 1; } q = q + 10 / (arg - 3); } else { if (arg == 5) { q = 1; } q = q + 20 / (arg - 3); } return q;", true,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpZeroCheck {
						removeCheck(g, n, n.In[0])
						return
					}
				}
				t.Fatal("no check left on the false side")
			}, "removed: the check of Sub#"},
		{"division moved above the branch that proves its divisor", "int d = arg - 3; int q = 0; if (d != 0) { if (arg == 5) { q = 1; } q = q + 10 / (arg - 3); } return q;", true,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpDiv {
						g.SetIn(n, 0, g.Start.Proj(0))
						return
					}
				}
				t.Fatal("no division")
			}, "repinned: was pinned to the removed ZeroCheck#"},
		{"removal without a report", "int a = 10 / arg; int b = 20 / arg; return a + b + 5 / (arg + 1);", true,
			func(t *testing.T, g *son.Graph) {
				cs := checks(g)
				if len(cs) != 2 {
					t.Fatalf("checks %v after the pass, want 2", cs)
				}
				removeCheck(g, cs[1], cs[0])
			}, "removed: the check of Add#"},
		{"control rewired past a live check", "int a = 10 / arg; int b = 20 / (arg + 1); return a + b;", false,
			func(t *testing.T, g *son.Graph) {
				cs := checks(g)
				ret := cs[1].Out[0]
				for _, u := range cs[1].Out {
					if u.Op == son.OpReturn {
						ret = u
					}
				}
				g.SetIn(ret, 0, cs[0])
			}, "unchanged: input 0 was ZeroCheck#"},
		{"another node changed", "int a = 10 / arg; int b = 20 / arg; return a + b;", true,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpAdd {
						g.SetIn(n, 1, g.Con(3))
						return
					}
				}
			}, "unchanged: input 1 was Div#"},
		{"control rewired past the check above", "int a = 10 / arg; int b = 20 / arg; return a + b;", true,
			func(t *testing.T, g *son.Graph) {
				cs := checks(g)
				if len(cs) != 1 {
					t.Fatalf("checks %v after the pass, want 1", cs)
				}
				for _, u := range cs[0].Out {
					if u.IsControl() {
						g.SetIn(u, 0, cs[0].In[0])
						return
					}
				}
				t.Fatal("nothing follows the check")
			}, "rewired: followed the removed ZeroCheck#"},
		{"a data node gone under a user", "int a = arg + 5; return a * arg;", false,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op != son.OpMul {
						continue
					}
					for i, x := range n.In {
						if x != nil && x.Op == son.OpAdd {
							g.SetIn(n, i, x.In[1])
							return
						}
					}
				}
				t.Fatal("no product of a sum")
			}, ": unchanged: gone, but its user Mul#"},
		// Through the record's forms of constants and types: a wide
		// constant changed in place, a constant typed by its value given
		// another type.
		{"a wide constant changed", "int a = 10 / arg; return a + 3000000000;", false,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpConstant && n.Aux == 3000000000 {
						n.Aux = 3000000001
						return
					}
				}
				t.Fatal("no constant 3000000000")
			}, "(aux 3000000000, 0 inputs, 3000000000), now aux 3000000001"},
		{"a constant's type changed", "int a = 10 / arg; return a + 7;", false,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpConstant && n.Aux == 7 {
						g.SetType(n, types.Int)
						return
					}
				}
				t.Fatal("no constant 7")
			}, "(aux 7, 0 inputs, 7), now aux 7, 0 inputs, int"},
		{"a new node", "int a = 10 / arg; return a;", false,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpDiv {
						g.SetIn(n, 1, g.Con(12345))
						return
					}
				}
			}, ": unchanged: a node that was not in the graph before the pass"},
		// A node of another graph with the ID of the one it replaces: the
		// table holds nothing at that ID any more (the review of sccp15
		// found it accepted, and the program returning 1 where it
		// returns 2 at arg 3).
		{"a clone's node in place of the table's", "int a = 10 / arg; if (a < 3) return 1; return 2;", false,
			func(t *testing.T, g *son.Graph) {
				for _, n := range g.Live() {
					if n.Op == son.OpConstant && n.Aux == 3 {
						m := g.Clone().Node(n.ID)
						m.Aux = 4
						for _, u := range slices.Clone(n.Out) {
							for i, x := range u.In {
								if x == n {
									g.SetIn(u, i, m)
								}
							}
						}
						return
					}
				}
				t.Fatal("no constant 3")
			}, "is not the node the graph's table holds at its ID"},
		{"a clone's Stop", "return 10 / arg;", false,
			func(t *testing.T, g *son.Graph) { g.Stop = g.Clone().Stop },
			"Start or Stop is not the node its graph's table holds at its ID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := peepholed(t, c.src)
			before := RecordZeroCheck(g)
			if removed := ZeroCheckElim(g); c.real != (len(removed) > 0) {
				t.Fatalf("%d removals, want some: %v", len(removed), c.real)
			}
			if err := CheckZeroCheckElim(before, g); err != nil {
				t.Fatalf("before the fault: %v", err)
			}
			c.corrupt(t, g)
			err := CheckZeroCheckElim(before, g)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// TestCheckZeroCheckElimNoGraph: without a record of the input, the
// checker says so rather than panicking or passing.
func TestCheckZeroCheckElimNoGraph(t *testing.T) {
	g := peepholed(t, "return 10 / arg;")
	for _, c := range []struct {
		before *ZeroCheckRecord
		after  *son.Graph
	}{{nil, g}, {RecordZeroCheck(g), nil}, {nil, nil}, {RecordZeroCheck(nil), g}} {
		if err := CheckZeroCheckElim(c.before, c.after); err == nil || !strings.Contains(err.Error(), "no graph to compare") {
			t.Errorf("got %v, want an error saying there is no graph", err)
		}
	}
}
