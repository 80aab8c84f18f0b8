// Cuts of the selection checker (iselcheck.go): a large RTL block is
// checked in segments, its term table rebuilt at each cut from what is
// live there, so that the checker's memory on one block is bounded by
// what is live, not by the block's length (issue 12 point 6). Cost: the
// RTL instructions run ahead of a cut are run again after it (cutAhead),
// and a cut copies the live values' terms to a depth of cutDepth.

package amd64

import (
	"slices"

	"son/cfg"
)

// The cuts' sizes (variables for the tests, which cut small blocks).
var (
	// cutMinInstrs is the fewest RTL instructions of a block checked in
	// segments; a smaller block is checked whole, as before.
	cutMinInstrs = 256
	// cutEvery is how many terms are made after a cut before the next is
	// tried, cutRetry after a try that failed.
	cutEvery = 2048
	cutRetry = 256
	// cutAhead is how many RTL instructions are run ahead of the last cut,
	// so that the code's checks and divisions find the RTL's (settle and
	// nonZero run it further when they do not).
	cutAhead = 128
)

// cutDepth is how deep below a live value its term's structure is kept
// at a cut: a deeper term becomes an atom (a fresh term). It covers what
// the terms' normal forms look into (a magic division's quotient, a
// bias, a remainder: three levels).
const cutDepth = 3

// cutState is the RTL block's run when it is checked in segments: run
// instruction by instruction (rtlStep) with an undo log, so that a cut
// can take the RTL back to where the code is.
type cutState struct {
	b     *cfg.Block
	rs    *rstate
	pos   int             // b's instructions run on rs
	start int             // the last cut's position
	undo  []rtlUndo       // one for each instruction from start to pos
	first map[int32]int32 // each register's first write since start (position + 1)
	at    []int32         // the position of each of c.checks
	next  int             // the term count at which to try a cut
}

// rtlUndo is what one RTL instruction changed: the register it wrote
// (-1: none) and its value before, and the lengths of the checks, the
// divisions and the written registers before it.
type rtlUndo struct {
	x                       int32
	old                     tid
	had                     bool
	nchecks, ndiv, nwritten int32
}

// startCuts prepares block b's check in segments when it is large and
// ends in a branch or a return (a jump's block may be rotated into the
// block it jumps to, whose checks join b's: checked whole), and runs its
// first cutAhead instructions. It reports whether it did.
func (c *selChecker) startCuts(b *cfg.Block, rs *rstate) bool {
	if len(b.Instrs) < cutMinInstrs || b.Term.Kind == cfg.TermJump {
		return false
	}
	for _, in := range b.Instrs {
		switch in.Op {
		case cfg.OpConst, cfg.OpArg, cfg.OpCopy, cfg.OpNeg, cfg.OpNot, cfg.OpCheck:
		default:
			if !in.Op.IsBinary() {
				return false // rtlInst's error, found by the whole run
			}
		}
	}
	if c.vgen == nil {
		c.vgen = make([]int32, c.vf.NumRegs)
		c.clob = make([]int32, c.vf.NumRegs)
		c.lastRead = make([]int32, len(c.regs))
		c.lastDef = make([]int32, len(c.regs))
	}
	c.stamp++
	c.factGen++
	c.setLastRead(b, true)
	c.cut = &cutState{b: b, rs: rs, first: map[int32]int32{}, next: len(c.tt.terms) + cutEvery}
	c.checks = nil
	c.checkAt = map[tid]int{}
	c.divBy = map[tid][]int{}
	c.rtlTo(cutAhead)
	return true
}

// endCuts runs the rest of the block's RTL and ends its segments.
func (c *selChecker) endCuts() {
	c.rtlTo(len(c.cut.b.Instrs))
}

// dropCuts forgets the block's segments (after its paths are matched).
func (c *selChecker) dropCuts() {
	if c.cut != nil {
		c.setLastRead(c.cut.b, false)
		c.cut = nil
	}
}

// setLastRead sets (or clears) the last position at which b reads each
// register (+1; its terminator's register at len(b.Instrs)), and at which
// it writes each.
func (c *selChecker) setLastRead(b *cfg.Block, set bool) {
	put := func(r cfg.Reg, k int) {
		if set {
			c.lastRead[c.reg(r)] = int32(k + 1)
		} else {
			c.lastRead[c.reg(r)] = 0
		}
	}
	for k, in := range b.Instrs {
		for _, a := range in.Args {
			put(a, k)
		}
		if in.Op.HasDst() {
			if x := c.reg(in.Dst); set {
				c.lastDef[x] = int32(k + 1)
			} else {
				c.lastDef[x] = 0
			}
		}
	}
	if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
		put(b.Term.Reg, len(b.Instrs))
	}
}

// rtlTo runs the block's RTL to position n (at most its end).
func (c *selChecker) rtlTo(n int) {
	cs := c.cut
	for cs.pos < min(n, len(cs.b.Instrs)) {
		c.rtlStep()
	}
}

// rtlMore runs cutAhead more RTL instructions, or reports that the block
// is run to its end.
func (c *selChecker) rtlMore() bool {
	cs := c.cut
	if cs == nil || cs.pos >= len(cs.b.Instrs) {
		return false
	}
	c.rtlTo(cs.pos + cutAhead)
	return true
}

// rtlStep runs the next RTL instruction, keeping c.checks, checkAt and
// divBy up to date and its undo entry.
func (c *selChecker) rtlStep() {
	cs := c.cut
	rs, k := cs.rs, cs.pos
	in := cs.b.Instrs[k]
	u := rtlUndo{x: -1, nchecks: int32(len(rs.checks)), ndiv: int32(len(c.div)), nwritten: int32(len(rs.written))}
	if in.Op.HasDst() {
		x := c.reg(in.Dst)
		u.x = x
		u.old, u.had = rs.regs[x]
		if _, ok := cs.first[x]; !ok {
			cs.first[x] = int32(k + 1)
		}
	}
	_ = c.rtlInst(cs.b, k, rs) // its ops were checked by startCuts
	c.checks = rs.checks
	for len(cs.at) < len(rs.checks) {
		cs.at = append(cs.at, int32(k))
	}
	for i := int(u.nchecks); i < len(rs.checks); i++ {
		if _, ok := c.checkAt[rs.checks[i].cond]; !ok {
			c.checkAt[rs.checks[i].cond] = i
		}
	}
	for _, d := range c.div[u.ndiv:] {
		c.divBy[d.by] = append(c.divBy[d.by], d.checks)
	}
	cs.undo = append(cs.undo, u)
	cs.pos++
}

// rollback takes the RTL's run back to position k (not before the last
// cut): what the registers held, the checks and divisions.
func (c *selChecker) rollback(k int) {
	cs := c.cut
	rs := cs.rs
	for cs.pos > k {
		cs.pos--
		u := cs.undo[len(cs.undo)-1]
		cs.undo = cs.undo[:len(cs.undo)-1]
		if u.x >= 0 {
			if u.had {
				rs.regs[u.x] = u.old
			} else {
				delete(rs.regs, u.x)
			}
			if cs.first[u.x] == int32(cs.pos+1) {
				delete(cs.first, u.x)
			}
		}
		for i := len(rs.checks) - 1; i >= int(u.nchecks); i-- {
			if c.checkAt[rs.checks[i].cond] == i {
				delete(c.checkAt, rs.checks[i].cond)
			}
		}
		rs.checks = rs.checks[:u.nchecks]
		cs.at = cs.at[:u.nchecks]
		for i := len(c.div) - 1; i >= int(u.ndiv); i-- {
			d := c.div[i]
			if l := c.divBy[d.by]; len(l) > 1 {
				c.divBy[d.by] = l[:len(l)-1]
			} else {
				delete(c.divBy, d.by)
			}
		}
		c.div = c.div[:u.ndiv]
		rs.written = rs.written[:u.nwritten]
	}
	c.checks = rs.checks
}

// originReg is the dense number of v's RTL register, or -1 for a
// physical register, a temporary or the argument's.
func (c *selChecker) originReg(v VReg) int32 {
	if k := int(v - FirstVirtual); k >= 0 && k < len(c.vf.origin) {
		if o := c.vf.origin[k]; o > 0 {
			return c.rnum.Lookup(o)
		}
	}
	return -1
}

// clobbered reports whether v was let go at a cut of this block: it holds
// a value nothing is known of until the code writes it again.
func (c *selChecker) clobbered(v VReg) bool {
	return c.cut != nil && int(v) < len(c.clob) && v >= 0 && c.clob[v] == c.stamp
}

// liveOut reports whether RTL register x is live on entry to a successor
// of the block.
func (c *selChecker) liveOut(x int32) bool {
	for _, s := range c.cut.b.Succs() {
		if c.liveAt(x, int(c.block(s))) {
			return true
		}
	}
	return false
}

// tryCut cuts the block's check where path p is, the only path still
// running (trace calls it between two instructions when no other path
// is pending), if it can: the RTL is taken back to k, just past its
// first write since the last cut of each register the code wrote and
// past each check it stopped at, and every register live there (read at
// k or after, live out of the block, or one the value of a live register
// the code has no register for is made of: need) must hold on p what it
// holds in the RTL's run (same: maybe by p's facts, which hold on every
// run that follows p), every check before k be proved false on p, and
// every path done be a stop at one of those checks (settled, the right
// one: matchPath would accept it). Then the checker keeps of its state
// only:
//
//   - the RTL's values of the registers live at k, and of the constants'
//     registers it wrote that the code has not (matchPath checks them at
//     the block's end), these last through every later cut too (they
//     are in written, and looked at again by each cut, in no map of
//     registers); the others are read no more;
//   - p's registers: the live RTL registers', now the RTL's values; the
//     physical registers', the argument's, and the temporaries written
//     since the cut before last; any other is let go (clobbered): read,
//     it is a fresh term, as of a register nothing is known of;
//   - p's facts made since the last cut (and the pins they make), and
//     the fresh values it read (c.fr) of the registers it keeps;
//
// copies the terms of all these into a new table (cutCopy) and goes on
// with it, running the RTL from k again (its checks and divisions after
// k are made anew; those before k are dropped, with the stop paths).
//
// Soundness: the new table is made from nothing but the copies: no id of
// the old table is kept anywhere (every place that held one is rebuilt
// or emptied above, and trace holds none between instructions), so an
// old id can never name a new term. The copy is one map from old terms
// to new ones, applied to all that is kept: a term is copied as itself
// (an input, a constant, a fresh value) or as the same operation of its
// operands' copies, normalized again (each normal form is an equality
// of values), or, deeper than cutDepth below every kept value, as a new
// fresh term, one for each old term; so two kept values are one new term
// where they were one old term, and a new term stands for the value its
// old one had. A copy is made after its operands' copies, and a form
// x + k after x (mkLinNoRecog), as substMemo counts on. What is dropped is what nothing will read: a register
// dead at k is read no more by the RTL, and the code's, clobbered, would
// read an unknown; a constant's register the code wrote with anything
// but its constant stays to be checked at the block's end; checks before
// k were proved false on the one path going on; stop paths were
// matched. Facts dropped and values made fresh only make the checker
// know less: it may reject more, never accept wrong code. When a try
// fails, the RTL is run forward again to where it was: its terms are
// found again in the table, which nothing else changed.
func (c *selChecker) tryCut(p *path, done *[]*path) {
	cs := c.cut
	cs.next = len(c.tt.terms) + cutRetry
	if p.flags.kind != 0 || len(p.conds) != 0 || len(p.dirty) != 0 || len(p.events) != 0 {
		return
	}
	// k, with the RTL run at least cutAhead past it.
	k := cs.start
	for {
		p.regs.each(func(r int32, _ tid) {
			if x := c.originReg(VReg(r)); x >= 0 {
				k = max(k, int(cs.first[x]))
			}
		})
		for _, d := range *done { // past the checks the code has stopped at
			if d.exit == -2 && d.stopAt < len(cs.at) {
				k = max(k, int(cs.at[d.stopAt])+1)
			}
		}
		if cs.pos >= len(cs.b.Instrs) || cs.pos-k >= cutAhead {
			break
		}
		c.rtlTo(k + 2*cutAhead)
	}
	if k <= cs.start {
		return
	}
	R := cs.pos
	c.rollback(k)
	nk := len(c.checks)
	ok := p.proved >= nk
	for _, d := range *done {
		ok = ok && d.exit == -2 && d.stopMatch && d.stopAt < nk
	}
	// The registers to keep and their values, compared.
	rs := cs.rs
	written := map[int32]bool{}
	for _, x := range rs.written {
		written[x] = true
	}
	var xs []int32
	for x := range rs.regs {
		xs = append(xs, x)
	}
	p.regs.each(func(r int32, _ tid) {
		if x := c.originReg(VReg(r)); x >= 0 {
			if _, in := rs.regs[x]; !in {
				xs = append(xs, x)
			}
		}
	})
	// A constant's register the RTL wrote and the code has not stays an
	// obligation of the block's end (matchPath) through every cut,
	// though neither side holds it: kept in written below, again.
	for _, x := range rs.written {
		if _, in := rs.regs[x]; !in {
			xs = append(xs, x)
		}
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	// A register live at k that the code has no register for is a value
	// it makes where it is used (a product in a lea): the registers that
	// value is made of are live for the code (need), back to values it
	// has registers for.
	need := map[int32]bool{}
	var work []int32
	for _, x := range xs {
		if !c.kok[x] && c.vregOf[x] == 0 && (int(c.lastRead[x])-1 >= k || c.liveOut(x)) {
			work = append(work, x)
		}
	}
	for len(work) > 0 && ok {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		d := int(c.lastDef[x]) - 1
		if d < 0 {
			continue // an input of the block
		}
		if d >= k {
			ok = false // written again after k: its value at k is not found
			break
		}
		for _, a := range cs.b.Instrs[d].Args {
			if y := c.reg(a); !need[y] {
				need[y] = true
				if !c.kok[y] && c.vregOf[y] == 0 {
					work = append(work, y)
				}
			}
		}
	}
	type keep struct {
		x      int32
		rv, mv tid // the RTL's value, the code's (-1: none kept)
	}
	var keeps []keep
	var drop []VReg         // registers of p let go
	var keptWritten []int32 // constants' registers written by the RTL, not the code
	for _, x := range xs {
		if !ok {
			break
		}
		v := c.vregOf[x]
		rv, inRS := rs.regs[x]
		if !inRS {
			rv = c.initial(x)
		}
		_, inP := p.regs.get(int32(v))
		live := int(c.lastRead[x])-1 >= k || need[x] || c.liveOut(x)
		switch {
		case c.kok[x]:
			// The RTL's value is its constant wherever it is read
			// (initial); the code's register must hold it at the block's
			// end if either side wrote it (matchPath), as later blocks
			// count on it (value).
			if v == 0 {
				continue
			}
			// (Not written by the code in the block, its register holds
			// an unknown here: value's fresh term, not made for this.)
			same := inP && c.same(p, rv, c.value(p, v))
			if written[x] && !same {
				keptWritten = append(keptWritten, x)
			}
			switch {
			case inP && (live || !same):
				keeps = append(keeps, keep{x, -1, c.value(p, v)})
			case inP:
				drop = append(drop, v)
			}
		case live:
			if v != 0 && !c.same(p, rv, c.value(p, v)) {
				ok = false
				break
			}
			mv := tid(-1)
			if inP {
				mv = rv
			}
			keeps = append(keeps, keep{x, rv, mv})
		case v != 0 && inP:
			drop = append(drop, v)
		}
	}
	if !ok {
		c.rtlTo(R)
		return
	}
	// p's other registers.
	type vval struct {
		v VReg
		t tid
	}
	var others []vval
	p.regs.each(func(r int32, t tid) {
		v := VReg(r)
		if c.originReg(v) >= 0 {
			return
		}
		if c.staleTemp(v) {
			drop = append(drop, v)
			return
		}
		others = append(others, vval{v, t})
	})
	// The fresh values read of registers not written (c.fr): those of
	// the RTL registers kept, the physical registers' and the recent
	// temporaries'; another, read again, is a new fresh term.
	keepV := map[VReg]bool{}
	for _, kp := range keeps {
		keepV[c.vregOf[kp.x]] = true
	}
	var frs []vval
	for v, t := range c.fr {
		switch {
		case c.originReg(v) >= 0 && !keepV[v]:
		case c.staleTemp(v):
		default:
			frs = append(frs, vval{v, t})
		}
	}
	slices.SortFunc(frs, func(a, b vval) int { return int(a.v) - int(b.v) })
	type kfact struct {
		t  tid
		tf *termFacts
	}
	var facts []kfact
	p.facts.each(func(t int32, tf *termFacts) {
		if tf.gen == c.factGen {
			facts = append(facts, kfact{tid(t), tf})
		}
	})
	// The copy, from every value kept.
	old := c.tt
	cc := newCutCopy(old)
	for _, kp := range keeps {
		if kp.rv >= 0 {
			cc.root(kp.rv)
		}
		if kp.mv >= 0 {
			cc.root(kp.mv)
		}
	}
	for _, o := range others {
		cc.root(o.t)
	}
	for _, f := range frs {
		cc.root(f.t)
	}
	for _, f := range facts {
		cc.root(f.t)
	}
	cc.mark()
	nt := cc.nt
	c.tt = nt
	var regs pmap[tid]
	rs.regs = map[int32]tid{}
	for _, kp := range keeps {
		if kp.rv >= 0 {
			rs.regs[kp.x] = cc.of(kp.rv)
		}
		if kp.mv >= 0 {
			regs = regs.set(int32(c.vregOf[kp.x]), cc.of(kp.mv))
		}
	}
	for _, o := range others {
		regs = regs.set(int32(o.v), cc.of(o.t))
	}
	c.fr = map[VReg]tid{}
	for _, f := range frs {
		c.fr[f.v] = cc.of(f.t)
	}
	for _, v := range drop {
		c.clob[v] = c.stamp
		delete(c.fr, v)
	}
	p.regs = regs
	p.facts, p.pins, p.deep, p.subMemo = pmap[*termFacts]{}, pmap[tid]{}, pmap[struct{}]{}, nil
	for _, f := range facts {
		t := cc.of(f.t)
		neg := false
		if tm := nt.get(t); tm.kind == tLin && tm.lin[0].c < 0 {
			t, neg = nt.neg(t), true
		}
		var fs []fact
		if tf, ok := p.facts.get(int32(t)); ok {
			fs = append(fs, tf.f...)
		}
		for _, x := range f.tf.f {
			if neg {
				x.lo, x.hi = -x.hi, -x.lo
			}
			x.t = t
			fs = append(fs, x)
		}
		c.setFactsGen(p, t, fs, f.tf.gen)
	}
	p.proved -= nk
	p.flags = flagState{}
	p.blocks = p.blocks[len(p.blocks)-1:]
	*done = (*done)[:0]
	rs.written = keptWritten
	rs.checks = nil
	c.checks = nil
	c.div = c.div[:0]
	c.checkAt = map[tid]int{}
	c.divBy = map[tid][]int{}
	cs.undo = cs.undo[:0]
	cs.at = cs.at[:0]
	cs.first = map[int32]int32{}
	cs.start = k
	c.factGen++
	c.cuts++
	c.rtlTo(max(R, k+cutAhead))
	cs.next = len(nt.terms) + cutEvery
}

// cutCopy copies terms of one table into a new one (tryCut): each term
// kept to cutDepth below the nearest root, deeper ones as fresh terms.
type cutCopy struct {
	old, nt *termTable
	roots   []tid
	depth   map[tid]int32
	memo    map[tid]tid
}

func newCutCopy(old *termTable) *cutCopy {
	nt := newTermTable()
	nt.fresh = old.fresh
	nt.peak = max(old.peak, len(old.terms))
	return &cutCopy{old: old, nt: nt, depth: map[tid]int32{}, memo: map[tid]tid{}}
}

func (cc *cutCopy) root(x tid) {
	if _, ok := cc.depth[x]; !ok {
		cc.depth[x] = 0
		cc.roots = append(cc.roots, x)
	}
}

// operands calls fn with each operand of term t.
func operands(t *term, fn func(tid)) {
	switch t.kind {
	case tConst, tIn, tFresh:
	case tLin:
		for _, it := range t.lin {
			fn(it.t)
		}
	case tEq, tNe:
		fn(t.a)
	default:
		fn(t.a)
		fn(t.b)
	}
}

// mark finds each term's least depth below the roots, breadth first, to
// cutDepth + 1.
func (cc *cutCopy) mark() {
	queue := cc.roots
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		d := cc.depth[x]
		if d > cutDepth {
			continue
		}
		operands(cc.old.get(x), func(y tid) {
			if _, ok := cc.depth[y]; !ok {
				cc.depth[y] = d + 1
				queue = append(queue, y)
			}
		})
	}
}

// of is old term x's copy.
func (cc *cutCopy) of(x tid) tid {
	if r, ok := cc.memo[x]; ok {
		return r
	}
	nt := cc.nt
	t := *cc.old.get(x)
	var r tid
	switch d, marked := cc.depth[x]; {
	case t.kind == tConst:
		r = nt.konst(t.k)
	case t.kind == tIn:
		r = nt.input(t.k)
	case t.kind == tFresh:
		r = nt.mk(tFresh, 0, 0, t.k)
	case !marked || d > cutDepth:
		r = nt.freshTerm()
	case t.kind == tLin:
		items := make([]linItem, len(t.lin))
		for i, it := range t.lin {
			items[i] = linItem{cc.of(it.t), it.c}
		}
		r = nt.mkLinNoRecog(items, t.k)
	case t.kind == tEq:
		r = nt.eqz(cc.of(t.a))
	case t.kind == tNe:
		r = nt.nez(cc.of(t.a))
	default:
		a, b := cc.of(t.a), cc.of(t.b)
		switch t.kind {
		case tAnd, tOr, tXor, tMul, tMulHi:
			a, b = sorted(a, b)
		}
		r = nt.mk(t.kind, a, b, 0)
	}
	cc.memo[x] = r
	return r
}

// staleTemp says whether v is a temporary of the code (no RTL register
// behind it) not written since the cut before last: a cut lets it go.
func (c *selChecker) staleTemp(v VReg) bool {
	o := int(v - FirstVirtual)
	return o >= 0 && o < len(c.vf.origin) && c.vf.origin[o] == 0 && int(v) < len(c.vgen) && c.vgen[v] < c.factGen-1
}
