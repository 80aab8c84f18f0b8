package cfg

import (
	"fmt"
	"sort"
	"strings"

	"son/internal/dom"
	"son/internal/numbering"
)

// Verify checks that f is well formed at its level and returns every
// problem found, each naming the block, the Phi, instruction or
// terminator, and the rule broken; or nil. The rules, by name:
//
// Structure, at both levels:
//   - entry: there is a block; Blocks[0], the entry, has no predecessors
//     (and, at the SSA level, no Phis, having no edge to run them on);
//   - level: the level is SSA or RTL;
//   - block, block-id: no nil block, none listed twice; block IDs ≥ 0
//     and unique (blocks are named b<ID> in the text form);
//   - term: each block ends in a terminator whose Succs match it (a Jump
//     one, a Branch two different ones, a Return none) and whose register
//     is set for a Branch or Return, and not for a Jump;
//   - edges: Preds and Succs mirror each other exactly (b appears in
//     s.Preds as many times as s in b.Succs()) and hold only blocks of f;
//   - reachable: every block is reachable from the entry;
//   - instr, phi: each instruction has a valid op, Op.NumArgs arguments,
//     a Dst exactly when Op.HasDst, and registers > 0; each Phi a Dst and
//     arguments > 0.
//
// Normalization (paper 003, section 3.2):
//   - critical-edge: no edge goes from a block with several successors to a
//     block with several predecessors;
//   - join-entry: a block with several predecessors is entered only by
//     Jumps.
//
// The SSA level (paper 003, section 4.1, wf_ssa_function):
//   - single-def: each register is defined once, by a Phi or an
//     instruction;
//   - phi-arity: each Phi has one argument per predecessor;
//   - strict: every use is dominated by its definition: a use in an
//     instruction or terminator by a Phi of its block, an instruction
//     before it in its block, or a definition in a strictly dominating
//     block; the k-th argument of a Phi, used at the end of Preds[k] (Phis
//     run on the edge), by a definition in Preds[k] or in a block that
//     strictly dominates it;
//   - undefined: every register used is defined.
//
// The RTL level:
//   - rtl-phi: there are no Phis;
//   - undefined: every register used is defined somewhere, on some path:
//     dominance is not required.
//
// Dominators come from package dom (Cooper, Harvey and Kennedy's
// algorithm) over the blocks by position. Strictness is checked for uses
// in reachable blocks only; an unreachable block is reported as such.
// Verify takes O(n + m + r) time, with r the number of register mentions,
// plus the dominator computation, and recurses nowhere.
func Verify(f *Func) error {
	_, err := verify(f)
	return err
}

// VerifyDominance is Verify, and returns too, when f passes, the
// dominance of its blocks by position (Cooper, Harvey and Kennedy's
// algorithm, numbered for O(1) queries) that Verify checked strictness
// with: for a validator that trusts the same computation and would
// otherwise make it again (gvn.Validate).
func VerifyDominance(f *Func) (dom.Intervals, error) {
	v, err := verify(f)
	if err != nil {
		return dom.Intervals{}, err
	}
	return v.tree, nil
}

// verify is Verify, returning the verifier too, for what it computed.
func verify(f *Func) (*verifier, error) {
	v := &verifier{f: f, pos: positions(f)}
	if len(f.Blocks) == 0 {
		v.bad(nil, where{}, "entry", "the function has no blocks")
		return v, v.err()
	}
	// Which positions hold a block of their own (not nil, not a second
	// listing), found once: every rule below asks.
	v.ok = make([]bool, len(f.Blocks))
	for i, b := range f.Blocks {
		v.ok[i] = b != nil && v.pos.at(b) == i
	}
	v.blocks()
	v.edges()
	v.reachable()
	v.normalized()
	switch f.Level {
	case SSA:
		v.ssa()
	case RTL:
		v.rtl()
	default:
		v.bad(nil, where{}, "level", "unknown level %d", f.Level)
	}
	return v, v.err()
}

// Problem is one broken rule.
type Problem struct {
	Block *Block // the block, or nil for the whole function
	Where string // "phi K (text)", "instr K (text)", "term (text)", or "" for the block itself
	Rule  string // the rule's name, as listed at Verify
	Msg   string
}

// String formats p as "b3: instr 2 (v7 = Add v5 v6): strict: message".
func (p Problem) String() string {
	var s strings.Builder
	if p.Block != nil {
		s.WriteString(p.Block.String())
	} else {
		s.WriteString("func")
	}
	if p.Where != "" {
		s.WriteString(": ")
		s.WriteString(p.Where)
	}
	s.WriteString(": ")
	s.WriteString(p.Rule)
	s.WriteString(": ")
	s.WriteString(p.Msg)
	return s.String()
}

// VerifyError lists the problems Verify found, in block order.
type VerifyError struct {
	Func     string
	Problems []Problem
}

// maxProblems bounds the problems an error message shows.
const maxProblems = 20

func (e *VerifyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cfg: function %s is not well formed:", funcName(e.Func))
	for i, p := range e.Problems {
		if i == maxProblems {
			fmt.Fprintf(&b, "\n\t... and %d more", len(e.Problems)-maxProblems)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(p.String())
	}
	return b.String()
}

type verifier struct {
	f     *Func
	pos   *blockIndex   // block -> position in f.Blocks
	ok    []bool        // by position: the block is valid (see valid)
	tree  dom.Intervals // dominance by position, once edges are checked
	probs []Problem
}

func (v *verifier) bad(b *Block, w where, rule, format string, args ...any) {
	v.probs = append(v.probs, Problem{Block: b, Where: w.String(), Rule: rule, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) err() error {
	if len(v.probs) == 0 {
		return nil
	}
	at := func(b *Block) int {
		if b == nil {
			return -1
		}
		return v.pos.at(b)
	}
	sort.SliceStable(v.probs, func(i, j int) bool { return at(v.probs[i].Block) < at(v.probs[j].Block) })
	return &VerifyError{Func: v.f.Name, Problems: v.probs}
}

// valid reports whether the block at position i is a block of f at its
// own position: not nil and not a second listing (v.ok, found once by
// verify). Only valid blocks are checked further.
func (v *verifier) valid(i int) bool { return v.ok[i] }

// where names the part of a block a problem is in: the block itself, a
// Phi, an instruction or the terminator. Its text, the Where of a
// Problem, is only made when a problem is reported.
type where struct {
	kind byte // 0: the block; 'p': Phis[k]; 'i': Instrs[k]; 't': the terminator of b
	k    int
	phi  *Phi
	in   *Instr
	b    *Block
}

func atPhi(k int, p *Phi) where      { return where{kind: 'p', k: k, phi: p} }
func atInstr(k int, in *Instr) where { return where{kind: 'i', k: k, in: in} }
func atTerm(b *Block) where          { return where{kind: 't', b: b} }

// String is "phi K (text)", "instr K (text)", "term (text)" or "".
func (w where) String() string {
	switch w.kind {
	case 'p':
		if w.phi == nil {
			return fmt.Sprintf("phi %d", w.k)
		}
		return fmt.Sprintf("phi %d (%v)", w.k, w.phi)
	case 'i':
		if w.in == nil {
			return fmt.Sprintf("instr %d", w.k)
		}
		return fmt.Sprintf("instr %d (%v)", w.k, w.in)
	case 't':
		return fmt.Sprintf("term (%s)", w.b.TermString())
	}
	return ""
}

func phiWhere(k int, p *Phi) string      { return atPhi(k, p).String() }
func instrWhere(k int, in *Instr) string { return atInstr(k, in).String() }
func termWhere(b *Block) string          { return atTerm(b).String() }

// blocks checks each block on its own: IDs, terminator, Phi and
// instruction shapes.
func (v *verifier) blocks() {
	// The index found every block by its ID unless two blocks share one or
	// one is negative (then it keeps a map): only then can the IDs break
	// a rule, and only then are they put in a map to find which.
	var ids map[int]*Block
	if v.pos.m != nil {
		ids = make(map[int]*Block, len(v.f.Blocks))
	}
	for i, b := range v.f.Blocks {
		if b == nil {
			v.bad(nil, where{}, "block", "Blocks[%d] is nil", i)
			continue
		}
		if j := v.pos.at(b); j != i {
			v.bad(b, where{}, "block", "listed twice in Blocks, at %d and %d", j, i)
			continue
		}
		if ids != nil {
			if b.ID < 0 {
				v.bad(b, where{}, "block-id", "a block ID must be ≥ 0")
			}
			if other, dup := ids[b.ID]; dup {
				v.bad(b, where{}, "block-id", "its ID is also the ID of the block at position %d", v.pos.at(other))
			} else {
				ids[b.ID] = b
			}
		}
		v.term(b)
		for k, p := range b.Phis {
			v.phiShape(b, k, p)
		}
		for k, in := range b.Instrs {
			v.instrShape(b, k, in)
		}
	}
}

func (v *verifier) term(b *Block) {
	t := &b.Term
	want := 0
	switch t.Kind {
	case TermNone:
		v.bad(b, where{}, "term", "the block has no terminator")
		return
	case TermJump:
		want = 1
		if t.Reg != 0 {
			v.bad(b, atTerm(b), "term", "a jump has no register, but this one has %v", t.Reg)
		}
	case TermBranch:
		want = 2
		if len(b.Succs()) == 2 && b.Succs()[0] == b.Succs()[1] {
			v.bad(b, atTerm(b), "term", "both sides of the branch go to %v", b.Succs()[0])
		}
	case TermReturn:
	default:
		v.bad(b, where{}, "term", "unknown terminator kind %d", t.Kind)
		return
	}
	if len(b.Succs()) != want {
		v.bad(b, atTerm(b), "term", "a %s has %d successors, but the block has %d", termName[t.Kind], want, len(b.Succs()))
	}
	if t.Kind != TermJump && t.Reg <= 0 {
		v.bad(b, atTerm(b), "term", "a %s needs a register > 0, has %v", termName[t.Kind], t.Reg)
	}
}

var termName = [...]string{TermNone: "none", TermJump: "jump", TermBranch: "branch", TermReturn: "return"}

func (v *verifier) phiShape(b *Block, k int, p *Phi) {
	if p == nil {
		v.bad(b, atPhi(k, nil), "phi", "the Phi is nil")
		return
	}
	if p.Dst <= 0 {
		v.bad(b, atPhi(k, p), "phi", "the destination must be a register > 0")
	}
	for j, a := range p.Args {
		if a <= 0 {
			v.bad(b, atPhi(k, p), "phi", "argument %d must be a register > 0", j)
		}
	}
}

func (v *verifier) instrShape(b *Block, k int, in *Instr) {
	if in == nil {
		v.bad(b, atInstr(k, nil), "instr", "the instruction is nil")
		return
	}
	w := atInstr(k, in)
	if in.Op == OpInvalid || in.Op >= numOps {
		v.bad(b, w, "instr", "invalid op %d", in.Op)
		return
	}
	if n := in.Op.NumArgs(); len(in.Args) != n {
		v.bad(b, w, "instr", "%v takes %d arguments, has %d", in.Op, n, len(in.Args))
	}
	switch {
	case in.Op.HasDst() && in.Dst == 0:
		v.bad(b, w, "instr", "%v defines a register, but Dst is not set", in.Op)
	case !in.Op.HasDst() && in.Dst != 0:
		v.bad(b, w, "instr", "%v defines no register, but Dst is %v", in.Op, in.Dst)
	case in.Dst < 0:
		v.bad(b, w, "instr", "the destination must be a register > 0")
	}
	for j, a := range in.Args {
		if a <= 0 {
			v.bad(b, w, "instr", "argument %d must be a register > 0", j)
		}
	}
}

// edges checks that Preds and Succs mirror each other: for every block s
// and every p in s.Preds, p lists s among its Succs as many times as s
// lists p among its Preds, and every edge p → s in p.Succs() appears in
// s.Preds. It counts with a scratch array by position, in O(n + m).
func (v *verifier) edges() {
	f := v.f
	count := make([]int, len(f.Blocks)) // times the current block lists each predecessor
	seen := make([]int, len(f.Blocks))  // stamp: 1 + the position of the block that last counted it
	nPreds, nSuccs := 0, 0
	for i, s := range f.Blocks {
		if !v.valid(i) {
			continue
		}
		if i == 0 && len(s.Preds) > 0 {
			v.bad(s, where{}, "entry", "the entry has predecessors %s", blockList(s.Preds))
		}
		for _, t := range s.Succs() {
			if t == nil {
				v.bad(s, where{}, "edges", "a successor is nil")
			} else if _, ok := v.pos.of(t); !ok {
				v.bad(s, where{}, "edges", "successor %v is not a block of the function", t)
			} else {
				nSuccs++
			}
		}
		for _, p := range s.Preds {
			if p == nil {
				v.bad(s, where{}, "edges", "a predecessor is nil")
				continue
			}
			j, ok := v.pos.of(p)
			if !ok {
				v.bad(s, where{}, "edges", "predecessor %v is not a block of the function", p)
				continue
			}
			if seen[j] != i+1 {
				seen[j], count[j] = i+1, 0
			}
			count[j]++
		}
		for _, p := range s.Preds {
			j, ok := v.pos.of(p)
			if !ok || seen[j] != i+1 || count[j] < 0 {
				continue
			}
			n := count[j]
			count[j] = -1 // reported once per predecessor
			if m := countBlock(p.Succs(), s); m != n {
				v.bad(s, where{}, "edges", "%v is listed %d times among the predecessors, but %v lists %v %d times among its successors", p, n, p, s, m)
			}
			nPreds += min(n, countBlock(p.Succs(), s))
		}
	}
	if nPreds == nSuccs {
		return
	}
	// Some edge p → s of Succs is missing from s.Preds: find it the slow
	// way, with a set of the edges that Preds list.
	type edge struct{ from, to *Block }
	listed := map[edge]bool{}
	for i, s := range f.Blocks {
		if v.valid(i) {
			for _, p := range s.Preds {
				listed[edge{p, s}] = true
			}
		}
	}
	for i, p := range f.Blocks {
		if !v.valid(i) {
			continue
		}
		for _, s := range p.Succs() {
			if _, ok := v.pos.of(s); ok && !listed[edge{p, s}] {
				v.bad(p, where{}, "edges", "successor %v does not list %v among its predecessors", s, p)
				listed[edge{p, s}] = true // once
			}
		}
	}
}

func countBlock(list []*Block, b *Block) int {
	n := 0
	for _, x := range list {
		if x == b {
			n++
		}
	}
	return n
}

func blockList(list []*Block) string {
	s := make([]string, len(list))
	for i, b := range list {
		s[i] = b.String()
	}
	return strings.Join(s, " ")
}

// reachable computes the dominance and reports the blocks that the entry
// does not reach.
func (v *verifier) reachable() {
	v.tree = dominance(v.f, v.pos)
	for i, b := range v.f.Blocks {
		if v.valid(i) && !v.tree.Reachable(i) {
			v.bad(b, where{}, "reachable", "the block is not reachable from the entry")
		}
	}
}

// normalized checks paper 003's normal form from the side of each join
// block s: no predecessor has several successors (critical edge), and
// every predecessor ends in a Jump.
func (v *verifier) normalized() {
	seen := make([]int, len(v.f.Blocks)) // 1 + the position of the join that last saw each predecessor
	for i, s := range v.f.Blocks {
		if !v.valid(i) || len(s.Preds) < 2 {
			continue
		}
		for _, p := range s.Preds {
			j, ok := v.pos.of(p)
			if !ok || seen[j] == i+1 {
				continue // not a block, or seen already
			}
			seen[j] = i + 1
			if len(p.Succs()) >= 2 {
				v.bad(p, where{}, "critical-edge", "the edge %v → %v is critical: %v has %d successors and %v %d predecessors",
					p, s, p, len(p.Succs()), s, len(s.Preds))
			}
			if p.Term.Kind != TermJump {
				v.bad(s, where{}, "join-entry", "the block has %d predecessors but is entered from %v by a %s, not a jump",
					len(s.Preds), p, termKindName(p.Term.Kind))
			}
		}
	}
}

func termKindName(k TermKind) string {
	if int(k) < len(termName) {
		return termName[k]
	}
	return fmt.Sprintf("terminator of kind %d", k)
}

// defSite is where a register is defined: a block by position, and a Phi
// or an instruction of it.
type defSite struct {
	phi   bool
	block int
	index int
}

func (d defSite) describe(f *Func) string {
	if d.phi {
		return fmt.Sprintf("%v (phi %d)", f.Blocks[d.block], d.index)
	}
	return fmt.Sprintf("%v (instr %d)", f.Blocks[d.block], d.index)
}

// defs numbers the registers > 0 that the blocks define, and collects
// where each is first defined, reporting second definitions at the SSA
// level: defs[index.Lookup(r)] is the definition of r, and a register the
// table does not number is defined nowhere. Only the definitions are
// numbered (not every register mentioned, which took a walk of every use
// more), in a table sized once.
func (v *verifier) defs(ssa bool) (index *numbering.Table, defs []defSite) {
	n := 0
	var maxReg Reg
	for i, b := range v.f.Blocks {
		if !v.valid(i) {
			continue
		}
		n += len(b.Phis) + len(b.Instrs)
		for _, p := range b.Phis {
			if p != nil {
				maxReg = max(maxReg, p.Dst)
			}
		}
		for _, in := range b.Instrs {
			if in != nil {
				maxReg = max(maxReg, in.Dst)
			}
		}
	}
	index = numbering.New(n, int64(maxReg))
	defs = make([]defSite, 0, n)
	def := func(b *Block, w where, r Reg, site defSite) {
		if r <= 0 {
			return // reported by the shape checks
		}
		if s := index.Lookup(int64(r)); s >= 0 {
			if ssa {
				v.bad(b, w, "single-def", "%v is already defined in %s", r, defs[s].describe(v.f))
			}
			return
		}
		index.Set(int64(r), int32(len(defs)))
		defs = append(defs, site)
	}
	for i, b := range v.f.Blocks {
		if !v.valid(i) {
			continue
		}
		for k, p := range b.Phis {
			if p != nil {
				def(b, atPhi(k, p), p.Dst, defSite{phi: true, block: i, index: k})
			}
		}
		for k, in := range b.Instrs {
			if in != nil && in.Op.HasDst() {
				def(b, atInstr(k, in), in.Dst, defSite{block: i, index: k})
			}
		}
	}
	return index, defs
}

// ssa checks the rules of the SSA level: single definitions, Phi arity,
// strictness.
func (v *verifier) ssa() {
	index, defs := v.defs(true)
	tree := v.tree

	// use checks a use at instruction index i of block bi (len(Instrs) for
	// the terminator).
	use := func(b *Block, bi int, w where, r Reg, i int) {
		if r <= 0 {
			return // not a register: reported by the shape checks
		}
		s := index.Lookup(int64(r))
		if s < 0 {
			v.bad(b, w, "undefined", "%v is never defined", r)
			return
		}
		d := defs[s]
		switch {
		case !tree.Reachable(bi):
		case d.block == bi:
			if !d.phi && d.index >= i {
				v.bad(b, w, "strict", "%v is used before its definition in %s", r, d.describe(v.f))
			}
		case !tree.StrictlyDominates(d.block, bi):
			v.bad(b, w, "strict", "%v is defined in %s, which does not dominate %v", r, d.describe(v.f), b)
		}
	}
	for i, b := range v.f.Blocks {
		if !v.valid(i) {
			continue
		}
		if i == 0 && len(b.Phis) > 0 {
			v.bad(b, where{}, "entry", "the entry has %d Phis, but no edge to run them on", len(b.Phis))
		}
		for k, p := range b.Phis {
			if p == nil {
				continue
			}
			w := atPhi(k, p)
			if len(p.Args) != len(b.Preds) {
				v.bad(b, w, "phi-arity", "%d arguments for %d predecessors", len(p.Args), len(b.Preds))
			}
			for j, a := range p.Args {
				if a <= 0 {
					continue
				}
				s := index.Lookup(int64(a))
				if s < 0 {
					v.bad(b, w, "undefined", "%v is never defined", a)
					continue
				}
				d := defs[s]
				if j >= len(b.Preds) || !tree.Reachable(i) {
					continue
				}
				pj, ok := v.pos.of(b.Preds[j])
				if !ok || !tree.Reachable(pj) || d.block == pj || tree.StrictlyDominates(d.block, pj) {
					continue
				}
				v.bad(b, w, "strict", "argument %d, %v, is used at the end of %v, but is defined in %s, which does not dominate it",
					j, a, b.Preds[j], d.describe(v.f))
			}
		}
		for k, in := range b.Instrs {
			if in == nil {
				continue
			}
			for _, a := range in.Args {
				use(b, i, atInstr(k, in), a, k)
			}
		}
		if b.Term.Kind == TermBranch || b.Term.Kind == TermReturn {
			use(b, i, atTerm(b), b.Term.Reg, len(b.Instrs))
		}
	}
}

// rtl checks the rules of the RTL level: no Phis, and every register used
// is assigned somewhere.
func (v *verifier) rtl() {
	index, _ := v.defs(false)
	use := func(b *Block, w where, r Reg) {
		if r > 0 && index.Lookup(int64(r)) < 0 {
			v.bad(b, w, "undefined", "%v is never assigned", r)
		}
	}
	for i, b := range v.f.Blocks {
		if !v.valid(i) {
			continue
		}
		for k, p := range b.Phis {
			if p == nil {
				continue
			}
			v.bad(b, atPhi(k, p), "rtl-phi", "a Phi at the RTL level")
			for _, a := range p.Args {
				use(b, atPhi(k, p), a)
			}
		}
		for k, in := range b.Instrs {
			if in == nil {
				continue
			}
			for _, a := range in.Args {
				use(b, atInstr(k, in), a)
			}
		}
		if b.Term.Kind == TermBranch || b.Term.Kind == TermReturn {
			use(b, atTerm(b), b.Term.Reg)
		}
	}
}
