package son

import "math/rand"

// Live returns the nodes reachable from Stop through inputs, and Start,
// in a depth-first post order: every node after its non-Phi inputs where
// the graph allows, Stop last. This is the graph's content; anything else
// is garbage.
func (g *Graph) Live() []*Node {
	order, seen := g.liveOrderSet()
	g.giveMarks(seen)
	return order
}

// liveOrderSet is Live, and the set of its nodes by ID (liveSet's).
func (g *Graph) liveOrderSet() ([]*Node, []bool) {
	order, seen := g.walkLive()
	g.noteLive(len(order))
	return order, seen
}

// walkLive is liveOrderSet, recording nothing in the graph's walk cache:
// Verify's walk, which must leave the graph as it found it (a checked run
// would otherwise skip scans an unchecked run makes).
func (g *Graph) walkLive() ([]*Node, []bool) {
	seen := g.takeMarks()
	order := make([]*Node, 0, g.liveBound())
	stack := g.takeFrames()
	stack = append(stack, walkFrame{g.Stop, 0})
	seen[g.Start.ID], seen[g.Stop.ID] = true, true
	// Start first, so the order begins at the entry.
	order = append(order, g.Start)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < len(f.n.In) {
			x := f.n.In[f.i]
			f.i++
			if x != nil && x.ID < len(seen) && !seen[x.ID] { // (a node of another graph may be past the table: son.Verify reports it)
				seen[x.ID] = true
				stack = append(stack, walkFrame{x, 0})
			}
			continue
		}
		if f.n != g.Start {
			order = append(order, f.n)
		}
		stack = popFrame(stack)
	}
	g.giveFrames(stack)
	return order, seen
}

// LiveIDs is Live as a set by node ID (MaxID long, the caller's to keep):
// the same nodes, found with no order built, for a checker that keeps
// which nodes are live and visits them by ID (Live's order is 8 bytes a
// node more, beside the graph at a pass's peak). Like Live, it notes in
// the walk cache whether every node is live. The loop is walkLive's
// without the order: one loop for both, appending through a pointer to
// the order, cost every pass's Live 7% more instructions.
func (g *Graph) LiveIDs() []bool {
	seen := make([]bool, g.MaxID())
	seen[g.Start.ID], seen[g.Stop.ID] = true, true
	marked := 1
	if g.Start != g.Stop {
		marked++
	}
	stack := append(g.takeFrames(), walkFrame{g.Stop, 0})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i < len(f.n.In) {
			x := f.n.In[f.i]
			f.i++
			if x != nil && x.ID < len(seen) && !seen[x.ID] { // (a node of another graph may be past the table: son.Verify reports it)
				seen[x.ID] = true
				marked++
				stack = append(stack, walkFrame{x, 0})
			}
			continue
		}
		stack = popFrame(stack)
	}
	g.giveFrames(stack)
	g.noteLive(marked)
	return seen
}

// walkFrame is a node on the stack of a depth-first walk of inputs, and
// the index of its next input to follow.
type walkFrame struct {
	n *Node
	i int
}

// takeFrames returns an empty stack for a depth-first walk: the graph's
// scratch stack, with the room the deepest walk so far needed, if it is
// free, else a new one. A walk as deep as the graph is long (a chain of
// 300,000 nodes on the shape `and`) grew its stack by a quarter at a time,
// five times its final size allocated per walk; the walks of every pass
// and of the verifier take this one. It is scratch, not a record of the
// graph: its frames are cleared as they are popped (popFrame), and what a
// walk leaves in it says nothing of the graph. giveFrames hands it back.
// The graph holds it between walks, 16 bytes a frame of the deepest walk
// (4.6 MB on `and` at 1 MB of source), and Seal lets it go; the walks of
// a sealed graph (gcm.Check's Live, the verifier's) keep one again, until
// the graph goes.
func (g *Graph) takeFrames() []walkFrame {
	s := g.stack
	g.stack = nil
	return s[:0]
}

// giveFrames keeps s, a stack takeFrames returned, emptied by popFrame, as
// the graph's scratch stack if it has more room than what the graph holds.
func (g *Graph) giveFrames(s []walkFrame) {
	if cap(s) > cap(g.stack) {
		g.stack = s[:0]
	}
}

// popFrame removes the top frame of s and clears it, so that the scratch
// stack holds no node once the walk is done (a node killed since would
// otherwise stay allocated).
func popFrame(s []walkFrame) []walkFrame {
	s[len(s)-1] = walkFrame{}
	return s[:len(s)-1]
}

// liveBound is a size for Live's order that is almost always enough, so
// that the order is not copied as it grows (Live runs in every pass and
// in every checker): the live nodes the graph last counted and the nodes
// made since (a node not live then rarely is again), else the nodes not
// killed (the node table's count: a scan of every ID cost as much as a
// third of the walk, made five to one of the live nodes on a large
// program).
func (g *Graph) liveBound() int {
	if c := &g.walks; c.ok {
		return c.n + g.nodes.len() - c.counted.max
	}
	return g.nodes.count()
}

// liveSet reports, for every ID, whether the node is in Live(): the same
// walk, as a set only, with no order to build (keepInfiniteLoops and the
// sweep need no order, and run twice in every fixpoint).
func (g *Graph) liveSet() []bool {
	live := g.takeMarks()
	live[g.Start.ID], live[g.Stop.ID] = true, true
	stack := []*Node{g.Stop}
	marked := 2
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range n.In {
			if x != nil && !live[x.ID] {
				live[x.ID] = true
				marked++
				stack = append(stack, x)
			}
		}
	}
	g.noteLive(marked)
	return live
}

// takeMarks returns a set by node ID, all false, of length MaxID: the
// graph's scratch set if it is free and large enough, else a new one. The
// walks of every pass take one (several per pass on a large graph, each
// as long as the IDs); giveMarks hands it back.
func (g *Graph) takeMarks() []bool { return takeScratch(&g.marks, g.MaxID()) }

// giveMarks clears m, a set takeMarks returned that its taker no longer
// reads, and keeps it as the graph's scratch set if it is the larger.
func (g *Graph) giveMarks(m []bool) { giveScratch(&g.marks, m) }

// TakeIDs returns an array by node ID, all 0, of length MaxID, for a
// pass's walk or analysis to number or count nodes in: the graph's
// scratch array if it is free and large enough, else a new one. Passes
// that each need one by ID (sccp's slots, the control trees of zerocheck
// and reguard) share one so, rather than allocating 4 bytes an ID each.
// GiveIDs hands it back.
func (g *Graph) TakeIDs() []int32 { return takeScratch(&g.ids, g.MaxID()) }

// GiveIDs clears a, an array TakeIDs returned that its taker no longer
// reads, and keeps it as the graph's scratch array if it is the larger.
func (g *Graph) GiveIDs(a []int32) { giveScratch(&g.ids, a) }

// takeScratch returns *slot[:n] and leaves the slot empty if it holds room
// for n, else a new zeroed array of n with room for the nodes the next
// passes make.
func takeScratch[T any](slot *[]T, n int) []T {
	if a := *slot; cap(a) >= n {
		*slot = nil
		return a[:n]
	}
	return make([]T, n, n+n/8)
}

// giveScratch clears a and keeps it in the slot if it is larger than what
// the slot holds.
func giveScratch[T any](slot *[]T, a []T) {
	if cap(a) > cap(*slot) {
		clear(a)
		*slot = a
	}
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

// version identifies the graph's edges as they stand: edits counts the
// changes of any node's inputs (each goes through unlock), and a new node
// takes a new ID. Types may change under the same version; what Stop
// reaches may not.
type version struct{ edits, max int }

func (g *Graph) version() version { return version{g.walks.edits, g.nodes.len()} }

// walkCache keeps what the last walk or sweep of the graph found, for as
// long as the graph is the same (its version): the compile pipeline
// counts the live nodes by op after every pass (LiveOps), and most passes
// end with a sweep, after which every node not killed is live; a pass
// that starts with PushAll takes the order the count after the pass
// before walked for.
type walkCache struct {
	edits int // changes of inputs so far (unlock)

	swept   version // when the last sweep left only live nodes; valid only if clean
	clean   bool
	counted version // when ops and n were found; valid only if ok
	ok      bool
	n       int
	ops     [256]int

	order   []*Node // Live() as LiveOps or Build found it, for the next PushAll
	orderAt version

	full   version // when a walk found every node the table holds live; valid only if fullOK
	fullOK bool

	garbage   []*Node // the nodes not live, by ID, as someCtrlNotLive found them, for the sweep
	garbageAt version
}

// LiveOps returns the number of live nodes (those of Live) and how many
// there are of each op, indexed by Op. It walks the graph only if its
// edges changed since the last sweep or count: after a sweep it counts
// the nodes not killed, by ID, with no walk.
func (g *Graph) LiveOps() (int, [256]int) {
	v := g.version()
	c := &g.walks
	if c.ok && c.counted == v {
		return c.n, c.ops
	}
	if c.clean && c.swept == v {
		c.ops = [256]int{}
		c.n = g.nodes.countOps(&c.ops)
	} else {
		order := g.Live() // before c.n is reset: liveBound sizes the order by it
		c.ops, c.n = [256]int{}, 0
		for _, n := range order {
			c.ops[n.Op]++
		}
		c.n = len(order)
		c.order, c.orderAt = order, v
	}
	c.counted, c.ok = v, true
	return c.n, c.ops
}

// LiveShared is Live, with the order also kept by the graph for the next
// PushAll while the graph's edges stay as they are (types may change):
// an analysis that walks the graph and then rewrites only types spares
// the fixpoint after it a walk. The caller must not change the slice.
func (g *Graph) LiveShared() []*Node {
	order := g.Live()
	g.walks.order, g.walks.orderAt = order, g.version()
	return order
}

// liveOrder returns Live(), or the order LiveOps walked for if the graph
// has not changed since; either way the graph keeps no order after.
func (g *Graph) liveOrder() []*Node {
	c := &g.walks
	order := c.order
	c.order = nil
	if order != nil && c.orderAt == g.version() {
		return order
	}
	return g.Live()
}

// sweep kills every node that Stop does not reach (live is g.liveSet()):
// cycles of nodes that use each other (a Phi and its increment in a loop
// whose value nothing reads) never lose their last use, so peephole
// dead-code elimination alone leaves them attached. Only for when the
// builder holds nothing.
//
// The nodes it leaves are the live ones, as LiveOps takes note. It reads
// no live node: on a large graph each is a cache miss. When the walk
// that found live found every node the table holds (allLive), there is
// no garbage, and it scans no ID.
func (g *Graph) sweep(live []bool) {
	if g.allLive() {
		g.walks.swept, g.walks.clean = g.version(), true
		return
	}
	garbage := g.takeGarbage()
	if garbage == nil {
		// The table holds no killed node: each kill clears its entry.
		garbage = g.nodes.notIn(live)
	}
	for _, n := range garbage {
		g.unlock(n)
		for i, x := range n.In {
			if x != nil && live[x.ID] {
				x.delOut(n, i)
				g.push(x)
			}
		}
	}
	for _, n := range garbage {
		g.edges.free(n.In, n.posList()) // cleared, so that its inputs may go
		g.edges.free(n.Out, nil)
		n.In, n.Out, n.pos = nil, nil, nil
		g.dropDeps(n)
		g.dropLabel(n)
		if g.hasReturnPos(n) {
			delete(g.rets, int32(n.ID)) // as Kill: the entry goes with its Region
		}
		n.dead = true
		g.nodes.set(n.ID, nil)
	}
	g.walks.swept, g.walks.clean = g.version(), true
}
