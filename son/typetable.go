package son

import "son/types"

// A node holds its type as a pointer into its graph's table of the
// distinct types it has seen (8 bytes where a types.Type is 40): a graph
// of a million nodes has some thousands of distinct types, most of them
// constants. The table's slots are never written again once filled, so a
// pointer stays valid and means the same type for as long as a node holds
// it, and a Clone's nodes may share them.

// typeSlab is how many slots the table adds at once: interning allocates
// once per so many new types.
const typeSlab = 256

// commonTypes are interned in every graph without a slot of their own.
var commonTypes = [...]types.Type{types.Top, types.Bottom, types.Ctrl, types.XCtrl, types.Int, types.Bool}

// typeTable is a graph's table of distinct types: by value, its slot. It
// is an open-addressing table of the slots (linear probing; nothing is
// ever removed), found by a hash of the type's bounds and kind: a Go map
// keyed by the 40-byte value hashed all of it (aeshash) and grew by
// copying 48-byte entries: a lookup cost three times a probe here.
type typeTable struct {
	index []*types.Type // the slots by hash; nil: empty; len 0 or a power of two
	shift uint          // 64 - log2(len(index)): a hash's top bits pick its place
	count int           // the slots in the index
	slab  []types.Type  // the rest of the slots the table cut last
	// recent holds slots found last, by the top byte of the hash: most
	// types a node is given were given just before (the same constants,
	// ranges, control), and a hit spares the table's probe.
	recent [256]*types.Type
}

// typeHash hashes t's bounds and kind; it inlines. Types that differ
// only in their known bits, or tuples (an If's, a Never's) that differ
// only in their elements, collide, and the probe tells them apart.
func typeHash(t types.Type) uint64 {
	const k = 0x9E3779B97F4A7C15
	return (uint64(t.Lo())*k ^ uint64(t.Hi()) ^ uint64(t.Kind())<<40) * k
}

// intern returns the slot that holds t, adding one if t is new.
func (tt *typeTable) intern(t types.Type) *types.Type {
	h := typeHash(t)
	if p := tt.recent[h>>56]; p != nil && p.Same(&t) {
		return p
	}
	p := tt.lookup(t, h)
	tt.recent[h>>56] = p
	return p
}

// lookup is intern through the index, for t of hash h.
func (tt *typeTable) lookup(t types.Type, h uint64) *types.Type {
	if tt.index == nil {
		tt.index, tt.shift = make([]*types.Type, 64), 64-6
		for i := range commonTypes {
			tt.insert(&commonTypes[i], typeHash(commonTypes[i]))
		}
	}
	mask := len(tt.index) - 1
	for i := int(h >> tt.shift); tt.index[i] != nil; i = (i + 1) & mask {
		if p := tt.index[i]; p.Same(&t) {
			return p
		}
	}
	if len(tt.slab) == 0 {
		tt.slab = make([]types.Type, typeSlab)
	}
	p := &tt.slab[0]
	tt.slab = tt.slab[1:]
	*p = t
	if (tt.count+1)*4 > len(tt.index)*3 {
		tt.grow()
	}
	tt.insert(p, h)
	return p
}

// insert enters the slot p, of hash h, which the index does not hold.
func (tt *typeTable) insert(p *types.Type, h uint64) {
	mask := len(tt.index) - 1
	i := int(h >> tt.shift)
	for tt.index[i] != nil {
		i = (i + 1) & mask
	}
	tt.index[i] = p
	tt.count++
}

// grow doubles the index, hashing its slots again.
func (tt *typeTable) grow() {
	old := tt.index
	tt.index, tt.shift, tt.count = make([]*types.Type, 2*len(old)), tt.shift-1, 0
	for _, p := range old {
		if p != nil {
			tt.insert(p, typeHash(*p))
		}
	}
}

// SetType records t as n's type, with nothing else: no user is queued and
// no peephole runs (Peephole and the passes do that). n must belong to g.
func (g *Graph) SetType(n *Node, t types.Type) {
	if g.sealed {
		g.editSealed("SetType")
	}
	if n.typ != nil && n.typ.Same(&t) {
		return
	}
	n.typ = g.types.intern(t)
}

// typeRef is a slot of t's own, for a node outside any graph (the
// checkers' stand-ins).
func typeRef(t types.Type) *types.Type { return &t }
