package gcm

import (
	"testing"

	"son/internal/dom"
	"son/internal/gen"
)

// TestSearchesMatchWalks compares the O(log n) searches of the scheduler
// (lca and shallowest, by jump pointers) with the walks by parents of
// Click's paper, on every pair of blocks of generated programs where one
// dominates the other (shallowest) and on every pair (lca).
func TestSearchesMatchWalks(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		shape := []gen.Shape{gen.Mixed, gen.Loopy, gen.Branchy}[seed%3]
		g := optimized(t, gen.Program(gen.Config{Seed: seed, Size: 25, Shape: shape, KeepLive: true}))
		sk, err := buildSkeleton(g)
		if err != nil {
			t.Fatal(err)
		}
		s := &scheduler{g: g, sk: sk, n: len(sk.blocks)}
		s.tree = dom.NewTree(dom.LengauerTarjanFlat(sk.succIndex()))
		s.loop = sk.loopDepths()
		s.shallowSegments()
		for _, a := range sk.blocks {
			if !s.tree.Reachable(int(a.index)) {
				continue
			}
			for _, b := range sk.blocks {
				if !s.tree.Reachable(int(b.index)) {
					continue
				}
				if got, want := s.lca(a, b), s.walkLCA(a, b); got != want {
					t.Fatalf("seed %d: lca(b%d, b%d) = b%d, want b%d", seed, a.index, b.index, got.index, want.index)
				}
				if s.tree.Dominates(int(b.index), int(a.index)) {
					if got, want := s.shallowest(a, b), s.walkShallowest(a, b); got != want {
						t.Fatalf("seed %d: shallowest(b%d, b%d) = b%d, want b%d", seed, a.index, b.index, got.index, want.index)
					}
				}
			}
		}
	}
}

// walkLCA is Click's lca: climb the deeper of the two until they meet.
func (s *scheduler) walkLCA(a, b *block) *block {
	for a != b {
		da, db := s.tree.Depth(int(a.index)), s.tree.Depth(int(b.index))
		if da >= db {
			a = s.sk.blocks[s.tree.Idom(int(a.index))]
		}
		if db >= da && a != b {
			b = s.sk.blocks[s.tree.Idom(int(b.index))]
		}
	}
	return a
}

// walkShallowest is Click's placement: up from late to early, keep the
// block of least loop depth, the first (deepest) among equals.
func (s *scheduler) walkShallowest(late, early *block) *block {
	best := late
	for b := late; ; b = s.sk.blocks[s.tree.Idom(int(b.index))] {
		if s.loop[b.index] < s.loop[best.index] {
			best = b
		}
		if b == early || b.index == 0 {
			return best
		}
	}
}
