package amd64

import mathbits "math/bits" // bits is the fuzz test's type

// rankSet numbers a set of non-negative integers densely, in increasing
// order: a bitset of the members, and for each word of it how many
// members come before. A number is a word's count plus a population count,
// with no hashing (selection numbers outssa's registers, named by node ID
// and about ten times sparser than they are many, with one).
type rankSet struct{ words []rankWord }

type rankWord struct {
	set  uint64
	base int32 // members below this word
}

// newRankSet is the empty set of integers up to max.
func newRankSet(max int) rankSet { return rankSet{words: make([]rankWord, max/64+1)} }

func (s rankSet) add(k int) { s.words[k>>6].set |= 1 << (k & 63) }

// seal counts the members before each word and returns how many there
// are; rank is valid after it, and add is no longer called.
func (s rankSet) seal() int {
	n := 0
	for i := range s.words {
		s.words[i].base = int32(n)
		n += mathbits.OnesCount64(s.words[i].set)
	}
	return n
}

// rank is the number of member k: how many members are below it.
func (s rankSet) rank(k int) int {
	w := &s.words[k>>6]
	return int(w.base) + mathbits.OnesCount64(w.set&(1<<(k&63)-1))
}
