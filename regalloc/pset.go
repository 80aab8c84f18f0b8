package regalloc

// pset is a persistent set of small integers (the checker's valid stack
// slots): a tree of 16-way nodes over 64-bit leaves, never changed once
// made. with copies the path to the leaf it changes, so the sets of
// blocks that do not change them are one shared tree, and and skips the
// subtrees two sets share: its cost is the part where they differ.
type pset struct {
	root   *pnode
	height int // levels of inner nodes above the leaves
}

type pnode struct {
	kids [16]*pnode // of an inner node; nil is an empty subtree
	word uint64     // of a leaf
}

// newPset is the empty set of integers below n.
func newPset(n int) pset {
	h := 0
	for span := 64; span < n; span *= 16 {
		h++
	}
	return pset{height: h}
}

// index is the child of a node at level h (0: the leaves) that holds k.
func index(k, h int) int { return k >> (6 + 4*(h-1)) & 15 }

func (s pset) has(k int) bool {
	n := s.root
	for h := s.height; n != nil && h > 0; h-- {
		n = n.kids[index(k, h)]
	}
	return n != nil && n.word>>(k&63)&1 == 1
}

// with is s with k in it (in true) or not.
func (s pset) with(k int, in bool) pset {
	if s.has(k) == in {
		return s
	}
	s.root = with(s.root, k, s.height, in)
	return s
}

func with(n *pnode, k, h int, in bool) *pnode {
	m := &pnode{}
	if n != nil {
		*m = *n
	}
	if h == 0 {
		if in {
			m.word |= 1 << (k & 63)
		} else {
			m.word &^= 1 << (k & 63)
		}
		if m.word == 0 {
			return nil
		}
		return m
	}
	i := index(k, h)
	m.kids[i] = with(m.kids[i], k, h-1, in)
	for _, c := range m.kids {
		if c != nil {
			return m
		}
	}
	return nil
}

// and is the intersection of s and t (of one height); it is s itself,
// the same tree, when that holds nothing t does not.
func (s pset) and(t pset) pset {
	s.root = and(s.root, t.root, s.height)
	return s
}

func and(a, b *pnode, h int) *pnode {
	switch {
	case a == b || a == nil:
		return a
	case b == nil:
		return nil
	case h == 0:
		w := a.word & b.word
		if w == a.word {
			return a
		}
		if w == 0 {
			return nil
		}
		return &pnode{word: w}
	}
	var kids [16]*pnode
	same, empty := true, true
	for i := range kids {
		kids[i] = and(a.kids[i], b.kids[i], h-1)
		same = same && kids[i] == a.kids[i]
		empty = empty && kids[i] == nil
	}
	switch {
	case same:
		return a
	case empty:
		return nil
	}
	return &pnode{kids: kids}
}
