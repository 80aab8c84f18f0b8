package outssa

import (
	"slices"
	"testing"
)

// TestNumbering numbers keys in both forms, the table past the size it
// was made for (so that it grows), and reads every number back.
func TestNumbering(t *testing.T) {
	for _, c := range []struct {
		name   string
		n      int
		maxKey int64
		dense  bool
	}{
		{"dense", 100, 1000, true},
		{"table", 3, 1 << 40, false},
	} {
		m := newNumbering(c.n, c.maxKey)
		if (m.dense != nil) != c.dense {
			t.Fatalf("%s: dense is %v, want %v", c.name, m.dense != nil, c.dense)
		}
		var keys []int64
		for k := int64(0); k <= c.maxKey && len(keys) < 200; k += 1 + c.maxKey/150 {
			keys = append(keys, k)
		}
		for i, k := range keys {
			m.set(k, int32(i))
		}
		for i, k := range keys {
			if got := m.get(k); got != int32(i) {
				t.Errorf("%s: get(%d) = %d, want %d", c.name, k, got, i)
			}
		}
		if got := m.get(keys[1] - 1); got != 0 {
			t.Errorf("%s: get of a key never set = %d, want 0", c.name, got)
		}
		for i, k := range []int64{-5, c.maxKey + 1, 1 << 50} {
			m.set(k, int32(1000+i))
			if got := m.get(k); got != int32(1000+i) {
				t.Errorf("%s: get(%d) of a key out of range = %d, want %d", c.name, k, got, 1000+i)
			}
		}
		m.set(keys[5], 77)
		if got := m.get(keys[5]); got != 77 {
			t.Errorf("%s: get after setting again = %d, want 77", c.name, got)
		}
	}
}

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
