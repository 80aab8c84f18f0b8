package son

import (
	"strings"
	"testing"
)

// liveOpsByWalk counts the live nodes of g by op with a walk of its own.
func liveOpsByWalk(g *Graph) (int, [256]int) {
	var ops [256]int
	live := g.Live()
	for _, n := range live {
		ops[n.Op]++
	}
	return len(live), ops
}

// TestLiveOpsAgrees: the counts LiveOps gives, whether kept from the last
// sweep or count or found by a new walk, are those of Live, after Build,
// after each fixpoint and after edits between them; after a sweep and
// after a count, while nothing changes, they cost no walk.
func TestLiveOpsAgrees(t *testing.T) {
	for name, f := range recyclePrograms(t) {
		g := Build(f, BuildOptions{})
		check := func(when string) {
			t.Helper()
			n, ops := g.LiveOps()
			wn, wops := liveOpsByWalk(g)
			if n != wn || ops != wops {
				t.Fatalf("%s, %s: LiveOps counts %d live nodes, the walk %d (or other ops)", name, when, n, wn)
			}
		}
		check("after Build")
		g.PushAll()
		if err := g.Iterate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c := &g.walks; !c.clean || c.swept != g.version() {
			t.Errorf("%s: the fixpoint ended with a sweep, but the graph does not know it", name)
		}
		check("after the fixpoint")
		g.StripRefines() // edits the graph: the counts kept must not serve
		check("after StripRefines")
		if c := &g.walks; !c.ok || c.counted != g.version() {
			t.Errorf("%s: LiveOps walked, but the graph keeps no counts from it", name)
		}
		if err := g.Iterate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g.SplitReturns()
		check("after SplitReturns")
	}
}

// TestPushAllTakesSharedOrder: PushAll after LiveShared or LiveOps, the
// graph unchanged, puts the nodes on the worklist in Live's order without
// walking; after an edit it walks again, and a kept order serves once.
func TestPushAllTakesSharedOrder(t *testing.T) {
	g := buildSrc(t, "int s = 0; for (int i = 0; i < arg; i++) { if (i % 3) s += i; else s -= arg / (i + 1); } return s;")
	want := g.Live()
	popAll := func() []*Node {
		var got []*Node
		for n := g.pop(); n != nil; n = g.pop() {
			got = append(got, n)
		}
		return got
	}
	same := func(what string, got []*Node) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d nodes pushed, want %d", what, len(got), len(want))
		}
		for i := range got {
			// Last in, first out: popped in the reverse order of Live.
			if got[i] != want[len(want)-1-i] {
				t.Fatalf("%s: pop %d is %v, want %v", what, i, got[i], want[len(want)-1-i])
			}
		}
	}
	popAll() // what Build left on the worklist
	shared := g.LiveShared()
	g.PushAll()
	if g.walks.order != nil {
		t.Errorf("PushAll left the shared order kept")
	}
	same("after LiveShared", popAll())
	if len(shared) != len(want) {
		t.Fatalf("LiveShared found %d nodes, Live %d", len(shared), len(want))
	}
	g.LiveOps() // counts the nodes Build's sweep left: no order to keep
	if g.walks.order != nil {
		t.Errorf("LiveOps after a sweep walked the graph")
	}
	g.walks.ok, g.walks.clean = false, false
	g.LiveOps() // walks, and keeps the order
	if g.walks.order == nil {
		t.Fatalf("LiveOps walked but kept no order for PushAll")
	}
	g.PushAll()
	same("after LiveOps", popAll())
	// An edit between the two: the kept order must not serve.
	g.LiveShared()
	ret := g.Stop.In[0]
	g.SetIn(ret, 1, g.Con(7))
	popAll() // what SetIn pushed
	want = g.Live()
	g.PushAll()
	same("after an edit", popAll())
}

// TestVerifyChecksLiveOps: the verifier rejects counts the graph keeps
// that its walk does not find.
func TestVerifyChecksLiveOps(t *testing.T) {
	g := buildSrc(t, "int x = arg * 2; if (x > 10) return x - 1; return x + 1;")
	if err := Verify(g); err != nil {
		t.Fatal(err)
	}
	g.LiveOps()
	if c := &g.walks; !c.ok || c.counted != g.version() {
		t.Fatalf("the graph keeps no counts from LiveOps")
	}
	g.walks.n++
	err := Verify(g)
	if err == nil || !strings.Contains(err.Error(), "live-counts: the graph counts") {
		t.Fatalf("Verify with a count off by one: %v, want a live-counts problem", err)
	}
	g.walks.n--
	g.walks.ops[OpAdd]++
	if err := Verify(g); err == nil || !strings.Contains(err.Error(), "live-counts") {
		t.Fatalf("Verify with an Add too many: %v, want a live-counts problem", err)
	}
	g.walks.ops[OpAdd]--
	// A node nothing uses, and a graph that claims a sweep since.
	x := g.NewNode(OpNot, 0, nil, g.Con(3))
	g.walks.swept, g.walks.clean = g.version(), true
	err = Verify(g)
	if err == nil || !strings.Contains(err.Error(), x.String()+": live-counts: not live") {
		t.Fatalf("Verify with %v not live after a sweep: %v, want a live-counts problem", x, err)
	}
	g.walks.clean = false
	// The same node, and a graph that claims a walk found every node live.
	g.walks.full, g.walks.fullOK = g.version(), true
	err = Verify(g)
	if err == nil || !strings.Contains(err.Error(), x.String()+": live-counts: not live") {
		t.Fatalf("Verify with %v not live after a walk found all live: %v, want a live-counts problem", x, err)
	}
	g.walks.fullOK = false
	g.nodes.held++
	err = Verify(g)
	if err == nil || !strings.Contains(err.Error(), "live-counts: the node table counts") {
		t.Fatalf("Verify with the node count off by one: %v, want a live-counts problem", err)
	}
}

// TestLoopSearchNeedsALoop: control that Stop does not reach (a Region
// nothing uses, under live control) makes keepInfiniteLoops search for a
// loop without an exit only if a Loop is among it: the search finds the
// Region stuck, but no head to give a Never; a Loop of its own, with its
// back edge to itself, gets one.
func TestLoopSearchNeedsALoop(t *testing.T) {
	g := buildSrc(t, "int x = arg * 2; if (x > 10) return x - 1; return x + 1;")
	ctrl := g.Start.Proj(0)
	r := g.NewNode(OpRegion, 0, nil, ctrl, ctrl)
	live := g.liveSet()
	if stuck := g.ctrlStuck(live); len(stuck) != 1 || stuck[0] != r {
		t.Fatalf("ctrlStuck lists %v, want just %v", stuck, r)
	}
	if g.someCtrlNotLive(live) {
		t.Errorf("someCtrlNotLive finds a loop head among %v", r)
	}
	walks := g.Stats.Walks
	if added, _ := g.keepInfiniteLoops(nil); added || g.Stats.Walks != walks+1 {
		t.Errorf("keepInfiniteLoops added a Never (%v) or walked %d times, want none and once", added, g.Stats.Walks-walks)
	}
	loop := g.NewNode(OpLoop, 0, nil, ctrl, nil)
	g.SetIn(loop, 2, loop)
	if !g.someCtrlNotLive(g.liveSet()) {
		t.Fatalf("someCtrlNotLive misses %v", loop)
	}
	if added, _ := g.keepInfiniteLoops(nil); !added {
		t.Fatalf("keepInfiniteLoops gave %v no Never", loop)
	}
	if never := loop.In[2].In[0]; never.Op != OpNever {
		t.Errorf("the back edge of %v comes from %v, want a Never's projection", loop, never)
	}
}

// TestWalkStackShared: the depth-first walks take the graph's scratch
// stack, so that after one walk a walk as deep allocates only its result
// (Live) and the verifier's allocations do not grow with the depth; the
// stack holds no node between walks.
func TestWalkStackShared(t *testing.T) {
	chain := func(k int) *Graph {
		return buildSrc(t, "int x = arg; "+strings.Repeat("x = x * arg + 1; ", k)+"return x;")
	}
	g := chain(2000)
	g.Live()
	if c := cap(g.stack); c < 2000 {
		t.Fatalf("the scratch stack has room for %d frames after a walk of a chain of 2000 multiplications", c)
	}
	if a := testing.AllocsPerRun(3, func() { g.Live() }); a != 1 {
		t.Errorf("Live allocates %v times, want once (its result)", a)
	}
	for i, f := range g.stack[:cap(g.stack)] {
		if f != (walkFrame{}) {
			t.Fatalf("frame %d of the scratch stack holds %v after the walks", i, f.n)
		}
	}
	verifyAllocs := func(g *Graph) float64 {
		return testing.AllocsPerRun(3, func() {
			if err := Verify(g); err != nil {
				t.Fatal(err)
			}
		})
	}
	short, long := verifyAllocs(chain(20)), verifyAllocs(g)
	if long != short {
		t.Errorf("Verify allocates %v times on a chain of 2000 multiplications, %v on one of 20", long, short)
	}
}
