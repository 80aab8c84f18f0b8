// Validate, GVN's validator: cfg.Verify, GVN_spec and def_sdom (paper 003,
// section 7, figure 11), with cfg.Verify's dominators, not the pass's.
// Cost: O(n + m) plus the dominators.

package gvn

import (
	"fmt"

	"son/cfg"
	"son/internal/dom"
	"son/internal/numbering"
)

// Invalid is a proposal the validator rejects: the rule it breaks, named
// as below, and the registers and definitions at fault.
//
//   - input: the function does not pass cfg.Verify (paper 003's
//     wf_ssa_function, on which the soundness of the rest depends);
//   - numbering: the numbering mentions a register the function neither
//     defines nor uses;
//   - spec-kind: a Phi and an instruction share a number;
//   - spec-op: two instructions of different ops, or Consts of different
//     values, share a number;
//   - spec-phi-block: Phis of different blocks share a number;
//   - spec-args: two definitions sharing a number have arguments that do
//     not (position by position; for a commutative op, in either order);
//   - replace-def: a replacement names a register with no definition, or
//     a register by itself, or the same register twice;
//   - replace-number: a register is replaced by one of another number;
//   - replace-kept: a replacement's register is itself replaced;
//   - replace-dom: the definition of the replacement does not strictly
//     dominate the definition it replaces (def_sdom).
type Invalid struct {
	Func string
	Rule string
	Msg  string
}

func (e *Invalid) Error() string {
	return fmt.Sprintf("gvn: function %s: %s: %s", e.Func, e.Rule, e.Msg)
}

// site is where a register is defined.
type site struct {
	block int32 // position in Func.Blocks
	index int32 // in Phis or Instrs
	phi   bool
	b     *cfg.Block
	ph    *cfg.Phi
	in    *cfg.Instr
}

// place is where a register is defined, as the validator's table holds
// it: 12 bytes, not site's 40 (the table holds every register).
type place struct {
	block, index int32
	phi          bool
}

// site returns where r is defined, and whether it is.
func (v *Valid) site(r cfg.Reg) (site, bool) {
	i := v.index(r)
	if i < 0 {
		return site{}, false
	}
	p := v.places[i]
	b := v.f.Blocks[p.block]
	s := site{block: p.block, index: p.index, phi: p.phi, b: b}
	if p.phi {
		s.ph = b.Phis[p.index]
	} else {
		s.in = b.Instrs[p.index]
	}
	return s, true
}

func (s site) String() string {
	if s.phi {
		return fmt.Sprintf("%v (%v phi %d)", s.ph, s.b, s.index)
	}
	return fmt.Sprintf("%v (%v instr %d)", s.in, s.b, s.index)
}

// Valid is a proposal that Validate accepted for its function: the only
// way to Apply one. The function must not change in between.
type Valid struct {
	f      *cfg.Func
	p      *Proposal
	sites  *numbering.Table // register -> its index in places (Go maps were most of the validator's own time)
	places []place          // the definitions in block order
	// number[i] is the index in places of the number of the register
	// defined by places[i]: p.N read once, not looked up in the map for
	// each register and argument compared.
	number []int32
}

// index returns the index in v.places of the definition of r, or -1.
func (v *Valid) index(r cfg.Reg) int32 { return v.sites.Lookup(int64(r)) }

// num returns the index in v.places of the number of r, a register that f
// defines (every register f uses is one, f passing cfg.Verify).
func (v *Valid) num(r cfg.Reg) int32 { return v.number[v.index(r)] }

// Validate checks p against f independently of how p was computed: that
// f passes cfg.Verify (the hypothesis wf_ssa_function of paper 003), that
// p.N meets GVN_spec (figure 11) and that each replacement's definition
// strictly dominates the register it replaces. GVN_spec's first half, no
// two parameters of one number, holds of every well-formed cfg.Func: it
// has one parameter, read by Arg instructions, and every register used
// has a definition. It computes its own definitions, and takes the
// dominators cfg.Verify computed to check f (cfg.VerifyDominance: Cooper,
// Harvey and Kennedy's algorithm, on the trusted side as Validate is; the
// pass uses Lengauer and Tarjan's): one computation for both, so a bug in
// it would mislead cfg.Verify and Validate alike. It takes O(n + m) plus
// the dominators, and reports the first broken rule as an *Invalid.
func Validate(f *cfg.Func, p *Proposal) (*Valid, error) {
	v := &Valid{f: f, p: p}
	bad := func(rule, format string, args ...any) (*Valid, error) {
		return nil, &Invalid{Func: f.Name, Rule: rule, Msg: fmt.Sprintf(format, args...)}
	}
	dominance, err := cfg.VerifyDominance(f)
	if err != nil {
		return bad("input", "%v", err)
	}
	// Registers by number (f passed cfg.Verify: the definitions are
	// unique); the table sized once.
	defs := 0
	var maxReg cfg.Reg
	for _, b := range f.Blocks {
		defs += len(b.Phis) + len(b.Instrs)
		for _, ph := range b.Phis {
			maxReg = max(maxReg, ph.Dst)
		}
		for _, in := range b.Instrs {
			maxReg = max(maxReg, in.Dst)
		}
	}
	// The registers, in block order.
	v.sites = numbering.New(defs, int64(maxReg))
	v.places = make([]place, 0, defs)
	order := make([]cfg.Reg, 0, defs)
	for i, b := range f.Blocks {
		for k, ph := range b.Phis {
			v.sites.Set(int64(ph.Dst), int32(len(order)))
			v.places = append(v.places, place{block: int32(i), phi: true, index: int32(k)})
			order = append(order, ph.Dst)
		}
		for k, in := range b.Instrs {
			if in.Op.HasDst() {
				v.sites.Set(int64(in.Dst), int32(len(order)))
				v.places = append(v.places, place{block: int32(i), index: int32(k)})
				order = append(order, in.Dst)
			}
		}
	}
	v.number = make([]int32, len(order))
	for i := range v.number {
		v.number[i] = int32(i) // a register absent from p.N is its own number
	}
	for r, n := range p.N {
		i, j := v.index(r), v.index(n)
		if i < 0 {
			return bad("numbering", "%v has number %v, but the function has no register %v", r, n, r)
		}
		if j < 0 {
			return bad("numbering", "%v has number %v, which is not a register of the function", r, n)
		}
		v.number[i] = j
	}

	// GVN_spec. Having the same op (and constant) and equal-numbered
	// arguments is an equivalence, as is being Phis of one block with
	// equal-numbered arguments: each register is compared with the first
	// of its number. first[i] is 1 + the index in order of the first
	// register whose number is order[i] (numbers are registers of f).
	first := make([]int32, len(order))
	for i, r := range order {
		j := v.number[i]
		n := order[j] // p.N.Of(r)
		if first[j] == 0 {
			first[j] = int32(i) + 1
			continue
		}
		w := order[first[j]-1]
		if rule, msg := v.congruent(w, r); rule != "" {
			return bad(rule, "%v and %v have number %v, but %s", w, r, n, msg)
		}
	}

	// The replacements: def_sdom, by the blocks' positions in f.Blocks.
	replaced := make([]bool, len(order)) // by index in order
	var undefined map[cfg.Reg]bool       // replaced registers with no definition (reported below)
	for _, rp := range p.Replace {
		twice := false
		if i := v.index(rp.Dst); i >= 0 {
			twice, replaced[i] = replaced[i], true
		} else {
			if undefined == nil {
				undefined = map[cfg.Reg]bool{}
			}
			twice, undefined[rp.Dst] = undefined[rp.Dst], true
		}
		if twice {
			return bad("replace-def", "%v is replaced twice", rp.Dst)
		}
	}
	for _, rp := range p.Replace {
		x, okx := v.site(rp.Dst)
		y, oky := v.site(rp.By)
		switch {
		case !okx:
			return bad("replace-def", "%v is replaced, but has no definition", rp.Dst)
		case !oky:
			return bad("replace-def", "%v is replaced by %v, which has no definition", rp.Dst, rp.By)
		case rp.Dst == rp.By:
			return bad("replace-def", "%v is replaced by itself", rp.Dst)
		case v.num(rp.Dst) != v.num(rp.By):
			return bad("replace-number", "%v (number %v) is replaced by %v (number %v)", rp.Dst, p.N.Of(rp.Dst), rp.By, p.N.Of(rp.By))
		case replaced[v.index(rp.By)]:
			return bad("replace-kept", "%v is replaced by %v, which is replaced too", rp.Dst, rp.By)
		case !defSdom(dominance, y, x):
			return bad("replace-dom", "%v is replaced by %v, whose definition %v does not strictly dominate %v", rp.Dst, rp.By, y, x)
		}
	}
	return v, nil
}

// congruent checks that x and y are related by paper 003's ≡N: both
// defined by the same op (and constant) with equal-numbered arguments, or
// both by Phis of one block with equal-numbered arguments. It returns the
// broken rule and why, or "".
func (v *Valid) congruent(x, y cfg.Reg) (rule, msg string) {
	n := v.num
	sx, _ := v.site(x)
	sy, _ := v.site(y)
	switch {
	case sx.phi != sy.phi:
		return "spec-kind", fmt.Sprintf("they are defined by %v and %v", sx, sy)
	case sx.phi:
		if sx.block != sy.block {
			return "spec-phi-block", fmt.Sprintf("they are Phis of different blocks: %v and %v", sx, sy)
		}
		for k := range sx.ph.Args {
			if k >= len(sy.ph.Args) || n(sx.ph.Args[k]) != n(sy.ph.Args[k]) {
				return "spec-args", fmt.Sprintf("argument %d of %v and %v differ in number", k, sx, sy)
			}
		}
		return "", ""
	}
	a, b := sx.in, sy.in
	if a.Op != b.Op || (a.Op == cfg.OpConst && a.Aux != b.Aux) {
		return "spec-op", fmt.Sprintf("they are defined by %v and %v", sx, sy)
	}
	if len(a.Args) != len(b.Args) {
		return "spec-args", fmt.Sprintf("%v and %v have different numbers of arguments", sx, sy)
	}
	same := true
	for k := range a.Args {
		same = same && n(a.Args[k]) == n(b.Args[k])
	}
	if !same && swappable(a.Op) && len(a.Args) == 2 {
		same = n(a.Args[0]) == n(b.Args[1]) && n(a.Args[1]) == n(b.Args[0])
	}
	if !same {
		return "spec-args", fmt.Sprintf("the arguments of %v and %v differ in number", sx, sy)
	}
	return "", ""
}

// defSdom reports whether the definition y strictly dominates the
// definition x (paper 003's def_sdom, at the point of x): the Phis of a
// block are defined at its entry, all at once, and an instruction after
// the Phis and the instructions before it.
func defSdom(dominance dom.Intervals, y, x site) bool {
	if y.block == x.block {
		if x.phi {
			return y.phi
		}
		return y.phi || y.index < x.index
	}
	return dominance.StrictlyDominates(int(y.block), int(x.block))
}

// swappable reports whether op's two arguments can be swapped: the
// validator's own table, not the pass's (commutative), so that a wrong
// entry there is not wrong here too.
func swappable(op cfg.Op) bool {
	switch op {
	case cfg.OpAdd, cfg.OpMul, cfg.OpAnd, cfg.OpOr, cfg.OpXor, cfg.OpEq, cfg.OpNe:
		return true
	}
	return false
}

// Numbering is the numbering the validator accepted: what CheckRewrite
// may trust.
func (v *Valid) Numbering() Numbering { return v.p.N }
