// Package numbering numbers sparse integer keys (block IDs, registers
// named by node ID) from 0 without a Go map, for the passes that keep
// per-key facts in slices: cfg.Verify, cfg.Run, gvn, outssa and amd64's
// instruction selection.
package numbering

import "math/bits"

// Table holds the number its caller gives each key (Set): by an array
// indexed by key when the keys are dense enough, as block IDs are, and
// otherwise by a hash table with open addressing, as for registers, which gcm names by
// node ID (a 100,000-node program had 20,000 registers up to 550,000); a
// key beyond the array, which a caller should not add, goes to the table
// too rather than failing. Either replaces a Go map, whose lookup cost
// several times as much; the table takes 12 bytes a slot, at most twice as
// many slots as keys, where an array by key would take 110 bytes a
// register there.
type Table struct {
	dense []int32 // by key: 1 + its number, 0 if not numbered

	// The hash table: slot i holds keys[i] numbered vals[i]-1, or nothing
	// if vals[i] is 0; a key's slots are probed from its hash on.
	keys  []int64
	vals  []int32
	shift uint // 64 - log2(len(keys))
	count int
}

// New makes a table for about n keys of which the largest is maxKey.
func New(n int, maxKey int64) *Table {
	if maxKey >= 0 && maxKey <= 4*int64(n)+1024 {
		return &Table{dense: make([]int32, maxKey+1)}
	}
	m := &Table{}
	m.grow(n)
	return m
}

// Dense reports whether the keys are numbered by an array indexed by key.
func (m *Table) Dense() bool { return m.dense != nil }

// grow makes a table for n keys, with the keys already numbered.
func (m *Table) grow(n int) {
	logSize := max(4, bits.Len(uint(n+n/3))) // at most three quarters full
	keys, vals := m.keys, m.vals
	m.keys, m.vals = make([]int64, 1<<logSize), make([]int32, 1<<logSize)
	m.shift, m.count = uint(64-logSize), 0
	for i, v := range vals {
		if v != 0 {
			m.Set(keys[i], v-1)
		}
	}
}

// home is the first slot probed for k (Fibonacci hashing).
func (m *Table) home(k int64) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> m.shift)
}

// Set gives key k the number v (v >= 0). A key outside the array (one the
// caller did not announce) goes to the table.
func (m *Table) Set(k int64, v int32) {
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

// Lookup returns the number of k, or -1 if k has none.
func (m *Table) Lookup(k int64) int32 {
	if k >= 0 && k < int64(len(m.dense)) {
		return m.dense[k] - 1
	}
	if len(m.keys) == 0 {
		return -1
	}
	mask := len(m.keys) - 1
	for i := m.home(k); m.vals[i] != 0; i = (i + 1) & mask {
		if m.keys[i] == k {
			return m.vals[i] - 1
		}
	}
	return -1
}

// Get returns the number of k, or 0 if k has none (as a map would: for
// callers whose input, verified, numbers every key they ask about).
func (m *Table) Get(k int64) int32 { return max(m.Lookup(k), 0) }
