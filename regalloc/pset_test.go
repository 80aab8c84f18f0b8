package regalloc

import (
	"math/rand"
	"testing"
)

// TestPset: random adds, removes and intersections of persistent sets
// agree with maps, the sets they were made from are unchanged, and an
// intersection that removes nothing is the same tree.
func TestPset(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 64, 65, 1000, 5000} {
		sets := []pset{newPset(n)}
		models := []map[int]bool{{}}
		for range 2000 {
			i := r.Intn(len(sets))
			s, m := sets[i], models[i]
			nm := map[int]bool{}
			var ns pset
			switch r.Intn(3) {
			case 0, 1:
				k, in := r.Intn(n), r.Intn(3) > 0
				ns = s.with(k, in)
				for x := range m {
					nm[x] = true
				}
				if in {
					nm[k] = true
				} else {
					delete(nm, k)
				}
			default:
				j := r.Intn(len(sets))
				ns = s.and(sets[j])
				for x := range m {
					if models[j][x] {
						nm[x] = true
					}
				}
				if len(nm) == len(m) && ns.root != s.root {
					t.Fatalf("n=%d: an intersection that removes nothing made a new tree", n)
				}
			}
			sets, models = append(sets, ns), append(models, nm)
		}
		for i, s := range sets {
			for k := range n {
				if s.has(k) != models[i][k] {
					t.Fatalf("n=%d, set %d: has(%d) = %v, want %v", n, i, k, s.has(k), models[i][k])
				}
			}
		}
	}
}
