package son

import (
	"fmt"
	"unsafe"
)

// Seal declares that g is read from now on — printed, verified,
// interpreted, scheduled — and no longer edited, and lets go of what only
// an edit needs: the peepholes' state. That is the value-numbering table,
// the dependence lists, the worklist, the scratch arrays by ID and the
// walks' stack (TakeIDs and the walks make new ones when asked), the
// recycled nodes, the edge arena's chunk and free lists, the last walk's
// order, the type table's index (the nodes keep their types), the nodes
// kept at hand, and the rewrite checker's reused programs (its problems
// and counts stay, for RewriteError and RewriteStats). The compile
// pipeline seals the graph after its last graph pass, cleanup, under
// DropGraph: otherwise all of it stays live through gcm, whose pass is
// the pipeline's peak (docs/PERFORMANCE.md, "Peak memory: levers").
//
// After Seal, making a node, changing an edge or a type, killing a node
// and running a peephole panic (editSealed): the caller's error, never the
// input's.
func (g *Graph) Seal() {
	g.sealed = true
	g.raw = true // Peephole and Kill test raw first, then sealed
	g.gvn = gvnTable{}
	g.depsOf = depTable{}
	g.work = worklist{rng: g.work.rng}
	g.edges = edgeArena{}
	g.types = typeTable{}
	g.args, g.ids, g.marks, g.spare, g.stack = nil, nil, nil, nil, nil
	g.xc, g.top, g.stand, g.xjoin, g.fresh = nil, nil, nil, nil, nil
	g.small = [2 * smallCon]*Node{}
	g.walks.order = nil // the counts stay: the graph no longer changes
	if c := g.check; c != nil {
		c.progs = [2]evalProgram{}
	}
}

// Sealed reports whether Seal was called on g.
func (g *Graph) Sealed() bool { return g.sealed }

// editSealed panics for an edit (what) of g, which is sealed: a
// programmer's error, which would otherwise corrupt the graph silently
// (its value-numbering table and dependence lists are gone). Not
// inlined: the guards' callers are hot, the panic never runs.
//
//go:noinline
func (g *Graph) editSealed(what string) {
	panic(fmt.Sprintf("son: internal error: %s on graph %q after Seal: a sealed graph is read, not edited", what, g.Name))
}

// Fingerprint is a 64-bit digest of what son.Verify reads: the roots,
// every node the table holds (its address, ID, op, flags, type, constant,
// position, and its inputs, users and edge positions, nodes taken by
// address) and two claims of the walk cache that Verify checks (liveOps:
// every node live, the counts by op). It leaves out the order the graph
// keeps for PushAll, which Seal drops: Unchanged asks that there be none.
// A type is taken by address: package types has no mutator of a Type, and
// SetType, son's only writer of a node's type, panics after Seal. One scan
// of the node table; it allocates nothing.
func (g *Graph) Fingerprint() uint64 {
	h := fingerprint{sum: 0x9e3779b97f4a7c15}
	h.node(g.Start)
	h.node(g.Stop)
	h.add(uint64(g.nodes.len()), uint64(g.nodes.count()))
	for _, chunk := range g.nodes.chunks {
		for _, n := range chunk {
			h.node(n)
			if n == nil {
				continue
			}
			h.add(uint64(n.ID), uint64(n.Op)|uint64(n.narrowed)<<8|uint64(n.flags)<<16|uint64(uint32(n.keep))<<32)
			dead := uint64(0)
			if n.dead {
				dead = 1
			}
			h.add(uint64(uintptr(unsafe.Pointer(n.typ))), uint64(n.Aux))
			h.add(uint64(uint32(n.Pos.Line))|uint64(uint32(n.Pos.Col))<<32, dead)
			h.add(uint64(len(n.In)), uint64(cap(n.In))<<32|uint64(len(n.Out)))
			for _, in := range n.In {
				h.node(in)
			}
			for _, u := range n.Out {
				h.node(u)
			}
			if n.pos != nil {
				for _, p := range n.posList() {
					h.add(uint64(uint32(p)), 0)
				}
			}
		}
	}
	c, now := &g.walks, g.version()
	if g.allLive() {
		h.add(1, 0)
	}
	if c.ok && c.counted == now {
		h.add(2, uint64(c.n))
		for _, k := range c.ops {
			h.add(uint64(k), 0)
		}
	}
	return h.sum
}

// Unchanged reports whether g is sealed, keeps no order for PushAll, and
// has the fingerprint sum: then, but for a collision of the digest,
// son.Verify would judge g as it judged the graph whose fingerprint sum
// is (the order is the one claim of the walk cache Fingerprint leaves
// out; with none kept, Verify has nothing of it to check). compile
// verifies a sealed graph again only if it is not unchanged since
// verified (docs/ASSURANCE.md, "A sealed graph verified once").
func (g *Graph) Unchanged(sum uint64) bool {
	c := &g.walks
	if !g.sealed || c.order != nil && c.orderAt == g.version() {
		return false
	}
	return g.Fingerprint() == sum
}

// fingerprint mixes words into a running 64-bit sum, in order.
type fingerprint struct{ sum uint64 }

func (h *fingerprint) add(a, b uint64) {
	h.sum = (h.sum^a)*0xbf58476d1ce4e5b9 + b
	h.sum ^= h.sum >> 31
	h.sum *= 0x94d049bb133111eb
	h.sum ^= h.sum >> 29
}

// node mixes in the address of n (0 for nil): a node is itself, not one
// equal to it.
func (h *fingerprint) node(n *Node) { h.add(uint64(uintptr(unsafe.Pointer(n))), 7) }
