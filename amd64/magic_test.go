package amd64

import (
	"math"
	mbits "math/bits"
	"math/rand"
	"testing"
)

// hi is the high half of the signed 128-bit product x*y.
func hi(x, y int64) int64 {
	h, _ := mbits.Mul64(uint64(x), uint64(y))
	r := int64(h)
	if x < 0 {
		r -= y
	}
	if y < 0 {
		r -= x
	}
	return r
}

// divByMagic computes a / c as the code divMagic selects does.
func divByMagic(a, c int64) int64 {
	m, sh := magic(c)
	q := hi(m, a)
	switch {
	case c > 0 && m < 0:
		q += a
	case c < 0 && m > 0:
		q -= a
	}
	q >>= sh
	return q + int64(uint64(q)>>63)
}

// TestMagic: the multiply-and-shift division equals Go's truncating
// division for divisors and dividends of every size and sign, the
// extremes included.
func TestMagic(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	divisors := []int64{3, 5, 6, 7, 9, 10, 11, 12, 25, 100, 641, 1000, 1000003, 1<<32 + 1, 1<<40 - 3,
		math.MaxInt64, math.MaxInt64 - 1, math.MinInt64 + 1, math.MinInt64 + 2}
	for range 200 {
		d := rng.Int63() >> rng.Intn(63)
		if d > 2 && d&(d-1) != 0 {
			divisors = append(divisors, d)
		}
	}
	for _, d := range append([]int64(nil), divisors...) {
		if d != math.MinInt64+1 && d != math.MinInt64+2 {
			divisors = append(divisors, -d)
		}
	}
	for _, d := range divisors {
		dividends := []int64{0, 1, -1, d, -d, d - 1, d + 1, -d + 1, -d - 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, math.MaxInt64 - 1}
		for range 300 {
			dividends = append(dividends, int64(rng.Uint64())>>rng.Intn(64))
		}
		for _, a := range dividends {
			if got, want := divByMagic(a, d), a/d; got != want {
				t.Fatalf("%d / %d: %d by the magic number, want %d", a, d, got, want)
			}
		}
	}
}
