// Package outssa translates a function out of SSA: from the SSA level of
// package cfg, with Phis, to the RTL level, with moves (paper 003,
// section 8). The Phis of a block become, at the end of each predecessor,
// one parallel move (the k-th arguments of the block's Phis to their
// destinations), sequentialized by Sequentialize with at most one extra
// move per cycle, so that the swap problem (section 8.2) is solved rather
// than refused. The normalization of the cfg level (section 8.1: no
// critical edges, a join entered only by jumps) lets every move sit at
// the end of a predecessor that has one successor.
//
// Before the moves are placed, registers are coalesced so that a Phi and
// its arguments share a register wherever their live ranges do not
// interfere, and the move between them disappears: a loop counter
// i = i + 1 costs no copy. This is interference-based coalescing of Phi
// webs, simpler than Boissinot et al.'s method ("Revisiting out-of-SSA
// translation for correctness, code quality and efficiency", CGO 2009),
// whose ideas it uses: SSA interference (x and y interfere when, the
// definition of x dominating that of y, x is live just after y is
// defined), classes of registers kept in dominance order and tested
// against each other in linear time through a dominance forest (Budimlic
// et al., PLDI 2002), and the copies of the deepest loops coalesced
// first. Unlike Boissinot et al., interference is not value-based (two
// registers known to hold the same value still interfere), and a class
// stops growing at maxClass registers and a register live into more than
// maxSpan blocks is taken to interfere with everything, which keep the
// pass linear.
//
// The result is checked by Check, which shares no code with the pass.
//
// Cost: linear. Liveness is computed for the registers of Phi webs only,
// by walking back from each use to the definition (Appel's "path
// exploration"), at most maxSpan blocks per register; each coalescing test
// costs O(maxClass) queries of O(log n); then sorting the Phi arguments by
// loop depth, and the moves, O(n + m) for n instructions and Phis and m
// edges, but for sequentializing each edge's k moves in O(k log k).
package outssa

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"son/cfg"
	"son/internal/dom"
	"son/internal/numbering"
)

// maxSpan bounds the blocks a register's liveness is computed over: a
// register live into more blocks is taken to be live everywhere after its
// definition, so that it interferes with everything it could be coalesced
// with; this keeps the liveness linear when many registers are live
// across a long program.
const maxSpan = 1000

// maxClass bounds the registers that coalescing puts in one class: a Phi
// web larger than that is left in several classes, joined by copies.
const maxClass = 512

// Result is a function translated out of SSA, with the numbers that son
// ir -stats reports.
type Result struct {
	Func   *cfg.Func // at the RTL level
	Naive  int       // the moves of the naive scheme: one per Phi and predecessor
	Copies int       // the moves inserted: Copy or Const, cycle breaks included
	Cycles int       // the cycles broken, each by one move to the temporary
}

// Translate returns f out of SSA. It does not modify f. f must be an SSA
// function that cfg.Verify accepts, and a block with Phis must be entered
// only by jumps (cfg.Verify requires it of blocks with several
// predecessors; here it is required of a block with a single one too, so
// that its moves have a place); otherwise the error names the block and
// the rule.
func Translate(f *cfg.Func) (*Result, error) { return translate(f, false) }

// TranslateInPlace is Translate making the RTL function of f's own
// blocks, instructions and lists, renamed where they stand, rather than a
// copy (a fifth of the pass's bytes): Result.Func is f, at the RTL level.
// For a caller that needs f no more (the pipeline when it drops each
// level; its checker, when on, reads a copy it made before the pass). An
// error found before the moves leaves f as it was; one of Sequentialize
// (two moves to one register, which a well-formed input cannot give) may
// leave it partly translated.
func TranslateInPlace(f *cfg.Func) (*Result, error) { return translate(f, true) }

func translate(f *cfg.Func, inPlace bool) (*Result, error) {
	if f.Level != cfg.SSA {
		return nil, fmt.Errorf("outssa: function %s is at the %v level, not SSA", f.Name, f.Level)
	}
	if err := cfg.Verify(f); err != nil {
		return nil, fmt.Errorf("outssa: the input is not a well-formed SSA function: %w", err)
	}
	for _, s := range f.Blocks {
		if len(s.Phis) == 0 {
			continue
		}
		for _, p := range s.Preds {
			if p.Term.Kind != cfg.TermJump {
				return nil, fmt.Errorf("outssa: %v: join-entry: the block has Phis but is entered from %v by a branch, not a jump: its moves would have no place", s, p)
			}
		}
	}
	t := newTranslation(f)
	t.liveness()
	t.coalesce()
	return t.emit(inPlace)
}

// defPoint is where a register is defined: a block by position and the
// index of its instruction, or -1 for a Phi (all the Phis of a block are
// defined at once, on entry).
type defPoint struct {
	block, index int32
}

// translation is the state of one Translate.
type translation struct {
	f   *cfg.Func
	pos *numbering.Table // block ID -> position in f.Blocks
	dom dom.Intervals    // dominance and the dominator tree's preorder, by block position

	slot     *numbering.Table // register -> slot
	regs     []cfg.Reg        // slot -> register
	def      []defPoint       // slot -> definition
	isConst  []bool           // slot -> defined by a Const
	constVal []int64

	// first[i] is the slot of the first definition of block i (its Phis'
	// slots, then its instructions'). reads holds the slot of every
	// register read, block by block: its Phis' arguments, its
	// instructions' arguments, its terminator's register (but a Jump's);
	// block i's from readStart[i]. Looked up once here, not in each walk.
	first, readStart, reads []int32

	web     []bool    // slot -> a Phi's destination or argument
	wide    []bool    // slot -> live into more than maxSpan blocks: liveness not computed
	liveOut [][]int32 // slot -> the blocks at whose end it is live, in order
	// lastUse lists, for each slot of a web, the blocks whose instructions
	// or terminator use it, in order, each with its last use (the index of
	// the instruction; len(Instrs) for the terminator): lastUse[x] is
	// lastUses[lastStart[x]:lastEnd[x]].
	lastUses           []blockUse
	lastStart, lastEnd []int32

	// Classes of coalesced registers: a union-find over slots, the
	// members of each root in dominance order of their definitions.
	parent      []int32
	members     [][]int32
	merged      []int32 // the rest of the chunk union cuts the merged classes from
	mergedChunk int     // the size of that chunk
	stack       []int32 // scratch for interfere
	deadPhi     []bool  // slot -> a Phi's destination not live after it: no moves (found by coalesce)
}

// blockUse is the last use of a register in a block, by position.
type blockUse struct{ block, last int32 }

// at is the position of block b in f.Blocks.
func (t *translation) at(b *cfg.Block) int32 { return t.pos.Get(int64(b.ID)) }

// slotOf is the slot of register r.
func (t *translation) slotOf(r cfg.Reg) int32 { return t.slot.Get(int64(r)) }

func newTranslation(f *cfg.Func) *translation {
	t := &translation{f: f}
	maxID, nsucc, ndefs := 0, 0, 0
	var maxReg cfg.Reg
	for _, b := range f.Blocks {
		maxID = max(maxID, b.ID)
		nsucc += len(b.Succs())
		ndefs += len(b.Phis) + len(b.Instrs)
		for _, p := range b.Phis {
			maxReg = max(maxReg, p.Dst)
		}
		for _, in := range b.Instrs {
			maxReg = max(maxReg, in.Dst)
		}
	}
	t.pos = numbering.New(len(f.Blocks), int64(maxID))
	t.slot = numbering.New(ndefs, int64(maxReg))
	for i, b := range f.Blocks {
		t.pos.Set(int64(b.ID), int32(i))
	}
	// The successor lists laid out flat: block i's are
	// edges[start[i]:start[i+1]].
	start, edges := make([]int32, 1, len(f.Blocks)+1), make([]int32, 0, nsucc)
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			edges = append(edges, t.at(s))
		}
		start = append(start, int32(len(edges)))
	}
	// The pass uses Lengauer–Tarjan; cfg.Verify, Cooper–Harvey–Kennedy.
	// Dominance and the preorder are all it asks: the tree's intervals,
	// not a dom.Tree's searches too.
	t.dom = dom.NewIntervals(dom.LengauerTarjanFlat(start, edges))
	t.regs = make([]cfg.Reg, 0, ndefs)
	t.def = make([]defPoint, 0, ndefs)
	t.isConst = make([]bool, 0, ndefs)
	t.constVal = make([]int64, 0, ndefs)
	define := func(r cfg.Reg, d defPoint, in *cfg.Instr) {
		t.slot.Set(int64(r), int32(len(t.regs)))
		t.regs = append(t.regs, r)
		t.def = append(t.def, d)
		c := in != nil && in.Op == cfg.OpConst
		t.isConst = append(t.isConst, c)
		if c {
			t.constVal = append(t.constVal, in.Aux)
		} else {
			t.constVal = append(t.constVal, 0)
		}
	}
	t.first = make([]int32, len(f.Blocks))
	nreads := 0
	for i, b := range f.Blocks {
		t.first[i] = int32(len(t.regs))
		for _, p := range b.Phis {
			define(p.Dst, defPoint{int32(i), -1}, nil)
			nreads += len(p.Args)
		}
		for k, in := range b.Instrs {
			if in.Op.HasDst() {
				define(in.Dst, defPoint{int32(i), int32(k)}, in)
			}
			nreads += len(in.Args)
		}
		nreads++ // the terminator's
	}
	t.readStart = make([]int32, len(f.Blocks))
	t.reads = make([]int32, 0, nreads)
	for i, b := range f.Blocks {
		t.readStart[i] = int32(len(t.reads))
		for _, p := range b.Phis {
			for _, a := range p.Args {
				t.reads = append(t.reads, t.slotOf(a))
			}
		}
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				t.reads = append(t.reads, t.slotOf(a))
			}
		}
		if b.Term.Kind != cfg.TermJump {
			t.reads = append(t.reads, t.slotOf(b.Term.Reg))
		}
	}
	// Each class starts as its register alone: the lists cut from one
	// array, full to capacity (union makes a new one).
	t.parent = make([]int32, len(t.regs))
	t.members = make([][]int32, len(t.regs))
	one := make([]int32, len(t.regs))
	for x := range t.parent {
		t.parent[x] = int32(x)
		one[x] = int32(x)
		t.members[x] = one[x : x+1 : x+1]
	}
	return t
}

// liveness computes the live sets of the registers of Phi webs, the only
// ones coalescing asks about, by walking back from each use to the
// definition (a Phi's k-th argument is used at the end of Preds[k]), one
// register at a time, with block stamps to visit each block once. The
// uses of all registers are kept in one array, each register's together,
// counted first and then filled in (no list per register).
func (t *translation) liveness() {
	t.web, t.wide = make([]bool, len(t.regs)), make([]bool, len(t.regs))
	for i, b := range t.f.Blocks {
		r := t.readStart[i]
		for j, p := range b.Phis {
			t.web[t.first[i]+int32(j)] = true
			for range p.Args {
				t.web[t.reads[r]] = true
				r++
			}
		}
	}
	// The predecessors of each block by position, looked up once:
	// preds[predStart[b]:predStart[b+1]] for block b.
	predStart := make([]int32, len(t.f.Blocks)+1)
	for i, b := range t.f.Blocks {
		predStart[i+1] = predStart[i] + int32(len(b.Preds))
	}
	preds := make([]int32, predStart[len(t.f.Blocks)])
	for i, b := range t.f.Blocks {
		for k, p := range b.Preds {
			preds[int(predStart[i])+k] = t.at(p)
		}
	}
	// The uses of each register of a web: a block, and whether the use is
	// at its very end (a Phi argument). Counted, then placed.
	type use struct {
		block int32
		atEnd bool
	}
	count := make([]int32, len(t.regs)+1)
	forUses := func(f func(x, block int32, atEnd bool, k int)) {
		r := 0
		for i, b := range t.f.Blocks {
			for _, p := range b.Phis {
				for k := range p.Args {
					if x := t.reads[r]; t.web[x] {
						f(x, preds[int(predStart[i])+k], true, 0)
					}
					r++
				}
			}
			for k, in := range b.Instrs {
				for range in.Args {
					if x := t.reads[r]; t.web[x] {
						f(x, int32(i), false, k)
					}
					r++
				}
			}
			if b.Term.Kind != cfg.TermJump {
				if x := t.reads[r]; t.web[x] {
					f(x, int32(i), false, len(b.Instrs))
				}
				r++
			}
		}
	}
	forUses(func(x, _ int32, _ bool, _ int) { count[x+1]++ })
	for x := 1; x < len(count); x++ {
		count[x] += count[x-1]
	}
	// uses[start[x]:start[x+1]] are x's uses; lastUses has room for every
	// use in an instruction, each register's from the same start, of
	// which the first lastEnd[x]-start[x] are filled.
	start := count
	uses := make([]use, start[len(t.regs)])
	t.lastUses = make([]blockUse, len(uses))
	next := make([]int32, len(t.regs))
	copy(next, start)
	t.lastStart, t.lastEnd = start[:len(t.regs)], make([]int32, len(t.regs))
	copy(t.lastEnd, start)
	forUses(func(x, block int32, atEnd bool, k int) {
		uses[next[x]] = use{block, atEnd}
		next[x]++
		if atEnd {
			return
		}
		// The blocks come in order, and a block's uses in order: a use in
		// the block of the last entry moves that entry's last use on.
		if e := t.lastEnd[x]; e > t.lastStart[x] && t.lastUses[e-1].block == block {
			t.lastUses[e-1].last = int32(k)
		} else {
			t.lastUses[e] = blockUse{block, int32(k)}
			t.lastEnd[x]++
		}
	})
	t.liveOut = make([][]int32, len(t.regs))
	inStamp := make([]int32, len(t.f.Blocks))  // x+1: live on entry for x
	outStamp := make([]int32, len(t.f.Blocks)) // x+1: live at the end for x
	var work, out, slab []int32
	for x := range t.regs {
		stamp := int32(x) + 1
		out = out[:0]
		markOut := func(b int32) {
			if outStamp[b] != stamp {
				outStamp[b] = stamp
				out = append(out, b)
			}
		}
		span := 0
		db := t.def[x].block
	walk:
		for _, u := range uses[start[x]:start[x+1]] {
			if u.atEnd {
				markOut(u.block)
			}
			work = append(work[:0], u.block)
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				if b == db || inStamp[b] == stamp {
					continue
				}
				if span++; span > maxSpan {
					t.wide[x] = true
					break walk
				}
				inStamp[b] = stamp
				for _, pb := range preds[predStart[b]:predStart[b+1]] {
					markOut(pb)
					// A block already walked, or the definition's, would
					// be popped and passed over: not pushed.
					if pb != db && inStamp[pb] != stamp {
						work = append(work, pb)
					}
				}
			}
		}
		if !t.wide[x] && len(out) > 0 {
			// Cut from a slab of chunks, each list full to capacity. (Chunks
			// doubling from 256 entries, to spare a small function 16 KB,
			// made the compiler keep this loop's counters in memory: 2% more
			// instructions at 10k and 100k.)
			if cap(slab)-len(slab) < len(out) {
				slab = make([]int32, 0, max(4096, len(out)))
			}
			l := len(slab)
			slab = inOrder(slab, out, outStamp, stamp)
			t.liveOut[x] = slab[l:len(slab):len(slab)]
		}
	}
}

// inOrder appends to dst the blocks of out in increasing order, out being
// the blocks b with stamps[b] == stamp. A live range is mostly a run of
// consecutive blocks (on the scaling programs the lists span 1.1 times
// as many blocks as they hold), so when the list spans at most four times
// its length the stamps are read from its least block to its greatest,
// in linear time, rather than the list sorted.
func inOrder(dst, out, stamps []int32, stamp int32) []int32 {
	lo, hi := out[0], out[0]
	for _, b := range out[1:] {
		lo, hi = min(lo, b), max(hi, b)
	}
	if int(hi-lo) >= 4*len(out) {
		l := len(dst)
		dst = append(dst, out...)
		sortBlocks(dst[l:])
		return dst
	}
	for b := lo; b <= hi; b++ {
		if stamps[b] == stamp {
			dst = append(dst, b)
		}
	}
	return dst
}

// sortBlocks sorts a list of block positions. The walk back from the uses
// finds them mostly in decreasing order, often exactly: such a list is
// reversed in linear time rather than sorted.
func sortBlocks(l []int32) {
	descending := true
	for i := 1; i < len(l) && descending; i++ {
		descending = l[i] < l[i-1]
	}
	if descending {
		slices.Reverse(l)
		return
	}
	slices.Sort(l)
}

// liveAfter reports whether x is live just after the definition d: used
// later in its block, or live at its end.
func (t *translation) liveAfter(x int32, d defPoint) bool {
	if t.wide[x] {
		return true // not known: assume the worst
	}
	if _, found := slices.BinarySearch(t.liveOut[x], d.block); found {
		return true
	}
	l := t.lastUses[t.lastStart[x]:t.lastEnd[x]]
	k, found := slices.BinarySearchFunc(l, d.block, func(u blockUse, b int32) int { return int(u.block - b) })
	return found && l[k].last > d.index
}

// before orders definitions in dominance order: by the preorder of their
// blocks in the dominator tree, then by index.
func (t *translation) before(x, y int32) bool {
	dx, dy := t.def[x], t.def[y]
	if dx.block != dy.block {
		return t.dom.Pre(int(dx.block)) < t.dom.Pre(int(dy.block))
	}
	return dx.index < dy.index
}

// dominates reports whether the definition of x dominates that of y.
func (t *translation) dominates(x, y int32) bool {
	dx, dy := t.def[x], t.def[y]
	if dx.block == dy.block {
		return dx.index <= dy.index
	}
	return t.dom.Dominates(int(dx.block), int(dy.block))
}

func (t *translation) find(x int32) int32 {
	for t.parent[x] != x {
		t.parent[x] = t.parent[t.parent[x]]
		x = t.parent[x]
	}
	return x
}

// interfere reports whether some register of class a interferes with
// some register of class b, neither class having interferences inside.
// It walks the union in dominance order keeping the dominance forest's
// current path on a stack; if two registers interfere, then some register
// interferes with its parent in the forest (the live range of an SSA
// register is connected in the dominator tree), so comparing each with
// its parent is enough: O(|a| + |b|) tests.
func (t *translation) interfere(a, b []int32) bool {
	st := t.stack[:0]
	defer func() { t.stack = st[:0] }()
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var c int32
		if j == len(b) || (i < len(a) && t.before(a[i], b[j])) {
			c, i = a[i], i+1
		} else {
			c, j = b[j], j+1
		}
		for len(st) > 0 && !t.dominates(st[len(st)-1], c) {
			st = st[:len(st)-1]
		}
		if len(st) > 0 && t.liveAfter(st[len(st)-1], t.def[c]) {
			return true
		}
		st = append(st, c)
	}
	return false
}

// union merges the classes of roots a and b, which do not interfere.
func (t *translation) union(a, b int32) {
	ma, mb := t.members[a], t.members[b]
	// Cut from chunks (a slice each was most of union's cost), full to
	// capacity.
	n := len(ma) + len(mb)
	if len(t.merged) < n {
		t.mergedChunk = chunk(t.mergedChunk, 256, 4096)
		t.merged = make([]int32, max(n, t.mergedChunk))
	}
	merged := t.merged[:0:n]
	t.merged = t.merged[n:]
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		if j == len(mb) || (i < len(ma) && t.before(ma[i], mb[j])) {
			merged, i = append(merged, ma[i]), i+1
		} else {
			merged, j = append(merged, mb[j]), j+1
		}
	}
	if len(ma) < len(mb) {
		a, b = b, a
	}
	t.parent[b] = a
	t.members[a], t.members[b] = merged, nil
}

// coalesce puts each live Phi's destination in the class of each of its
// arguments wherever the two classes do not interfere, the moves of the
// deepest loops first.
func (t *translation) coalesce() {
	type pair struct {
		dst, arg int32
		depth    int
	}
	// At most one pair per Phi argument: the array made once (appends
	// that doubled it were a fifth of the pass's bytes).
	n := 0
	for _, b := range t.f.Blocks {
		n += len(b.Phis) * len(b.Preds)
	}
	pairs := make([]pair, 0, n)
	t.deadPhi = make([]bool, len(t.regs))
	for i, b := range t.f.Blocks {
		r := t.readStart[i]
		for j, p := range b.Phis {
			d := t.first[i] + int32(j)
			if !t.liveAfter(d, t.def[d]) {
				t.deadPhi[d] = true
				r += int32(len(p.Args))
				continue // a dead Phi gets no move
			}
			for k := range p.Args {
				pairs = append(pairs, pair{d, t.reads[r], int(b.Preds[k].LoopDepth)})
				r++
			}
		}
	}
	// The deepest first, in their order within a depth: a counting sort,
	// linear, when the depths span no more values than there are pairs
	// (always, from gcm); a comparison sort for a hand-written function
	// with far-flung depths.
	lo, hi := 0, 0
	for i, p := range pairs {
		if i == 0 || p.depth < lo {
			lo = p.depth
		}
		hi = max(hi, p.depth)
	}
	sorted := pairs
	if span := hi - lo; span >= 0 && span <= len(pairs) {
		first := make([]int, span+2) // by hi - depth: where its pairs start
		for _, p := range pairs {
			first[hi-p.depth+1]++
		}
		for d := 1; d < len(first); d++ {
			first[d] += first[d-1]
		}
		sorted = make([]pair, len(pairs))
		for _, p := range pairs {
			sorted[first[hi-p.depth]] = p
			first[hi-p.depth]++
		}
	} else {
		slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(b.depth, a.depth) })
	}
	for _, p := range sorted {
		a, b := t.find(p.dst), t.find(p.arg)
		if a == b || len(t.members[a])+len(t.members[b]) > maxClass {
			continue
		}
		if !t.interfere(t.members[a], t.members[b]) {
			t.union(a, b)
		}
	}
}

// emit builds the RTL function: each class of registers is named by its
// smallest register, and the Phis of each block become moves at the end
// of its predecessors. In place, the function is t.f itself.
func (t *translation) emit(inPlace bool) (*Result, error) {
	f := t.f
	name := make([]cfg.Reg, len(t.regs)) // by root slot
	var maxReg cfg.Reg
	for x, r := range t.regs {
		root := t.find(int32(x))
		if name[root] == 0 || r < name[root] {
			name[root] = r
		}
		maxReg = max(maxReg, r)
	}
	if maxReg == math.MaxInt32 {
		return nil, fmt.Errorf("outssa: function %s uses register %v: no register is left for the temporary", f.Name, maxReg)
	}
	tmp := maxReg + 1
	// The name of each slot's class, found once.
	named := make([]cfg.Reg, len(t.regs))
	for x := range t.regs {
		named[x] = name[t.find(int32(x))]
	}

	if inPlace {
		return t.emitInPlace(named, tmp)
	}
	res := &Result{Func: &cfg.Func{Name: f.Name, Level: cfg.RTL}}
	// The blocks, instructions, argument lists, block lists and
	// instruction lists are cut from one array each, a few allocations
	// rather than two per instruction and two per block; each list is
	// full to its capacity when the function is returned, so that an
	// append copies it out. A block's instruction list has room for its
	// instructions and the moves of its successor's Phis, at most one per
	// Phi and a cycle break for every two.
	nins, nargs, nlists, nroom := 0, 0, 0, 0
	room := make([]int, len(f.Blocks)) // moves a block's list has room for
	for i, b := range f.Blocks {
		nins += len(b.Instrs)
		for _, in := range b.Instrs {
			nargs += len(in.Args)
		}
		nlists += len(b.Preds)
		if len(b.Succs()) == 1 {
			room[i] = len(b.Succs()[0].Phis) + len(b.Succs()[0].Phis)/2
		}
		nroom += len(b.Instrs) + room[i]
	}
	slab := make([]cfg.Block, len(f.Blocks))
	instrs := make([]cfg.Instr, nins)
	regs := make([]cfg.Reg, nargs)
	lists := make([]*cfg.Block, nlists)
	ilists := make([]*cfg.Instr, nroom)
	out := make([]*cfg.Block, len(f.Blocks))
	for i, b := range f.Blocks {
		slab[i] = cfg.Block{ID: b.ID, LoopDepth: b.LoopDepth}
		out[i] = &slab[i]
	}
	blocks := func(bs []*cfg.Block) []*cfg.Block {
		if len(bs) == 0 {
			return nil
		}
		l := lists[:len(bs):len(bs)]
		lists = lists[len(bs):]
		for k, x := range bs {
			l[k] = out[t.at(x)]
		}
		return l
	}
	for i, b := range f.Blocks {
		nb := out[i]
		nb.Preds = blocks(b.Preds)
		for _, x := range b.Succs() {
			nb.AddSucc(out[t.at(x)])
		}
		if n := len(b.Instrs) + room[i]; n > 0 {
			nb.Instrs = ilists[:0:n]
			ilists = ilists[n:]
		}
		d := t.first[i] + int32(len(b.Phis)) // the next instruction's slot
		r := t.readStart[i]
		for _, p := range b.Phis {
			r += int32(len(p.Args))
		}
		for _, in := range b.Instrs {
			c := &instrs[0]
			instrs = instrs[1:]
			*c = *in
			if in.Op.HasDst() {
				c.Dst = named[d]
				d++
			}
			c.Args = regs[:len(in.Args):len(in.Args)]
			regs = regs[len(in.Args):]
			for k := range in.Args {
				c.Args[k] = named[t.reads[r]]
				r++
			}
			nb.Instrs = append(nb.Instrs, c)
		}
		nb.Term = b.Term
		if b.Term.Kind != cfg.TermJump {
			nb.Term.Reg = named[t.reads[r]]
		}
	}
	if err := t.moves(res, named, tmp, out); err != nil {
		return nil, err
	}
	for _, nb := range out {
		if len(nb.Instrs) == 0 {
			nb.Instrs = nil
		} else {
			nb.Instrs = nb.Instrs[:len(nb.Instrs):len(nb.Instrs)]
		}
	}
	res.Func.Blocks = out
	return res, nil
}

// emitInPlace is emit renaming t.f's own instructions and terminators,
// the Phis dropped: only the instruction lists of the blocks that get
// moves are made again, with room for them.
func (t *translation) emitInPlace(named []cfg.Reg, tmp cfg.Reg) (*Result, error) {
	f := t.f
	res := &Result{Func: f}
	nroom := 0
	for _, b := range f.Blocks {
		if len(b.Succs()) == 1 && len(b.Succs()[0].Phis) > 0 {
			nroom += len(b.Instrs) + len(b.Succs()[0].Phis) + len(b.Succs()[0].Phis)/2
		}
	}
	ilists := make([]*cfg.Instr, nroom)
	for i, b := range f.Blocks {
		d := t.first[i] + int32(len(b.Phis)) // the next instruction's slot
		r := t.readStart[i]
		for _, p := range b.Phis {
			r += int32(len(p.Args))
		}
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				in.Dst = named[d]
				d++
			}
			for k := range in.Args {
				in.Args[k] = named[t.reads[r]]
				r++
			}
		}
		if b.Term.Kind != cfg.TermJump {
			b.Term.Reg = named[t.reads[r]]
		}
		if len(b.Succs()) == 1 && len(b.Succs()[0].Phis) > 0 {
			n := len(b.Instrs) + len(b.Succs()[0].Phis) + len(b.Succs()[0].Phis)/2
			l := append(ilists[:0:n], b.Instrs...)
			ilists = ilists[n:]
			b.Instrs = l
		}
	}
	if err := t.moves(res, named, tmp, f.Blocks); err != nil {
		return nil, err
	}
	for _, b := range f.Blocks {
		b.Phis = nil
		if len(b.Instrs) == 0 {
			b.Instrs = nil
		} else {
			b.Instrs = b.Instrs[:len(b.Instrs):len(b.Instrs)]
		}
	}
	f.Level = cfg.RTL
	return res, nil
}

// chunk is the size of the next chunk of an array cut into lists: twice
// the last one's, of size last (0 before the first), from lo to at most
// hi.
func chunk(last, lo, hi int) int { return min(hi, max(lo, 2*last)) }

// moves appends to the instruction lists of out (the blocks of the RTL
// function, by position) the moves of the Phis of each block, at the end
// of each of its predecessors, and counts them in res.
func (t *translation) moves(res *Result, named []cfg.Reg, tmp cfg.Reg, out []*cfg.Block) error {
	f := t.f
	// The moves' instructions and their argument lists, from chunks of
	// 16 doubling to 256.
	var moveInstrs []cfg.Instr
	var moveArgs []cfg.Reg
	instrChunk, argChunk := 0, 0 // the last chunks' sizes
	newMove := func() *cfg.Instr {
		if len(moveInstrs) == 0 {
			instrChunk = chunk(instrChunk, 16, 256)
			moveInstrs = make([]cfg.Instr, instrChunk)
		}
		c := &moveInstrs[0]
		moveInstrs = moveInstrs[1:]
		return c
	}
	var moves []Move
	var q sequencer
	for si, s := range f.Blocks {
		res.Naive += len(s.Phis) * len(s.Preds)
		if len(s.Phis) == 0 {
			continue
		}
		for k, p := range s.Preds {
			moves = moves[:0]
			r := t.readStart[si] // the first argument of the next Phi
			for j, phi := range s.Phis {
				d := t.first[si] + int32(j)
				a := t.reads[int(r)+k]
				r += int32(len(phi.Args))
				if t.deadPhi[d] {
					continue
				}
				dst := named[d]
				switch src := named[a]; {
				case src == dst:
				case t.isConst[a]:
					moves = append(moves, Move{Dst: dst, Const: t.constVal[a]})
				default:
					moves = append(moves, Move{Dst: dst, Src: src})
				}
			}
			if len(moves) == 0 {
				continue
			}
			seq, cycles, err := q.sequentialize(moves, tmp)
			if err != nil {
				return fmt.Errorf("outssa: the moves from %v to %v: %w", p, s, err)
			}
			res.Copies += len(seq)
			res.Cycles += cycles
			nb := out[t.at(p)]
			for _, m := range seq {
				c := newMove()
				if m.Src == 0 {
					*c = cfg.Instr{Op: cfg.OpConst, Dst: m.Dst, Aux: m.Const}
				} else {
					if len(moveArgs) == 0 {
						argChunk = chunk(argChunk, 16, 256)
						moveArgs = make([]cfg.Reg, argChunk)
					}
					*c = cfg.Instr{Op: cfg.OpCopy, Dst: m.Dst, Args: moveArgs[:1:1]}
					moveArgs = moveArgs[1:]
					c.Args[0] = m.Src
				}
				nb.Instrs = append(nb.Instrs, c)
			}
		}
	}
	return nil
}
