// Package pred holds the path predicates of gated SSA (paper 004, section
// 4, figure 5): atoms are the branch conditions of the SSA code, combined
// with ¬, ∧ and ∨, and the constants True, False and Undef. They are
// evaluated in three-valued logic (figure 6): a condition over a register
// not yet defined is ½.
//
// A Pred is immutable: the constructors build new values and share their
// arguments, so a predicate may be a DAG; Size counts it as a tree.
package pred

import (
	"strings"

	"son/cfg"
)

// Kind is what a predicate node is.
type Kind uint8

const (
	False Kind = iota // the constant 0
	True              // the constant 1
	Undef             // the constant ½
	Atom              // Reg ≠ 0: the condition of a branch, taken when true
	Not               // ¬Args[0]
	And               // Args[0] ∧ Args[1] ∧ ...
	Or                // Args[0] ∨ Args[1] ∨ ...
)

// Pred is a predicate.
type Pred struct {
	Kind Kind
	Reg  cfg.Reg // the branch condition of an Atom
	Args []*Pred // the operands of Not, And, Or
}

var (
	predFalse = &Pred{Kind: False}
	predTrue  = &Pred{Kind: True}
	predUndef = &Pred{Kind: Undef}
)

// Const returns the constant predicate of kind False, True or Undef.
func Const(k Kind) *Pred {
	switch k {
	case True:
		return predTrue
	case Undef:
		return predUndef
	}
	return predFalse
}

// Cond is the atom "r ≠ 0".
func Cond(r cfg.Reg) *Pred { return &Pred{Kind: Atom, Reg: r} }

// NewNot is ¬p.
func NewNot(p *Pred) *Pred { return &Pred{Kind: Not, Args: []*Pred{p}} }

// NewAnd is the conjunction of ps (True when ps is empty).
func NewAnd(ps ...*Pred) *Pred { return nary(And, True, ps) }

// NewOr is the disjunction of ps (False when ps is empty).
func NewOr(ps ...*Pred) *Pred { return nary(Or, False, ps) }

func nary(k, unit Kind, ps []*Pred) *Pred {
	switch len(ps) {
	case 0:
		return Const(unit)
	case 1:
		return ps[0]
	}
	return &Pred{Kind: k, Args: append([]*Pred(nil), ps...)}
}

// Val is a truth value of three-valued logic.
type Val uint8

const (
	V0    Val = 0 // false
	VHalf Val = 1 // undefined
	V1    Val = 2 // true
)

func (v Val) String() string { return [...]string{"0", "½", "1"}[v] }

// Eval is p's value (figure 6): an atom over a register that env says is
// not defined is ½; ¬ swaps 0 and 1; ∧ is the minimum, ∨ the maximum
// (Łukasiewicz's connectives, which agree with Kleene's on these).
func Eval(p *Pred, env func(cfg.Reg) (int64, bool)) Val {
	switch p.Kind {
	case False:
		return V0
	case True:
		return V1
	case Undef:
		return VHalf
	case Atom:
		v, ok := env(p.Reg)
		switch {
		case !ok:
			return VHalf
		case v != 0:
			return V1
		}
		return V0
	case Not:
		return V1 - Eval(p.Args[0], env)
	case And:
		r := V1
		for _, a := range p.Args {
			if r = min(r, Eval(a, env)); r == V0 {
				break
			}
		}
		return r
	case Or:
		r := V0
		for _, a := range p.Args {
			if r = max(r, Eval(a, env)); r == V1 {
				break
			}
		}
		return r
	}
	return VHalf
}

// Size is the number of nodes of p counted as a tree: the measure of a
// predicate's size that the construction reports per node.
func Size(p *Pred) int {
	n := 1
	for _, a := range p.Args {
		n += Size(a)
	}
	return n
}

// String prints p with atoms as registers: "r3 ∧ ¬r5".
func (p *Pred) String() string {
	return Format(p, func(r cfg.Reg) string { return "r" + itoa(int(r)) })
}

// Format prints p, each atom as atom(r) says (the printer of the GSA
// level names a condition by its expression: "x1 > 50").
func Format(p *Pred, atom func(cfg.Reg) string) string {
	var sb strings.Builder
	format(&sb, p, atom, false)
	return sb.String()
}

func format(sb *strings.Builder, p *Pred, atom func(cfg.Reg) string, nested bool) {
	switch p.Kind {
	case False:
		sb.WriteString("False")
	case True:
		sb.WriteString("True")
	case Undef:
		sb.WriteString("Undef")
	case Atom:
		sb.WriteString(atom(p.Reg))
	case Not:
		sb.WriteString("¬(")
		format(sb, p.Args[0], atom, false)
		sb.WriteString(")")
	case And, Or:
		sep := " ∧ "
		if p.Kind == Or {
			sep = " ∨ "
		}
		if nested {
			sb.WriteString("(")
		}
		for i, a := range p.Args {
			if i > 0 {
				sb.WriteString(sep)
			}
			format(sb, a, atom, true)
		}
		if nested {
			sb.WriteString(")")
		}
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
