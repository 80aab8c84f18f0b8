package son

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"son/types"
)

// TestSealKeepsReading: a graph the peepholes have finished with reads
// the same after Seal — it verifies, prints, lists, draws, counts and
// runs the same, with the same live nodes — while what only edits need
// is gone: the value-numbering table, the dependence lists, the worklist,
// the recycled nodes, the edge arena, the type table's index, the scratch
// arrays, the last walk's order, the checker's programs.
func TestSealKeepsReading(t *testing.T) {
	args := []int64{0, 1, 5, -2, 100}
	for name, f := range recyclePrograms(t) {
		g := Build(f, BuildOptions{Check: true})
		if err := optimize(g); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g.SplitReturns()
		if err := g.RewriteError(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		print, list, dot := Print(g), Listing(g), DOT(g, DOTOptions{})
		live := g.Live()
		n, ops := g.LiveOps()
		stats := g.RewriteStats()
		runs := make([]string, len(args))
		for i, a := range args {
			v, err := Run(g, a, Limits{Steps: 100000})
			runs[i] = fmt.Sprint(v, err)
		}

		g.Seal()
		if !g.Sealed() {
			t.Fatalf("%s: not sealed after Seal", name)
		}
		if g.gvn.count != 0 || g.gvn.slots != nil || g.depsOf.ids != nil || g.depsOf.lists != nil ||
			g.work.list != nil || g.work.on != nil || g.spare != nil || g.args != nil ||
			g.ids != nil || g.marks != nil || g.stack != nil || g.types.index != nil || g.types.slab != nil ||
			g.edges.in != nil || g.edges.pos != nil || g.walks.order != nil ||
			g.check.progs[0].index != nil || g.check.progs[1].terms != nil {
			t.Fatalf("%s: Seal kept some of the peepholes' state", name)
		}
		for c := range g.edges.freeIn {
			if g.edges.freeIn[c] != nil || g.edges.freePos[c] != nil {
				t.Fatalf("%s: Seal kept the edge arena's free lists of %d", name, c)
			}
		}

		if err := Verify(g); err != nil {
			t.Errorf("%s: sealed graph: %v", name, err)
		}
		if got := Print(g); got != print {
			t.Errorf("%s: prints\n%s\nsealed, \n%s\nbefore", name, got, print)
		}
		if got := Listing(g); got != list {
			t.Errorf("%s: lists\n%s\nsealed, \n%s\nbefore", name, got, list)
		}
		if got := DOT(g, DOTOptions{}); got != dot {
			t.Errorf("%s: DOT differs once sealed", name)
		}
		if got := g.Live(); !slices.Equal(got, live) {
			t.Errorf("%s: %d live nodes sealed, %d before", name, len(got), len(live))
		}
		if n2, ops2 := g.LiveOps(); n2 != n || ops2 != ops {
			t.Errorf("%s: LiveOps %d sealed, %d before", name, n2, n)
		}
		if got := g.RewriteStats(); got != stats {
			t.Errorf("%s: RewriteStats %+v sealed, %+v before", name, got, stats)
		}
		for i, a := range args {
			v, err := Run(g, a, Limits{Steps: 100000})
			if got := fmt.Sprint(v, err); got != runs[i] {
				t.Errorf("%s: Run(%d) = %s sealed, %s before", name, a, got, runs[i])
			}
		}
		// The scratch array by ID is made again when a reader asks.
		ids := g.TakeIDs()
		if len(ids) != g.MaxID() || slices.ContainsFunc(ids, func(x int32) bool { return x != 0 }) {
			t.Errorf("%s: TakeIDs on the sealed graph: %d entries, want %d zeros", name, len(ids), g.MaxID())
		}
		g.GiveIDs(ids)
	}
}

// TestSealedEditsPanic: every way to edit a graph panics once it is
// sealed, naming the edit and the graph, before it changes anything: the
// graph lists and verifies the same after each attempt.
func TestSealedEditsPanic(t *testing.T) {
	g := buildSrc(t, "arg = arg * 2 + 1;\nif (arg > 3) arg = arg - 1;\nreturn arg;\n")
	if err := optimize(g); err != nil {
		t.Fatal(err)
	}
	var add, ret *Node
	for _, n := range g.Live() {
		switch n.Op {
		case OpAdd:
			add = n
		case OpReturn:
			ret = n
		}
	}
	if add == nil || ret == nil {
		t.Fatalf("no Add or Return in\n%s", Listing(g))
	}
	g.Seal()
	list := Listing(g)
	edits := []struct {
		what string
		edit func()
	}{
		{"NewNode", func() { g.NewNode(OpAdd, 0, nil, add, add) }},
		{"NewNode", func() { g.Con(12345) }},
		{"SetIn", func() { g.SetIn(ret, 1, add.In[1]) }},
		{"AddIn", func() { g.AddIn(g.Stop, ret) }},
		{"DelIn", func() { g.DelIn(g.Stop, 0) }},
		{"Subsume", func() { g.Subsume(add, add.In[1]) }},
		{"Kill", func() { g.Kill(add) }},
		{"Peephole", func() { g.Peephole(add) }},
		{"Iterate", func() { _ = g.Iterate() }},
		{"PushAll", func() { g.PushAll() }},
		{"SetType", func() { g.SetType(add, types.Bottom) }},
	}
	for _, e := range edits {
		want := fmt.Sprintf("son: internal error: %s on graph \"t.smp\" after Seal: a sealed graph is read, not edited", e.what)
		func() {
			defer func() {
				if r := recover(); r != want {
					t.Errorf("%s on a sealed graph: panic %v, want %q", e.what, r, want)
				}
			}()
			e.edit()
		}()
		if got := Listing(g); got != list {
			t.Errorf("%s on a sealed graph changed it:\n%s\nwas\n%s", e.what, got, list)
		}
		if err := Verify(g); err != nil {
			t.Errorf("%s on a sealed graph: %v", e.what, err)
		}
	}
	if !strings.Contains(list, "Add") {
		t.Errorf("listing without its Add:\n%s", list)
	}
}
