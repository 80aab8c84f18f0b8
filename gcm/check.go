package gcm

import (
	"errors"
	"fmt"
	"strings"

	"son/cfg"
	"son/internal/dom"
	"son/son"
)

// Check verifies that f is a schedule of g, without the scheduler's code
// and without its bookkeeping: it reads only the graph and the function,
// the graph through a record of it made first (RecordGraph: each node's
// op, position, Aux and inputs by ID; the control edges forward are the
// inputs turned around).
//
// It trusts the graph to have passed son.Verify (it is the input of the
// pass, verified after the previous one; so a node's users mirror its
// inputs, and the node an edge reaches is the one the graph's table holds
// at its ID: what the record keeps), and the dominators of Cooper,
// Harvey and Kennedy's algorithm in internal/dom (the pass uses
// Lengauer–Tarjan). Everything in f is a claim it verifies: the blocks,
// their edges, Phis, instructions and terminators, and the Node field
// each of them names.
//
// Control, first: the checker walks the graph's control edges from Start
// and finds each basic block itself — a block begins at Start's control,
// at a Region or Loop, or at a projection of an If or Never, and runs down
// the chain of ZeroChecks to an If, a Never, a Return, or the entry of a
// region — and matches them one to one with the blocks of f, from
// f.Blocks[0] at the entry along the successors:
//
//   - block: every block of f is the block of one head, and no head has two;
//   - term: each block ends as its chain does: a Branch on the If's
//     condition whose Succs are the If's true then false side, a Jump at a
//     Never to its loop side, a Return of the Return's value, or a Jump to
//     the region control enters;
//   - preds: a region block's predecessors are the blocks that end at the
//     region's inputs, each once; a projection's, its If's block;
//   - check: the checks of each block are the ZeroChecks of its chain,
//     each once, in the order control passes them.
//
// Then data, on blocks whose control holds (dominators of f's blocks):
//
//   - placed: every data node that control needs (the values of the
//     ZeroChecks, branches and Returns that run, their inputs, and the
//     Phis of live regions) is placed exactly once, and nothing else; but
//     a Constant may be placed in several blocks, at most once in each
//     (gcm rematerializes constants): each copy a Const of its value;
//   - reg: each register is defined once; a node's register is its ID,
//     but a Constant's copy may have one above every node's (g.MaxID()
//     up), so that no register of a node ID means another node;
//   - dominance: every use is dominated by the definition it reads: in
//     the same block before it, or in a block that strictly dominates; a
//     Phi's k-th value at the end of its block's k-th predecessor;
//   - phi: each Phi is in the block of its region, with the value of the
//     region input that predecessor ends at;
//   - pinned: a division pinned below a ZeroCheck comes after that check,
//     in its block or one that check's block dominates; one pinned to the
//     head of a block (a projection, a region), in that block or one it
//     dominates;
//   - op: each instruction computes its node's op on its node's inputs:
//     each argument, and each Phi's value (rule phi) and branch's or
//     return's register, reads a register whose definition has the Node
//     of the input it stands for;
//   - pos: each instruction, and each branch and return, has its node's
//     source position (a check's is where a division by zero is reported).
//
// It trusts nothing of how a constant's copies were chosen: any set of
// copies these rules accept computes what the graph does, since a Const
// has no inputs and each use reads a copy of the right value that
// dominates it.
//
// Every problem names the block, the instruction or node, and the rule.
// Check never panics, whatever f holds. Cost: linear in the graph and f,
// plus the dominators.
func Check(g *son.Graph, f *cfg.Func) error { return CheckRecord(RecordGraph(g), f) }

// CheckRecord is Check of the graph recorded in g (RecordGraph), for a
// caller that lets the graph go before the checker runs: the compiler
// under DropGraph, where the graph and the function were both live while
// Check built its tables (the gcm pass's peak). It trusts the record to
// be the graph's, as Check trusts the graph.
func CheckRecord(g *GraphRecord, f *cfg.Func) error {
	c := &checker{g: g, f: f}
	if g.tooMany != "" {
		c.bad(nil, "block", "%s, more than the checker's record numbers", g.tooMany)
	} else {
		c.control()
	}
	if len(c.probs) == 0 {
		c.data()
	}
	if len(c.probs) == 0 {
		return nil
	}
	return errors.New("the schedule does not hold:\n\t" + strings.Join(c.probs, "\n\t"))
}

// checker holds what Check learns about f from the graph: arrays by
// block index and by node ID rather than maps keyed by pointers, a few
// bytes an entry (on a program of 360,000 blocks, the maps were 64 MB at
// the compiler's peak).
type checker struct {
	g     *GraphRecord
	f     *cfg.Func
	probs []string

	index    blockIndex
	headOf   []node           // by block index: the control node the block begins at
	blockOf  []int32          // by node ID: 1 + the index of the block of each head, ZeroCheck and ending If, Never, Return
	endOf    []int32          // by node ID: 1 + the index of the block whose control leaves at this node into a region
	chains   map[int32][]node // by block index: its ZeroChecks, for the blocks that have any
	predSlot []int32          // a region block's predecessor -> region input, from slotStart
	slotAt   []int32          // by block index: where its predecessors' slots begin in predSlot
	userAt   []int32          // by node ID: a control node's control users and projections are users[userAt[id]:userAt[id+1]] (GraphRecord.controlUsers)
	users    []int32
}

// blockIndex finds a block's position in f.Blocks: by its ID where the
// IDs are distinct and small, as a function's are, else (a broken
// function) in a map; it never trusts an ID without the pointer.
type blockIndex struct {
	blocks []*cfg.Block
	byID   []int32 // by block ID: 1 + index
	extra  map[*cfg.Block]int
}

func newBlockIndex(bs []*cfg.Block) blockIndex {
	return blockIndex{blocks: bs, byID: make([]int32, 2*len(bs)+2)}
}

// add records b at position i, and reports whether b was already there.
func (x *blockIndex) add(b *cfg.Block, i int) (dup bool) {
	if id := b.ID; id >= 0 && id < len(x.byID) {
		if k := x.byID[id]; k == 0 {
			x.byID[id] = int32(i + 1)
			return false
		} else if x.blocks[k-1] == b {
			return true
		}
	}
	if _, ok := x.extra[b]; ok {
		return true
	}
	if x.extra == nil {
		x.extra = map[*cfg.Block]int{}
	}
	x.extra[b] = i
	return false
}

// get is the position of b, and whether it is a block of the function.
func (x *blockIndex) get(b *cfg.Block) (int, bool) {
	if b == nil {
		return 0, false
	}
	if id := b.ID; id >= 0 && id < len(x.byID) {
		if k := x.byID[id]; k > 0 && x.blocks[k-1] == b {
			return int(k - 1), true
		}
	}
	i, ok := x.extra[b]
	return i, ok
}

// at is the index of b (a block of the function).
func (x *blockIndex) at(b *cfg.Block) int {
	i, _ := x.get(b)
	return i
}

// blockAt is the block recorded by node ID in a (1 + index), or nil.
func (c *checker) blockAt(a []int32, n node) *cfg.Block {
	if n.id <= 0 || int(n.id) >= len(a) || a[n.id] == 0 {
		return nil
	}
	return c.f.Blocks[a[n.id]-1]
}

// setBlock records b by n's ID in a.
func (c *checker) setBlock(a []int32, n node, b *cfg.Block) {
	if n.id >= 0 && int(n.id) < len(a) {
		a[n.id] = int32(c.index.at(b) + 1)
	}
}

// head is the control node b begins at, nil if none.
func (c *checker) head(b *cfg.Block) node {
	if i, ok := c.index.get(b); ok {
		return c.headOf[i]
	}
	return node{}
}

func (c *checker) bad(b *cfg.Block, rule, format string, args ...any) {
	where := "func"
	if b != nil {
		where = fmt.Sprintf("b%d", b.ID)
	}
	c.probs = append(c.probs, where+": "+rule+": "+fmt.Sprintf(format, args...))
}

// control matches the blocks of f with the graph's control flow.
func (c *checker) control() {
	f := c.f
	if f == nil || len(f.Blocks) == 0 {
		c.bad(nil, "block", "the function has no blocks")
		return
	}
	c.index = newBlockIndex(f.Blocks)
	for i, b := range f.Blocks {
		if b == nil {
			c.bad(nil, "block", "block %d of the function is nil", i)
			continue
		}
		if c.index.add(b, i) {
			c.bad(b, "block", "listed twice")
		}
	}
	if len(c.probs) > 0 {
		return
	}
	_, live := c.g.live(false)
	c.userAt, c.users = c.g.controlUsers(live)
	defer func() { c.userAt, c.users = nil, nil }() // control's own
	entry := c.proj(c.g.start, 0)
	if entry.id == 0 {
		c.bad(nil, "block", "Start has no control projection")
		return
	}
	c.headOf = make([]node, len(f.Blocks))
	c.blockOf = make([]int32, c.g.MaxID())
	c.endOf = make([]int32, c.g.MaxID())
	c.chains = map[int32][]node{}
	var work []*cfg.Block
	// match pairs head h with block b, the successor of from (nil at the entry).
	match := func(from *cfg.Block, h node, b *cfg.Block) {
		if b == nil {
			c.bad(from, "term", "a successor is nil where control goes to %v", h)
			return
		}
		i, ok := c.index.get(b)
		if !ok {
			c.bad(from, "term", "successor b%d is not a block of the function", b.ID)
			return
		}
		// A head is a projection, a region or a loop, so blockOf holds
		// nothing else for it: its block, once matched.
		if old := c.blockAt(c.blockOf, h); old != nil && old != b {
			c.bad(from, "block", "control goes to %v, which begins b%d, not b%d", h, old.ID, b.ID)
			return
		}
		if old := c.headOf[i]; old.id != 0 && old != h {
			c.bad(b, "block", "begins both at %v and at %v", old, h)
			return
		}
		if c.blockAt(c.blockOf, h) == nil {
			c.headOf[i] = h
			c.setBlock(c.blockOf, h, b)
			work = append(work, b)
		}
	}
	match(nil, entry, f.Blocks[0])
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		c.block(b, match)
	}
	for i, b := range f.Blocks {
		if c.headOf[i].id == 0 {
			c.bad(b, "block", "is not a block of the graph's control flow from Start")
		}
	}
	if len(c.probs) == 0 {
		c.preds()
		c.checks()
	}
}

// block follows the control chain from b's head to its end and checks b's
// terminator and successors against it.
func (c *checker) block(b *cfg.Block, match func(*cfg.Block, node, *cfg.Block)) {
	g := c.g
	cur := c.head(b)
	var chain []node
	t := b.Term
	succs := func(k int) bool {
		if len(b.Succs()) != k {
			c.bad(b, "term", "%d successors, want %d as control leaves at %v", len(b.Succs()), k, cur)
			return false
		}
		return true
	}
	for {
		next, ok := c.ctrlNext(cur)
		if !ok {
			c.bad(b, "term", "%v has two control successors", cur)
			return
		}
		if next.id == 0 {
			c.bad(b, "term", "control stops at %v", cur)
			return
		}
		if next.op == son.OpZeroCheck {
			if c.blockAt(c.blockOf, next) != nil {
				c.bad(b, "check", "%v is reached twice by control", next)
				return
			}
			c.setBlock(c.blockOf, next, b)
			chain = append(chain, next)
			cur = next
			continue
		}
		if len(chain) > 0 {
			c.chains[int32(c.index.at(b))] = chain
		}
		switch next.op {
		case son.OpIf:
			c.setBlock(c.blockOf, next, b)
			if t.Kind != cfg.TermBranch || t.Node != int(next.id) {
				c.bad(b, "term", "ends with %s, want a branch of %v on v%d", termString(t), next, g.input(next, 1).id)
				return
			}
			c.termPos(b, next)
			if !succs(2) {
				return
			}
			for side := int64(0); side < 2; side++ {
				p := c.proj(next, side)
				if p.id == 0 {
					c.bad(b, "term", "%v has no projection %d", next, side)
					return
				}
				match(b, p, b.Succs()[side])
			}
		case son.OpNever:
			c.setBlock(c.blockOf, next, b)
			if t.Kind != cfg.TermJump || t.Node != int(next.id) {
				c.bad(b, "term", "ends with %s, want the jump of %v", termString(t), next)
				return
			}
			p := c.proj(next, 0)
			if p.id == 0 {
				c.bad(b, "term", "%v has no projection 0", next)
				return
			}
			if succs(1) {
				match(b, p, b.Succs()[0])
			}
		case son.OpReturn:
			c.setBlock(c.blockOf, next, b)
			if t.Kind != cfg.TermReturn || t.Node != int(next.id) {
				c.bad(b, "term", "ends with %s, want %v of v%d", termString(t), next, g.input(next, 1).id)
				return
			}
			c.termPos(b, next)
			succs(0)
		case son.OpRegion, son.OpLoop:
			if t.Kind != cfg.TermJump || t.Node != 0 {
				c.bad(b, "term", "ends with %s, want a jump to %v", termString(t), next)
				return
			}
			c.setBlock(c.endOf, cur, b)
			if succs(1) {
				match(b, next, b.Succs()[0])
			}
		default:
			c.bad(b, "term", "control goes from %v to %v, which no block may hold", cur, next)
		}
		return
	}
}

// proj is the projection of control node n with index idx, none if
// none (son.Node.Proj).
func (c *checker) proj(n node, idx int64) node {
	if n.id <= 0 || int(n.id) >= len(c.userAt)-1 {
		return node{}
	}
	for _, id := range c.users[c.userAt[n.id]:c.userAt[n.id+1]] {
		if u := c.g.node(id); (u.op == son.OpCProj || u.op == son.OpProj) && c.g.aux(u) == idx {
			return u
		}
	}
	return node{}
}

// ctrlNext is the control node that control leaving n goes to (Stop
// excepted), or none; ok is false if there are two.
func (c *checker) ctrlNext(n node) (next node, ok bool) {
	if n.id <= 0 || int(n.id) >= len(c.userAt)-1 {
		return node{}, true
	}
	for _, id := range c.users[c.userAt[n.id]:c.userAt[n.id+1]] {
		u := c.g.node(id)
		if !u.op.IsControl() {
			continue
		}
		if next.id != 0 && next != u {
			return node{}, false
		}
		next = u
	}
	return next, true
}

// termPos checks that b's terminator has the position of n, its node.
func (c *checker) termPos(b *cfg.Block, n node) {
	if p := c.g.posOf(n); b.Term.Pos != p {
		c.bad(b, "pos", "the terminator is at %v, but %v is at %v", b.Term.Pos, n, p)
	}
}

// termString describes a terminator for messages.
func termString(t cfg.Term) string {
	kind := map[cfg.TermKind]string{cfg.TermNone: "no terminator", cfg.TermJump: "a jump", cfg.TermBranch: "a branch", cfg.TermReturn: "a return"}[t.Kind]
	if kind == "" {
		kind = fmt.Sprintf("terminator kind %d", t.Kind)
	}
	return fmt.Sprintf("%s (node %d, v%d)", kind, t.Node, t.Reg)
}

// preds checks each block's predecessors against the graph, and records
// for a region block which region input each predecessor is.
func (c *checker) preds() {
	c.slotAt = make([]int32, len(c.f.Blocks))
	slot := make([]int32, len(c.f.Blocks)) // by block index: the region input it ends at, for the region at hand
	var want []*cfg.Block
	for bi, b := range c.f.Blocks {
		h := c.headOf[bi]
		want = want[:0]
		switch {
		case h.op.IsRegion():
			for k := 1; k < len(c.g.in(h)); k++ {
				p := c.blockAt(c.endOf, c.g.input(h, k))
				if p == nil {
					c.bad(b, "preds", "input %d of %v, %v, ends no block", k, h, c.g.input(h, k))
					continue
				}
				slot[c.index.at(p)] = int32(k)
				want = append(want, p)
			}
			c.slotAt[bi] = int32(len(c.predSlot))
			for _, p := range b.Preds {
				k := int32(0)
				if i, ok := c.index.get(p); ok {
					k = slot[i]
				}
				c.predSlot = append(c.predSlot, k)
			}
			for _, p := range want {
				slot[c.index.at(p)] = 0
			}
		case b != c.f.Blocks[0]:
			want = append(want, c.blockAt(c.blockOf, c.g.ctrl(h)))
		}
		if !sameBlocks(b.Preds, want) {
			c.bad(b, "preds", "predecessors %s, but control enters %v from %s", blockList(b.Preds), h, blockList(want))
		}
	}
}

// sameBlocks reports whether a and b hold the same blocks as often.
func sameBlocks(a, b []*cfg.Block) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) <= 8 { // most blocks: no map
		used := [8]bool{}
	next:
		for _, x := range a {
			for j, y := range b {
				if !used[j] && x == y {
					used[j] = true
					continue next
				}
			}
			return false
		}
		return true
	}
	k := map[*cfg.Block]int{}
	for _, x := range a {
		k[x]++
	}
	for _, x := range b {
		if k[x]--; k[x] < 0 {
			return false
		}
	}
	return true
}

func blockList(bs []*cfg.Block) string {
	var s []string
	for _, b := range bs {
		if b == nil {
			s = append(s, "nil")
		} else {
			s = append(s, fmt.Sprintf("b%d", b.ID))
		}
	}
	return "[" + strings.Join(s, " ") + "]"
}

// checks checks that each block checks the ZeroChecks of its chain, in
// order, and no other.
func (c *checker) checks() {
	for bi, b := range c.f.Blocks {
		chain := c.chains[int32(bi)]
		k := 0
		for i, in := range b.Instrs {
			if in == nil || in.Op != cfg.OpCheck {
				continue
			}
			n := c.g.at(in.Node)
			switch {
			case n.op != son.OpZeroCheck:
				c.bad(b, "check", "instruction %d checks for node %d, which is no live ZeroCheck", i, in.Node)
			case c.blockAt(c.blockOf, n) == nil:
				c.bad(b, "check", "instruction %d checks for %v, which control does not pass from Start", i, n)
			case c.blockAt(c.blockOf, n) != b:
				c.bad(b, "check", "instruction %d checks for %v, but control passes it in b%d", i, n, c.blockAt(c.blockOf, n).ID)
			case k >= len(chain) || chain[k] != n:
				c.bad(b, "check", "instruction %d checks for %v out of the order control passes the checks of the block (%v)", i, n, chain)
			default:
				k++
			}
		}
		if k < len(chain) {
			c.bad(b, "check", "control passes %v in this block, but it is not checked there", chain[k])
		}
	}
}

// site is where a register is defined: 1 + its block's index (0:
// nowhere), its position there (-1 for a Phi), and the node whose value
// it holds.
type site struct {
	b, pos, node int32
}

// data checks the placement of the data nodes in blocks whose control
// holds.
func (c *checker) data() {
	f, g := c.f, c.g
	c.endOf, c.chains = nil, nil // control's and checks' own: garbage from here
	edges := 0
	for _, b := range f.Blocks {
		edges += len(b.Succs())
	}
	start := make([]int32, len(f.Blocks)+1) // block i's successors are succ[start[i]:start[i+1]]
	succ := make([]int32, 0, edges)
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			succ = append(succ, int32(c.index.at(s)))
		}
		start[i+1] = int32(len(succ))
	}
	tree := dom.NewIntervals(dom.CooperHarveyKennedyFlat(start, succ))

	// By register, where it is defined and for which node: the
	// registers are the nodes' IDs and, for the copies of constants, a
	// few above g.MaxID(); the array ends at the largest register
	// defined, and one out of the range a function can use is kept apart
	// (no array that large). By node ID, how often the node is placed,
	// and the last block it was placed in (a constant may have one copy
	// per block).
	defs, top := 0, 0
	for _, b := range f.Blocks {
		defs += len(b.Phis) + len(b.Instrs)
		for _, p := range b.Phis {
			if p != nil {
				top = max(top, int(p.Dst))
			}
		}
		for _, in := range b.Instrs {
			if in != nil {
				top = max(top, int(in.Dst))
			}
		}
	}
	at := make([]site, min(top, g.MaxID()+defs)+1)
	var other map[cfg.Reg]site
	seen := make([]int32, g.MaxID())
	last := make([]int32, g.MaxID()) // 1 + the index of the block last placed in
	checkAt := map[int32]int32{}     // by node ID: the position of a check (few: one per division at most)
	def := func(r cfg.Reg) site {
		if r > 0 && int(r) < len(at) {
			return at[r]
		}
		return other[r]
	}
	place := func(b *cfg.Block, bi int, r cfg.Reg, id int, pos int) {
		if id >= 0 && id < len(seen) {
			if seen[id] > 0 && last[id] == int32(bi+1) && g.at(id).op == son.OpConstant {
				c.bad(b, "placed", "%v has two copies in the block", g.at(id))
			}
			seen[id]++
			last[id] = int32(bi + 1)
		}
		if r == 0 {
			checkAt[int32(id)] = int32(pos)
			return // a Check defines nothing
		}
		if old := def(r); old.b != 0 {
			c.bad(b, "reg", "v%d is defined twice, for node %d and node %d", r, old.node, id)
			return
		}
		s := site{int32(bi + 1), int32(pos), int32(id)}
		if r > 0 && int(r) < len(at) {
			at[r] = s
			return
		}
		if other == nil {
			other = map[cfg.Reg]site{}
		}
		other[r] = s
	}
	for bi, b := range f.Blocks {
		for i, p := range b.Phis {
			if p == nil {
				c.bad(b, "phi", "Phi %d is nil", i)
				continue
			}
			place(b, bi, p.Dst, p.Node, -1)
		}
		for i, in := range b.Instrs {
			if in == nil {
				c.bad(b, "op", "instruction %d is nil", i)
				continue
			}
			place(b, bi, in.Dst, in.Node, i)
		}
	}
	// avail reports whether register r is defined at position pos of b:
	// earlier in b, or in a block that strictly dominates b.
	avail := func(r cfg.Reg, b *cfg.Block, pos int) bool {
		s := def(r)
		if s.b == 0 {
			return false
		}
		bi := c.index.at(b)
		if int(s.b-1) == bi {
			return int(s.pos) < pos
		}
		return tree.StrictlyDominates(int(s.b-1), bi)
	}
	// checked reports whether the ZeroCheck n is passed before position
	// pos of b: its check earlier in b, or in a block that strictly
	// dominates b.
	checked := func(n node, b *cfg.Block, pos int) bool {
		if n.id <= 0 || int(n.id) >= len(last) || seen[n.id] == 0 {
			return false
		}
		cb, bi := int(last[n.id]-1), c.index.at(b)
		at, ok := checkAt[n.id]
		if !ok {
			return false // placed, but not as a check
		}
		if cb == bi {
			return int(at) < pos
		}
		return tree.StrictlyDominates(cb, bi)
	}
	// reads checks that register r, read at position pos of b by what
	// what says, holds the value of node x and is defined there.
	reads := func(b *cfg.Block, pos int, r cfg.Reg, x node, what func() string) {
		switch d := def(r); {
		case d.b == 0 || d.node != x.id:
			c.bad(b, "op", "%s reads v%d, which is not defined as %v", what(), r, x)
		case !avail(r, b, pos):
			c.bad(b, "dominance", "%s uses %v (v%d) before it is defined", what(), x, r)
		}
	}

	// The data nodes control needs, found from the graph.
	need := make([]bool, g.MaxID())
	var work []int32
	want := func(n node) {
		if n.id != 0 && !n.op.IsControl() && !need[n.id] {
			need[n.id] = true
			work = append(work, n.id)
		}
	}
	live, _ := g.live(true)
	for _, n := range live {
		switch n.op {
		case son.OpIf, son.OpZeroCheck:
			want(g.input(n, 1))
		case son.OpReturn:
			if c := g.ctrl(n); !(c.op == son.OpCProj && g.ctrl(c).op == son.OpNever && g.aux(c) == 1) {
				want(g.input(n, 1))
			}
		case son.OpPhi:
			want(n)
		}
	}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		for _, x := range g.in(g.node(id)) {
			want(g.node(x))
		}
	}
	work = nil
	for _, n := range live {
		switch k := seen[n.id]; {
		case !need[n.id]:
		case k == 0:
			c.bad(nil, "placed", "%v is not placed", n)
		case k > 1 && n.op != son.OpConstant:
			c.bad(nil, "placed", "%v is placed %d times", n, k)
		}
	}
	for _, b := range f.Blocks {
		for i, p := range b.Phis {
			if p == nil {
				continue
			}
			if n := g.at(p.Node); n.id == 0 || !need[n.id] {
				c.bad(b, "placed", "Phi %d is from node %d, which is not needed", i, p.Node)
			}
		}
		for i, in := range b.Instrs {
			if in == nil {
				continue
			}
			if n := g.at(in.Node); n.id == 0 || !need[n.id] && n.op != son.OpZeroCheck {
				c.bad(b, "placed", "instruction %d is from node %d, which is not needed", i, in.Node)
			}
		}
	}

	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			if p != nil {
				c.phi(b, p, def, avail)
			}
		}
		for i, in := range b.Instrs {
			if in == nil {
				continue
			}
			n := g.at(in.Node)
			if n.id == 0 {
				c.bad(b, "op", "instruction %d (%v) is from node %d, which is not live", i, in.Op, in.Node)
				continue
			}
			if !g.sameOp(n, in) {
				c.bad(b, "op", "instruction %d (%v) does not compute %v", i, in.Op, n)
				continue
			}
			if p := g.posOf(n); in.Pos != p {
				c.bad(b, "pos", "instruction %d (%v) is at %v, but %v is at %v", i, in.Op, in.Pos, n, p)
			}
			for j, id := range g.in(n) {
				if x := g.node(id); j > 0 && x.id != 0 && !x.op.IsControl() {
					reads(b, i, in.Args[j-1], x, n.String)
				}
			}
			// A division is below its check, or pinned to the head of a
			// block (the side of a branch that proves its divisor is not
			// 0, or a region below it: son.Verify's zerocheck rule) and in
			// that block or below it.
			if ctl := g.ctrl(n); (n.op == son.OpDiv || n.op == son.OpMod) && ctl.id != 0 && !checked(ctl, b, i) &&
				!(isHead(ctl) && c.blockAt(c.blockOf, ctl) != nil && (c.blockAt(c.blockOf, ctl) == b || tree.StrictlyDominates(c.index.at(c.blockAt(c.blockOf, ctl)), c.index.at(b)))) {
				c.bad(b, "pinned", "%v is not below its check %v", n, ctl)
			}
		}
		if t := b.Term; t.Kind == cfg.TermBranch || t.Kind == cfg.TermReturn {
			// control matched the terminator with its If or Return.
			if x := g.input(g.at(t.Node), 1); x.id != 0 {
				reads(b, len(b.Instrs), t.Reg, x, func() string { return termString(t) })
			}
		}
	}
}

// phi checks Phi p of block b: its node's region begins b, and its k-th
// argument is the value of the region input that b's k-th predecessor
// ends at, available there.
func (c *checker) phi(b *cfg.Block, p *cfg.Phi, def func(cfg.Reg) site, avail func(cfg.Reg, *cfg.Block, int) bool) {
	g := c.g
	phi := g.at(p.Node)
	if phi.op != son.OpPhi {
		c.bad(b, "phi", "Phi v%d is from node %d, which is no live Phi", p.Dst, p.Node)
		return
	}
	region := g.ctrl(phi)
	if c.head(b) != region {
		c.bad(b, "phi", "%v of %v is not in its region's block", phi, region)
		return
	}
	if p.Dst != cfg.Reg(phi.id) || len(p.Args) != len(b.Preds) {
		c.bad(b, "phi", "%v is v%d with %d values, want v%d with one per predecessor (%d)", phi, p.Dst, len(p.Args), phi.id, len(b.Preds))
		return
	}
	in := g.in(phi)
	var slots []int32 // a region block's only (preds)
	if at := int(c.slotAt[c.index.at(b)]); region.op.IsRegion() && at+len(b.Preds) <= len(c.predSlot) {
		slots = c.predSlot[at : at+len(b.Preds)]
	}
	for i, pred := range b.Preds {
		k := 0
		if i < len(slots) {
			k = int(slots[i])
		}
		switch {
		case k <= 0 || k >= len(in):
			c.bad(b, "phi", "predecessor b%d is no input of %v", pred.ID, region)
		case def(p.Args[i]).b == 0 || def(p.Args[i]).node != in[k]:
			c.bad(b, "phi", "%v takes v%d from b%d, want a register of %v", phi, p.Args[i], pred.ID, g.node(in[k]))
		case !avail(p.Args[i], pred, len(pred.Instrs)):
			c.bad(b, "dominance", "%v's value %v is not available at the end of b%d", phi, g.node(in[k]), pred.ID)
		}
	}
}

// sameOp reports whether instruction in computes node n.
func (r *GraphRecord) sameOp(n node, in *cfg.Instr) bool {
	ins := r.in(n)
	args := func(xs ...int32) bool {
		if len(xs) != len(in.Args) {
			return false
		}
		for _, x := range xs {
			if x == 0 {
				return false
			}
		}
		return true
	}
	dst := in.Dst == cfg.Reg(n.id)
	switch n.op {
	case son.OpZeroCheck:
		return in.Op == cfg.OpCheck && len(ins) == 2 && args(ins[1])
	case son.OpConstant: // a copy's register is its own, above every node's
		return in.Op == cfg.OpConst && in.Aux == r.aux(n) && len(in.Args) == 0 && (dst || int(in.Dst) >= r.MaxID())
	case son.OpProj:
		return in.Op == cfg.OpArg && dst && len(in.Args) == 0
	case son.OpMinus:
		return in.Op == cfg.OpNeg && dst && len(ins) == 2 && args(ins[1])
	case son.OpNot:
		return in.Op == cfg.OpNot && dst && len(ins) == 2 && args(ins[1])
	}
	op := binaryOpOf(n.op)
	return in.Op == op && op != cfg.OpInvalid && dst && len(ins) == 3 && args(ins[1], ins[2])
}

// binaryOpOf is the instruction of a binary node's op, or OpInvalid. It
// is the checker's own table, not emission's (binaryOps), so that a wrong
// entry there is not wrong here too.
func binaryOpOf(op son.Op) cfg.Op {
	switch op {
	case son.OpAdd:
		return cfg.OpAdd
	case son.OpSub:
		return cfg.OpSub
	case son.OpMul:
		return cfg.OpMul
	case son.OpDiv:
		return cfg.OpDiv
	case son.OpMod:
		return cfg.OpMod
	case son.OpAnd:
		return cfg.OpAnd
	case son.OpOr:
		return cfg.OpOr
	case son.OpXor:
		return cfg.OpXor
	case son.OpShl:
		return cfg.OpShl
	case son.OpSar:
		return cfg.OpSar
	case son.OpShr:
		return cfg.OpShr
	case son.OpEq:
		return cfg.OpEq
	case son.OpNe:
		return cfg.OpNe
	case son.OpLt:
		return cfg.OpLt
	case son.OpLe:
		return cfg.OpLe
	}
	return cfg.OpInvalid
}

// isHead reports whether control node n starts a block: a projection (of
// Start, an If or a Never), a Region or a Loop.
func isHead(n node) bool {
	return n.op == son.OpCProj || n.op == son.OpRegion || n.op == son.OpLoop
}
