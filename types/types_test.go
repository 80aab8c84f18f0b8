package types

import (
	"fmt"
	"math"
	"testing"
)

// samples is the table the lattice laws are checked over: every kind, the
// integer corners, ranges that overlap, nest, touch and are disjoint, and
// tuples of equal and unequal lengths.
var samples = []Type{
	Top, Bottom, Ctrl, XCtrl, Int, Bool,
	Const(0), Const(1), Const(-1), Const(42), Const(math.MinInt64), Const(math.MaxInt64),
	Range(0, 9), Range(3, 5), Range(-10, -1), Range(-5, 5), Range(10, 20), Range(9, 10),
	Range(math.MinInt64, 0), Range(0, math.MaxInt64), Range(math.MinInt64, -1), Range(1, math.MaxInt64),
	Range(math.MinInt64+1, math.MaxInt64-1),
	Bits(0x7, 0), Bits(0, 1), Bits(1, 0), Bits(0, 0x10), WithBits(Range(0, 100), 1, 0), WithBits(Range(-20, 20), 0x3, 0),
	Meet(Const(1), Const(5)), Meet(Const(-8), Const(8)),
	Tuple(Ctrl, Int), Tuple(XCtrl, Int), Tuple(Ctrl, Const(3)), Tuple(XCtrl, XCtrl),
	Tuple(Ctrl, Ctrl), Tuple(Ctrl, XCtrl), Tuple(XCtrl, Ctrl), Tuple(Top, Top), Tuple(Bottom, Bottom),
	Tuple(Ctrl), Tuple(Ctrl, Int, Bool), Tuple(),
}

func eq(t *testing.T, what string, got, want Type) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestMeetLaws(t *testing.T) {
	for _, a := range samples {
		eq(t, fmt.Sprintf("Meet(%v,%v)", a, a), Meet(a, a), a)
		eq(t, fmt.Sprintf("Meet(Top,%v)", a), Meet(Top, a), a)
		eq(t, fmt.Sprintf("Meet(%v,Top)", a), Meet(a, Top), a)
		eq(t, fmt.Sprintf("Meet(Bot,%v)", a), Meet(Bottom, a), Bottom)
		eq(t, fmt.Sprintf("Meet(%v,Bot)", a), Meet(a, Bottom), Bottom)
		for _, b := range samples {
			ab := Meet(a, b)
			eq(t, fmt.Sprintf("Meet(%v,%v) vs Meet(%v,%v)", a, b, b, a), ab, Meet(b, a))
			if !a.IsA(ab) || !b.IsA(ab) {
				t.Errorf("Meet(%v,%v) = %v is not below both", a, b, ab)
			}
			for _, c := range samples {
				eq(t, fmt.Sprintf("Meet(Meet(%v,%v),%v)", a, b, c), Meet(ab, c), Meet(a, Meet(b, c)))
			}
		}
	}
}

func TestJoinLaws(t *testing.T) {
	for _, a := range samples {
		eq(t, fmt.Sprintf("Join(%v,%v)", a, a), Join(a, a), a)
		eq(t, fmt.Sprintf("Join(Bot,%v)", a), Join(Bottom, a), a)
		eq(t, fmt.Sprintf("Join(%v,Bot)", a), Join(a, Bottom), a)
		eq(t, fmt.Sprintf("Join(Top,%v)", a), Join(Top, a), Top)
		eq(t, fmt.Sprintf("Join(%v,Top)", a), Join(a, Top), Top)
		for _, b := range samples {
			ab := Join(a, b)
			eq(t, fmt.Sprintf("Join(%v,%v) vs Join(%v,%v)", a, b, b, a), ab, Join(b, a))
			if !ab.IsA(a) || !ab.IsA(b) {
				t.Errorf("Join(%v,%v) = %v is not above both", a, b, ab)
			}
			// Absorption: Meet and Join make one lattice.
			eq(t, fmt.Sprintf("Meet(%v,Join(%v,%v))", a, a, b), Meet(a, ab), a)
			eq(t, fmt.Sprintf("Join(%v,Meet(%v,%v))", a, a, b), Join(a, Meet(a, b)), a)
			for _, c := range samples {
				eq(t, fmt.Sprintf("Join(Join(%v,%v),%v)", a, b, c), Join(ab, c), Join(a, Join(b, c)))
			}
		}
	}
}

func TestIsAPartialOrder(t *testing.T) {
	for _, a := range samples {
		if !a.IsA(a) {
			t.Errorf("%v.IsA(%v) = false", a, a)
		}
		if !a.IsA(Bottom) {
			t.Errorf("%v.IsA(Bot) = false", a)
		}
		if !Top.IsA(a) {
			t.Errorf("Top.IsA(%v) = false", a)
		}
		for _, b := range samples {
			isA := a.IsA(b)
			if want := Meet(a, b).Equal(b); isA != want {
				t.Errorf("%v.IsA(%v) = %v, but Meet = %v", a, b, isA, Meet(a, b))
			}
			if want := Join(a, b).Equal(a); isA != want {
				t.Errorf("%v.IsA(%v) = %v, but Join = %v", a, b, isA, Join(a, b))
			}
			if isA && b.IsA(a) && !a.Equal(b) {
				t.Errorf("%v and %v are each IsA the other but differ", a, b)
			}
			for _, c := range samples {
				if isA && b.IsA(c) && !a.IsA(c) {
					t.Errorf("%v IsA %v IsA %v, but not %v IsA %v", a, b, c, a, c)
				}
			}
		}
	}
}

// TestOrder spells out a few facts of the order that the laws alone do not
// pin down.
func TestOrder(t *testing.T) {
	tests := []struct {
		a, b Type
		want bool // a.IsA(b)
	}{
		{Const(3), Range(0, 9), true},
		{Range(0, 9), Const(3), false},
		{Range(0, 9), Int, true},
		{Bool, Range(0, 9), true},
		{Const(math.MinInt64), Int, true},
		{Const(math.MaxInt64), Range(0, math.MaxInt64), true},
		{Const(math.MinInt64), Range(math.MinInt64+1, math.MaxInt64), false},
		{XCtrl, Ctrl, true},
		{Ctrl, XCtrl, false},
		{Ctrl, Int, false},
		{Int, Ctrl, false},
		{Tuple(XCtrl, Const(1)), Tuple(Ctrl, Int), true},
		{Tuple(Ctrl, Int), Tuple(XCtrl, Const(1)), false},
		{Tuple(Ctrl), Tuple(Ctrl, Int), false},
		{Tuple(Ctrl, Int), Ctrl, false},
	}
	for _, tt := range tests {
		if got := tt.a.IsA(tt.b); got != tt.want {
			t.Errorf("%v.IsA(%v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	meets := []struct{ a, b, want Type }{
		{Const(1), Const(5), WithBits(Range(1, 5), 0x2, 0x1)}, // {1, 5}: bit 0 is 1, bit 1 is 0
		{Const(1), Const(3), WithBits(Range(1, 3), 0, 0x1)},
		{Range(-3, 0), Range(7, 9), Range(-3, 9)},
		{Const(math.MinInt64), Const(math.MaxInt64), Int},
		{Const(0), Const(1), Bool},
		{Ctrl, XCtrl, Ctrl},
		{XCtrl, XCtrl, XCtrl},
		{Ctrl, Const(1), Bottom},
		{Tuple(Ctrl, XCtrl), Tuple(XCtrl, Const(2)), Tuple(Ctrl, Bottom)},
		{Tuple(Ctrl), Tuple(Ctrl, Int), Bottom},
	}
	for _, tt := range meets {
		eq(t, fmt.Sprintf("Meet(%v,%v)", tt.a, tt.b), Meet(tt.a, tt.b), tt.want)
	}
	joins := []struct{ a, b, want Type }{
		{Range(0, 9), Range(5, 20), Range(5, 9)},
		{Range(0, 9), Range(9, 20), Const(9)},
		{Range(0, 9), Range(10, 20), Top},
		{Int, Bool, Bool},
		{Ctrl, XCtrl, XCtrl},
		{Ctrl, Ctrl, Ctrl},
		{Ctrl, Const(1), Top},
		{Tuple(Ctrl, Int), Tuple(XCtrl, Bool), Tuple(XCtrl, Bool)},
		{Tuple(Ctrl), Tuple(Ctrl, Int), Top},
	}
	for _, tt := range joins {
		eq(t, fmt.Sprintf("Join(%v,%v)", tt.a, tt.b), Join(tt.a, tt.b), tt.want)
	}
}

func TestRange(t *testing.T) {
	tests := []struct {
		lo, hi int64
		want   Type
	}{
		{1, 0, Top},
		{math.MaxInt64, math.MinInt64, Top},
		{5, -5, Top},
		{0, 0, Const(0)},
		{0, 1, Bool},
		{math.MinInt64, math.MaxInt64, Int},
	}
	for _, tt := range tests {
		eq(t, fmt.Sprintf("Range(%d,%d)", tt.lo, tt.hi), Range(tt.lo, tt.hi), tt.want)
	}
	r := Range(-3, 7)
	if !r.IsInt() || r.IsConst() || r.Lo() != -3 || r.Hi() != 7 {
		t.Errorf("Range(-3,7): IsInt %v IsConst %v Lo %d Hi %d", r.IsInt(), r.IsConst(), r.Lo(), r.Hi())
	}
	if c := Const(math.MinInt64); !c.IsConst() || c.Value() != math.MinInt64 {
		t.Errorf("Const(MinInt64) = %v", c)
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		t    Type
		want string
	}{
		{Top, "Top"},
		{Bottom, "Bot"},
		{Ctrl, "Ctrl"},
		{XCtrl, "XCtrl"},
		{Int, "int"},
		{Bool, "bool"},
		{Const(42), "42"},
		{Const(-7), "-7"},
		{Const(0), "0"},
		{Const(1), "1"},
		{Const(math.MinInt64), "-9223372036854775808"},
		{Const(math.MaxInt64), "9223372036854775807"},
		{Range(0, 9), "[0..9]"},
		{Range(-5, -1), "[-5..-1]"},
		{Range(math.MinInt64, 0), "[-9223372036854775808..0]"},
		{Range(0, math.MaxInt64), "[0..9223372036854775807]"},
		{Tuple(Ctrl, Int), "[Ctrl, int]"},
		{Tuple(XCtrl, Ctrl), "[XCtrl, Ctrl]"},
		{Tuple(Ctrl, Range(1, 2), Bool), "[Ctrl, [1..2], bool]"},
		{Bits(0x7, 0), "int{0:0x7}"},
		{WithBits(Range(1, 5), 0x2, 0x1), "[1..5]{0:0x2 1:0x1}"},
		{WithBits(Range(0, 9), 0, 0x1), "[1..9]{1:0x1}"},
		{Range(0, 7), "[0..7]"}, // the bits above 7 are 0, as the range says: not shown
		{Tuple(), "[]"},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("String = %q, want %q", got, tt.want)
		}
	}
}

func TestContains(t *testing.T) {
	tests := []struct {
		t            Type
		v            int64
		contains     bool
		excludesZero bool
	}{
		{Int, 0, true, false},
		{Int, math.MinInt64, true, false},
		{Bool, 1, true, false},
		{Bool, 2, false, false},
		{Const(5), 5, true, true},
		{Const(5), 4, false, true},
		{Const(0), 0, true, false},
		{Range(1, 9), 0, false, true},
		{Range(1, 9), 9, true, true},
		{Range(1, 9), 10, false, true},
		{Range(-9, -1), -1, true, true},
		{Range(-9, -1), 0, false, true},
		{Range(-1, 1), 0, true, false},
		{Range(math.MinInt64, -1), math.MinInt64, true, true},
		{Range(1, math.MaxInt64), math.MaxInt64, true, true},
		{Bottom, 7, true, false},
		{Top, 0, false, false},
		{Ctrl, 0, false, false},
		{XCtrl, 0, false, false},
		{Tuple(Ctrl, Int), 0, false, false},
		{Bits(0x7, 0), 16, true, false},
		{Bits(0x7, 0), 12, false, false},
		{Bits(0, 1), 3, true, true},
		{Bits(0, 1), -2, false, true},
		{WithBits(Range(1, 5), 0x2, 0x1), 3, false, true},
	}
	for _, tt := range tests {
		if got := tt.t.Contains(tt.v); got != tt.contains {
			t.Errorf("%v.Contains(%d) = %v, want %v", tt.t, tt.v, got, tt.contains)
		}
		if got := tt.t.ExcludesZero(); got != tt.excludesZero {
			t.Errorf("%v.ExcludesZero() = %v, want %v", tt.t, got, tt.excludesZero)
		}
	}
}

// TestMeetContains: the meet of two integer types holds every value of
// each, the join only values of both.
func TestMeetContains(t *testing.T) {
	vals := []int64{math.MinInt64, math.MinInt64 + 1, -10, -5, -1, 0, 1, 3, 5, 9, 10, 20, 42, math.MaxInt64 - 1, math.MaxInt64}
	for _, a := range samples {
		for _, b := range samples {
			m, j := Meet(a, b), Join(a, b)
			for _, v := range vals {
				if (a.Contains(v) || b.Contains(v)) && !m.Contains(v) {
					t.Errorf("Meet(%v,%v) = %v lacks %d", a, b, m, v)
				}
				if j.Contains(v) && !(a.Contains(v) && b.Contains(v)) {
					t.Errorf("Join(%v,%v) = %v holds %d", a, b, j, v)
				}
			}
		}
	}
}

func TestKinds(t *testing.T) {
	tests := []struct {
		t    Type
		kind Kind
		len  int
	}{
		{Top, KTop, 0}, {Bottom, KBottom, 0}, {Ctrl, KCtrl, 0}, {XCtrl, KXCtrl, 0},
		{Int, KInt, 0}, {Const(3), KInt, 0}, {Tuple(Ctrl, Int), KTuple, 2}, {Tuple(), KTuple, 0},
	}
	for _, tt := range tests {
		if tt.t.Kind() != tt.kind || tt.t.Len() != tt.len {
			t.Errorf("%v: Kind %v Len %d, want %v %d", tt.t, tt.t.Kind(), tt.t.Len(), tt.kind, tt.len)
		}
	}
	tup := Tuple(Ctrl, Const(7))
	if !tup.Elem(0).Equal(Ctrl) || !tup.Elem(1).Equal(Const(7)) {
		t.Errorf("Tuple(Ctrl, 7) elements: %v %v", tup.Elem(0), tup.Elem(1))
	}
	// Tuple copies its arguments.
	elems := []Type{Ctrl, Int}
	tup = Tuple(elems...)
	elems[0] = XCtrl
	if !tup.Elem(0).Equal(Ctrl) {
		t.Errorf("Tuple aliases its argument slice: %v", tup)
	}
}

// TestSubsetShortcuts: Meet and Join of two integer types give, word for
// word, what reduce makes of their components, whether or not one is
// within the other (the shortcut that returns it): every integer type is
// reduced, so reduce makes it again.
func TestSubsetShortcuts(t *testing.T) {
	ints := []Type{}
	for _, a := range samples {
		if a.IsInt() {
			ints = append(ints, a)
		}
	}
	for _, a := range ints {
		if r := reduce(a.lo, a.hi, a.zeros, a.ones); !r.Same(&a) {
			t.Errorf("%v is not reduced: reduce makes %v", a, r)
		}
		for _, b := range ints {
			meet := reduce(min(a.lo, b.lo), max(a.hi, b.hi), a.zeros&b.zeros, a.ones&b.ones)
			if got := Meet(a, b); !got.Same(&meet) {
				t.Errorf("Meet(%v,%v) = %v, reduce makes %v", a, b, got, meet)
			}
			join := Top
			if a.lo <= b.hi && b.lo <= a.hi {
				join = reduce(max(a.lo, b.lo), min(a.hi, b.hi), a.zeros|b.zeros, a.ones|b.ones)
			}
			if got := Join(a, b); !got.Same(&join) {
				t.Errorf("Join(%v,%v) = %v, reduce makes %v", a, b, got, join)
			}
		}
	}
}
