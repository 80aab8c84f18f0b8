package pred

import (
	"math/bits"

	"son/cfg"
)

// Truth tables: a question over at most tableAtoms atoms is decided by
// evaluating its predicates in all 3^k states at once, one bit per state
// (3^6 = 729 bits, 12 words). This is figure 6 applied to every state:
// the enumeration is itself the evidence, needing neither solver nor
// certificate. Each node has two bit vectors, the states where it is 1
// and those where it is 0, combined as the CNF encoding does (cnf.go).
// The fuzz target checks this evaluator against Eval.
const tableAtoms = 6

const tableStates = 729 // 3^tableAtoms

const tableWords = (tableStates + 63) / 64

// atomOne[i] and atomZero[i] are the states where the i-th atom is 1 and
// 0: in state s, the i-th atom's value is the i-th base-3 digit of s
// (0, ½, 1 for 0, 1, 2).
var atomOne, atomZero [tableAtoms][tableWords]uint64

func init() {
	for s := range tableStates {
		d := s
		for i := range tableAtoms {
			switch d % 3 {
			case 0:
				atomZero[i][s/64] |= 1 << (s % 64)
			case 2:
				atomOne[i][s/64] |= 1 << (s % 64)
			}
			d /= 3
		}
	}
}

// table evaluates predicates over the atoms regs (at most tableAtoms) in
// the first 3^len(regs) states.
type table struct {
	index map[cfg.Reg]int
	regs  []cfg.Reg
	words int
	last  uint64 // the valid bits of the last word
	memo  map[*Pred][2][]uint64
}

func newTable(regs []cfg.Reg) *table {
	n := 1
	for range regs {
		n *= 3
	}
	t := &table{index: make(map[cfg.Reg]int, len(regs)), regs: regs, words: (n + 63) / 64, memo: map[*Pred][2][]uint64{}}
	t.last = ^uint64(0)
	if n%64 != 0 {
		t.last = 1<<(n%64) - 1
	}
	for i, r := range regs {
		t.index[r] = i
	}
	return t
}

// eval is (the states where p is 1, those where p is 0).
func (t *table) eval(p *Pred) (one, zero []uint64) {
	if v, ok := t.memo[p]; ok {
		return v[0], v[1]
	}
	v := make([]uint64, 2*t.words)
	one, zero = v[:t.words:t.words], v[t.words:]
	switch p.Kind {
	case True:
		t.fill(one)
	case False:
		t.fill(zero)
	case Atom:
		i := t.index[p.Reg]
		copy(one, atomOne[i][:t.words])
		copy(zero, atomZero[i][:t.words])
	case Not:
		if len(p.Args) == 1 {
			o, z := t.eval(p.Args[0])
			copy(one, z)
			copy(zero, o)
		}
	case And, Or:
		// ∧: 1 where all are 1, 0 where any is 0; ∨ dually.
		all, any := one, zero
		if p.Kind == Or {
			all, any = zero, one
		}
		t.fill(all)
		for _, a := range p.Args {
			o, z := t.eval(a)
			if p.Kind == Or {
				o, z = z, o
			}
			for w := range all {
				all[w] &= o[w]
				any[w] |= z[w]
			}
		}
	}
	t.memo[p] = [2][]uint64{one, zero}
	return one, zero
}

func (t *table) fill(v []uint64) {
	for w := range v {
		v[w] = ^uint64(0)
	}
	v[len(v)-1] = t.last
}

// first is the state of the lowest bit set in v, if any.
func (t *table) first(v []uint64) (map[cfg.Reg]Val, bool) {
	for w, x := range v {
		if x != 0 {
			s := w*64 + bits.TrailingZeros64(x)
			st := make(map[cfg.Reg]Val, len(t.regs))
			for _, r := range t.regs {
				st[r] = Val(s % 3)
				s /= 3
			}
			return st, true
		}
	}
	return nil, false
}
