package pred

import "fmt"

// CNF is a formula in conjunctive normal form over the variables 1..Vars,
// in the DIMACS convention: the literal v is "v is true", -v "v is false".
type CNF struct {
	Vars    int
	Clauses [][]int
}

// CheckRUP checks that proof refutes f by reverse unit propagation: each
// lemma, in order, must yield a conflict by unit propagation on f, the
// lemmas before it and the negation of its literals; the proof must end
// with the empty clause, and no lemma may be empty before that. This is
// the certificate checker that makes a SAT solver's UNSAT answers
// trustworthy without trusting the solver (the role SMTCoq plays in paper
// 004, section 6.3). Clause deletions are not supported: a certificate is
// a list of lemmas only. Cost: one unit propagation with two watched
// literals per lemma.
func CheckRUP(f CNF, proof [][]int) error {
	if len(proof) == 0 || len(proof[len(proof)-1]) != 0 {
		return fmt.Errorf("rup: the proof does not end with the empty clause")
	}
	if f.Vars < 0 {
		return fmt.Errorf("rup: %d variables", f.Vars)
	}
	u := newUnitProp(f.Vars)
	for i, c := range f.Clauses {
		if err := u.checkLits(c); err != nil {
			return fmt.Errorf("rup: clause %d: %v", i, err)
		}
		u.add(c)
	}
	for i, l := range proof {
		if len(l) == 0 && i != len(proof)-1 {
			return fmt.Errorf("rup: lemma %d is the empty clause before the end of the proof", i)
		}
		if err := u.checkLits(l); err != nil {
			return fmt.Errorf("rup: lemma %d: %v", i, err)
		}
		if !u.rup(l) {
			return fmt.Errorf("rup: lemma %d %v is not implied by unit propagation", i, l)
		}
		u.add(l)
	}
	return nil
}

// unitProp is a clause database with a top-level assignment kept closed
// under unit propagation, by two watched literals per clause.
type unitProp struct {
	val     []int8    // by variable: 0 unassigned, 1 true, -1 false
	trail   []int     // assigned literals, in order
	qhead   int       // trail[qhead:] are not yet propagated
	watches [][]int32 // by literal index: the clauses watching that literal
	clauses [][]int   // clause literals; [0] and [1] are the watched ones
	refuted bool      // the top-level assignment has a conflict
	mark    []int8    // scratch for add: literals seen in the clause
}

func newUnitProp(vars int) *unitProp {
	return &unitProp{
		val:     make([]int8, vars+1),
		watches: make([][]int32, 2*vars+2),
		mark:    make([]int8, vars+1),
	}
}

func (u *unitProp) checkLits(c []int) error {
	for _, l := range c {
		if l == 0 || l > len(u.val)-1 || -l > len(u.val)-1 {
			return fmt.Errorf("literal %d out of range 1..%d", l, len(u.val)-1)
		}
	}
	return nil
}

func litIndex(l int) int {
	if l > 0 {
		return 2 * l
	}
	return -2*l + 1
}

func abs(l int) int {
	if l < 0 {
		return -l
	}
	return l
}

// value is 1 when l is true, -1 when false, 0 when unassigned.
func (u *unitProp) value(l int) int8 {
	v := u.val[abs(l)]
	if l < 0 {
		return -v
	}
	return v
}

func (u *unitProp) assign(l int) {
	if l > 0 {
		u.val[l] = 1
	} else {
		u.val[-l] = -1
	}
	u.trail = append(u.trail, l)
}

// add adds clause c to the database at the top level and propagates.
func (u *unitProp) add(c []int) {
	if u.refuted {
		return
	}
	// Drop duplicate literals and false ones; a tautology or a clause true
	// at the top level never propagates (top-level values are permanent).
	lits := make([]int, 0, len(c))
	sat := false
	for _, l := range c {
		v := abs(l)
		s := int8(1)
		if l < 0 {
			s = -1
		}
		switch {
		case u.mark[v] == s:
			continue
		case u.mark[v] == -s:
			sat = true
		case u.value(l) == 1:
			sat = true
		case u.value(l) == 0:
			lits = append(lits, l)
		}
		u.mark[v] = s
	}
	for _, l := range c {
		u.mark[abs(l)] = 0
	}
	switch {
	case sat:
		return
	case len(lits) == 0:
		u.refuted = true
		return
	case len(lits) == 1:
		u.assign(lits[0])
		if !u.propagate() {
			u.refuted = true
		}
		return
	}
	id := int32(len(u.clauses))
	u.clauses = append(u.clauses, lits)
	u.watches[litIndex(-lits[0])] = append(u.watches[litIndex(-lits[0])], id)
	u.watches[litIndex(-lits[1])] = append(u.watches[litIndex(-lits[1])], id)
}

// propagate assigns the literals that clauses force; it reports false on
// a conflict. The watch list of a literal l holds the clauses watching
// ¬l, visited when l becomes true.
func (u *unitProp) propagate() bool {
	for u.qhead < len(u.trail) {
		l := u.trail[u.qhead]
		u.qhead++
		ws := u.watches[litIndex(l)]
		keep := ws[:0]
		conflict := false
		for k, id := range ws {
			if conflict {
				keep = append(keep, ws[k:]...)
				break
			}
			c := u.clauses[id]
			if c[0] == -l {
				c[0], c[1] = c[1], c[0]
			}
			// c[1] == -l is false now.
			if u.value(c[0]) == 1 {
				keep = append(keep, id)
				continue
			}
			moved := false
			for j := 2; j < len(c); j++ {
				if u.value(c[j]) != -1 {
					c[1], c[j] = c[j], c[1]
					u.watches[litIndex(-c[1])] = append(u.watches[litIndex(-c[1])], id)
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			keep = append(keep, id)
			switch u.value(c[0]) {
			case 0:
				u.assign(c[0])
			case -1:
				conflict = true
			}
		}
		u.watches[litIndex(l)] = keep
		if conflict {
			return false
		}
	}
	return true
}

// rup reports whether assigning the negation of c's literals yields a
// conflict by unit propagation; the assignment is undone afterwards.
func (u *unitProp) rup(c []int) bool {
	if u.refuted {
		return true
	}
	mark := len(u.trail)
	ok := false
	for _, l := range c {
		switch u.value(l) {
		case 1:
			ok = true
		case 0:
			u.assign(-l)
		}
		if ok {
			break
		}
	}
	if !ok {
		ok = !u.propagate()
	}
	for _, l := range u.trail[mark:] {
		u.val[abs(l)] = 0
	}
	u.trail = u.trail[:mark]
	u.qhead = mark
	return ok
}
