package amd64

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPmap: random sets and deletes on persistent maps forked from one
// another agree with Go maps copied at each fork: get, each (in key
// order), min, and diff, which names exactly the keys two maps do not
// agree on, and leaves the older map as it was.
func TestPmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 14))
	type pair struct {
		p pmap[int]
		m map[int32]int
	}
	key := func() int32 {
		switch rng.IntN(4) {
		case 0:
			return int32(rng.IntN(40)) // one leaf
		case 1:
			return int32(rng.IntN(5000))
		case 2:
			return -1 - int32(rng.IntN(3)) // the top of the key space
		}
		return int32(rng.Uint32() >> 1)
	}
	check := func(x pair) {
		t.Helper()
		var keys []int32
		x.p.each(func(k int32, v int) {
			keys = append(keys, k)
			if w, ok := x.m[k]; !ok || w != v {
				t.Fatalf("each: %d = %d, the map has %d, %v", k, v, w, ok)
			}
		})
		if len(keys) != len(x.m) || !slices.IsSortedFunc(keys, func(a, b int32) int { return int(uint32(a)) - int(uint32(b)) }) {
			t.Fatalf("each gave %d keys in %v, the map has %d", len(keys), keys, len(x.m))
		}
		for k, v := range x.m {
			if w, ok := x.p.get(k); !ok || w != v {
				t.Fatalf("get(%d) = %d, %v; want %d", k, w, ok, v)
			}
		}
		if _, ok := x.p.get(123456789); ok != (x.m[123456789] != 0) {
			t.Fatalf("get of a key not set")
		}
		if k, ok := x.p.min(); ok != (len(keys) > 0) || ok && k != keys[0] {
			t.Fatalf("min = %d, %v; keys %v", k, ok, keys)
		}
	}
	all := []pair{{m: map[int32]int{}}}
	for range 3000 {
		i := rng.IntN(len(all))
		x := pair{all[i].p, map[int32]int{}}
		for k, v := range all[i].m {
			x.m[k] = v
		}
		for range rng.IntN(6) {
			k := key()
			if rng.IntN(3) == 0 {
				x.p = x.p.del(k)
				delete(x.m, k)
			} else {
				v := rng.IntN(4) + 1
				x.p = x.p.set(k, v)
				x.m[k] = v
			}
		}
		all = append(all, x)
		check(x)
		check(all[i])
		y := all[rng.IntN(len(all))]
		want := map[int32]bool{}
		for k, v := range x.m {
			if w, ok := y.m[k]; !ok || w != v {
				want[k] = true
			}
		}
		for k := range y.m {
			if _, ok := x.m[k]; !ok {
				want[k] = true
			}
		}
		got := map[int32]bool{}
		diff(x.p, y.p, func(k int32) {
			if got[k] {
				t.Fatalf("diff names %d twice", k)
			}
			got[k] = true
		})
		if len(got) != len(want) {
			t.Fatalf("diff named %v, want %v", got, want)
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("diff missed %d", k)
			}
		}
	}
}
