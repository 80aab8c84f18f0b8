package son

import (
	"slices"
	"strings"
	"testing"
)

// TestBuildKeepsLiveOrder: the order Build keeps for the next PushAll,
// while the graph is as Build left it, is Live's; and Build keeps one on
// most programs (the peephole pass then walks the graph once less).
func TestBuildKeepsLiveOrder(t *testing.T) {
	kept, all := 0, 0
	for name, f := range recyclePrograms(t) {
		g := Build(f, BuildOptions{})
		all++
		c := &g.walks
		if c.order == nil || c.orderAt != g.version() {
			continue
		}
		kept++
		if !slices.Equal(c.order, g.Live()) {
			t.Fatalf("%s: the order Build keeps is not Live's", name)
		}
		want := Build(f, BuildOptions{})
		want.walks.order = nil // PushAll walks
		g.PushAll()
		want.PushAll()
		if !slices.Equal(g.work.list, want.work.list) {
			t.Fatalf("%s: PushAll with the kept order queues %v, with a walk %v", name, g.work.list, want.work.list)
		}
	}
	if 2*kept < all {
		t.Errorf("Build kept the order on %d of %d programs, want half or more", kept, all)
	}
	t.Logf("Build kept the order on %d of %d programs", kept, all)
}

// TestVerifyChecksKeptOrder: the verifier rejects an order kept for
// PushAll that is not Live's while the graph stands.
func TestVerifyChecksKeptOrder(t *testing.T) {
	g := buildSrc(t, "int x = arg * 2; if (x > 10) return x - 1; return x + 1;")
	c := &g.walks
	if c.order == nil || c.orderAt != g.version() {
		t.Fatalf("Build kept no order")
	}
	if err := Verify(g); err != nil {
		t.Fatal(err)
	}
	order := slices.Clone(c.order)
	c.order[1], c.order[2] = c.order[2], c.order[1]
	err := Verify(g)
	if err == nil || !strings.Contains(err.Error(), "live-counts: the order the graph keeps for PushAll") {
		t.Fatalf("Verify with two nodes of the kept order swapped: %v, want a live-counts problem", err)
	}
	c.order = order[:len(order)-1]
	if err := Verify(g); err == nil || !strings.Contains(err.Error(), "live-counts") {
		t.Fatalf("Verify with Stop left out of the kept order: %v, want a live-counts problem", err)
	}
}
