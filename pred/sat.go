package pred

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crillab/gophersat/solver"
)

// solveCNF decides f. When f is unsatisfiable it returns nil and a RUP
// refutation that CheckRUP has accepted; when satisfiable, a model
// (indexed by variable) that satisfies every clause of f. The solver,
// gophersat, is not trusted: a certificate it gives that does not check,
// or a model that does not satisfy f, is an error.
//
// Our own unit propagation runs first (it is CheckRUP's): a conflict there
// is refuted by the empty clause alone, and the solver gets the clauses it
// leaves, false literals removed, without the units. A lemma the solver
// learns from those is still RUP with respect to f, since unit
// propagation on f rederives the units first.
func solveCNF(f CNF) (model []bool, proof [][]int, err error) {
	u := newUnitProp(f.Vars)
	for i, c := range f.Clauses {
		if err := u.checkLits(c); err != nil {
			return nil, nil, fmt.Errorf("clause %d: %v", i, err)
		}
		u.add(c)
	}
	if u.refuted {
		// This propagation is CheckRUP's own, on the same clauses: it has
		// just checked the one-lemma proof "the empty clause".
		return nil, [][]int{{}}, nil
	}
	var rest [][]int
	for _, c := range u.clauses {
		r := make([]int, 0, len(c))
		sat := false
		for _, l := range c {
			switch u.value(l) {
			case 1:
				sat = true
			case 0:
				r = append(r, l)
			}
		}
		if !sat {
			rest = append(rest, r)
		}
	}
	var m []bool
	var lemmas [][]int
	status := solver.Sat // no clause left: unit propagation found a model
	if len(rest) > 0 {
		if m, lemmas, status, err = gophersat(rest, f.Vars); err != nil {
			return nil, nil, err
		}
	}
	switch status {
	case solver.Unsat:
		if tamper != nil {
			lemmas = tamper(lemmas)
		}
		if len(lemmas) == 0 || len(lemmas[len(lemmas)-1]) != 0 {
			// The solver may stop without writing the final empty
			// clause; adding it costs nothing, as the checker checks it.
			lemmas = append(lemmas, []int{})
		}
		if err := CheckRUP(f, lemmas); err != nil {
			return nil, nil, fmt.Errorf("the SAT solver's certificate is rejected: %v", err)
		}
		return nil, lemmas, nil
	case solver.Sat:
		model = make([]bool, f.Vars+1)
		for v := 1; v <= f.Vars; v++ {
			switch {
			case u.val[v] != 0:
				model[v] = u.val[v] > 0
			case v-1 < len(m):
				model[v] = m[v-1]
			}
		}
		if !satisfies(f, model) {
			return nil, nil, fmt.Errorf("the SAT solver's model does not satisfy the clauses")
		}
		return model, nil, nil
	}
	return nil, nil, fmt.Errorf("the SAT solver answered %v", status)
}

// tamper, set only by tests, alters the solver's certificate before it is
// checked: a solver answering UNSAT with a bad certificate must make the
// question fail.
var tamper func([][]int) [][]int

// gophersat runs the solver on clauses over vars variables, collecting the
// lemmas of its certificate (gophersat's Certified mode writes each
// learned clause, then "0" when it derives the empty clause).
func gophersat(clauses [][]int, vars int) (model []bool, lemmas [][]int, status solver.Status, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the SAT solver failed: %v", r)
		}
	}()
	s := solver.New(solver.ParseSliceNb(clauses, vars+1))
	ch := make(chan string, 64)
	done := make(chan error, 1)
	s.Certified = true
	s.CertChan = ch
	go func() {
		var perr error
		for line := range ch {
			c, e := parseLemma(line)
			if e != nil && perr == nil {
				perr = e
			}
			lemmas = append(lemmas, c)
		}
		done <- perr
	}()
	status = s.Solve()
	close(ch)
	if perr := <-done; perr != nil {
		return nil, nil, status, perr
	}
	if status == solver.Sat {
		model = s.Model()
	}
	return model, lemmas, status, nil
}

// parseLemma reads one certificate line, "l1 l2 ... 0".
func parseLemma(line string) ([]int, error) {
	fs := strings.Fields(line)
	if len(fs) == 0 || fs[len(fs)-1] != "0" {
		return nil, fmt.Errorf("certificate line %q does not end with 0", line)
	}
	c := make([]int, 0, len(fs)-1)
	for _, f := range fs[:len(fs)-1] {
		n, err := strconv.Atoi(f)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("certificate line %q: bad literal %q", line, f)
		}
		c = append(c, n)
	}
	return c, nil
}
