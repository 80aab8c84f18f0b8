package types

import (
	"fmt"
	"math"
	"math/bits"
)

// Known bits: beside its range, an integer type records the bits that are
// 0 in every value (zeros) and 1 in every value (ones), the second
// component of the integer lattice (as in LLVM's KnownBits). Meet keeps
// the bits both sides know alike, Join the bits either side knows. The two
// components are kept reduced (reduce): the bits the range implies are
// known, and the range is narrowed to what the known bits allow, so that
// one set of values has one representation wherever it can be told
// cheaply. Masks, shifts and comparisons of bool values fold through them:
// (arg<3) & 18 is 0, since a bool has no bit 1 or 4.

// Zeros is the mask of the bits known to be 0 in every value of t.
func (t Type) Zeros() uint64 { return t.zeros }

// Ones is the mask of the bits known to be 1 in every value of t.
func (t Type) Ones() uint64 { return t.ones }

// Known is the mask of the bits of t known either way.
func (t Type) Known() uint64 { return t.zeros | t.ones }

// Bits is the integer type of the values with the bits zeros at 0 and ones
// at 1 (Top when the two overlap).
func Bits(zeros, ones uint64) Type {
	return reduce(math.MinInt64, math.MaxInt64, zeros, ones)
}

// WithBits is t with the known bits zeros and ones added: the values of t
// that have them (Top if none has).
func WithBits(t Type, zeros, ones uint64) Type {
	if t.Kind() != KInt {
		return t
	}
	return reduce(t.lo, t.hi, t.zeros|zeros, t.ones|ones)
}

// rangeBits is the bits every integer of [lo, hi] has alike: the common
// prefix of lo and hi. Within one sign the order of int64 is that of
// uint64; across 0 the sign bits differ and nothing is common.
func rangeBits(lo, hi int64) (zeros, ones uint64) {
	diff := uint64(lo) ^ uint64(hi)
	if diff == 0 {
		return ^uint64(lo), uint64(lo)
	}
	prefix := ^(uint64(math.MaxUint64) >> bits.LeadingZeros64(diff))
	return ^uint64(lo) & prefix, uint64(lo) & prefix
}

// bitsBounds is the least and the greatest int64 with the known bits.
func bitsBounds(zeros, ones uint64) (lo, hi int64) {
	const sign = 1 << 63
	free := ^(zeros | ones)
	// The least: the sign bit 1 if it may be, every other free bit 0.
	lo = int64(ones | free&sign)
	// The greatest: the sign bit 0 if it may be, every other free bit 1.
	hi = int64(ones | free&^sign)
	return lo, hi
}

// reduce makes the integer type of [lo, hi] with the known bits zeros and
// ones, each component narrowed by the other until neither changes (at
// most once per bit), or Top when no value is left.
func reduce(lo, hi int64, zeros, ones uint64) Type {
	if zeros|ones == 0 && lo < 0 && hi >= 0 && lo <= hi {
		return of(KInt, lo, hi) // across 0, no bit known: nothing to narrow
	}
	for {
		if lo > hi || zeros&ones != 0 {
			return Top
		}
		z, o := rangeBits(lo, hi)
		if z&ones != 0 || o&zeros != 0 {
			return Top
		}
		z, o = z|zeros, o|ones
		blo, bhi := bitsBounds(z, o)
		nlo, nhi := max(lo, blo), min(hi, bhi)
		if nlo == lo && nhi == hi && z == zeros && o == ones {
			return Type{d: &kinds[KInt], lo: lo, hi: hi, zeros: zeros, ones: ones}
		}
		lo, hi, zeros, ones = nlo, nhi, z, o
	}
}

// bitsString shows the known bits that the range does not imply, after
// the range: "int{0:0x7}" is a multiple of 8, "{1:0x1}" an odd number.
func (t Type) bitsString() string {
	z, o := rangeBits(t.lo, t.hi)
	z, o = t.zeros&^z, t.ones&^o
	switch {
	case z == 0 && o == 0:
		return ""
	case o == 0:
		return fmt.Sprintf("{0:%#x}", z)
	case z == 0:
		return fmt.Sprintf("{1:%#x}", o)
	}
	return fmt.Sprintf("{0:%#x 1:%#x}", z, o)
}
