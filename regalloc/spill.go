package regalloc

import (
	"cmp"
	"fmt"
	"slices"
)

// The scan, and spilling in the same scan. A register spilled at the
// point of pressure s (the victim rule of place) is spilled everywhere:
// stored to its slot after each instruction that writes it, reloaded
// before each that reads it, each time through a temporary of its own,
// so that no edge needs a resolving move. Its temporaries before s take
// its own register p: it held p alone from its start to s, and p had no
// fixed segment in its interval. Those at or after s are intervals of
// their own on the same positions, waiting on a heap merged with the
// order of the scan: a temporary of a read at R is [R, R], of a write at
// D is [D, D], of both [R, D] (a reload runs just before its
// instruction, after the writes of the one before, R-1; a store just
// after, before the reads of the next, D+1), so that it comes before the
// intervals that start there. A loop entered after s whose reads of the
// register write it nowhere gets a copy instead (splitting): reloaded at
// the end of each block entering the loop, live to the loop's end, waiting
// like a temporary; a copy that finds no register, or is evicted, is
// undone at once: its reads get temporaries, and its reloads are not
// made. The scan renames the spilled register in each instruction to its
// temporary or copy there; one rewrite after the scan inserts the reloads
// and stores. What the scan decided before s stands (the allocator before
// issue 14 ran the scan again on the rewritten code, until nothing
// spilled). Cost: the instructions of the blocks listed for each spilled
// register, walked once when it is spilled, and a heap operation per
// temporary and copy. regalloc.Check proves every result.

// spillHit is an instruction that mentions a spilled register: the i-th
// of block b; or, as a loop's reload (w), the place before the i-th (i
// may be the block's length).
type spillHit struct {
	b, i int32
	w    int32
}

// mentionAt is an instruction of block b, the i-th, index wi in w, that
// reads (use) or writes (def) a spilled register.
type mentionAt struct {
	b, i, wi int32
	use, def bool
}

// copyIn is where a loop's copy is reloaded: before the i-th instruction
// of block b, or after its last (late).
type copyIn struct {
	b, i int32
	late bool
}

// loopCopy is a loop's copy of a spilled register (orig): reloaded at
// ins, read by reads.
type loopCopy struct {
	r, orig Reg
	ins     []copyIn
	reads   []mentionAt
}

// moveHints makes the hints from the Moves (liveness collects them), in
// the order of the code, each with the Move that makes it (hintAt).
func (a *alloc) moveHints() {
	// The arrays in locals: written through a's fields, each store would
	// make the compiler load the others again.
	a.hoff = resize(a.hoff, a.nregs+1)
	hoff, regs, ws := a.hoff, a.regs, a.w
	clear(hoff)
	for _, wi := range a.moves {
		w := &ws[wi]
		hoff[regs[w.off+int32(w.nu)]+1]++
		hoff[regs[w.off]+1]++
	}
	for r := 1; r < len(hoff); r++ {
		hoff[r] += hoff[r-1]
	}
	n := hoff[len(hoff)-1]
	a.hints = slices.Grow(a.hints[:0], int(n))[:n]
	a.hintAt = resize(a.hintAt, int(n))
	hints, at := a.hints, a.hintAt
	fill := append(a.first[:0], hoff[:len(hoff)-1]...)
	for _, wi := range a.moves {
		w := &ws[wi]
		d, u := regs[w.off+int32(w.nu)], regs[w.off]
		hints[fill[u]], at[fill[u]] = d, wi
		fill[u]++
		hints[fill[d]], at[fill[d]] = u, wi
		fill[d]++
	}
	a.first = fill
}

// scan assigns a register to each virtual register's interval, in order
// of start, the temporaries and copies of spilling merged in as they
// come (pend), or spills one.
func (a *alloc) scan() error {
	np := a.f.NumPhys
	order := a.countingOrder()
	a.ninstr = a.nregs
	a.assign = make([]int32, a.nregs, a.nregs+a.nregs/8)
	for i := range a.assign {
		a.assign[i] = -1
	}
	a.spill = make([]bool, a.nregs, a.nregs+a.nregs/8)
	a.segCur = resize(a.segCur, np)
	clear(a.segCur)
	a.occ, a.until = make([]int32, np), make([]int32, np)
	for p := range a.occ {
		a.occ[p], a.until[p] = -1, -1
	}
	for i := 0; ; {
		var v int32
		switch {
		case len(a.pend) > 0 && (i == len(order) || a.start[a.pend[0]] <= a.start[order[i]]):
			v = a.pop()
		case i < len(order):
			v = order[i]
			i++
		default:
			return nil
		}
		if err := a.place(v); err != nil {
			return err
		}
	}
}

// place gives v a register free over its interval: its hints' first,
// else the first allocatable one. When none is free, the register whose
// occupant ends last, if that is later than v and the occupant may be
// spilled, is taken from it (a loop's copy goes first, and a temporary
// may take any but a temporary's); else v itself is spilled. A loop's
// copy never takes another's register: undoing it costs no store.
func (a *alloc) place(v int32) error {
	occ, until := a.occ, a.until
	s, e := a.start[v], a.end[v]
	free := func(p int) bool {
		return until[p] < s && !a.fixedConflict(p, s, e)
	}
	for {
		pick := -1
		hints, at := a.hintsOf(v)
		for k, h := range hints {
			p := a.hintReg(v, h, at[k])
			if p >= 0 && a.allocatable(p) && free(p) {
				pick = p
				break
			}
		}
		if pick < 0 {
			for _, r := range a.f.Allocatable {
				if free(int(r)) {
					pick = int(r)
					break
				}
			}
		}
		if pick >= 0 {
			occ[pick], until[pick] = v, e
			a.assign[v] = int32(pick)
			return nil
		}
		if a.split[v] {
			a.spillReg(Reg(v), -1, s)
			return nil
		}
		best := -1
		for _, r := range a.f.Allocatable {
			p := int(r)
			if occ[p] < 0 || a.tmp[occ[p]] || a.fixedConflict(p, s, e) {
				continue
			}
			if best < 0 || a.split[occ[p]] && !a.split[occ[best]] ||
				a.split[occ[p]] == a.split[occ[best]] && a.end[occ[p]] > a.end[occ[best]] {
				best = p
			}
		}
		switch {
		case best >= 0 && (a.split[occ[best]] || a.end[occ[best]] > e || a.tmp[v]):
			w := occ[best]
			occ[best], until[best] = -1, -1
			a.spillReg(Reg(w), best, s)
			if until[best] < s {
				occ[best], until[best] = v, e
				a.assign[v] = int32(best)
				return nil
			}
			// A temporary of w's holds best at s (w was read and written
			// where v starts): choose again.
		case !a.tmp[v]:
			a.spillReg(Reg(v), -1, s)
			return nil
		default:
			return fmt.Errorf("regalloc: no register left for %s at position %d", a.regName(Reg(v)), s)
		}
	}
}

// hintsOf are v's hints and the Moves that make them: a Move's other
// side, for a register of the input or a temporary of a Move's.
func (a *alloc) hintsOf(v int32) ([]Reg, []int32) {
	if int(v) < a.ninstr {
		return a.hints[a.hoff[v]:a.hoff[v+1]], a.hintAt[a.hoff[v]:a.hoff[v+1]]
	}
	k := int(v) - a.ninstr
	wi := a.tmpAt[k]
	if wi < 0 || !a.w[wi].move() {
		return nil, nil
	}
	// The Move's registers as renamed so far: v on one side.
	w := &a.w[wi]
	other := a.regs[w.off]
	if other == Reg(v) {
		other = a.regs[w.off+int32(w.nu)]
	}
	a.tmpHint[0], a.tmpHintAt[0] = other, wi
	return a.tmpHint[:], a.tmpHintAt[:]
}

// hintReg is the register hint h of v, made by the Move wi, points to: h
// if physical, else the register of h, or, if h is spilled, of what
// replaced it in wi (the Move's side that is not v), or -1.
func (a *alloc) hintReg(v int32, h Reg, wi int32) int {
	if int(h) < a.f.NumPhys {
		return int(h)
	}
	if a.spill[h] {
		w := &a.w[wi]
		if h = a.regs[w.off]; h == Reg(v) {
			h = a.regs[w.off+int32(w.nu)]
		}
	}
	return int(a.assign[h])
}

// spillReg spills x, found at position s holding physical register p (or
// none, -1): a register of the input gets a slot, a temporary for each
// instruction that mentions it, and copies for the loops entered after s
// that read it and do not write it; a loop's copy is undone, its reads
// getting temporaries.
func (a *alloc) spillReg(x Reg, p int, s int32) {
	a.spill[x], a.assign[x] = true, -1
	if a.split[x] {
		c := &a.copies[-1-a.tmpAt[int(x)-a.ninstr]]
		for _, m := range c.reads {
			a.temp(m, x, c.orig, p, s)
		}
		return
	}
	a.spilled++
	ms := a.mentionsOf(x)
	first := len(a.copies)
	a.splitLoops(x, ms, s)
	for _, m := range ms {
		a.hits = append(a.hits, spillHit{b: m.b, i: m.i})
		if m.use && !m.def && a.inner != nil && a.inner[m.b] >= 0 {
			if k := a.copyFor(first, a.inner[m.b]); k >= 0 {
				c := &a.copies[k]
				c.reads = append(c.reads, m)
				a.rename(m.wi, x, c.r)
				continue
			}
		}
		a.temp(m, x, x, p, s)
	}
	// Each copy lives from its first reload to its loop's end (widened);
	// one whose interval would start before s is undone.
	for k := first; k < len(a.copies); k++ {
		c := &a.copies[k]
		if len(c.reads) == 0 {
			a.start[c.r] = -1
			continue
		}
		last := c.reads[len(c.reads)-1]
		a.end[c.r], a.eblk[c.r] = a.bstart[last.b]+a.w[last.wi].rel-1, last.b
		a.widenReg(c.r)
		if a.start[c.r] < s {
			a.start[c.r] = -1
			for _, m := range c.reads {
				a.temp(m, c.r, x, p, s)
			}
			c.reads = nil
			continue
		}
		a.push(int32(c.r))
	}
}

// copyFor is the index of the copy made for loop l since copies[first],
// or -1.
func (a *alloc) copyFor(first, l int) int {
	for k := first; k < len(a.copies); k++ {
		if a.loopOf[k-first] == l {
			return k
		}
	}
	return -1
}

// mentionsOf lists the live instructions that mention x, in order, in
// a scratch slice.
func (a *alloc) mentionsOf(x Reg) []mentionAt {
	a.blks = a.mentionedIn(x, a.blks[:0])
	slices.Sort(a.blks) // listed last first
	ms := a.ms[:0]
	for k, b := range a.blks {
		if k > 0 && a.blks[k-1] == b {
			continue
		}
		// (The scan runs before the rewrite: the block's code is the input's.)
		for wi := a.bw[b]; wi < a.bw[b+1]; wi++ {
			w := &a.w[wi]
			if w.dead() {
				continue
			}
			use, def := contains(a.uses(w), x), contains(a.defs(w), x)
			if use || def {
				ms = append(ms, mentionAt{b: b, i: wi - a.bw[b], wi: wi, use: use, def: def})
			}
		}
	}
	a.ms = ms
	return ms
}

// rename renames r to t in the instruction wi.
func (a *alloc) rename(wi int32, r, t Reg) {
	a.ownRegs()
	w := &a.w[wi]
	regs := a.regs[w.off : w.off+int32(w.nu)+int32(w.nd)]
	for k := range regs {
		if regs[k] == r {
			regs[k] = t
		}
	}
}

// temp makes the temporary of x, named r in the instruction of m (x, or
// its loop's copy), and renames r to it there: taking p where it ends
// before s (and holding p where it straddles s), else waiting.
func (a *alloc) temp(m mentionAt, r, x Reg, p int, s int32) {
	ts := a.bstart[m.b] + a.w[m.wi].rel - 1
	te := ts + 1
	if !m.use {
		ts++
	}
	if !m.def {
		te--
	}
	t := a.newReg(true, ts, te)
	a.tmpAt = append(a.tmpAt, m.wi)
	a.tmpFor = append(a.tmpFor, x)
	a.rename(m.wi, r, t)
	switch {
	case ts >= s:
		a.push(int32(t))
	case te < s:
		a.assign[t] = int32(p)
		if q := a.pastHint(m, t); q >= 0 {
			a.assign[t] = int32(q)
		}
	default:
		a.assign[t] = int32(p)
		a.occ[p], a.until[p] = int32(t), te
	}
}

// pastHint is the register a temporary of a Move's (m), before the point
// of spilling, may take from the Move's other side instead of its
// register's: for a read, the register of the Move's def, which holds
// nothing else live at the read (no other interval ends there, a fixed
// segment of the def's starts at the write, and a virtual one's value
// there dies at the Move); for a write, that of the Move's use where the
// use's interval or fixed segment ends at the Move (nothing else starts
// at the write). Else -1.
func (a *alloc) pastHint(m mentionAt, t Reg) int {
	w := &a.w[m.wi]
	if !w.move() {
		return -1
	}
	// The Move's registers as renamed so far: the other side is the
	// register, temporary or copy there now.
	other := a.regs[w.off]
	if m.use {
		other = a.regs[w.off+int32(w.nu)]
	}
	d := a.bstart[m.b] + w.rel // the write's position
	switch {
	case other == t:
		return -1
	case int(other) < a.f.NumPhys:
		if q := int(other); a.allocatable(q) && (m.use || !a.fixedAt(q, d)) {
			return q
		}
		return -1
	}
	q := int(a.assign[other])
	if q < 0 || !m.use && a.end[other] != d-1 {
		return -1
	}
	return q
}

// fixedAt reports whether a fixed segment of physical register p holds
// position x (a binary search: the segments are by start, and by end).
func (a *alloc) fixedAt(p int, x int32) bool {
	segs := a.fixed[p]
	k, _ := slices.BinarySearchFunc(segs, x, func(seg [2]int32, x int32) int { return cmp.Compare(seg[1], x) })
	return k < len(segs) && segs[k][0] <= x
}

// splitLoops makes the copies of x, spilled at s, one for each innermost
// loop that reads it (ms), does not write it, is entered only through
// its header and only after s; their reads are given by spillReg. The
// loops of the copies made are in loopOf, from copies[len before].
func (a *alloc) splitLoops(x Reg, ms []mentionAt, s int32) {
	a.loopOf = a.loopOf[:0]
	if a.inner == nil {
		return
	}
	if a.entered == nil {
		a.entered = a.enteredLoops()
	}
	// The starts of the blocks that write x, in increasing order: a loop,
	// an interval of positions, writes it if one falls in the interval.
	ps := a.wpos[:0]
	var cands []int
	for _, m := range ms {
		if m.def {
			if bs := a.bstart[m.b]; len(ps) == 0 || ps[len(ps)-1] != bs {
				ps = append(ps, bs)
			}
		}
		if l := a.inner[m.b]; m.use && !m.def && l >= 0 && !a.entered[l] && !slices.Contains(cands, l) {
			cands = append(cands, l)
		}
	}
	a.wpos = ps
	written := func(l int) bool {
		g := a.loops[l]
		i, _ := slices.BinarySearch(ps, g.s)
		return i < len(ps) && ps[i] <= g.e
	}
	for _, l := range cands {
		if written(l) {
			continue
		}
		h := a.loops[l].head
		// Where the reload goes in each block entering the loop: before
		// its jumps, or after its last instruction when it falls through
		// (which must not be dead, as edits go with a live instruction).
		var ins []copyIn
		at := int32(-1) // the first reload's position
		var atb int32
		ok := true
		for _, p32 := range a.preds(h) {
			p := int(p32)
			if p >= h || a.f.Blocks[p].Cold {
				continue
			}
			// (The scan runs before the rewrite: the block's code is the input's.)
			ws := a.w[a.bw[p]:a.bw[p+1]]
			i := len(ws)
			for i > 0 && ws[i-1].branch() {
				i--
			}
			late := i == len(ws)
			q := a.bend[p]
			if late {
				if len(ws) == 0 || ws[len(ws)-1].dead() {
					ok = false
					break
				}
			} else {
				q = a.bstart[p] + ws[i].rel - 1
			}
			if q < s {
				ok = false
				break
			}
			if at < 0 || q < at {
				at, atb = q, int32(p)
			}
			ins = append(ins, copyIn{b: int32(p), i: int32(i), late: late})
		}
		if !ok || len(ins) == 0 {
			continue
		}
		c := a.newReg(false, at, at)
		a.sblk[c] = atb
		a.tmpAt = append(a.tmpAt, int32(-1-len(a.copies)))
		a.tmpFor = append(a.tmpFor, x)
		a.copies = append(a.copies, loopCopy{r: c, orig: x, ins: ins})
		a.loopOf = append(a.loopOf, l)
	}
}

// push adds v to the registers waiting for their start (a heap by start,
// then number).
func (a *alloc) push(v int32) {
	h := append(a.pend, v)
	for k := len(h) - 1; k > 0; {
		up := (k - 1) / 2
		if !a.earlier(h[k], h[up]) {
			break
		}
		h[k], h[up] = h[up], h[k]
		k = up
	}
	a.pend = h
}

// pop takes the first waiting register.
func (a *alloc) pop() int32 {
	h := a.pend
	v := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for k := 0; ; {
		c := 2*k + 1
		if c >= n {
			break
		}
		if c+1 < n && a.earlier(h[c+1], h[c]) {
			c++
		}
		if !a.earlier(h[c], h[k]) {
			break
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
	a.pend = h
	return v
}

// earlier orders the waiting registers: by start, then number.
func (a *alloc) earlier(x, y int32) bool {
	return a.start[x] < a.start[y] || a.start[x] == a.start[y] && x < y
}

// rewrite replaces each spilled register, in every instruction that
// reads or writes it, by what the scan gave it there: a temporary,
// loaded from the slot before the instruction and stored to it after, or
// a loop's copy, loaded from the slot at the end of each block entering
// the loop.
func (a *alloc) rewrite() {
	// The slots, in the order of the registers.
	for v := a.f.NumPhys; v < a.ninstr; v++ {
		if a.spill[v] {
			a.slotOf[v] = int32(a.slots)
			a.slots++
		}
	}
	hits := a.hits
	for k := range a.copies {
		c := &a.copies[k]
		if a.start[c.r] < 0 || a.spill[c.r] {
			continue
		}
		for _, e := range c.ins {
			rl := a.transfer(c.r, a.slotOf[c.orig], true)
			if e.late {
				a.w[rl].flags |= wLate
			}
			hits = append(hits, spillHit{b: e.b, i: e.i, w: rl})
		}
	}
	// By block, and in each by instruction, a loop's reloads before the
	// instruction at their place (w > 0), in the order made.
	slices.SortStableFunc(hits, func(x, y spillHit) int {
		if c := cmp.Compare(x.b, y.b); c != 0 {
			return c
		}
		if c := cmp.Compare(x.i, y.i); c != 0 {
			return c
		}
		return cmp.Compare(min(y.w, 1), min(x.w, 1))
	})
	var after []int32 // the stores after an instruction
	var done []Reg    // its temporaries
	a.relist = make([]int32, len(a.f.Blocks))
	for b := range a.relist {
		a.relist[b] = -1
	}
	// input appends the input's instructions i to j of block b to out.
	input := func(out []int32, b int32, i, j int) []int32 {
		for wi := a.bw[b] + int32(i); wi < a.bw[b]+int32(j); wi++ {
			out = append(out, wi)
		}
		return out
	}
	for h := 0; h < len(hits); {
		b := hits[h].b
		nw := int(a.bw[b+1] - a.bw[b]) // the block's input instructions
		out := make([]int32, 0, nw+8)
		next := 0 // its first next are in out
		for ; h < len(hits) && hits[h].b == b; h++ {
			i := int(hits[h].i)
			if hits[h].w > 0 {
				// A loop's reload, before the instruction at i (or at the end).
				out = input(out, b, next, i)
				next = i
				out = append(out, hits[h].w)
				continue
			}
			if i < next {
				continue // the instruction of another spilled register's hit
			}
			out = input(out, b, next, i)
			next = i + 1
			wi := a.bw[b] + int32(i)
			w := &a.w[wi]
			// The scan renamed the spilled registers (spillReg): each
			// temporary read is reloaded before, each written stored
			// after (the pool grows with them: wuses and wdefs are read
			// only).
			wuses, wdefs := a.uses(w), a.defs(w)
			after, done = after[:0], done[:0]
			for _, list := range [2][]Reg{wuses, wdefs} {
				for _, r := range list {
					if int(r) < a.ninstr || !a.tmp[r] || contains(done, r) {
						continue // a register of the input, a loop's copy, or done
					}
					done = append(done, r)
					slot := a.slotOf[a.tmpFor[int(r)-a.ninstr]]
					if contains(wuses, r) {
						out = append(out, a.transfer(r, slot, true))
					}
					if contains(wdefs, r) {
						after = append(after, a.transfer(r, slot, false))
					}
				}
			}
			out = append(out, wi)
			out = append(out, after...)
		}
		a.relist[b] = int32(len(a.lists))
		a.lists = append(a.lists, input(out, b, next, nw))
	}
}
