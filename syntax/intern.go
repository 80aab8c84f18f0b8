package syntax

import "strings"

// interner gives each distinct word of a source an id, 1 up, and its
// string, without allocating per lookup. It is an open-addressing hash
// table of ids keyed by a hash the scanner computes while it reads the
// word, so that the word is read once more only to confirm a match; Go's
// map would hash it again and costs more per probe.
type interner struct {
	slots  []uint64 // hash<<32 | id, or 0 for an empty slot; the length is a power of 2
	hashes []uint32 // by id: the word's hash
	words  []string // by id: the word; words[0] is ""
	toks   []Token  // by id: the word's token (IDENT, a keyword or RESERVED)
	// text holds the bytes of every word, one after the other: a word's
	// string is a slice of text.String(), which a Builder never changes
	// once written, so words cost no allocation of their own.
	text strings.Builder
}

func (in *interner) init() {
	in.slots = make([]uint64, 256)
	in.hashes = append(in.hashes[:0], 0)
	in.words = append(in.words[:0], "")
	in.toks = append(in.toks[:0], ILLEGAL)
}

// hashStep adds byte c to hash h (FNV-1a); a word's hash starts at hashInit.
func hashStep(h uint32, c byte) uint32 { return (h ^ uint32(c)) * 16777619 }

const hashInit = 2166136261

// intern returns the id of word, whose hash is h, adding it if it is new.
// word may be a view of bytes that change later: a new word is copied.
func (in *interner) intern(word []byte, h uint32) int32 {
	mask := uint32(len(in.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := in.slots[i]
		if e == 0 {
			return in.add(i, h, word)
		}
		// The hash is in the slot, so that a probe reads no other memory
		// unless it matches.
		if id := int32(e); uint32(e>>32) == h && in.words[id] == string(word) {
			return id
		}
	}
}

// add stores a new word in the empty slot i and returns its id, growing
// the table when it is half full.
func (in *interner) add(i, h uint32, b []byte) int32 {
	in.text.Write(b)
	all := in.text.String()
	word := all[len(all)-len(b):]
	id := int32(len(in.words))
	in.slots[i] = uint64(h)<<32 | uint64(id)
	in.hashes = append(in.hashes, h)
	in.words = append(in.words, word)
	in.toks = append(in.toks, Lookup(word))
	if 2*len(in.words) > len(in.slots) {
		in.grow()
	}
	return id
}

// grow doubles the table and places every id again.
func (in *interner) grow() {
	in.slots = make([]uint64, 2*len(in.slots))
	mask := uint32(len(in.slots) - 1)
	for id := 1; id < len(in.words); id++ {
		h := in.hashes[id]
		i := h & mask
		for in.slots[i] != 0 {
			i = (i + 1) & mask
		}
		in.slots[i] = uint64(h)<<32 | uint64(id)
	}
}

// hashString is the hash of word, as the scanner computes it.
func hashString(word string) uint32 {
	h := uint32(hashInit)
	for i := 0; i < len(word); i++ {
		h = hashStep(h, word[i])
	}
	return h
}
