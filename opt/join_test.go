package opt

import (
	"math"
	"testing"

	"son/types"
)

// TestJoinAgrees: Annotate's join gives types.Join's value, word for word,
// on every pair of a set of types that holds each case it answers alone
// (Top, unreachable control, integers within and across each other,
// tuples of control) and the cases it leaves to Join.
func TestJoinAgrees(t *testing.T) {
	ts := []types.Type{
		types.Top, types.Bottom, types.Ctrl, types.XCtrl, types.Int,
		types.Const(0), types.Const(1), types.Const(-7), types.Const(math.MinInt64),
		types.Range(0, 1), types.Range(-3, 12), types.Range(2, 9), types.Range(0, math.MaxInt64),
		types.Range(math.MinInt64, -1), types.Bits(1, 0), types.Bits(0, 1), types.Bits(0xf0, 0),
		types.WithBits(types.Range(0, 100), 1, 0), types.WithBits(types.Range(-50, 50), 0, 4),
		types.Tuple(types.Ctrl, types.Ctrl), types.Tuple(types.XCtrl, types.Ctrl),
		types.Tuple(types.Ctrl, types.XCtrl), types.Tuple(types.XCtrl, types.XCtrl),
		types.Tuple(types.Ctrl), types.Tuple(types.Int, types.Ctrl),
	}
	short := 0
	for _, a := range ts {
		for _, b := range ts {
			want, got := types.Join(a, b), join(a, b)
			if !got.Same(&want) && !(got.IsTuple() && got.Equal(want)) {
				t.Errorf("join(%v, %v) = %v, types.Join %v", a, b, got, want)
			}
			if b.IsInt() && a.IsInt() && got.Same(&b) {
				short++
			}
		}
	}
	if short == 0 {
		t.Fatal("no integer pair took the short way: the test shows nothing")
	}
}
