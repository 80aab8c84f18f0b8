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

// TestInOrder orders lists by the stamps when they span at most four
// times their length (a run of blocks, with a gap), by sorting when not,
// and keeps what the destination held.
func TestInOrder(t *testing.T) {
	for _, c := range []struct{ in, want []int32 }{
		{[]int32{6, 3, 5, 4}, []int32{3, 4, 5, 6}},       // by the stamps
		{[]int32{9, 2, 7}, []int32{2, 7, 9}},             // span 8 < 12: by the stamps, with gaps
		{[]int32{40, 1, 20}, []int32{1, 20, 40}},         // span 40 >= 12: sorted
		{[]int32{8}, []int32{8}},                         // one block
		{[]int32{30, 31, 0, 29}, []int32{0, 29, 30, 31}}, // span 32 >= 16: sorted
	} {
		stamps := make([]int32, 64)
		for b := range stamps {
			stamps[b] = 6 // stale: an earlier register's
		}
		for _, b := range c.in {
			stamps[b] = 7
		}
		dst := []int32{99}
		got := inOrder(dst, c.in, stamps, 7)
		if want := append([]int32{99}, c.want...); !slices.Equal(got, want) {
			t.Errorf("inOrder(%v) = %v, want %v", c.in, got, want)
		}
	}
}
