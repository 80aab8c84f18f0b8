package pred

import (
	"encoding/binary"
	"slices"

	"son/cfg"
)

// The encoding of three-valued predicates into CNF (paper 004, section
// 6.1: two Boolean variables per atom). Each atom r has a variable t_r,
// "r's atom is 1", and f_r, "r's atom is 0", with the clause ¬t_r ∨ ¬f_r;
// neither is ½. Each predicate p has two literals: T(p), "p evaluates to
// 1", and F(p), "p evaluates to 0", defined by Tseitin gates following
// figure 6:
//
//	T(¬p) = F(p)              F(¬p) = T(p)
//	T(p∧q) = T(p) ∧ T(q)      F(p∧q) = F(p) ∨ F(q)
//	T(p∨q) = T(p) ∨ T(q)      F(p∨q) = F(p) ∧ F(q)
//	T(Undef) = F(Undef) = false
//
// (min is 1 when both are 1 and 0 when either is 0; max dually). So the
// satisfying assignments of the clauses are exactly the states
// {0,½,1}^atoms, and T, F read off each predicate's value in that state.
// Size: at most two gates per predicate node and polarity, each of
// arity+1 clauses: linear in the predicate's size as a DAG.

// maxGate is the widest gate the encoder makes; wider ones are split, so
// that no clause is longer than maxGate+1 literals.
const maxGate = 8

type encKey struct {
	p   *Pred
	one bool // T(p) when true, F(p) when false
}

type encoder struct {
	cnf   CNF
	top   int             // a variable forced true: True is top, False -top
	atoms map[cfg.Reg]int // t_r; f_r is t_r+1
	regs  []cfg.Reg       // the atoms in the order they were met
	memo  map[encKey]int  // the literal of each encoded T(p) or F(p)
	gates map[string]int  // the gates made, by their sorted inputs
	key   []byte
	buf   []int
}

func newEncoder() *encoder {
	e := &encoder{atoms: map[cfg.Reg]int{}, memo: map[encKey]int{}, gates: map[string]int{}}
	e.top = e.fresh()
	e.cnf.Clauses = append(e.cnf.Clauses, []int{e.top})
	return e
}

func (e *encoder) fresh() int {
	e.cnf.Vars++
	return e.cnf.Vars
}

func (e *encoder) clause(ls ...int) {
	e.cnf.Clauses = append(e.cnf.Clauses, append([]int(nil), ls...))
}

// lit is the literal of T(p) when one, of F(p) otherwise.
func (e *encoder) lit(p *Pred, one bool) int {
	k := encKey{p, one}
	if l, ok := e.memo[k]; ok {
		return l
	}
	var l int
	switch p.Kind {
	case True:
		l = e.top
		if !one {
			l = -e.top
		}
	case False:
		l = -e.top
		if !one {
			l = e.top
		}
	case Atom:
		t, ok := e.atoms[p.Reg]
		if !ok {
			t = e.fresh()
			e.fresh()
			e.atoms[p.Reg] = t
			e.regs = append(e.regs, p.Reg)
			e.clause(-t, -(t + 1))
		}
		l = t
		if !one {
			l = t + 1
		}
	case Not:
		if len(p.Args) != 1 {
			l = -e.top // malformed: Undef's literals
			break
		}
		l = e.lit(p.Args[0], !one)
	case And, Or:
		ls := make([]int, len(p.Args))
		for i, a := range p.Args {
			ls[i] = e.lit(a, one)
		}
		if (p.Kind == And) == one {
			l = e.and(ls)
		} else {
			l = -e.and(negate(ls))
		}
	default: // Undef, and any unknown kind: never 1, never 0
		l = -e.top
	}
	e.memo[k] = l
	return l
}

func negate(ls []int) []int {
	for i := range ls {
		ls[i] = -ls[i]
	}
	return ls
}

// and is a literal equivalent to the conjunction of ls (which it may
// reorder): constants folded, duplicates dropped, wide gates split.
func (e *encoder) and(ls []int) int {
	out := ls[:0]
	for _, l := range ls {
		switch l {
		case e.top:
			continue
		case -e.top:
			return -e.top
		}
		out = append(out, l)
	}
	ls = out
	switch len(ls) {
	case 0:
		return e.top
	case 1:
		return ls[0]
	}
	// Sorted, the gate is hash-consed by its literals, so that a
	// conjunction met twice (say, on both sides of an implication) is one
	// literal.
	slices.Sort(ls)
	ls = slices.Compact(ls)
	for _, l := range ls {
		if _, ok := slices.BinarySearch(ls, -l); ok {
			return -e.top // l ∧ ¬l
		}
	}
	if len(ls) == 1 {
		return ls[0]
	}
	if len(ls) > maxGate {
		// A tree of gates of maxGate inputs: n/maxGate gates, then
		// their conjunction.
		var next []int
		for i := 0; i < len(ls); i += maxGate {
			next = append(next, e.and(slices.Clone(ls[i:min(i+maxGate, len(ls))])))
		}
		return e.and(next)
	}
	key := e.key[:0]
	for _, l := range ls {
		key = binary.AppendVarint(key, int64(l))
	}
	e.key = key
	if g, ok := e.gates[string(key)]; ok {
		return g
	}
	g := e.gate(ls)
	e.gates[string(key)] = g
	return g
}

// gate is a fresh g with g ↔ ∧ls: ¬g ∨ l for each l, and g ∨ ¬l1 ∨ ... .
func (e *encoder) gate(ls []int) int {
	g := e.fresh()
	long := append(e.buf[:0], g)
	for _, l := range ls {
		e.clause(-g, l)
		long = append(long, -l)
	}
	e.clause(long...)
	e.buf = long
	return g
}

// xor is a fresh x with x ↔ (a ⊕ b).
func (e *encoder) xor(a, b int) int {
	x := e.fresh()
	e.clause(-x, a, b)
	e.clause(-x, -a, -b)
	e.clause(x, -a, b)
	e.clause(x, a, -b)
	return x
}

// state decodes a model of the clauses (model[v] is v's value) into the
// atoms' values.
func (e *encoder) state(model []bool) map[cfg.Reg]Val {
	s := make(map[cfg.Reg]Val, len(e.regs))
	for _, r := range e.regs {
		t := e.atoms[r]
		switch {
		case model[t]:
			s[r] = V1
		case model[t+1]:
			s[r] = V0
		default:
			s[r] = VHalf
		}
	}
	return s
}

// satisfies reports whether model satisfies every clause of f.
func satisfies(f CNF, model []bool) bool {
	for _, c := range f.Clauses {
		ok := false
		for _, l := range c {
			if model[abs(l)] == (l > 0) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
