package outssa

// numbering numbers keys that are small non-negative integers (block IDs,
// registers) from 0 in the order they are added: by an array indexed by
// key when the keys are dense enough, as a compiler's are, and by a map
// otherwise, so that one huge ID in a hand-written function does not make
// a huge array. It replaces a map for the common case: an array lookup
// costs a few nanoseconds, a map's tens.
type numbering struct {
	dense  []int32         // by key: 1 + its number, 0 if not numbered
	sparse map[int64]int32 // by key: its number
}

// newNumbering makes a numbering for n keys of which the largest is maxKey.
func newNumbering(n int, maxKey int64) *numbering {
	if maxKey >= 0 && maxKey <= 4*int64(n)+1024 {
		return &numbering{dense: make([]int32, maxKey+1)}
	}
	return &numbering{sparse: make(map[int64]int32, n)}
}

// set gives key k the number v (k must be in range for a dense numbering:
// at most the maxKey it was made for).
func (m *numbering) set(k int64, v int32) {
	if m.dense != nil && k >= 0 && k < int64(len(m.dense)) {
		m.dense[k] = v + 1
		return
	}
	if m.sparse == nil {
		m.sparse = map[int64]int32{}
	}
	m.sparse[k] = v
}

// get returns the number of k, or 0 if k has none (as a map would: the
// caller's input, verified, numbers every key it asks about).
func (m *numbering) get(k int64) int32 {
	if k >= 0 && k < int64(len(m.dense)) {
		if v := m.dense[k]; v > 0 {
			return v - 1
		}
		return 0
	}
	return m.sparse[k]
}
