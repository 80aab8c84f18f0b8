package outssa

import (
	"slices"
	"testing"
)

// TestSortBlocks sorts lists in decreasing order (reversed), increasing
// order and neither.
func TestSortBlocks(t *testing.T) {
	for _, c := range []struct{ in, want []int32 }{
		{[]int32{9, 5, 2, 0}, []int32{0, 2, 5, 9}},
		{[]int32{1, 3, 4}, []int32{1, 3, 4}},
		{[]int32{7, 2, 9, 1}, []int32{1, 2, 7, 9}},
		{[]int32{4}, []int32{4}},
	} {
		l := append([]int32(nil), c.in...)
		sortBlocks(l)
		if !slices.Equal(l, c.want) {
			t.Errorf("sortBlocks(%v) = %v, want %v", c.in, l, c.want)
		}
	}
}
