package numbering

import "testing"

// TestTable numbers keys in both forms, the table past the size it
// was made for (so that it grows), and reads every number back.
func TestTable(t *testing.T) {
	for _, c := range []struct {
		name   string
		n      int
		maxKey int64
		dense  bool
	}{
		{"dense", 100, 1000, true},
		{"table", 3, 1 << 40, false},
	} {
		m := New(c.n, c.maxKey)
		if m.Dense() != c.dense {
			t.Fatalf("%s: dense is %v, want %v", c.name, m.Dense(), c.dense)
		}
		var keys []int64
		for k := int64(0); k <= c.maxKey && len(keys) < 200; k += 1 + c.maxKey/150 {
			keys = append(keys, k)
		}
		for i, k := range keys {
			m.Set(k, int32(i))
		}
		for i, k := range keys {
			if got := m.Get(k); got != int32(i) {
				t.Errorf("%s: Get(%d) = %d, want %d", c.name, k, got, i)
			}
		}
		if got := m.Get(keys[1] - 1); got != 0 {
			t.Errorf("%s: Get of a key never set = %d, want 0", c.name, got)
		}
		for _, k := range []int64{keys[1] - 1, -7, 1 << 45} {
			if got := m.Lookup(k); got != -1 {
				t.Errorf("%s: Lookup(%d) of a key never set = %d, want -1", c.name, k, got)
			}
		}
		for i, k := range []int64{-5, c.maxKey + 1, 1 << 50} {
			m.Set(k, int32(1000+i))
			if got := m.Get(k); got != int32(1000+i) {
				t.Errorf("%s: Get(%d) of a key out of range = %d, want %d", c.name, k, got, 1000+i)
			}
		}
		m.Set(keys[5], 77)
		if got := m.Get(keys[5]); got != 77 {
			t.Errorf("%s: Get after setting again = %d, want 77", c.name, got)
		}
	}
}
