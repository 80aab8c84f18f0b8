package son

import (
	"reflect"
	"strings"
	"testing"
)

// TestScansSpared: a walk that finds every node the table holds live
// spares the fixpoint's scans (allLive); a node that Stop does not reach
// keeps them, and the sweep, taking the nodes the Loop search's scan
// found, kills it.
func TestScansSpared(t *testing.T) {
	g := buildSrc(t, "int x = arg * 2; if (x > 10) return x - 1; return x + 1;")
	g.walks.clean, g.walks.fullOK = false, false
	live := g.liveSet()
	if !g.allLive() {
		t.Fatalf("the walk found every node of %d live, and allLive is false", g.nodes.count())
	}
	if g.someCtrlNotLive(live) || g.walks.garbage != nil {
		t.Fatalf("a graph all live: someCtrlNotLive scanned")
	}
	g.giveMarks(live)
	x := g.NewNode(OpNot, 0, nil, g.Con(3)) // nothing uses it
	live = g.liveSet()
	if g.allLive() {
		t.Fatalf("%v is not live, and allLive holds", x)
	}
	if g.someCtrlNotLive(live) {
		t.Fatalf("no Loop is not live, and someCtrlNotLive says one is")
	}
	if kept := g.walks.garbage; len(kept) != 2 || kept[0] != x.In[1] || kept[1] != x {
		t.Fatalf("someCtrlNotLive kept %v for the sweep, want the constant 3 and %v", kept, x)
	}
	g.sweep(live)
	g.giveMarks(live)
	if !x.dead || g.walks.garbage != nil {
		t.Fatalf("the sweep left %v (dead %v), or kept its list", x, x.dead)
	}
	if err := Verify(g); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyLeavesWalkCache: Verify's walk records nothing in the graph's
// walk cache, so a checked run spares no scan an unchecked one makes; it
// still reads the claim, and rejects a false one.
func TestVerifyLeavesWalkCache(t *testing.T) {
	g := buildSrc(t, "int x = arg * 2; if (x > 10) return x - 1; return x + 1;")
	g.walks.clean, g.walks.fullOK = false, false // every node live, not yet found so
	before := g.walks
	if err := Verify(g); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.walks, before) {
		w := g.walks
		t.Fatalf("Verify changed the walk cache: full %v fullOK %v counted %v ok %v, was %v %v %v %v",
			w.full, w.fullOK, w.counted, w.ok, before.full, before.fullOK, before.counted, before.ok)
	}
	if g.allLive() {
		t.Fatalf("after Verify allLive holds, and no walk of the graph's own found every node live")
	}
	x := g.NewNode(OpNot, 0, nil, g.Con(3)) // nothing uses it
	g.walks.full, g.walks.fullOK = g.version(), true
	err := Verify(g)
	if err == nil || !strings.Contains(err.Error(), x.String()+": live-counts: not live") {
		t.Fatalf("Verify with %v not live and allLive claimed: %v, want a live-counts problem", x, err)
	}
}
