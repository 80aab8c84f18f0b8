package outssa

import (
	"cmp"
	"fmt"
	"slices"

	"son/cfg"
)

// Check reports whether out is a correct translation out of SSA of in,
// looking at nothing but the two functions: no record of the pass's
// coalescing or moves. It trusts cfg.Verify (which it runs on in) and
// cfg.Run's semantics, and checks:
//
//   - shape: the same blocks (IDs, order, edges, terminator kinds), no
//     Phis in out, and each block of out made of the instructions of the
//     same block of in, then moves (Copy or Const) only at the end of a
//     block that jumps to a block with Phis;
//   - rename: each instruction and terminator is the one of in, with the
//     same op and constant, its registers renamed by a register map from
//     the registers of in to those of out that the checker infers from
//     those pairs, and from the moves for registers that only Phis
//     mention; the map must be a function (rule "map");
//   - interference: the checker's own liveness of in (walking back from
//     each use to the definition) shows no two registers live at once,
//     or one defined where the other is live, that the map sends to the
//     same register of out. Only the registers whose register of out is
//     shared with another or written by a move need it: any other has its
//     register to itself, written by nothing but its definition;
//   - parallel-move: on every edge p → s into a block with Phis,
//     executing the moves symbolically from the registers live at the end
//     of p gives every Phi of s its k-th argument, as the parallel
//     assignment of paper 003's figure 8 does, and leaves every other
//     register live into s with its value. A register defined by a Const
//     is its constant wherever it is live, so a move from the constant
//     stands for a move from the register.
//
// Registers that the map cannot reach (Phis that only feed Phis whose
// results no instruction uses) never influence the program and are left
// out. Together these make a simulation: at every point, the register of
// out that the map gives a live register of in holds its value. The cost
// is O(n + m) (a block's moves looked up by binary search) plus the size
// L of the live sets of those registers, which
// has no bound like Translate's: exact liveness is what makes the check
// sound. L grows faster than the program when many coalesced registers
// are live across long stretches of it (docs/PERFORMANCE.md).
func Check(in, out *cfg.Func) error {
	c := &checker{in: in, out: out}
	return c.run()
}

type checker struct {
	in, out *cfg.Func
	posOf   func(*cfg.Block) (int, bool) // a block of in -> its position (cfg.Positions)
	defBlk  map[cfg.Reg]int              // register of in -> block of its definition
	phiOf   map[cfg.Reg]int              // a Phi's register -> its index in its block
	konst   map[cfg.Reg]int64            // registers of in defined by a Const
	m       map[cfg.Reg]cfg.Reg
	// What each block's moves leave in the registers they write: block
	// i's are written[wStart[i]:wStart[i+1]], sorted by register, one
	// entry a register. Flat: a map a block was most of the checker's
	// tables on functions of many small blocks.
	written []wentry
	wStart  []int32
	only    map[cfg.Reg]cfg.Reg // a register of out that one register of in has to itself -> that register
	inS     map[cfg.Reg]bool    // the shared registers of in (see shared)
	// The shared registers live at the end of each block (liveOut) and on
	// entry, before the Phis (liveIn), as lists in increasing order:
	// block i's first entry is live[head[i]-1], 0 ending a list. Two
	// int32s a block and two an entry, not a slice header a block.
	liveOut, liveIn []int32
	live            []liveEntry
}

// wentry is what a block's moves leave in register dst of out.
type wentry struct {
	dst cfg.Reg
	s   sym
}

// liveEntry is one register of a live list, and 1 + the index of the next.
type liveEntry struct {
	reg  cfg.Reg
	next int32
}

// pos returns the position of a block of in (cfg.Verify saw that every
// edge leads to one).
func (c *checker) pos(b *cfg.Block) int {
	i, _ := c.posOf(b)
	return i
}

// moved returns what block i's moves leave in register r of out, and
// false if they do not write it.
func (c *checker) moved(i int, r cfg.Reg) (sym, bool) {
	w := c.written[c.wStart[i]:c.wStart[i+1]]
	k, ok := slices.BinarySearchFunc(w, r, func(e wentry, r cfg.Reg) int { return cmp.Compare(e.dst, r) })
	if !ok {
		return sym{}, false
	}
	return w[k].s, true
}

// count returns the length of the live list that starts at head.
func (c *checker) count(head int32) int {
	n := 0
	for k := head; k != 0; k = c.live[k-1].next {
		n++
	}
	return n
}

// each calls f on the registers of the live list that starts at head, in
// increasing order, until f returns an error.
func (c *checker) each(head int32, f func(cfg.Reg) error) error {
	for k := head; k != 0; k = c.live[k-1].next {
		if err := f(c.live[k-1].reg); err != nil {
			return err
		}
	}
	return nil
}

// sym is a symbolic value: the value a register of out held before the
// moves (init), a register of in, or a constant.
type sym struct {
	kind byte // 'i': init Reg of out; 'r': Reg of in; 'c': the constant Val; 0: unknown
	reg  cfg.Reg
	val  int64
}

func (s sym) String() string {
	switch s.kind {
	case 'r':
		return "the value of " + s.reg.String()
	case 'c':
		return fmt.Sprintf("the constant %d", s.val)
	case 'i':
		return "what " + s.reg.String() + " held"
	}
	return "no known value"
}

func (c *checker) errorf(b *cfg.Block, rule, format string, args ...any) error {
	return fmt.Errorf("outssa check: %v: %s: %s", b, rule, fmt.Sprintf(format, args...))
}

func (c *checker) run() error {
	in, out := c.in, c.out
	if in.Level != cfg.SSA || out.Level != cfg.RTL {
		return fmt.Errorf("outssa check: shape: want an SSA function and an RTL one, have %v and %v", in.Level, out.Level)
	}
	if err := cfg.Verify(in); err != nil {
		return fmt.Errorf("outssa check: the input: %w", err)
	}
	if err := c.shape(); err != nil {
		return err
	}
	if err := c.rename(); err != nil {
		return err
	}
	if err := c.phiMap(); err != nil {
		return err
	}
	c.shared()
	c.liveness()
	if err := c.interference(); err != nil {
		return err
	}
	return c.edges()
}

// shape compares the blocks and edges, and the instructions' ops.
func (c *checker) shape() error {
	in, out := c.in, c.out
	if len(in.Blocks) != len(out.Blocks) {
		return fmt.Errorf("outssa check: shape: %d blocks in, %d out", len(in.Blocks), len(out.Blocks))
	}
	c.posOf = cfg.Positions(in)
	for i := range in.Blocks {
		if out.Blocks[i] == nil {
			return fmt.Errorf("outssa check: shape: block %d of the output is nil", i)
		}
	}
	// same says whether the blocks b of out are at the positions of the
	// blocks a of in. A block listed twice in out would pass for either
	// position, but then two positions have its ID, which the IDs of in,
	// unique (cfg.Verify), cannot match: the loop below rejects it.
	same := func(a []*cfg.Block, b []*cfg.Block) bool {
		if len(a) != len(b) {
			return false
		}
		for k := range a {
			j := c.pos(a[k])
			if out.Blocks[j] != b[k] {
				return false
			}
		}
		return true
	}
	for i, b := range in.Blocks {
		ob := out.Blocks[i]
		switch {
		case ob.ID != b.ID:
			return c.errorf(b, "shape", "the output has %v at this position", ob)
		case len(ob.Phis) > 0:
			return c.errorf(ob, "shape", "the output has Phis")
		case !same(b.Succs(), ob.Succs()) || !same(b.Preds, ob.Preds):
			return c.errorf(b, "shape", "the output's edges differ")
		case ob.Term.Kind != b.Term.Kind:
			return c.errorf(b, "shape", "the terminator is %q, was %q", ob.TermString(), b.TermString())
		case len(ob.Instrs) < len(b.Instrs):
			return c.errorf(b, "shape", "%d instructions, fewer than the %d of the input", len(ob.Instrs), len(b.Instrs))
		}
		for k, m := range ob.Instrs[len(b.Instrs):] {
			if len(b.Succs()) != 1 || len(b.Succs()[0].Phis) == 0 {
				return c.errorf(ob, "extra-move", "instr %d (%v) is not in the input, and the block does not jump to a block with Phis", len(b.Instrs)+k, m)
			}
			if m == nil || (m.Op != cfg.OpCopy && m.Op != cfg.OpConst) || len(m.Args) != m.Op.NumArgs() || m.Dst <= 0 {
				return c.errorf(ob, "extra-move", "instr %d (%v) after the input's instructions is not a move", len(b.Instrs)+k, m)
			}
		}
	}
	return nil
}

// place names where in a block of out a register is read or written, for
// a message: instruction k (and the input's instruction x it stands for),
// the terminator (placeTerm) or the end of the block (placeEnd). It is
// formatted only when a check fails: formatting every instruction and
// terminator as the checker went was most of what it allocated.
type place struct {
	ob *cfg.Block
	k  int
	x  *cfg.Instr
}

const (
	placeTerm = -1
	placeEnd  = -2
)

func (p place) String() string {
	switch p.k {
	case placeTerm:
		return "term (" + p.ob.TermString() + ")"
	case placeEnd:
		return "at the end of the block"
	}
	return fmt.Sprintf("instr %d (%v, was %v)", p.k, p.ob.Instrs[p.k], p.x)
}

// bind records that register x of in is r in out.
func (c *checker) bind(b *cfg.Block, x, r cfg.Reg, what place) error {
	if have, ok := c.m[x]; ok && have != r {
		return c.errorf(b, "map", "%s: %v is %v here but %v elsewhere", what, x, r, have)
	}
	c.m[x] = r
	return nil
}

// rename infers the map from the instructions and terminators.
func (c *checker) rename() error {
	c.m = map[cfg.Reg]cfg.Reg{}
	c.defBlk, c.phiOf, c.konst = map[cfg.Reg]int{}, map[cfg.Reg]int{}, map[cfg.Reg]int64{}
	for i, b := range c.in.Blocks {
		ob := c.out.Blocks[i]
		for k, p := range b.Phis {
			c.defBlk[p.Dst], c.phiOf[p.Dst] = i, k
		}
		for k, x := range b.Instrs {
			y := ob.Instrs[k]
			what := place{ob, k, x}
			if y == nil || y.Op != x.Op || y.Aux != x.Aux || len(y.Args) != len(x.Args) || (y.Dst == 0) != (x.Dst == 0) {
				return c.errorf(ob, "rename", "%s: not the input's instruction", what)
			}
			if x.Op.HasDst() {
				c.defBlk[x.Dst] = i
				if x.Op == cfg.OpConst {
					c.konst[x.Dst] = x.Aux
				}
				if err := c.bind(ob, x.Dst, y.Dst, what); err != nil {
					return err
				}
			}
			for j, a := range x.Args {
				if err := c.bind(ob, a, y.Args[j], what); err != nil {
					return err
				}
			}
		}
		if b.Term.Kind != cfg.TermJump {
			if err := c.bind(ob, b.Term.Reg, ob.Term.Reg, place{ob, placeTerm, nil}); err != nil {
				return err
			}
		}
	}
	return nil
}

// phiMap executes the moves of each edge from symbolic initial values,
// and extends the map to the Phi arguments that only Phis use: if the
// register of a Phi's destination ends up holding what register r held,
// then r held its argument.
func (c *checker) phiMap() error {
	c.wStart = make([]int32, len(c.in.Blocks)+1)
	w := map[cfg.Reg]sym{} // one block's at a time
	read := func(r cfg.Reg) sym {
		if s, ok := w[r]; ok {
			return s
		}
		return sym{kind: 'i', reg: r}
	}
	for i, b := range c.in.Blocks {
		c.wStart[i] = int32(len(c.written))
		ob := c.out.Blocks[i]
		if len(b.Succs()) != 1 || len(b.Succs()[0].Phis) == 0 {
			continue
		}
		clear(w)
		for _, mv := range ob.Instrs[len(b.Instrs):] {
			if mv.Op == cfg.OpConst {
				w[mv.Dst] = sym{kind: 'c', val: mv.Aux}
			} else {
				w[mv.Dst] = read(mv.Args[0])
			}
		}
		start := len(c.written)
		for r, s := range w {
			c.written = append(c.written, wentry{r, s})
		}
		slices.SortFunc(c.written[start:], func(a, b wentry) int { return cmp.Compare(a.dst, b.dst) })
	}
	c.wStart[len(c.in.Blocks)] = int32(len(c.written))
	var work []cfg.Reg
	for x := range c.phiOf {
		if _, ok := c.m[x]; ok {
			work = append(work, x)
		}
	}
	slices.Sort(work) // the first proposal for a register wins: make it the same every time
	for len(work) > 0 {
		d := work[len(work)-1]
		work = work[:len(work)-1]
		s := c.in.Blocks[c.defBlk[d]]
		phi := s.Phis[c.phiOf[d]]
		for k, p := range s.Preds {
			a := phi.Args[k]
			if _, ok := c.m[a]; ok {
				continue
			}
			v, ok := c.moved(c.pos(p), c.m[d])
			if !ok {
				v = sym{kind: 'i', reg: c.m[d]}
			}
			if v.kind != 'i' {
				continue // not a register: the edge check will say so
			}
			c.m[a] = v.reg
			if _, isPhi := c.phiOf[a]; isPhi {
				work = append(work, a)
			}
		}
	}
	return nil
}

// shared finds the registers of in whose liveness matters: those whose
// register in out is shared with another register of in or written by a
// move. Any other register has its register of out to itself, written
// only by its definition, so nothing can overwrite it.
func (c *checker) shared() {
	count := map[cfg.Reg]int{}
	c.only = map[cfg.Reg]cfg.Reg{}
	for x, r := range c.m {
		count[r]++
		c.only[r] = x
	}
	movedTo := map[cfg.Reg]bool{}
	for _, e := range c.written {
		movedTo[e.dst] = true
	}
	c.inS = map[cfg.Reg]bool{}
	for x, r := range c.m {
		if count[r] > 1 || movedTo[r] {
			c.inS[x] = true
			delete(c.only, r)
		}
	}
}

// liveness computes the live sets of the shared registers by walking
// back from each use to the block of the definition, one register at a
// time in decreasing order (each block's lists, built from their front,
// come in increasing order), with block stamps to visit each block once
// per register.
func (c *checker) liveness() {
	n := len(c.in.Blocks)
	c.liveOut, c.liveIn = make([]int32, n), make([]int32, n)
	push := func(head []int32, i int, x cfg.Reg) {
		c.live = append(c.live, liveEntry{x, head[i]})
		head[i] = int32(len(c.live))
	}
	// The uses of each shared register: a block, and whether the use is a
	// Phi argument, at the very end of the block.
	type use struct {
		block int
		atEnd bool
	}
	uses := map[cfg.Reg][]use{}
	for i, b := range c.in.Blocks {
		for _, p := range b.Phis {
			if _, ok := c.m[p.Dst]; !ok {
				continue
			}
			for k, a := range p.Args {
				if c.inS[a] {
					uses[a] = append(uses[a], use{c.pos(b.Preds[k]), true})
				}
			}
		}
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				if c.inS[a] {
					uses[a] = append(uses[a], use{i, false})
				}
			}
		}
		if b.Term.Kind != cfg.TermJump && c.inS[b.Term.Reg] {
			uses[b.Term.Reg] = append(uses[b.Term.Reg], use{i, false})
		}
	}
	regs := make([]cfg.Reg, 0, len(uses))
	for x := range uses {
		regs = append(regs, x)
	}
	slices.Sort(regs)
	slices.Reverse(regs)
	inStamp, outStamp := make([]int32, n), make([]int32, n)
	var work []int
	for k, x := range regs {
		stamp := int32(k + 1)
		markOut := func(i int) {
			if outStamp[i] != stamp {
				outStamp[i] = stamp
				push(c.liveOut, i, x)
			}
		}
		for _, u := range uses[x] {
			if u.atEnd {
				markOut(u.block)
			}
			work = append(work[:0], u.block)
			for len(work) > 0 {
				i := work[len(work)-1]
				work = work[:len(work)-1]
				if c.defBlk[x] == i || inStamp[i] == stamp {
					continue
				}
				inStamp[i] = stamp
				push(c.liveIn, i, x)
				for _, p := range c.in.Blocks[i].Preds {
					j := c.pos(p)
					markOut(j)
					work = append(work, j)
				}
			}
		}
	}
}

// interference walks each block backwards from its live-out set, keeping
// which shared register of in occupies each register of out, and reports
// two live at once in one register, or a definition overwriting a live
// one.
func (c *checker) interference() error {
	for i, b := range c.in.Blocks {
		ob := c.out.Blocks[i]
		occ := make(map[cfg.Reg]cfg.Reg, c.count(c.liveOut[i]))
		enter := func(x cfg.Reg, where place) error {
			if !c.inS[x] {
				return nil
			}
			r := c.m[x]
			if y, ok := occ[r]; ok && y != x {
				return c.errorf(ob, "interference", "%s: %v and %v are both live and both in %v", where, x, y, r)
			}
			occ[r] = x
			return nil
		}
		if err := c.each(c.liveOut[i], func(x cfg.Reg) error { return enter(x, place{ob, placeEnd, nil}) }); err != nil {
			return err
		}
		if b.Term.Kind != cfg.TermJump {
			if err := enter(b.Term.Reg, place{ob, placeTerm, nil}); err != nil {
				return err
			}
		}
		for k := len(b.Instrs) - 1; k >= 0; k-- {
			x := b.Instrs[k]
			where := place{ob, k, x}
			if x.Op.HasDst() && c.inS[x.Dst] {
				r := c.m[x.Dst]
				if y, ok := occ[r]; ok && y != x.Dst {
					return c.errorf(ob, "interference", "%s: the definition of %v overwrites %v, live in %v", where, x.Dst, y, r)
				}
				delete(occ, r)
			}
			for _, a := range x.Args {
				if err := enter(a, where); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// edges checks the parallel-move rule on every edge into a block with
// Phis.
func (c *checker) edges() error {
	norm := func(x cfg.Reg) sym {
		if v, ok := c.konst[x]; ok {
			return sym{kind: 'c', val: v}
		}
		return sym{kind: 'r', reg: x}
	}
	for si, s := range c.in.Blocks {
		if len(s.Phis) > 0 {
			for k, p := range s.Preds {
				if err := c.edge(p, k, s, c.pos(p), si, norm); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// edge checks the edge from p, the k-th predecessor of s, at positions i
// and si. A predecessor with several successors has no moves (shape saw
// to it): the Phis must then hold already.
func (c *checker) edge(p *cfg.Block, k int, s *cfg.Block, i, si int, norm func(cfg.Reg) sym) error {
	// What the registers of out hold at the end of p, before the
	// moves: a shared register, the one live there (the interference
	// check made it unique); another, its one register of in.
	held := make(map[cfg.Reg]cfg.Reg, c.count(c.liveOut[i]))
	c.each(c.liveOut[i], func(x cfg.Reg) error {
		held[c.m[x]] = x
		return nil
	})
	after := func(r cfg.Reg) sym {
		v, ok := c.moved(i, r) // none when the block has no moves
		if !ok {
			v = sym{kind: 'i', reg: r}
		}
		if v.kind != 'i' {
			return v
		}
		if x, ok := held[v.reg]; ok {
			return norm(x)
		}
		if x, ok := c.only[v.reg]; ok {
			if j, isPhi := c.phiOf[x]; isPhi && c.defBlk[x] == si && s.Phis[j].Args[k] != x {
				return sym{} // x is defined by this very edge: no value yet
			}
			return norm(x)
		}
		return sym{}
	}
	edge := fmt.Sprintf("the moves from %v to %v", c.out.Blocks[i], s)
	for j, phi := range s.Phis {
		r, ok := c.m[phi.Dst]
		if !ok {
			continue
		}
		if got, want := after(r), norm(phi.Args[k]); got != want {
			return c.errorf(c.out.Blocks[i], "parallel-move", "%s: phi %d (%v) wants %v in %v, which holds %v",
				edge, j, phi, want, r, got)
		}
	}
	// Registers live through the edge keep their values. Only the
	// shared ones can have been written.
	return c.each(c.liveIn[si], func(x cfg.Reg) error { // s's own Phis are not in it
		if got, want := after(c.m[x]), norm(x); got != want {
			return c.errorf(c.out.Blocks[i], "parallel-move", "%s: %v, live into %v, wants %v in %v, which holds %v",
				edge, x, s, want, c.m[x], got)
		}
		return nil
	})
}
