package amd64

import (
	"math/rand"
	"slices"
	"testing"
)

// TestRankSet: the number of each member is its index among the members
// sorted, at word boundaries and at the ends too.
func TestRankSet(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, max := range []int{0, 1, 63, 64, 65, 127, 128, 1000, 75558} {
		members := map[int]bool{0: true, max: true}
		for _, k := range []int{63, 64, 127, 128} {
			if k <= max {
				members[k] = true
			}
		}
		for range max / 8 {
			members[rng.Intn(max+1)] = true
		}
		var sorted []int
		s := newRankSet(max)
		for k := range members {
			sorted = append(sorted, k)
			s.add(k)
			s.add(k) // twice: still one member
		}
		slices.Sort(sorted)
		if n := s.seal(); n != len(sorted) {
			t.Fatalf("max %d: %d members counted, want %d", max, n, len(sorted))
		}
		for i, k := range sorted {
			if got := s.rank(k); got != i {
				t.Fatalf("max %d: rank(%d) = %d, want %d", max, k, got, i)
			}
		}
	}
}
