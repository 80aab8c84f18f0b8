package amd64

import mbits "math/bits"

// pmap is a persistent map from int32 keys to values, for the selection
// checker's paths: set and del return a new map that shares all but the
// nodes on the way to the key with the old one, so a path's copy costs
// nothing (a struct copy) and the maps of paths forked from one differ
// only in the nodes set since, which diff visits and no others. A radix
// trie of 32-way nodes over the key's bits, each node keeping only the
// children it has (a bitmap); its shape depends only on its keys and the
// largest key it ever held (del does not lower the root; diff lifts it). Get,
// set and del cost the trie's height, at most 7 levels.
type pmap[V comparable] struct {
	root  *pnode[V]
	shift uint8 // the root's level: its children are indexed by key>>shift & 31
}

// pnode is a node of a pmap: an inner node's kids or a leaf's vals (shift
// 0), one for each bit set in bits, in the order of the bits.
type pnode[V comparable] struct {
	bits uint32
	kids []*pnode[V]
	vals []V
}

// fits reports whether key k has a place under a root at shift s.
func fits(k uint32, s uint8) bool { return s+5 >= 32 || k>>(s+5) == 0 }

func (n *pnode[V]) slot(i uint32) (int, bool) {
	bit := uint32(1) << i
	return mbits.OnesCount32(n.bits & (bit - 1)), n.bits&bit != 0
}

// get is the value of key k.
func (m pmap[V]) get(key int32) (V, bool) {
	var zero V
	k := uint32(key)
	if m.root == nil || !fits(k, m.shift) {
		return zero, false
	}
	n, s := m.root, m.shift
	for {
		j, ok := n.slot(k >> s & 31)
		if !ok {
			return zero, false
		}
		if s == 0 {
			return n.vals[j], true
		}
		n, s = n.kids[j], s-5
	}
}

// set is m with key k holding v.
func (m pmap[V]) set(key int32, v V) pmap[V] {
	k := uint32(key)
	if m.root == nil {
		m.shift = 0
		for !fits(k, m.shift) {
			m.shift += 5
		}
	}
	for !fits(k, m.shift) {
		m.root = &pnode[V]{bits: 1, kids: []*pnode[V]{m.root}}
		m.shift += 5
	}
	m.root = m.root.set(k, m.shift, v)
	return m
}

func (n *pnode[V]) set(k uint32, s uint8, v V) *pnode[V] {
	i := k >> s & 31
	var q pnode[V]
	if n != nil {
		q = *n
	}
	j, ok := q.slot(i)
	size := len(q.vals) + len(q.kids) + 1
	if ok {
		size--
	}
	if s == 0 {
		if ok && q.vals[j] == v {
			return n
		}
		r := newNode(size, valsOf[V])
		r.bits = q.bits | 1<<i
		r.vals = splice(r.vals, q.vals, j, v, ok)
		return r
	}
	var kid *pnode[V]
	if ok {
		kid = q.kids[j]
	}
	nk := kid.set(k, s-5, v)
	if nk == kid {
		return n
	}
	r := newNode(size, kidsOf[V])
	r.bits = q.bits | 1<<i
	r.kids = splice(r.kids, q.kids, j, nk, ok)
	return r
}

// splice is dst with src appended, v put in at j: in place of src[j]
// when replace, before it when not.
func splice[T any](dst, src []T, j int, v T, replace bool) []T {
	dst = append(append(dst, src[:j]...), v)
	if replace {
		j++
	}
	return append(dst, src[j:]...)
}

// cut is dst with src appended but for src[j].
func cut[T any](dst, src []T, j int) []T {
	return append(append(dst, src[:j]...), src[j+1:]...)
}

func kidsOf[V comparable](n *pnode[V]) *[]*pnode[V] { return &n.kids }
func valsOf[V comparable](n *pnode[V]) *[]V         { return &n.vals }

// newNode is a node with room for n kids or values (field picks which),
// made in one allocation with them for the small sizes most nodes have
// (a path's fork and merge set a few keys each, and each set makes a node
// a level).
func newNode[V comparable, T any](n int, field func(*pnode[V]) *[]T) *pnode[V] {
	switch {
	case n <= 1:
		x := &struct {
			n pnode[V]
			a [1]T
		}{}
		*field(&x.n) = x.a[:0]
		return &x.n
	case n <= 2:
		x := &struct {
			n pnode[V]
			a [2]T
		}{}
		*field(&x.n) = x.a[:0]
		return &x.n
	case n <= 4:
		x := &struct {
			n pnode[V]
			a [4]T
		}{}
		*field(&x.n) = x.a[:0]
		return &x.n
	}
	r := &pnode[V]{}
	*field(r) = make([]T, 0, n)
	return r
}

// del is m without key k.
func (m pmap[V]) del(key int32) pmap[V] {
	k := uint32(key)
	if m.root == nil || !fits(k, m.shift) {
		return m
	}
	m.root = m.root.del(k, m.shift)
	return m
}

func (n *pnode[V]) del(k uint32, s uint8) *pnode[V] {
	i := k >> s & 31
	j, ok := n.slot(i)
	if !ok {
		return n
	}
	bits := n.bits &^ (1 << i)
	var q *pnode[V]
	if s == 0 {
		if bits == 0 {
			return nil
		}
		q = newNode(len(n.vals)-1, valsOf[V])
		q.vals = cut(q.vals, n.vals, j)
	} else {
		nk := n.kids[j].del(k, s-5)
		switch {
		case nk == n.kids[j]:
			return n
		case nk != nil:
			bits = n.bits
			q = newNode(len(n.kids), kidsOf[V])
			q.kids = splice(q.kids, n.kids, j, nk, true)
		case bits == 0:
			return nil
		default:
			q = newNode(len(n.kids)-1, kidsOf[V])
			q.kids = cut(q.kids, n.kids, j)
		}
	}
	q.bits = bits
	return q
}

// each calls fn with every key and its value, in increasing order of
// the key as a uint32.
func (m pmap[V]) each(fn func(k int32, v V)) {
	m.root.each(m.shift, 0, fn)
}

func (n *pnode[V]) each(s uint8, prefix uint32, fn func(k int32, v V)) {
	if n == nil {
		return
	}
	j := 0
	for b := n.bits; b != 0; b &= b - 1 {
		k := prefix | uint32(mbits.TrailingZeros32(b))<<s
		if s == 0 {
			fn(int32(k), n.vals[j])
		} else {
			n.kids[j].each(s-5, k, fn)
		}
		j++
	}
}

// lift is m's root seen at shift s (at least m's own).
func (m pmap[V]) lift(s uint8) *pnode[V] {
	n := m.root
	if n == nil {
		return nil
	}
	for t := m.shift; t < s; t += 5 {
		n = &pnode[V]{bits: 1, kids: []*pnode[V]{n}}
	}
	return n
}

// diff calls fn with each key that a and b do not give the same value
// (or that one of them lacks), in increasing order. It visits only the
// nodes the two do not share: for maps made from one by a few sets, a
// cost of those sets, not of the maps' sizes.
func diff[V comparable](a, b pmap[V], fn func(k int32)) {
	s := max(a.shift, b.shift)
	if a.root == nil {
		s = b.shift
	} else if b.root == nil {
		s = a.shift
	}
	diffNodes(a.lift(s), b.lift(s), s, 0, fn)
}

func diffNodes[V comparable](x, y *pnode[V], s uint8, prefix uint32, fn func(k int32)) {
	if x == y {
		return
	}
	all := func(k int32, _ V) { fn(k) }
	if x == nil {
		y.each(s, prefix, all)
		return
	}
	if y == nil {
		x.each(s, prefix, all)
		return
	}
	for b := x.bits | y.bits; b != 0; b &= b - 1 {
		i := uint32(mbits.TrailingZeros32(b))
		k := prefix | i<<s
		jx, okx := x.slot(i)
		jy, oky := y.slot(i)
		if s == 0 {
			if okx != oky || x.vals[jx] != y.vals[jy] {
				fn(int32(k))
			}
			continue
		}
		var cx, cy *pnode[V]
		if okx {
			cx = x.kids[jx]
		}
		if oky {
			cy = y.kids[jy]
		}
		diffNodes(cx, cy, s-5, k, fn)
	}
}

// min is m's least key as a uint32, and whether m has one.
func (m pmap[V]) min() (int32, bool) {
	n, s, k := m.root, m.shift, uint32(0)
	if n == nil {
		return 0, false
	}
	for {
		i := uint32(mbits.TrailingZeros32(n.bits))
		k |= i << s
		if s == 0 {
			return int32(k), true
		}
		n, s = n.kids[0], s-5
	}
}
