package opt

import (
	"math"
	"testing"

	"son/types"
)

// shortcutTypes holds a type of every kind, integers that differ only in
// their known bits, and tuples of control and of data, of two lengths.
var shortcutTypes = []types.Type{
	types.Top, types.Bottom, types.Ctrl, types.XCtrl, types.Int, types.Bool,
	types.Const(0), types.Const(1), types.Const(math.MinInt64),
	types.Range(0, 100), types.WithBits(types.Range(0, 100), 1, 0), types.WithBits(types.Range(0, 100), 0, 4),
	types.Bits(0xf0, 0), types.Bits(0, 1),
	types.Tuple(types.Ctrl, types.Ctrl), types.Tuple(types.XCtrl, types.Ctrl),
	types.Tuple(types.Ctrl, types.XCtrl), types.Tuple(types.XCtrl, types.XCtrl),
	types.Tuple(types.Ctrl), types.Tuple(types.Ctrl, types.Int), types.Tuple(types.Ctrl, types.Const(3)),
	types.Tuple(types.Ctrl, types.Top), types.Tuple(types.XCtrl, types.Bottom),
}

// TestEqualKindsAgrees: the solver's Same || equalKinds is Equal on every
// pair, the tuples made anew (other descriptors, equal elements) included.
func TestEqualKindsAgrees(t *testing.T) {
	for _, a := range shortcutTypes {
		for _, b := range shortcutTypes {
			if a.IsTuple() {
				a = types.Tuple(elems(a)...) // a descriptor of its own
			}
			got, want := a.Same(&b) || equalKinds(&a, &b), a.Equal(b)
			if got != want {
				t.Errorf("Same || equalKinds(%v, %v) = %v, Equal %v", a, b, got, want)
			}
		}
	}
}

// TestMeetTupleAgrees: meetTuple gives types.Meet's value on every pair
// whose first type is a tuple, those it answers alone and those it
// leaves to Meet.
func TestMeetTupleAgrees(t *testing.T) {
	short := 0
	for _, a := range shortcutTypes {
		if !a.IsTuple() {
			continue
		}
		for _, b := range shortcutTypes {
			got, want := meetTuple(&a, &b), types.Meet(a, b)
			if !got.Equal(want) {
				t.Errorf("meetTuple(%v, %v) = %v, types.Meet %v", a, b, got, want)
			}
			if b.IsTuple() && a.Len() == b.Len() && want.Equal(b) {
				short++ // b at or below a: the case meetTuple answers alone
			}
		}
	}
	if short == 0 {
		t.Fatal("no tuple at or below another: the set misses meetTuple's own case")
	}
}

func elems(t types.Type) []types.Type {
	es := make([]types.Type, t.Len())
	for i := range es {
		es[i] = t.Elem(i)
	}
	return es
}
