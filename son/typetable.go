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

// typeTable is a graph's table of distinct types: by value, its slot.
type typeTable struct {
	slot map[types.Type]*types.Type
	slab []types.Type // the rest of the slots the table cut last
	// recent holds slots found last, by a hash of the bounds and kind:
	// most types a node is given were given just before (the same
	// constants, ranges, control), and a hit spares the map's lookup,
	// which cost 5% of the pipeline.
	recent [256]*types.Type
}

// intern returns the slot that holds t, adding one if t is new.
func (tt *typeTable) intern(t types.Type) *types.Type {
	h := (uint64(t.Lo())*0x9E3779B97F4A7C15 ^ uint64(t.Hi()) ^ uint64(t.Kind())<<40) * 0x9E3779B97F4A7C15 >> 56
	if p := tt.recent[h]; p != nil && p.Same(&t) {
		return p
	}
	p := tt.lookup(t)
	tt.recent[h] = p
	return p
}

// lookup is intern through the map.
func (tt *typeTable) lookup(t types.Type) *types.Type {
	if p, ok := tt.slot[t]; ok {
		return p
	}
	if tt.slot == nil {
		tt.slot = make(map[types.Type]*types.Type, 64)
		for i := range commonTypes {
			tt.slot[commonTypes[i]] = &commonTypes[i]
		}
		if p, ok := tt.slot[t]; ok {
			return p
		}
	}
	if len(tt.slab) == 0 {
		tt.slab = make([]types.Type, typeSlab)
	}
	p := &tt.slab[0]
	tt.slab = tt.slab[1:]
	*p = t
	tt.slot[t] = p
	return p
}

// SetType records t as n's type, with nothing else: no user is queued and
// no peephole runs (Peephole and the passes do that). n must belong to g.
func (g *Graph) SetType(n *Node, t types.Type) {
	if n.typ != nil && n.typ.Same(&t) {
		return
	}
	n.typ = g.types.intern(t)
}

// typeRef is a slot of t's own, for a node outside any graph (the
// checkers' stand-ins).
func typeRef(t types.Type) *types.Type { return &t }
