package son

import (
	"fmt"
	"strings"
	"testing"

	"son/syntax"
)

// returnLines lists the Returns of g's Stop as "line:value".
func returnLines(g *Graph) string {
	var s []string
	for _, r := range g.Stop.In {
		s = append(s, fmt.Sprintf("%d:%s", r.Pos.Line, PrintExpr(g, r.In[1])))
	}
	return strings.Join(s, " ")
}

// TestSplitReturnPositions: each Return SplitReturns makes stands where
// its own return statement does, not where the first one does, through
// the peepholes that merge and flatten the paths of a Region of returns,
// and through a tree of such Regions (past maxJoin returns).
func TestSplitReturnPositions(t *testing.T) {
	// 32 returns, one a line (a Region of returns as wide as they come),
	// before the returns of a case: those then join at a second Region,
	// which its peepholes change before the Region of the two is made,
	// and which that Region's peephole flattens into itself.
	var pre strings.Builder
	var preWant []string
	for k := 1; k <= maxJoin; k++ {
		fmt.Fprintf(&pre, "if (arg == %d) return %d;\n", k, 3*k+1)
		preWant = append(preWant, fmt.Sprintf("%d:%d", k, 3*k+1))
	}
	p, pw := pre.String(), strings.Join(preWant, " ")+" "
	tests := []struct{ name, src, want string }{
		{"three", "if (arg < 3)\n\treturn arg / 5;\nif (arg < 9)\n\treturn arg * 7;\nreturn arg + 11;\n",
			"2:(arg/5) 4:(arg*7) 5:(arg+11)"},
		{"many", p + "if (arg < 0)\n\treturn 5;\nreturn 6;\n", pw + "34:5 35:6"},
		// The path of the first return is a Region, flattened into the
		// Region of returns: both its inputs return at line 36.
		{"flatten", p + "if (arg > 40) {\n\tint x = 2;\n\tif (arg > 50) x = arg;\n\treturn x;\n}\nreturn 9;\n",
			pw + "36:arg 36:2 38:9"},
		// Both sides of an If return 3: one path, the If's control, at
		// the first of the two.
		{"both sides", p + "if (arg < 0)\n\treturn 3;\nreturn 3;\n", pw + "34:3"},
		{"both sides of three", p + "if (arg == 40)\n\treturn 8;\nif (arg < 0)\n\treturn 3;\nreturn 3;\n",
			pw + "34:8 36:3"},
		// Equal returns fold into one Return, at the first of them.
		{"equal", "if (arg == 1)\n\treturn 7;\nreturn 7;\n", "2:7"},
	}
	for _, tt := range tests {
		g := buildSrc(t, tt.src)
		if err := optimize(g); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		g.SplitReturns()
		if got := returnLines(g); got != tt.want {
			t.Errorf("%s: returns %s, want %s", tt.name, got, tt.want)
		}
		if err := Verify(g); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestReturnPositionOfPathLeft: when all but one path of a Region of
// returns die (the If before them found to take the other side, as SCCP
// may find it),
// the Region becomes that path and its Return, or the input of the
// enclosing Region of returns, takes that path's position.
func TestReturnPositionOfPathLeft(t *testing.T) {
	// maxJoin-1 Regions of maxJoin returns before the last two: the
	// Region of the groups is then too wide to flatten the last one's.
	var pre strings.Builder
	n := maxJoin * (maxJoin - 1)
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&pre, "if (arg == %d) return %d;\n", k, 3*k+1)
	}
	two := "if (arg < 3)\n\treturn arg / 5;\nreturn arg * 7;\n"
	tests := []struct {
		name, src string
		dead      int // the input of the Region of the last two returns to kill
		want      string
	}{
		{"first", two, 1, "3:(arg*7)"},
		{"second", two, 2, "2:(arg/5)"},
		{"nested first", pre.String() + two, 1, fmt.Sprintf("%d:(arg*7)", n+3)},
		{"nested second", pre.String() + two, 2, fmt.Sprintf("%d:(arg/5)", n+2)},
	}
	for _, tt := range tests {
		g := buildSrc(t, tt.src)
		reg := g.Stop.In[0].In[0]
		if len(g.Stop.In) != 1 || !isRegion(reg) {
			t.Fatalf("%s: the Return's control is %v, want a Region of returns", tt.name, reg)
		}
		if last := reg.In[len(reg.In)-1]; isRegion(last) {
			reg = last // the last two, under the Region of the groups
		}
		if len(reg.In) != 3 {
			t.Fatalf("%s: %v has %d inputs, want 2 returns", tt.name, reg, len(reg.In)-1)
		}
		c := reg.In[tt.dead]
		if c.Op != OpCProj || c.In[0].Op != OpIf {
			t.Fatalf("%s: the path of the return is %v, want a projection of an If", tt.name, c)
		}
		g.SetIn(c.In[0], 1, g.Con(c.Aux)) // the If's other side is taken
		if err := optimize(g); err != nil {
			t.Fatal(err)
		}
		g.SplitReturns()
		lines := returnLines(g)
		if got := lines[strings.LastIndex(" "+lines, " "):]; got != tt.want {
			t.Errorf("%s: last return %s, want %s", tt.name, got, tt.want)
		}
		if err := Verify(g); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if len(g.rets) != 0 {
			t.Errorf("%s: positions of dead Regions kept: %v", tt.name, g.rets)
		}
	}
}

// isRegion reports whether n is a Region that mergeReturns made.
func isRegion(n *Node) bool { return n.Op == OpRegion && n.Aux == regionOfReturns }

// TestReturnPosSwept: a Region with positions that the sweep kills (not
// reached from Stop) loses its entry, as one that Kill kills does, and a clone
// made after has none.
func TestReturnPosSwept(t *testing.T) {
	g := buildSrc(t, "if (arg < 3)\n\treturn arg / 5;\nreturn arg + 11;\n")
	r := g.NewNode(OpRegion, 0, nil, g.Start, g.Start)
	g.setReturnPos(r, make([]syntax.Pos, 3))
	live := g.liveSet()
	g.sweep(live)
	g.giveMarks(live)
	if !r.dead {
		t.Fatalf("%v not swept", r)
	}
	if _, ok := g.rets[int32(r.ID)]; ok {
		t.Errorf("the positions of %v outlive it", r)
	}
	if _, ok := g.Clone().rets[int32(r.ID)]; ok {
		t.Errorf("a clone holds the positions of %v, swept", r)
	}
}
