package son

import "fmt"

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
