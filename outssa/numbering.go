package outssa

import "math/bits"

// numbering numbers keys (block IDs, registers) from 0 in the order they
// are added: by an array indexed by key when the keys are dense enough, as
// block IDs are, and otherwise by a hash table with open addressing, as
// for registers, which gcm names by node ID (a 100,000-node program had
// 20,000 registers up to 550,000); a key beyond the array, which a
// caller should not add, goes to the table too rather than failing. Either
// replaces a Go map, whose lookup
// cost several times as much; the table takes 12 bytes a slot, at most
// twice as many slots as keys, where an array by key would take 110
// bytes a register there.
type numbering struct {
	dense []int32 // by key: 1 + its number, 0 if not numbered

	// The hash table: slot i holds keys[i] numbered vals[i]-1, or nothing
	// if vals[i] is 0; a key's slots are probed from its hash on.
	keys  []int64
	vals  []int32
	shift uint // 64 - log2(len(keys))
	count int
}

// newNumbering makes a numbering for about n keys of which the largest is
// maxKey.
func newNumbering(n int, maxKey int64) *numbering {
	if maxKey >= 0 && maxKey <= 4*int64(n)+1024 {
		return &numbering{dense: make([]int32, maxKey+1)}
	}
	m := &numbering{}
	m.grow(n)
	return m
}

// grow makes a table for n keys, with the keys already numbered.
func (m *numbering) grow(n int) {
	logSize := max(4, bits.Len(uint(n+n/3))) // at most three quarters full
	keys, vals := m.keys, m.vals
	m.keys, m.vals = make([]int64, 1<<logSize), make([]int32, 1<<logSize)
	m.shift, m.count = uint(64-logSize), 0
	for i, v := range vals {
		if v != 0 {
			m.set(keys[i], v-1)
		}
	}
}

// home is the first slot probed for k (Fibonacci hashing).
func (m *numbering) home(k int64) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> m.shift)
}

// set gives key k the number v. A key outside the array (one the caller
// did not announce) goes to the table.
func (m *numbering) set(k int64, v int32) {
	if k >= 0 && k < int64(len(m.dense)) {
		m.dense[k] = v + 1
		return
	}
	if 4*(m.count+1) > 3*len(m.keys) {
		m.grow(2 * len(m.keys))
	}
	mask := len(m.keys) - 1
	for i := m.home(k); ; i = (i + 1) & mask {
		if m.vals[i] == 0 {
			m.keys[i], m.vals[i] = k, v+1
			m.count++
			return
		}
		if m.keys[i] == k {
			m.vals[i] = v + 1
			return
		}
	}
}

// get returns the number of k, or 0 if k has none (as a map would: the
// caller's input, verified, numbers every key it asks about).
func (m *numbering) get(k int64) int32 {
	if k >= 0 && k < int64(len(m.dense)) {
		return max(m.dense[k]-1, 0)
	}
	if len(m.keys) == 0 {
		return 0
	}
	mask := len(m.keys) - 1
	for i := m.home(k); m.vals[i] != 0; i = (i + 1) & mask {
		if m.keys[i] == k {
			return m.vals[i] - 1
		}
	}
	return 0
}
