// Package fromcfg translates a function in basic-block SSA form (cfg.SSA)
// into a Sea of Nodes graph, the last step of the second way into the
// compiler (source → RTL → SSA → graph), after which the whole graph
// pipeline runs. Blocks become control: the entry Start's control
// projection, a junction a Region, or a Loop when some of its predecessors
// come back to it (a Loop takes one entry and one back edge: several of
// either are merged by a Region first, and their Phis by a Phi of that
// Region); a Branch an If and its two projections; a Check a ZeroCheck on
// the control path, which the Div or Mod of the checked register takes as
// its control; a Return a Return. Phis become Phis of their Region or
// Loop; every other instruction becomes a floating data node (a Copy is
// the node of its argument). A loop from which no Return can be reached
// gets a Never on its back edge, whose exit returns the Top value, as
// son.Build does, so that Stop reaches it.
//
// The graph is built with son.Graph.NewNode, without peepholes: the
// pipeline's peephole pass runs them. What Stop does not reach is killed.
// Cost: O(n + m) plus the dominators (Lengauer–Tarjan).
package fromcfg

import (
	"fmt"

	"son/cfg"
	"son/internal/dom"
	"son/son"
	"son/types"
)

// Graph returns the Sea of Nodes of f, an SSA function that cfg.Verify
// accepts. Irreducible control flow, which a Loop cannot express, and a
// Div or Mod by a register that no Check of its block tested (unless the
// register is a non-zero constant) are errors.
func Graph(f *cfg.Func) (*son.Graph, error) {
	if f == nil || f.Level != cfg.SSA {
		return nil, fmt.Errorf("fromcfg: not an SSA function")
	}
	if err := cfg.Verify(f); err != nil {
		return nil, fmt.Errorf("fromcfg: %w", err)
	}
	t := &translator{f: f, g: son.NewGraph(f.Name), n: len(f.Blocks), checks: map[*son.Node]*son.Node{}}
	if err := t.order(); err != nil {
		return nil, err
	}
	t.build()
	if t.err != nil {
		return nil, t.err
	}
	t.closeLoops()
	t.keepInfiniteLoops()
	t.sweep()
	return t.g, nil
}

type translator struct {
	f   *cfg.Func
	g   *son.Graph
	n   int
	pos map[*cfg.Block]int
	rpo []int // block positions in reverse postorder
	num []int // the reverse postorder number of each block
	err error

	val     map[cfg.Reg]*son.Node
	entry   []*son.Node // the control on entry to each block
	exit    []*son.Node // the control at the end of each block (before its terminator's If)
	ifs     []*son.Node // the If ending each block that branches
	loops   []*loopInfo // by block position, for the junctions that are loop heads
	pending []pendingPhi
	arg     *son.Node
	checks  map[*son.Node]*son.Node // the latest ZeroCheck of each value in the block being built
}

// loopInfo is a loop head: its Loop, the Region merging several back
// edges (or nil), and its predecessors split into entries and back edges.
type loopInfo struct {
	loop, backRegion *son.Node
	backPhis         []*son.Node // the Phis of backRegion
	fwd, back        []int       // indices into the head's Preds
	block            int
}

// pendingPhi is a Phi input to set once every block is built: input in of
// node phi takes register r.
type pendingPhi struct {
	phi  *son.Node
	in   int
	r    cfg.Reg
	node *son.Node // instead of r
}

func (t *translator) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf("fromcfg: "+format, args...)
	}
}

// order numbers the blocks in reverse postorder and checks that the
// control flow is reducible: every edge to a block that comes no later in
// that order goes to a block that dominates its source.
func (t *translator) order() error {
	t.pos = make(map[*cfg.Block]int, t.n)
	for i, b := range t.f.Blocks {
		t.pos[b] = i
	}
	succ := make([][]int, t.n)
	for i, b := range t.f.Blocks {
		for _, s := range b.Succs() {
			succ[i] = append(succ[i], t.pos[s])
		}
	}
	tree := dom.NewTree(dom.LengauerTarjan(succ))
	t.num = make([]int, t.n)
	type frame struct{ b, next int }
	seen := make([]bool, t.n)
	var post []int
	stack := []frame{{0, 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(succ[top.b]) {
			s := succ[top.b][top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		t.num[post[i]] = len(t.rpo)
		t.rpo = append(t.rpo, post[i])
	}
	for i := range t.n {
		for _, s := range succ[i] {
			if t.num[s] <= t.num[i] && !tree.Dominates(s, i) {
				return fmt.Errorf("fromcfg: irreducible control flow: the edge %v → %v enters a loop that %v does not head", t.f.Blocks[i], t.f.Blocks[s], t.f.Blocks[s])
			}
		}
	}
	return nil
}

// build makes the control and data of every block, in reverse postorder,
// leaving the back edges of loops and the Phi inputs they bring to
// closeLoops.
func (t *translator) build() {
	g := t.g
	t.val = map[cfg.Reg]*son.Node{}
	t.entry = make([]*son.Node, t.n)
	t.exit = make([]*son.Node, t.n)
	t.ifs = make([]*son.Node, t.n)
	t.loops = make([]*loopInfo, t.n)
	for _, i := range t.rpo {
		if t.err != nil {
			return
		}
		b := t.f.Blocks[i]
		var ctrl *son.Node
		switch {
		case i == 0:
			ctrl = g.NewNode(son.OpCProj, 0, g.Start)
			t.arg = g.NewNode(son.OpProj, 1, g.Start)
			g.SetLabel(t.arg, "arg")
		case len(b.Preds) == 1:
			ctrl = t.edge(b.Preds[0], b)
		default:
			ctrl = t.junction(i, b)
		}
		t.entry[i] = ctrl
		clear(t.checks)
		for _, in := range b.Instrs {
			ctrl = t.instr(b, in, ctrl)
		}
		t.exit[i] = ctrl
		switch b.Term.Kind {
		case cfg.TermBranch:
			iff := g.NewNode(son.OpIf, 0, ctrl, t.value(b.Term.Reg))
			iff.Pos = b.Term.Pos
			t.ifs[i] = iff
		case cfg.TermReturn:
			ret := g.NewNode(son.OpReturn, 0, ctrl, t.value(b.Term.Reg))
			ret.Pos = b.Term.Pos
			g.AddReturn(ret)
		}
	}
}

// edge is the control along the edge from p to its successor s: a
// projection of p's If, or p's control if p jumps.
func (t *translator) edge(p, s *cfg.Block) *son.Node {
	pi := t.pos[p]
	if p.Term.Kind != cfg.TermBranch {
		return t.exit[pi]
	}
	k := int64(0)
	if p.Succs()[1] == s {
		k = 1
	}
	return t.g.NewNode(son.OpCProj, k, t.ifs[pi])
}

// junction makes the Region or Loop of block i and its Phis.
func (t *translator) junction(i int, b *cfg.Block) *son.Node {
	g := t.g
	var fwd, back []int
	for k, p := range b.Preds {
		if t.num[t.pos[p]] >= t.num[i] {
			back = append(back, k)
		} else {
			fwd = append(fwd, k)
		}
	}
	// merge makes a Region of the given predecessors (or takes the one
	// control), now for entries, later for back edges.
	merge := func(ks []int) *son.Node {
		if len(ks) == 1 {
			return t.edge(b.Preds[ks[0]], b)
		}
		in := []*son.Node{nil}
		for _, k := range ks {
			in = append(in, t.edge(b.Preds[k], b))
		}
		return g.NewNode(son.OpRegion, 0, in...)
	}
	if len(back) == 0 {
		r := merge(fwd)
		for _, p := range b.Phis {
			in := []*son.Node{r}
			for _, a := range p.Args {
				in = append(in, t.value(a))
			}
			phi := g.NewNode(son.OpPhi, 0, in...)
			phi.Pos = p.Pos
			t.val[p.Dst] = phi
		}
		return r
	}
	li := &loopInfo{fwd: fwd, back: back, block: i}
	t.loops[i] = li
	entry := merge(fwd)
	li.loop = g.NewNode(son.OpLoop, 0, nil, entry, nil)
	if len(back) > 1 {
		// Its inputs come in closeLoops.
		li.backRegion = g.NewNode(son.OpRegion, 0, make([]*son.Node, 1+len(back))...)
	}
	for _, p := range b.Phis {
		var in *son.Node
		if len(fwd) == 1 {
			in = t.value(p.Args[fwd[0]])
		} else {
			ins := []*son.Node{entry}
			for _, k := range fwd {
				ins = append(ins, t.value(p.Args[k]))
			}
			in = g.NewNode(son.OpPhi, 0, ins...)
		}
		phi := g.NewNode(son.OpPhi, 0, li.loop, in, nil)
		phi.Pos = p.Pos
		t.val[p.Dst] = phi
		if len(back) == 1 {
			t.pending = append(t.pending, pendingPhi{phi: phi, in: 2, r: p.Args[back[0]]})
			continue
		}
		ins := make([]*son.Node, 1+len(back))
		ins[0] = li.backRegion
		bp := g.NewNode(son.OpPhi, 0, ins...)
		for j, k := range back {
			t.pending = append(t.pending, pendingPhi{phi: bp, in: 1 + j, r: p.Args[k]})
		}
		li.backPhis = append(li.backPhis, bp)
		t.pending = append(t.pending, pendingPhi{phi: phi, in: 2, node: bp})
	}
	return li.loop
}

// value is the node of register r, defined already.
func (t *translator) value(r cfg.Reg) *son.Node {
	n := t.val[r]
	if n == nil {
		t.fail("%v is used before its definition in reverse postorder", r)
		return t.g.Con(0)
	}
	return n
}

var binOps = map[cfg.Op]son.Op{
	cfg.OpAdd: son.OpAdd, cfg.OpSub: son.OpSub, cfg.OpMul: son.OpMul, cfg.OpDiv: son.OpDiv, cfg.OpMod: son.OpMod,
	cfg.OpAnd: son.OpAnd, cfg.OpOr: son.OpOr, cfg.OpXor: son.OpXor,
	cfg.OpShl: son.OpShl, cfg.OpSar: son.OpSar, cfg.OpShr: son.OpShr,
	cfg.OpEq: son.OpEq, cfg.OpNe: son.OpNe, cfg.OpLt: son.OpLt, cfg.OpLe: son.OpLe,
}

// instr translates one instruction of b at control ctrl and returns the
// control after it (a Check moves it to its ZeroCheck).
func (t *translator) instr(b *cfg.Block, in *cfg.Instr, ctrl *son.Node) *son.Node {
	g := t.g
	var n *son.Node
	switch in.Op {
	case cfg.OpConst:
		n = g.Con(in.Aux)
	case cfg.OpArg:
		n = t.arg
	case cfg.OpCopy:
		n = t.value(in.Args[0])
	case cfg.OpNeg:
		n = g.NewNode(son.OpMinus, 0, nil, t.value(in.Args[0]))
	case cfg.OpNot:
		n = g.NewNode(son.OpNot, 0, nil, t.value(in.Args[0]))
	case cfg.OpCheck:
		zc := g.NewNode(son.OpZeroCheck, 0, ctrl, t.value(in.Args[0]))
		zc.Pos = in.Pos
		t.checks[zc.In[1]] = zc
		return zc
	default:
		op, ok := binOps[in.Op]
		if !ok {
			t.fail("%v: unknown op %v", b, in.Op)
			return ctrl
		}
		x, y := t.value(in.Args[0]), t.value(in.Args[1])
		var c *son.Node
		if op == son.OpDiv || op == son.OpMod {
			// The ZeroCheck of the divisor on this block's path, the
			// latest one; none is needed for a non-zero constant.
			c = t.checks[y]
			if c == nil && !(y.Op == son.OpConstant && y.Aux != 0) {
				t.fail("%v: %v divides by %v, which no Check of the block tests", b, in, in.Args[1])
				return ctrl
			}
		}
		n = g.NewNode(op, 0, c, x, y)
	}
	if in.Pos.IsKnown() && in.Op != cfg.OpConst && in.Op != cfg.OpArg && in.Op != cfg.OpCopy {
		n.Pos = in.Pos
	}
	t.val[in.Dst] = n
	return ctrl
}

// closeLoops sets the back edges of the Loops and the Phi inputs they
// bring, now that every block has its control and values.
func (t *translator) closeLoops() {
	g := t.g
	for _, li := range t.loops {
		if li == nil {
			continue
		}
		b := t.f.Blocks[li.block]
		if li.backRegion == nil {
			g.SetIn(li.loop, 2, t.edge(b.Preds[li.back[0]], b))
			continue
		}
		for j, k := range li.back {
			g.SetIn(li.backRegion, 1+j, t.edge(b.Preds[k], b))
		}
		g.SetIn(li.loop, 2, li.backRegion)
	}
	for _, p := range t.pending {
		if p.node != nil {
			g.SetIn(p.phi, p.in, p.node)
		} else {
			g.SetIn(p.phi, p.in, t.value(p.r))
		}
	}
	// The types of the back edges' Regions and Phis, made before their
	// inputs, from their inputs now (the Loop Phis they feed are typed as
	// in progress, Int, as son.Build types them).
	for _, li := range t.loops {
		if li != nil && li.backRegion != nil {
			g.SetType(li.backRegion, g.Compute(li.backRegion))
			for _, bp := range li.backPhis {
				g.SetType(bp, g.Compute(bp))
			}
		}
	}
}

// keepInfiniteLoops gives each loop from which no Return can be reached a
// Never on its back edge, whose exit returns the Top value, outermost
// (first in reverse postorder) first, until every block reaches a Return.
func (t *translator) keepInfiniteLoops() {
	g := t.g
	reaches := make([]bool, t.n)
	var work []int
	mark := func(i int) {
		if !reaches[i] {
			reaches[i] = true
			work = append(work, i)
		}
	}
	for i, b := range t.f.Blocks {
		if b.Term.Kind == cfg.TermReturn {
			mark(i)
		}
	}
	for {
		for len(work) > 0 {
			i := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range t.f.Blocks[i].Preds {
				mark(t.pos[p])
			}
		}
		head := -1
		for _, i := range t.rpo {
			if !reaches[i] && t.loops[i] != nil {
				head = i
				break
			}
		}
		if head < 0 {
			return
		}
		loop := t.loops[head].loop
		never := g.NewNode(son.OpNever, 0, loop.In[2])
		never.Pos = loop.Pos
		around := g.NewNode(son.OpCProj, 0, never)
		exit := g.NewNode(son.OpCProj, 1, never)
		g.SetIn(loop, 2, around)
		top := g.NewNode(son.OpConstant, 0)
		g.SetType(top, types.Top)
		ret := g.NewNode(son.OpReturn, 0, exit, g.Peephole(top))
		ret.Pos = loop.Pos
		g.AddReturn(ret)
		mark(head)
	}
}

// sweep kills what Stop does not reach: the data nodes nothing uses
// (values computed and never used), and the cycles of Phis and
// arithmetic that only feed each other (a dead Phi of a minimal form),
// detaching their inputs first.
func (t *translator) sweep() {
	g := t.g
	live := make([]bool, g.MaxID())
	for _, n := range g.Live() {
		live[n.ID] = true
	}
	for id := 1; id < len(live); id++ {
		n := g.Node(id)
		if n == nil || live[id] {
			continue
		}
		for i := range n.In {
			if n.In[i] != nil && g.Node(id) != nil {
				g.SetIn(n, i, nil)
			}
		}
		if g.Node(id) != nil && n.Unused() {
			g.Kill(n)
		}
	}
}
