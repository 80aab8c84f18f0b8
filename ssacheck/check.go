// Validate and its structural pass: erasing the Phis and indices of the
// SSA form gives back the RTL, the form is normalized and every version is
// defined once (paper 003, sections 5.1 and 5.5). Cost: O(n + m).

package ssacheck

import (
	"fmt"
	"strings"

	"son/cfg"
)

// Error lists the reasons an SSA form was rejected, each naming the block
// and the register.
type Error struct {
	Func     string
	Problems []string // "b3: instr 2 (v7 = Add v5 v6): use: ..."
}

// maxProblems bounds the problems an error message shows.
const maxProblems = 20

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ssacheck: function %s: not a correct SSA form of its RTL:", e.Func)
	for i, p := range e.Problems {
		if i == maxProblems {
			fmt.Fprintf(&b, "\n\t... and %d more", len(e.Problems)-maxProblems)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(p)
	}
	return b.String()
}

// version is x_i: an RTL register and an index; index 0 is ⊥.
type version struct {
	x cfg.Reg
	i int32
}

func (v version) String() string { return fmt.Sprintf("%v_%d", v.x, v.i) }

// validator holds the two functions, the hint and what the passes learn.
type validator struct {
	rtl, ssa *cfg.Func
	hint     *Hint
	n        int
	pos      map[*cfg.Block]int // SSA block -> position
	rpos     map[*cfg.Block]int // RTL block -> position
	name     map[cfg.Reg]version
	probs    []string

	// The typing pass.
	vars  map[cfg.Reg]int32 // RTL register -> dense variable
	bot   [][]int32         // the variables typed ⊥ on entry to each block
	cur   []cfg.Reg         // the local typing: variable -> register of its index, 0 for ⊥
	log   []undo            // the changes to cur, for leaving subtrees
	succK []int             // for a block entering a junction: its index among the junction's Preds
}

func (v *validator) bad(b *cfg.Block, where, rule, format string, args ...any) {
	var s strings.Builder
	if b != nil {
		s.WriteString(b.String())
	} else {
		s.WriteString("func")
	}
	if where != "" {
		s.WriteString(": ")
		s.WriteString(where)
	}
	s.WriteString(": ")
	s.WriteString(rule)
	s.WriteString(": ")
	fmt.Fprintf(&s, format, args...)
	v.probs = append(v.probs, s.String())
}

func instrAt(k int, in *cfg.Instr) string { return fmt.Sprintf("instr %d (%v)", k, in) }

// site is a place of a block where a register is used, described only
// when a problem is reported: instruction k, the terminator (k = -1), or
// argument k of Phi phi of the successor to, taken on the edge from b.
type site struct {
	b   *cfg.Block
	k   int
	phi int
	to  *cfg.Block
}

func (s site) String() string {
	switch {
	case s.to != nil:
		return fmt.Sprintf("edge to %v, argument %d of %s", s.to, s.k, phiAt(s.phi, s.to.Phis[s.phi]))
	case s.k < 0:
		return termAt(s.b)
	}
	return instrAt(s.k, s.b.Instrs[s.k])
}

// phiArg is the site of argument k of Phi j of block b, read as its own
// block's (for the structural checks).
type phiArg struct {
	b    *cfg.Block
	j, k int
}

func (s phiArg) String() string      { return phiAt(s.j, s.b.Phis[s.j]) }
func phiAt(k int, p *cfg.Phi) string { return fmt.Sprintf("phi %d (%v)", k, p) }
func termAt(b *cfg.Block) string     { return fmt.Sprintf("term (%s)", b.TermString()) }

// Validate checks that ssa is a correct SSA form of rtl, as hint
// describes it, and returns nil or an *Error. rtl must be a well-formed
// RTL function (cfg.Verify); anything may be wrong with ssa and hint.
func Validate(rtl, ssa *cfg.Func, hint *Hint) error {
	if rtl == nil || ssa == nil || hint == nil {
		return &Error{Problems: []string{"func: input: a function or the hint is missing"}}
	}
	v := &validator{rtl: rtl, ssa: ssa, hint: hint, n: len(rtl.Blocks)}
	if err := cfg.Verify(rtl); err != nil {
		return &Error{Func: ssa.Name, Problems: []string{"func: rtl: the RTL is not well formed: " + err.Error()}}
	}
	if v.structure() {
		v.typing()
	}
	if len(v.probs) == 0 {
		return nil
	}
	return &Error{Func: ssa.Name, Problems: v.probs}
}

// structure is the first pass: it reports whether the SSA form has the
// shape of the RTL, so that typing can rely on it.
func (v *validator) structure() bool {
	rtl, ssa := v.rtl, v.ssa
	if rtl.Level != cfg.RTL {
		v.bad(nil, "", "level", "the input is at level %v, not RTL", rtl.Level)
	}
	if ssa.Level != cfg.SSA {
		v.bad(nil, "", "level", "the output is at level %v, not SSA", ssa.Level)
	}
	if len(ssa.Blocks) != v.n {
		v.bad(nil, "", "erasure", "%d blocks, but the RTL has %d", len(ssa.Blocks), v.n)
	}
	if len(v.hint.Def) != v.n || len(v.hint.Phis) != v.n {
		v.bad(nil, "", "hint", "the hint describes %d and %d blocks, but the RTL has %d", len(v.hint.Def), len(v.hint.Phis), v.n)
	}
	if len(v.probs) > 0 {
		return false
	}
	v.pos = make(map[*cfg.Block]int, v.n)
	v.rpos = make(map[*cfg.Block]int, v.n)
	for i := range v.n {
		if ssa.Blocks[i] == nil {
			v.bad(nil, "", "block", "block %d is nil", i)
			return false
		}
		if _, dup := v.pos[ssa.Blocks[i]]; dup {
			v.bad(ssa.Blocks[i], "", "block", "listed twice")
			return false
		}
		v.pos[ssa.Blocks[i]] = i
		v.rpos[rtl.Blocks[i]] = i
	}
	for i := range v.n {
		v.sameBlock(i)
	}
	if len(v.probs) > 0 {
		return false
	}
	v.names()
	if len(v.probs) > 0 {
		return false
	}
	for i := range v.n {
		v.erasedUses(i)
	}
	return len(v.probs) == 0
}

// sameBlock checks that block i of the SSA form is block i of the RTL
// with Phis added and registers renamed: the same ID, edges, operations
// and terminator; and that its Phis are at a junction, one argument per
// predecessor, and that the block is normalized.
func (v *validator) sameBlock(i int) {
	b, r := v.ssa.Blocks[i], v.rtl.Blocks[i]
	if b.ID != r.ID {
		v.bad(b, "", "erasure", "the block at position %d is %v in the RTL", i, r)
		return
	}
	sameList := func(what string, got, want []*cfg.Block) {
		ok := len(got) == len(want)
		for k := 0; ok && k < len(got); k++ {
			p, in := v.pos[got[k]]
			ok = in && p == v.rpos[want[k]]
		}
		if !ok {
			v.bad(b, "", "erasure", "its %s are not those of the RTL block", what)
		}
	}
	sameList("successors", b.Succs(), r.Succs())
	sameList("predecessors", b.Preds, r.Preds)
	if b.Term.Kind != r.Term.Kind {
		v.bad(b, termAt(b), "erasure", "the RTL block ends in %s", r.TermString())
	}
	if len(b.Instrs) != len(r.Instrs) {
		v.bad(b, "", "erasure", "%d instructions, but the RTL block has %d", len(b.Instrs), len(r.Instrs))
		return
	}
	for k, in := range b.Instrs {
		ri := r.Instrs[k]
		if in == nil || in.Op != ri.Op || in.Aux != ri.Aux || len(in.Args) != len(ri.Args) || (in.Dst == 0) != (ri.Dst == 0) {
			v.bad(b, instrAt(k, in), "erasure", "the RTL has %v here", ri)
		}
	}
	if len(v.hint.Def[i]) != len(b.Instrs) {
		v.bad(b, "", "hint", "the hint gives %d indices for %d instructions", len(v.hint.Def[i]), len(b.Instrs))
	}
	if len(v.hint.Phis[i]) != len(b.Phis) {
		v.bad(b, "", "hint", "the hint lists %d Phis, the block has %d", len(v.hint.Phis[i]), len(b.Phis))
	}
	if len(b.Phis) > 0 && len(b.Preds) < 2 {
		v.bad(b, phiAt(0, b.Phis[0]), "phi-block", "Phis in a block with %d predecessors, not a junction", len(b.Preds))
	}
	for k, p := range b.Phis {
		if p == nil || len(p.Args) != len(b.Preds) {
			v.bad(b, phiAt(k, p), "phi-arity", "a Phi needs one argument per predecessor, %d", len(b.Preds))
		}
	}
	if len(b.Preds) >= 2 {
		for _, p := range b.Preds {
			if p == nil {
				continue // reported as an erasure of the predecessors
			}
			if len(p.Succs()) != 1 || p.Term.Kind != cfg.TermJump {
				v.bad(b, "", "normalized", "the junction is entered from %v by a %s", p, p.TermString())
			}
		}
	}
}

// names gives each SSA register its version, from its one definition and
// the hint, and checks that registers and versions are defined once.
func (v *validator) names() {
	v.name = make(map[cfg.Reg]version)
	defined := make(map[version]cfg.Reg)
	def := func(b *cfg.Block, where string, r cfg.Reg, x version) {
		if r <= 0 {
			v.bad(b, where, "unique-def", "the destination must be a register > 0")
			return
		}
		if x.i <= 0 {
			v.bad(b, where, "hint", "the hint gives %v the index %d; indices are > 0", r, x.i)
			return
		}
		if old, dup := v.name[r]; dup {
			v.bad(b, where, "unique-def", "%v is defined twice (it is already %v)", r, old)
			return
		}
		if other, dup := defined[x]; dup {
			v.bad(b, where, "unique-def", "the hint names %v %v, but %v is %v already", r, x, other, x)
			return
		}
		v.name[r] = x
		defined[x] = r
	}
	for i, b := range v.ssa.Blocks {
		seen := make(map[cfg.Reg]bool, len(b.Phis))
		for k, p := range b.Phis {
			h := v.hint.Phis[i][k]
			if seen[h.Reg] {
				v.bad(b, phiAt(k, p), "phi-block", "a second Phi for %v", h.Reg)
			}
			seen[h.Reg] = true
			def(b, phiAt(k, p), p.Dst, version{h.Reg, h.Index})
		}
		for k, in := range b.Instrs {
			if in.Op.HasDst() {
				def(b, instrAt(k, in), in.Dst, version{v.rtl.Blocks[i].Instrs[k].Dst, v.hint.Def[i][k]})
			} else if v.hint.Def[i][k] != 0 {
				v.bad(b, instrAt(k, in), "hint", "the hint gives an index to an instruction that defines nothing")
			}
		}
	}
}

// erasedUses checks that every register the SSA block uses is defined and
// is a version of the register the RTL uses at the same place, and that
// the arguments of a Phi are versions of its variable.
func (v *validator) erasedUses(i int) {
	b, r := v.ssa.Blocks[i], v.rtl.Blocks[i]
	use := func(where fmt.Stringer, u, want cfg.Reg) {
		x, ok := v.name[u]
		switch {
		case !ok:
			v.bad(b, where.String(), "use", "%v is never defined", u)
		case x.x != want:
			v.bad(b, where.String(), "erasure", "%v is %v, but the RTL uses %v here", u, x, want)
		}
	}
	for k, p := range b.Phis {
		for j, a := range p.Args {
			use(phiArg{b, k, j}, a, v.hint.Phis[i][k].Reg)
		}
	}
	for k, in := range b.Instrs {
		for j, a := range in.Args {
			use(site{b: b, k: k}, a, r.Instrs[k].Args[j])
		}
	}
	if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
		use(site{b: b, k: -1}, b.Term.Reg, r.Term.Reg)
	}
}
