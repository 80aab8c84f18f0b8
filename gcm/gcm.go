// Package gcm is Click's global code motion ("Global Code Motion / Global
// Value Numbering", PLDI'95; paper 001, section 4): it turns the Sea of
// Nodes into a cfg.Func at the SSA level. The control nodes become basic
// blocks (blocks.go); each data node is then scheduled early — in the
// shallowest block where all its inputs are available — and late — in
// the lowest common dominator of its uses, a Phi's use counting at the end
// of the matching predecessor — and placed on the dominator path between
// the two in the block of the smallest loop depth, the latest among equals:
// loop-invariant work leaves loops, and nothing is computed on a path that
// does not need it. Constants are rematerialized (remat.go): one Const in
// each block a use needs it in, the block the same search would pick for
// that use alone (remembered per block), so that a constant shared by
// distant uses is not live across the blocks between; the arms that only
// give a join's Phi the constant share one copy where that is short.
// Every node's register is its ID, but for those copies.
// A list scheduler orders each block. Check verifies a schedule
// independently of the pass. Cost: O(n log n) in the nodes and
// blocks. Where Click walks up the dominator tree one block at a time (for
// the common dominator of two uses, and along the path from late to
// early), which costs the depth of the tree per edge and is quadratic on a
// long program, both searches here climb by the tree's jump pointers
// (dom.Tree.Jump) in O(log n) steps.
package gcm

import (
	"cmp"
	"fmt"
	"slices"

	"son/cfg"
	"son/internal/dom"
	"son/son"
)

// Result is a schedule: the function, and where each node went. The
// places are the scheduler's own arrays by node ID, block numbers into
// Func.Blocks (4 bytes each, 0 for none), read through methods: the
// scheduler's blocks are garbage once it returns (on the `and` shape at
// 1 MB, they were 49 MB kept until the graph went). The numbers hold while
// Func's list of blocks is gcm's.
type Result struct {
	Func *cfg.Func

	where       []int32 // by node ID: a control node's block, or a data node's place, 1 + index
	early, late []int32 // by node ID: a data node's bounds, 1 + index
}

// at returns the cfg block numbered a[id] (1 + index), nil if none.
func (r *Result) at(a []int32, id int) *cfg.Block {
	if id < 0 || id >= len(a) || a[id] == 0 {
		return nil
	}
	return r.Func.Blocks[a[id]-1]
}

// Block is the block of the node with this ID, data or control, nil if it
// was not scheduled (the exit of a Never, dead values); for a constant
// with several copies, the block of the first, in block order (the one
// whose register is the node's ID).
func (r *Result) Block(id int) *cfg.Block { return r.at(r.where, id) }

// Early and Late are the bounds schedule early and late found for a data
// node, for people studying the algorithm (nil for other IDs).
func (r *Result) Early(id int) *cfg.Block { return r.at(r.early, id) }

// Late: see Early.
func (r *Result) Late(id int) *cfg.Block { return r.at(r.late, id) }

// Schedule builds the cfg.Func of g, with where each node went.
func Schedule(g *son.Graph) (*Result, error) { return run(g, true) }

// ScheduleFunc builds the cfg.Func of g alone, for a caller that reads
// nothing of the placement (the compiler under DropGraph): the arrays by
// node ID that Result keeps go as soon as emit is done with them, so
// that they are not live beside the function it makes (on the `and`
// shape at 1 MB, 5.1 MB of the gcm pass's peak). The function is the
// same as Schedule's.
func ScheduleFunc(g *son.Graph) (*cfg.Func, error) {
	r, err := run(g, false)
	if err != nil {
		return nil, err
	}
	return r.Func, nil
}

// run builds the cfg.Func of g, and with keep the arrays of Result.
func run(g *son.Graph, keep bool) (*Result, error) {
	sk, err := buildSkeleton(g)
	if err != nil {
		return nil, err
	}
	s := &scheduler{g: g, sk: sk, n: len(sk.blocks)}
	s.tree = dom.NewTree(dom.LengauerTarjanFlat(sk.succIndex()))
	s.loop = sk.loopDepths()
	s.shallowSegments()
	s.findPhis()
	if err := s.collect(); err != nil {
		return nil, err
	}
	s.early = make([]int32, g.MaxID())
	s.late = make([]int32, g.MaxID())
	s.place = make([]int32, g.MaxID())
	s.scheduleEarly()
	s.scheduleLate()
	// Placement is done: the dominator tree and its search arrays are
	// garbage before the function is made, not live beside it (on the
	// `and` shape at 1 MB, 13 MB of the gcm pass's peak); the uses of a
	// constant's copies find theirs through target, which stays. The
	// block of each control node goes too (emit finds the order of a
	// Phi's arguments from its block's predecessors), into where, place's
	// array, if Result keeps it; early and late go if it does not.
	s.tree, s.shallow, s.stamp, s.slot, s.targets, s.phiOnly, s.keep, s.cand = nil, nil, nil, nil, nil, nil, nil, nil
	var where []int32
	if keep {
		// where is place with the control nodes' blocks added: no ID has
		// both, and emit reads place for the data nodes only.
		where = s.place
		for id, k := range s.sk.of {
			if k != 0 {
				where[id] = k
			}
		}
	} else {
		s.early, s.late = nil, nil
	}
	s.sk.of = nil
	return &Result{Func: s.emit(keep), where: where, early: s.early, late: s.late}, nil
}

type scheduler struct {
	g    *son.Graph
	sk   *skeleton
	n    int
	tree *dom.Tree
	loop []int32 // loop depth by block index
	// shallow[b] is the block of least loop depth, the deepest among
	// equals, on the dominator path from b up to its jump, the jump
	// excluded (see dom.Tree.Jump): placement's search takes O(log n).
	shallow []int32

	data []*son.Node // the data nodes to place, each after its non-Phi inputs
	need []bool      // by node ID: in data
	// By node ID, a data node's blocks as numbers, 1 + index (0: none):
	// schedule early's, schedule late's, and where it goes.
	early []int32
	late  []int32
	place []int32

	// target[b] is the block a constant's use in block b targets (by
	// index): the block of least loop depth on the dominator path from b
	// up to the entry, the deepest among equals (remat.go).
	target  []int32
	copies  []int32    // the blocks of the copies of the constants placed in several blocks, as numbers, run by run (remat.go)
	stamp   []int32    // by block index: 1 + the ID of the last constant that targeted it, or a walk's mark (negative)
	slot    []int32    // by block index: the position of a constant's target in targets
	targets []int32    // scratch: the blocks a constant's uses target, as numbers
	phiOnly []bool     // scratch, by position in targets: whether only Phis use the copy there
	keep    []bool     // scratch, by position in targets: whether it keeps a copy of its own (shareAtJoins)
	cand    [][3]int32 // scratch: the targets that may share a copy (shareAtJoins)
	walk    int32      // the mark of shareAtJoins' last walk in stamp, negative
	aliases [][2]int32 // the targets that share a copy, with its block, as numbers, run by run (remat.go)
	runs    []constRun // by run number: where a constant with copies has its entries
	runOf   []int32    // by node ID: 1 + a constant's run number, 0 if it has no copies (nil if none has)
	nextReg cfg.Reg    // the register of the next copy
}

// roots are the data nodes control needs: ZeroCheck divisors, branch
// conditions, returned values, and the Phis of every region block.
func (s *scheduler) roots() []*son.Node {
	var r []*son.Node
	for _, b := range s.sk.blocks {
		r = append(r, s.sk.phisOf(b)...)
		for _, c := range s.sk.checksOf(b) {
			r = append(r, c.In[1])
		}
		if l := b.last; l != nil && (l.Op == son.OpIf || l.Op == son.OpReturn) {
			r = append(r, l.In[1])
		}
	}
	return r
}

// collect finds the data nodes to place, in an order where each comes
// after its inputs, Phis' inputs excepted (a Phi's place is fixed).
func (s *scheduler) collect() error {
	s.need = make([]bool, s.g.MaxID())
	type frame struct {
		n *son.Node
		i int
	}
	var stack []frame
	visit := func(n *son.Node) {
		if !s.need[n.ID] {
			s.need[n.ID] = true
			stack = append(stack, frame{n, 0})
		}
	}
	// A depth-first post order over inputs, not going through Phis: their
	// inputs are roots of their own, so the order is a topological one of
	// the acyclic dependencies among the other nodes.
	roots := s.roots()
	for len(roots) > 0 {
		r := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		visit(r)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.n.Op == son.OpPhi {
				for _, x := range f.n.In[1:] {
					roots = append(roots, x)
				}
				f.i = len(f.n.In)
			}
			if f.i < len(f.n.In) {
				x := f.n.In[f.i]
				f.i++
				if x != nil && !x.IsControl() {
					visit(x)
				}
				continue
			}
			s.data = append(s.data, f.n)
			stack = stack[:len(stack)-1]
		}
	}
	for _, n := range s.data {
		if n.Op == son.OpConstant && n.Type().IsTop() {
			return fmt.Errorf("%v, a value never computed, is used by code that runs", n)
		}
		if n.Op == son.OpPhi && s.sk.blockOf(n.In[0]) == nil {
			return fmt.Errorf("%v belongs to %v, which is not a block", n, n.In[0])
		}
		if c := n.Ctrl(); c != nil && n.Op != son.OpPhi && n.Op != son.OpProj && s.sk.blockOf(c) == nil {
			return fmt.Errorf("%v is under %v, which is not in a block", n, c)
		}
	}
	return nil
}

// findPhis lists in each region block the Phis of its region, by ID, the
// lists cut from one array.
func (s *scheduler) findPhis() {
	total := 0
	for _, b := range s.sk.blocks {
		if b.head.Op.IsRegion() {
			total += len(b.head.Out)
		}
	}
	all := make([]*son.Node, 0, total)
	at := make([]int32, len(s.sk.blocks)+1)
	for i, b := range s.sk.blocks {
		at[i+1] = int32(len(all))
		if !b.head.Op.IsRegion() {
			continue
		}
		start := len(all)
		for _, u := range b.head.Out {
			if u.Op == son.OpPhi && u.In[0] == b.head {
				all = append(all, u)
			}
		}
		at[i+1] = int32(len(all))
		slices.SortFunc(all[start:], func(x, y *son.Node) int { return cmp.Compare(x.ID, y.ID) })
	}
	s.sk.phis, s.sk.phiAt = all, at
}

func (s *scheduler) entry() *block { return s.sk.blocks[0] }

// block is the block numbered k (1 + index), nil for 0.
func (s *scheduler) block(k int32) *block {
	if k == 0 {
		return nil
	}
	return s.sk.blocks[k-1]
}

// deeper returns whichever of a and b is deeper in the dominator tree.
func (s *scheduler) deeper(a, b *block) *block {
	if a == nil || s.tree.Depth(int(b.index)) > s.tree.Depth(int(a.index)) {
		return b
	}
	return a
}

// scheduleEarly: a Phi stays in its region's block; anything else goes to
// the deepest of its inputs' early blocks and the block of its control
// input (a division below its ZeroCheck), the entry if it has none.
func (s *scheduler) scheduleEarly() {
	for _, n := range s.data {
		var b *block
		switch {
		case n.Op == son.OpPhi:
			b = s.sk.blockOf(n.In[0])
		default:
			b = s.entry()
			if c := n.Ctrl(); c != nil && c.IsControl() && n.Op != son.OpProj {
				b = s.deeper(b, s.sk.blockOf(c))
			}
			for _, x := range n.In {
				if x != nil && !x.IsControl() {
					b = s.deeper(b, s.block(s.early[x.ID]))
				}
			}
		}
		s.early[n.ID] = b.number()
	}
}

// lca is the lowest common dominator of a and b (a may be nil), found
// by the dominator tree's jump pointers in O(log n) steps rather than by
// Click's walk up both paths, which costs the depth of the tree: on a
// long program, a value used at both ends made scheduling quadratic.
func (s *scheduler) lca(a, b *block) *block {
	if a == nil {
		return b
	}
	return s.sk.blocks[s.tree.LCA(int(a.index), int(b.index))]
}

// shallower returns whichever of the blocks a and b (by index) has the
// smaller loop depth, a if they are equal; a is below b on a dominator
// path, or -1.
func (s *scheduler) shallower(a, b int) int {
	if a < 0 || s.loop[b] < s.loop[a] {
		return b
	}
	return a
}

// shallowSegments computes shallow, and target for the constants,
// dominators first.
func (s *scheduler) shallowSegments() {
	s.shallow = make([]int32, s.n)
	s.target = make([]int32, s.n)
	for _, b := range s.tree.Preorder() {
		p, j := s.tree.Idom(b), s.tree.Jump(b)
		if b != 0 {
			s.target[b] = int32(s.shallower(b, int(s.target[p])))
		}
		switch {
		case b == 0 || j == p:
			s.shallow[b] = int32(b)
		default: // b, then p up to its jump, then that up to its jump (= j)
			s.shallow[b] = int32(s.shallower(s.shallower(b, int(s.shallow[p])), int(s.shallow[s.tree.Jump(p)])))
		}
	}
}

// shallowest returns the block of least loop depth on the dominator path
// from late up to early (both included), the deepest among equals.
func (s *scheduler) shallowest(late, early *block) *block {
	best, v, stop := -1, int(late.index), int(early.index)
	for v != stop && v != 0 {
		if j := s.tree.Jump(v); s.tree.Depth(j) >= s.tree.Depth(stop) {
			best, v = s.shallower(best, int(s.shallow[v])), j
		} else {
			best, v = s.shallower(best, v), s.tree.Idom(v)
		}
	}
	return s.sk.blocks[s.shallower(best, v)]
}

// scheduleLate places each node, users first: its late block is the
// lowest common dominator of where its uses are; it goes, on the
// dominator path from there up to its early block, to the block of the
// smallest loop depth, the latest among equals. A constant goes where
// each of its uses alone would put it (placeConstant).
func (s *scheduler) scheduleLate() {
	for i := len(s.data) - 1; i >= 0; i-- {
		n := s.data[i]
		if n.Op == son.OpPhi {
			s.late[n.ID], s.place[n.ID] = s.early[n.ID], s.early[n.ID]
			continue
		}
		early := s.block(s.early[n.ID])
		if n.Op == son.OpConstant {
			s.placeConstant(n, early)
			continue
		}
		var late *block
		for k, u := range n.Out {
			if b := s.useBlock(n, k, u); b != nil {
				late = s.lca(late, b)
			}
		}
		if late == nil {
			late = early // used only where control never goes (a Never's exit)
		}
		s.late[n.ID] = late.number()
		s.place[n.ID] = s.shallowest(late, early).number()
	}
}

// useBlock is the block where n's k-th use, by u, needs n's value: the
// block of a control node, the place of a data node, the end of the
// region's i-th predecessor for a Phi's input i (n.Out lists n once per
// use); nil for a use by nothing control needs.
func (s *scheduler) useBlock(n *son.Node, k int, u *son.Node) *block {
	switch {
	case u.Op == son.OpPhi && s.need[u.ID]:
		r := s.sk.blockOf(u.In[0])
		if i := n.UseIndex(k); i >= 1 {
			return s.sk.blockOf(r.head.In[i])
		}
	case u.IsControl():
		if b := s.sk.blockOf(u); b != nil && u.Op != son.OpNever {
			return b
		}
	case s.need[u.ID]:
		return s.block(s.place[u.ID])
	}
	return nil
}

// emit builds the cfg.Func: blocks in reverse postorder, each with its
// Phis, its instructions in an order that respects every dependency, and
// its terminator. The blocks, Phis, instructions and their lists are cut
// from a few arrays (each list full to its capacity, so that a pass
// appending to one copies it out), not allocated one by one. The nodes of
// each block are listed before the function's arrays are made: unless
// keep, place then goes (its array is the orderer's), so that the
// function's blocks are not allocated beside it.
func (s *scheduler) emit(keep bool) *cfg.Func {
	// The data nodes placed in each block, in the order of s.data: counted,
	// then cut from one array.
	// A constant with copies is in the list of each of their blocks.
	count := make([]int32, s.n+1)
	for _, n := range s.data {
		if n.Op != son.OpPhi && !s.hasCopies(n) {
			count[s.place[n.ID]]++ // 1 + index
		}
	}
	for _, b := range s.copies {
		count[b]++
	}
	for i := range s.n {
		count[i+1] += count[i]
	}
	placed := make([]int32, count[s.n]) // node IDs, half the size of pointers
	fill := count[:s.n:s.n]
	for _, n := range s.data {
		if n.Op != son.OpPhi && !s.hasCopies(n) {
			p := s.place[n.ID] - 1
			placed[fill[p]] = int32(n.ID)
			fill[p]++
		}
	}
	for _, r := range s.runs {
		for _, b := range s.copies[r.at : r.at+r.n] {
			placed[fill[b-1]] = r.id
			fill[b-1]++
		}
	}
	s.data = nil // in placed now, block by block
	// fill[i] is now where block i's nodes end, and block i-1's too start
	// at fill[i-1] (0 for the entry).
	var pos []int32 // the orderer's array by node ID
	if !keep {
		pos, s.place = s.place, nil
	}
	o := newOrderer(s.g, s.sk, pos)

	f := &cfg.Func{Name: s.g.Name, Level: cfg.SSA, Blocks: make([]*cfg.Block, s.n)}
	// The function's blocks are cut from chunks of blockChunk, each made
	// when the walk below first needs one of its blocks (its own, or an
	// edge's), and the walk lets each skeleton block go once it has
	// passed it: the two sets of blocks are not live whole at once (on the
	// `and` shape at 1 MB, 12 MB of skeleton blocks beside 38 MB of
	// cfg.Blocks at the gcm pass's peak).
	cfgBlock := func(i int32) *cfg.Block {
		if f.Blocks[i] == nil {
			c := i / blockChunk * blockChunk
			chunk := make([]cfg.Block, min(blockChunk, int32(s.n)-c))
			for k := range chunk {
				f.Blocks[c+int32(k)] = &chunk[k]
			}
		}
		return f.Blocks[i]
	}
	edges, phis := 0, 0
	for _, b := range s.sk.blocks {
		edges += int(b.numPreds()) // the successors are held in the cfg.Block
		for _, phi := range s.sk.phisOf(b) {
			if s.need[phi.ID] {
				phis++
			}
		}
	}
	var a arena
	var perm []int32 // the order of the Phis' arguments, block by block
	lists := make([]*cfg.Block, edges)
	cfgBlocks := func(bs []int32) []*cfg.Block {
		if len(bs) == 0 {
			return nil
		}
		l := lists[:len(bs):len(bs)]
		lists = lists[len(bs):]
		for i, b := range bs {
			l[i] = cfgBlock(b)
		}
		return l
	}
	phiSlab := make([]cfg.Phi, phis)
	phiList := make([]*cfg.Phi, phis)
	instrList := make([]*cfg.Instr, len(placed)+s.checks())
	start := int32(0)
	for i, b := range s.sk.blocks {
		cb := cfgBlock(int32(i))
		*cb = cfg.Block{ID: i + 1, LoopDepth: int32(s.loop[i])} // only its address was taken before
		// The predecessors, in the order of the head region's inputs,
		// which a Phi's arguments follow, then in block order, as
		// cfg.Parse reads them back.
		preds := s.sk.predsOf(b)
		np := 0
		for _, phi := range s.sk.phisOf(b) {
			if !s.need[phi.ID] {
				continue
			}
			if np == 0 {
				perm = predOrder(preds, perm)
			}
			args := a.regs(len(preds))
			for i, k := range perm {
				args[i] = s.regAt(phi.In[1+k], preds[k])
			}
			phiSlab[np] = cfg.Phi{Dst: cfg.Reg(phi.ID), Args: args, Pos: phi.Pos, Node: phi.ID}
			phiList[np] = &phiSlab[np]
			np++
		}
		if np > 0 {
			cb.Phis = phiList[:np:np]
			phiSlab, phiList = phiSlab[np:], phiList[np:]
		}
		slices.Sort(preds)
		cb.Preds = cfgBlocks(preds)
		for _, t := range s.sk.succsOf(b) {
			cb.AddSucc(cfgBlock(t))
		}
		end := fill[b.index]
		if order := o.order(b, placed[start:end]); len(order) > 0 {
			if k := len(order); k <= len(instrList) {
				cb.Instrs, instrList = instrList[:k:k], instrList[k:]
			} else {
				// More than the block's nodes: a broken local schedule,
				// which Check reports rather than the pass failing here.
				cb.Instrs = make([]*cfg.Instr, k)
			}
			for i, n := range order {
				cb.Instrs[i] = a.instr(s, n, b)
			}
		}
		start = end
		switch l := b.last; {
		case l != nil && l.Op == son.OpIf:
			cb.Term = cfg.Term{Kind: cfg.TermBranch, Reg: s.regAt(l.In[1], b.index), Pos: l.Pos, Node: l.ID}
		case l != nil && l.Op == son.OpReturn:
			cb.Term = cfg.Term{Kind: cfg.TermReturn, Reg: s.regAt(l.In[1], b.index), Pos: l.Pos, Node: l.ID}
		case l != nil && l.Op == son.OpNever:
			cb.Term = cfg.Term{Kind: cfg.TermJump, Pos: l.Pos, Node: l.ID}
		default:
			cb.Term = cfg.Term{Kind: cfg.TermJump}
		}
		s.sk.blocks[i] = nil // its chunk goes with the last of its blocks
	}
	s.loop = nil
	return f
}

// checks counts the ZeroChecks of the blocks.
func (s *scheduler) checks() int {
	return len(s.sk.checks)
}

// binaryOps is the cfg op of each binary son op, by son op (zero for
// the others).
var binaryOps = [256]cfg.Op{
	son.OpAdd: cfg.OpAdd, son.OpSub: cfg.OpSub, son.OpMul: cfg.OpMul, son.OpDiv: cfg.OpDiv,
	son.OpMod: cfg.OpMod, son.OpAnd: cfg.OpAnd, son.OpOr: cfg.OpOr, son.OpXor: cfg.OpXor,
	son.OpShl: cfg.OpShl, son.OpSar: cfg.OpSar, son.OpShr: cfg.OpShr,
	son.OpEq: cfg.OpEq, son.OpNe: cfg.OpNe, son.OpLt: cfg.OpLt, son.OpLe: cfg.OpLe,
}

// arena hands out the instructions of the function and the registers of
// their arguments from chunks, a few allocations per thousand
// instructions instead of two per instruction. Each argument list is full
// to its capacity, so that a pass appending to one copies it out.
type arena struct {
	instrs []cfg.Instr
	args   []cfg.Reg
}

// regs returns k zero registers.
func (a *arena) regs(k int) []cfg.Reg {
	if len(a.args) < k {
		a.args = make([]cfg.Reg, max(k, 1024))
	}
	r := a.args[:k:k]
	a.args = a.args[k:]
	return r
}

// instr makes the instruction of n in block b: its register is its ID
// (a constant's copy's own), its arguments the registers s.regAt says.
func (a *arena) instr(s *scheduler, n *son.Node, b *block) *cfg.Instr {
	if len(a.instrs) == 0 {
		a.instrs = make([]cfg.Instr, 256)
	}
	i := &a.instrs[0]
	a.instrs = a.instrs[1:]
	*i = cfg.Instr{Dst: cfg.Reg(n.ID), Pos: n.Pos, Node: n.ID}
	switch {
	case n.Op == son.OpZeroCheck:
		i.Op, i.Dst, i.Args = cfg.OpCheck, 0, a.regs(1)
		i.Args[0] = s.regAt(n.In[1], b.index)
	case n.Op == son.OpConstant:
		i.Op, i.Aux, i.Dst = cfg.OpConst, n.Aux, s.dstAt(n, b)
	case n.Op == son.OpProj:
		i.Op = cfg.OpArg
	case n.Op == son.OpMinus:
		i.Op, i.Args = cfg.OpNeg, a.regs(1)
		i.Args[0] = s.regAt(n.In[1], b.index)
	case n.Op == son.OpNot:
		i.Op, i.Args = cfg.OpNot, a.regs(1)
		i.Args[0] = s.regAt(n.In[1], b.index)
	default:
		i.Op, i.Args = binaryOps[n.Op], a.regs(2)
		i.Args[0], i.Args[1] = s.regAt(n.In[1], b.index), s.regAt(n.In[2], b.index)
	}
	return i
}
