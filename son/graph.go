package son

import (
	"fmt"
	"math/rand"

	"son/types"
)

// Graph is one function in Sea of Nodes form: everything live is reachable
// from Stop through inputs. The methods that change edges keep Out exact,
// keep the value-numbering table in step, and put the nodes whose peephole
// may now do more on the worklist.
type Graph struct {
	Name  string // source file name, for messages
	Start *Node
	Stop  *Node

	nodes nodeTable // by ID; nil for killed nodes and for ID 0
	gvn   gvnTable
	edges edgeArena
	work  worklist
	args  []*Node             // newNodeAfter's list of inputs, reused
	ids   []int32             // an array by ID, all 0, for the passes to share (TakeIDs)
	marks []bool              // a set by ID, all false, for the walks to share (takeMarks)
	stack []walkFrame         // an empty stack for the depth-first walks to share, as deep as the deepest so far (takeFrames: why, and its cost)
	spare []*Node             // killed nodes nothing points to, for NewNode to reuse (recycle)
	xc    *Node               // the XCtrl node xctrl found last, if still in the table
	top   *Node               // the Top constant topCon found last, if still in the table
	stand *Node               // the If foldBranch does not make, while it would have lived
	xjoin *Node               // the Region of dead paths deadRegion does not make, while it would have lived
	small [2 * smallCon]*Node // the constants Con found last, if still in the table
	// depsOf is, by node ID, the IDs of the nodes whose peephole looked
	// at that node beyond one edge (addDep).
	depsOf depTable
	labels map[int32]string // by node ID, the variable names of Phis (label.go)
	types  typeTable        // the distinct types the nodes hold (typetable.go)
	// rets is, by the ID of each Region of returns, where the return
	// statement each of its inputs leads to stands (returns.go).
	rets returnPositions

	// noRecycle: a ShowGraph callback may keep the nodes it is shown.
	noRecycle bool

	// NoGVN turns off the peephole's value numbering: no two nodes, not
	// even constants, are merged for being equal. For measuring what
	// package gvn finds without it.
	NoGVN bool

	// raw: a graph built with BuildOptions.Raw, where Peephole rewrites
	// nothing and Kill removes nothing; or a sealed one, where they panic.
	raw bool

	// sealed: Seal let the peepholes' state go; edits panic (seal.go).
	// Seal sets raw too, so that Peephole and Kill test one flag.
	sealed bool

	// Seed picks the order in which Iterate pulls nodes off the worklist:
	// 0 is last-in first-out, anything else a pseudo-random order from that
	// seed. The fixpoint must not depend on it.
	Seed int64

	// fresh is the node NewNode made last, while its type is still the
	// one NewNode computed: nothing has changed an edge or a type since.
	// The peephole that follows (Peephole(NewNode(...)), the builder's
	// and the rules' way) takes that type rather than compute it again.
	fresh *Node

	walks walkCache // what the last walk found, while the graph is the same

	// check, when set, checks every peephole step (rewritecheck.go).
	check *rewriteChecker

	// Stats counts work done, for benchmarks and -stats.
	Stats struct {
		Peepholes int // peephole attempts
		Rewrites  int // peepholes that changed something
		Walks     int // walks of the whole graph to find what Stop reaches (build, Iterate)
		Refines   int // Refines the builder made (refine.go), folded or not
		Recycled  int // nodes made in the memory of a killed one (recycle)
		Folded    int // nodes that would have died at once, not made (foldAtOnce, foldBranch, deadRegion)
		// Made counts the nodes NewNode made: MaxID less the IDs of nodes
		// folded at once (Folded) and of Start's ID 0. A measure per node
		// made divides by it, not by the IDs given out.
		Made int
	}
}

// NewGraph returns a graph holding only Start and Stop.
func NewGraph(name string) *Graph {
	g := &Graph{Name: name, nodes: makeNodeTable(1, 63)}
	g.Start = g.NewNode(OpStart, 0)
	g.Stop = g.NewNode(OpStop, 0)
	g.Start.keep++
	g.Stop.keep++
	return g
}

// Node returns the live node with the given ID, or nil.
func (g *Graph) Node(id int) *Node {
	if id <= 0 || id >= g.nodes.len() {
		return nil
	}
	return g.nodes.at(id)
}

// MaxID is one more than the largest ID given out: a size for tables
// indexed by node ID.
func (g *Graph) MaxID() int { return g.nodes.len() }

// NewNode makes a node with the given inputs (copied: the caller keeps in)
// and computes its type. It does not run the peephole: call Peephole for
// that.
func (g *Graph) NewNode(op Op, aux int64, in ...*Node) *Node {
	return g.newNodeTyped(op, aux, types.Top, false, in)
}

// newNodeTyped is NewNode, with the type t if typed (Compute of the node
// with these inputs, done before: foldAtOnce's), else computed.
func (g *Graph) newNodeTyped(op Op, aux int64, t types.Type, typed bool, in []*Node) *Node {
	var n *Node
	if k := len(g.spare); k > 0 {
		n = g.spare[k-1]
		g.spare[k-1] = nil
		g.spare = g.spare[:k-1]
		*n = Node{ID: g.nodes.len(), Op: op, Aux: aux}
		g.Stats.Recycled++
	} else {
		if g.sealed { // Seal empties spare: tested here, not for every node
			g.editSealed("NewNode")
		}
		n = &Node{ID: g.nodes.len(), Op: op, Aux: aux}
	}
	// Room for two users from the start: most nodes get one or two, and
	// growing the lists from nothing (growOut) cost 5% of Build.
	if len(in) > 0 {
		n.In = g.edges.nodes(len(in))
	}
	n.Out = g.edges.nodes(2)[:0]
	n.setPosList(g.edges.positions(len(in) + 2))
	g.takeID(n)
	g.Stats.Made++
	for i, x := range in {
		n.In[i] = x
		if x != nil {
			g.addOut(x, n, i)
		}
	}
	// n is new (its type nil): no comparison before interning.
	if op == OpConstant {
		n.typ = g.types.intern(types.Const(aux))
	} else {
		if !typed {
			t = g.Compute(n)
		}
		n.typ = g.types.intern(t)
		if g.check != nil {
			g.check.typed(n, n.Type())
		}
	}
	g.fresh = n
	return n
}

// takeID gives the next ID to n, or, if n is nil, takes it for a node
// not made (foldAtOnce): the ID stays unused, as a killed node's.
func (g *Graph) takeID(n *Node) {
	g.nodes.add(n)
}

// newNodeAfter is NewNode with the inputs first and then rest, listed in
// a buffer the graph reuses rather than a new slice per call.
func (g *Graph) newNodeAfter(op Op, aux int64, first *Node, rest []*Node) *Node {
	args := append(append(g.args[:0], first), rest...)
	n := g.NewNode(op, aux, args...)
	clearEdges(args)
	g.args = args[:0]
	return n
}

// Con finds or makes the integer constant v. The constants from
// -smallCon to smallCon-1 that the table holds are kept at hand (small):
// the builder asks for 0 and 1 for every bool and truth value.
func (g *Graph) Con(v int64) *Node {
	small := -smallCon <= v && v < smallCon
	if small {
		if c := g.small[v+smallCon]; c != nil && c.flags&inGVN != 0 && c.Op == OpConstant && c.Aux == v && c.IsConst() {
			return c // the table holds one constant v, and c is in it
		}
	}
	n, _ := g.gvn.get(gvnKey{op: OpConstant, aux: v})
	if n == nil {
		n = g.Peephole(g.NewNode(OpConstant, v))
	}
	if small {
		g.small[v+smallCon] = n
	}
	return n
}

// smallCon bounds the constants Con keeps at hand.
const smallCon = 16

// topCon finds or makes the Constant of type Top: a value that is never
// used, such as what the Return of a Never exit returns.
// The one the table holds is kept at hand (top): foldAtOnce asks for it
// for every value in dead code, and the table's lookup was most of that.
func (g *Graph) topCon() *Node {
	if c := g.top; c != nil && c.flags&inGVN != 0 && c.Op == OpConstant && c.Type().IsTop() {
		return c // the table holds one Top constant, and c is in it
	}
	if n, _ := g.gvn.get(gvnKey{op: OpConstant, top: true}); n != nil {
		g.top = n
		return n
	}
	n := g.NewNode(OpConstant, 0)
	g.SetType(n, types.Top)
	n = g.Peephole(n)
	g.top = n
	return n
}

// xctrl finds or makes the dead-control node. The one the table holds is
// kept at hand (xc): the builder asks for it on every path it ends.
func (g *Graph) xctrl() *Node {
	if x := g.xc; x != nil && x.flags&inGVN != 0 && x.Op == OpXCtrl {
		return x // the table holds one XCtrl, and x is in it
	}
	if n, _ := g.gvn.get(gvnKey{op: OpXCtrl}); n != nil {
		g.xc = n
		return n
	}
	n := g.Peephole(g.NewNode(OpXCtrl, 0))
	g.xc = n
	return n
}

// AddReturn hands a Return to Stop (Stop is reached once a Return is).
func (g *Graph) AddReturn(r *Node) {
	g.AddIn(g.Stop, r)
	g.setType(g.Stop, g.Compute(g.Stop))
}

// SetIn makes m the i-th input of n. The old input dies if this was its
// last use.
func (g *Graph) SetIn(n *Node, i int, m *Node) {
	if g.sealed {
		g.editSealed("SetIn")
	}
	old := n.In[i]
	if old == m {
		return
	}
	g.unlock(n)
	if old != nil {
		old.delOut(n, i)
	}
	n.In[i] = m
	if m != nil {
		g.addOut(m, n, i)
	}
	g.changed(n)
	if old != nil {
		g.changed(old)
		if old.Unused() {
			g.Kill(old)
		}
	}
}

// AddIn appends m to the inputs of n.
func (g *Graph) AddIn(n *Node, m *Node) {
	if g.sealed {
		g.editSealed("AddIn")
	}
	g.unlock(n)
	if len(n.In) == cap(n.In) {
		// Grow by hand, clearing the old list: it may be in a chunk of
		// the edge arena, where it would keep its inputs from the
		// collector.
		in := make([]*Node, len(n.In), 2*len(n.In)+2)
		copy(in, n.In)
		pos := make([]int32, cap(in)+cap(n.Out))
		old := n.posList()
		copy(pos, old[:len(n.In)])
		copy(pos[cap(in):], old[cap(n.In):cap(n.In)+len(n.Out)])
		g.edges.free(n.In, old)
		n.In = in
		n.setPosList(pos)
	}
	n.In = append(n.In, m)
	n.posList()[len(n.In)-1] = 0
	if m != nil {
		g.addOut(m, n, len(n.In)-1)
	}
	if g.hasReturnPos(n) {
		g.rets.add(n)
	}
	g.changed(n)
}

// DelIn removes the i-th input of n, shifting the later ones down.
func (g *Graph) DelIn(n *Node, i int) {
	if g.sealed {
		g.editSealed("DelIn")
	}
	g.unlock(n)
	old := n.In[i]
	if old != nil {
		old.delOut(n, i)
	}
	pos := n.posList()
	for j := i + 1; j < len(n.In); j++ {
		if x := n.In[j]; x != nil {
			x.setSlot(int(pos[j]), int32(j-1))
		}
	}
	copy(n.In[i:], n.In[i+1:])
	copy(pos[i:len(n.In)-1], pos[i+1:len(n.In)])
	n.In[len(n.In)-1] = nil
	n.In = n.In[:len(n.In)-1]
	if g.hasReturnPos(n) {
		g.rets.del(n, i)
	}
	g.changed(n)
	if old != nil {
		g.changed(old)
		if old.Unused() {
			g.Kill(old)
		}
	}
}

// delIns removes the inputs i of n for which del[i] holds, in one pass:
// dropping k dead inputs of a wide Region (a long comparison chain's exit,
// a long && chain's) one by one with DelIn costs k times its width.
func (g *Graph) delIns(n *Node, del []bool) {
	g.unlock(n)
	var olds []*Node
	pos := n.posList()
	w := 0
	for i, x := range n.In {
		if del[i] {
			if x != nil {
				x.delOut(n, i)
				olds = append(olds, x)
			}
			continue
		}
		if w != i {
			if x != nil {
				x.setSlot(int(pos[i]), int32(w))
			}
			n.In[w], pos[w] = x, pos[i]
		}
		w++
	}
	clearEdges(n.In[w:])
	n.In = n.In[:w]
	if g.hasReturnPos(n) {
		g.rets.delAll(n, del)
	}
	g.changed(n)
	for _, old := range olds {
		if old.dead {
			continue
		}
		g.changed(old)
		if old.Unused() {
			g.Kill(old)
		}
	}
}

// Subsume replaces every use of old by m, then kills old if nothing holds
// it any more.
func (g *Graph) Subsume(old, m *Node) {
	if g.sealed {
		g.editSealed("Subsume")
	}
	if old == m {
		panic(fmt.Sprintf("son: %v subsumes itself", old))
	}
	for len(old.Out) > 0 {
		last := len(old.Out) - 1
		u, i := old.Out[last], int(old.slot(last))
		g.unlock(u)
		old.Out[last] = nil
		old.Out = old.Out[:last]
		u.In[i] = m
		g.addOut(m, u, i)
		g.changed(u)
	}
	g.changed(old)
	if old.Unused() {
		m.keep++
		g.Kill(old)
		m.keep--
	}
}

// Kill removes an unused node from the graph, and with it every input that
// this leaves unused.
func (g *Graph) Kill(n *Node) {
	if g.raw {
		if g.sealed { // Seal sets raw too: one test on the hot path
			g.editSealed("Kill")
		}
		return
	}
	if !n.Unused() {
		panic(fmt.Sprintf("son: kill of %v which is in use", n))
	}
	// The nodes to kill, on the goroutine's stack unless a kill cascades
	// through more than its 16 (a list of one grew on the heap at the
	// first input a kill left unused).
	var buf [16]*Node
	stack := append(buf[:0], n)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.dead || !x.Unused() {
			continue
		}
		g.unlock(x)
		g.moveDeps(x)
		for i, in := range x.In {
			if in == nil {
				continue
			}
			in.delOut(x, i)
			x.In[i] = nil
			if g.unqueued(in) {
				g.enqueue(in) // push(in), inlined
			}
			g.moveDeps(in)
			if in.Unused() {
				stack = append(stack, in)
			}
		}
		g.edges.free(x.In, x.posList())
		g.edges.free(x.Out, nil)
		x.In, x.Out, x.pos = nil, nil, nil
		x.dead = true
		g.dropDeps(x)
		g.dropLabel(x)
		if g.hasReturnPos(x) {
			delete(g.rets, int32(x.ID))
		}
		g.nodes.set(x.ID, nil)
	}
}

// recycle offers the memory of n, if it was killed, to the next NewNode,
// if nothing that keeps nodes may point to it (the worklist and the
// dependence lists hold IDs): not the rewrite checker, not a ShowGraph
// callback. The caller vouches that it and the builder hold n no more.
// Of the nodes the builder makes, most die at once (a test folded, a value
// found equal) or are its own Scopes, Regions and Phis: reusing them
// spares the collector about half of the allocations of Build.
func (g *Graph) recycle(n *Node) {
	if !n.dead || g.check != nil || g.noRecycle {
		return
	}
	g.spare = append(g.spare, n)
}

// Keep holds n alive while the builder has it in hand but nothing uses it.
func (g *Graph) Keep(n *Node) *Node { n.keep++; return n }

// Unkeep releases a Keep; the node stays even if unused (kill it with
// KillIfUnused).
func (g *Graph) Unkeep(n *Node) *Node {
	if n.keep <= 0 {
		panic(fmt.Sprintf("son: unkeep of %v which is not kept", n))
	}
	n.keep--
	return n
}

// KillIfUnused kills n if nothing uses or holds it.
func (g *Graph) KillIfUnused(n *Node) {
	if !n.dead && n.Unused() {
		g.Kill(n)
	}
}

// setType records a new type, and queues the users when it changed.
func (g *Graph) setType(n *Node, t types.Type) {
	if n.typ != nil && n.typ.Same(&t) || sameType(n.Type(), t) {
		return
	}
	g.fresh = nil
	n.typ = g.types.intern(t) // SetType, the comparison done
	for _, u := range n.Out {
		g.push(u)
	}
	g.moveDeps(n)
}

// sameType is t.Equal(u), first trying whether they are the same value:
// most types a peephole computes are the node's own again, and a tuple's
// Equal compares element by element what one comparison of pointers
// settles. Two types but tuples are equal only if they are the same
// value (a kind without bounds has none set), so only tuples need Equal.
// Hot callers try t.Same first, inlined, as sameType is not.
func sameType(t, u types.Type) bool { return t.Same(&u) || t.IsTuple() && t.Equal(u) }

// changed queues n and whatever looked at it from further away.
func (g *Graph) changed(n *Node) {
	g.fresh = nil
	if g.unqueued(n) {
		g.enqueue(n) // push(n), inlined
	}
	g.moveDeps(n)
}

// moveDeps queues the nodes that looked at n from further away, and
// empties n's list of them. The flag answers, inlined, for the many nodes
// that have none, where a lookup in depsOf (then a map) cost 5% of son
// build.
func (g *Graph) moveDeps(n *Node) {
	if n.flags&depsQueued != 0 {
		g.queueDeps(n)
	}
}

// queueDeps is moveDeps for n, whose list is not empty.
func (g *Graph) queueDeps(n *Node) {
	n.flags &^= depsQueued
	deps := g.depsOf.at(n.ID)
	for _, d := range *deps {
		g.push(g.nodes.at(int(d))) // nil if it was killed
	}
	*deps = (*deps)[:0]
}

// edgeArena hands out the input lists of new nodes, the user lists as
// they grow (growOut), and the nodes' lists of positions, from chunks: two
// allocations per thousand edges rather than several per node. Each list
// is full to its capacity, so that an append copies it out. The lists a
// node gives up (a user list outgrown, a killed node's) are kept by
// capacity and handed out again, as cmd/compile's ssa reuses its slices:
// a chunk lives as long as any list in it, and without reuse the build
// of a 1 MB program kept up to a fifth more heap alive in dead lists.
type edgeArena struct {
	in      []*Node
	pos     []int32
	freeIn  [maxCut + 1][][]*Node // free lists of nodes, by capacity
	freePos [maxCut + 1][][]int32 // free lists of positions, by capacity
}

const (
	edgeChunk = 1024
	maxCut    = edgeChunk / 8 // longer lists have their own arrays
)

// nodes returns a list of k nil edges.
func (a *edgeArena) nodes(k int) []*Node {
	if k > maxCut {
		return make([]*Node, k) // a wide join: its own array
	}
	if f := a.freeIn[k]; len(f) > 0 {
		in := f[len(f)-1]
		a.freeIn[k] = f[:len(f)-1]
		return in
	}
	if len(a.in) < k {
		a.in = make([]*Node, edgeChunk)
	}
	in := a.in[:k:k]
	a.in = a.in[k:]
	return in
}

// positions returns a list of k zero positions.
func (a *edgeArena) positions(k int) []int32 {
	if k > maxCut {
		return make([]int32, k)
	}
	if f := a.freePos[k]; len(f) > 0 {
		pos := f[len(f)-1]
		a.freePos[k] = f[:len(f)-1]
		clear(pos)
		return pos
	}
	if len(a.pos) < k {
		a.pos = make([]int32, edgeChunk)
	}
	pos := a.pos[:k:k]
	a.pos = a.pos[k:]
	return pos
}

// dropFree forgets the free lists at the end of a fixpoint (Build lets
// the whole arena go: packEdges): lists of sizes no new node asks for
// would keep their chunks alive. The
// arrays that held them stay, emptied, for the next fixpoint to fill:
// growing them again from nothing was most of what a fixpoint's Kills
// allocated (SCCP's rounds each run one).
func (a *edgeArena) dropFree() {
	for c := range a.freeIn {
		clear(a.freeIn[c])
		a.freeIn[c] = a.freeIn[c][:0]
		clear(a.freePos[c])
		a.freePos[c] = a.freePos[c][:0]
	}
}

// free takes back a list of edges and a list of positions that nothing
// uses any more (either may be nil), for nodes and positions to hand out
// again; the edges are cleared, so that they hold no node.
func (a *edgeArena) free(in []*Node, pos []int32) {
	if c := cap(in); c > 0 && c <= maxCut {
		in = in[:c]
		clearEdges(in)
		if len(a.freeIn[c]) < maxFree {
			a.freeIn[c] = append(a.freeIn[c], in)
		}
	}
	if c := cap(pos); c > 0 && c <= maxCut && len(a.freePos[c]) < maxFree {
		a.freePos[c] = append(a.freePos[c], pos[:c])
	}
}

// maxFree bounds each free list of the arena. The builder takes back
// about as many lists as it hands out, but a sweep frees those of every
// node it removes at once, and few are asked for before the free lists
// go (at 100k nodes the peephole pass grew them by 5 MB); a list not
// kept is left to the collector.
const maxFree = 1024

// ---- worklist ----

// worklist is a set of nodes to revisit, each on it at most once: a
// stack of node IDs, and a bitset by node ID of the nodes on it. IDs, not
// pointers: an ID is never given out again, so one whose node was killed
// (Graph.nodes holds nil there) is skipped as such even if the node's
// memory serves a new node (recycle); and the list, 4 bytes an entry,
// holds nothing for the collector to scan.
type worklist struct {
	list []int32
	on   []uint64 // bit ID%64 of word ID/64: the node is on the list
	rng  *rand.Rand

	// compactAt is the length at which push drops the killed nodes from
	// the list (compactWork). The builder pushes all the time and pops
	// never: without it, the list held every node killed since the start
	// (162,120 of 234,388 entries after building the 100k-node scaling
	// program), which kept them from the collector and had it mark them.
	compactAt int
}

// minCompact is the shortest list push compacts.
const minCompact = 1024

// push queues n, unless it is nil, dead, a Scope or queued already
// (unqueued).
func (g *Graph) push(n *Node) {
	if g.unqueued(n) {
		g.enqueue(n)
	}
}

// unqueued reports whether push(n) has work to do: n is a live node, not
// a Scope, and not on the list. It inlines, where push, with a call in
// it, does not: the hot callers (changed, Kill, foldAtOnce, foldBranch)
// test it themselves and call enqueue, since three pushes in four find
// the node queued already or not to be queued.
func (g *Graph) unqueued(n *Node) bool {
	return n != nil && !n.dead && n.Op != OpScope && !g.work.has(n.ID)
}

// has reports whether the node with ID id is on the list.
func (w *worklist) has(id int) bool {
	u := uint(id) // unsigned: ID/64 is a shift, not a signed division
	return u/64 < uint(len(w.on)) && w.on[u/64]&(1<<(u%64)) != 0
}

// enqueue puts n, which is not on the list, at its end.
func (g *Graph) enqueue(n *Node) {
	w := &g.work
	id := uint(n.ID)
	word := id / 64
	if word >= uint(len(w.on)) {
		w.on = append(w.on, make([]uint64, word+1-uint(len(w.on)))...)
	}
	w.on[word] |= 1 << (id % 64)
	w.list = append(w.list, int32(n.ID))
	if len(w.list) >= w.compactAt {
		g.compactWork()
	}
}

// compactWork drops the killed nodes from the worklist, keeping the
// order of the others: pop skips a killed node, so the order in which the
// live ones come off (last in, first out) is the same. The next
// compaction waits until the list has doubled, so the cost is constant
// per push.
func (g *Graph) compactWork() {
	w := &g.work
	k := 0
	for _, id := range w.list {
		if g.nodes.at(int(id)) == nil {
			w.on[id/64] &^= uint64(1) << (id % 64)
			continue
		}
		w.list[k] = id
		k++
	}
	w.list = w.list[:k]
	w.compactAt = max(minCompact, 2*k)
}

func (g *Graph) pop() *Node {
	w := &g.work
	for len(w.list) > 0 {
		i := len(w.list) - 1
		if w.rng != nil {
			j := w.rng.Intn(len(w.list))
			w.list[i], w.list[j] = w.list[j], w.list[i]
		}
		id := w.list[i]
		w.list = w.list[:i]
		w.on[uint32(id)/64] &^= uint64(1) << (uint32(id) % 64)
		if n := g.nodes.at(int(id)); n != nil {
			return n
		}
	}
	return nil
}
