package gsa

import (
	"fmt"
	"strings"
	"testing"

	"son/cfg"
	"son/pred"
)

// parseFigure2 reads figure2SSA and builds its GSA form, with edit
// applied to the matrix.
func parseFigure2(t *testing.T, edit func(*Matrix)) (*cfg.Func, *Func) {
	t.Helper()
	f, err := cfg.Parse(figure2SSA)
	if err != nil {
		t.Fatal(err)
	}
	g, err := build(f, edit)
	if err != nil {
		t.Fatal(err)
	}
	return f, g
}

// Brute decides three-valued implication by trying every value 0, ½, 1
// of every atom: the tests' Solver, exponential in the atoms, so it
// refuses (an error) questions of more than MaxAtoms atoms, if set.
type Brute struct{ MaxAtoms int }

// ErrTooLarge is Brute's refusal.
var ErrTooLarge = fmt.Errorf("too many atoms for the brute-force solver")

type brute = Brute

func atoms(p *pred.Pred, seen map[cfg.Reg]bool, out *[]cfg.Reg) {
	if p.Kind == pred.Atom && !seen[p.Reg] {
		seen[p.Reg] = true
		*out = append(*out, p.Reg)
	}
	for _, a := range p.Args {
		atoms(a, seen, out)
	}
}

// every reports whether ok holds of the values of p and q under every
// assignment of their atoms.
func (s Brute) every(p, q *pred.Pred, ok func(a, b pred.Val) bool) (bool, error) {
	var regs []cfg.Reg
	seen := map[cfg.Reg]bool{}
	atoms(p, seen, &regs)
	atoms(q, seen, &regs)
	if s.MaxAtoms > 0 && len(regs) > s.MaxAtoms {
		return false, ErrTooLarge
	}
	val := make([]int, len(regs)) // 0: undefined, 1: false, 2: true
	for {
		env := func(r cfg.Reg) (int64, bool) {
			for i, x := range regs {
				if x == r {
					return int64(val[i] - 1), val[i] != 0
				}
			}
			return 0, false
		}
		if !ok(pred.Eval(p, env), pred.Eval(q, env)) {
			return false, nil
		}
		i := 0
		for i < len(val) && val[i] == 2 {
			val[i] = 0
			i++
		}
		if i == len(val) {
			return true, nil
		}
		val[i]++
	}
}

func (s Brute) Implies(p, q *pred.Pred) (bool, error) {
	return s.every(p, q, func(a, b pred.Val) bool { return a != pred.V1 || b == pred.V1 })
}

func (s Brute) Disjoint(p, q *pred.Pred) (bool, error) {
	return s.every(p, q, func(a, b pred.Val) bool { return a != pred.V1 || b != pred.V1 })
}

// TestCheckAccepts: the construction passes the whole validator.
func TestCheckAccepts(t *testing.T) {
	f, g := parseFigure2(t, nil)
	if err := Check(f, g); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := CheckPredicates(f, g, brute{}); err != nil {
		t.Errorf("CheckPredicates: %v", err)
	}
}

// TestCheckRejects breaks the construction in each way of issue 17's
// fault list and wants the validator's exact complaint.
func TestCheckRejects(t *testing.T) {
	pos := func(f *cfg.Func, id int) int {
		for i, b := range f.Blocks {
			if b.ID == id {
				return i
			}
		}
		t.Fatalf("no block b%d", id)
		return -1
	}
	gamma := func(g *Func, f *cfg.Func) *Merge { return g.Merges[pos(f, 9)][0] } // v38
	cases := []struct {
		name       string
		edit       func(f *cfg.Func) func(*Matrix) // on the matrix, before the code takes predicates
		code       func(f *cfg.Func, g *Func)      // on the GSA function built
		structural string                          // Check's error, or ""
		semantic   string                          // CheckPredicates', or ""
	}{
		{
			name:       "two γ predicates that overlap, in the code",
			code:       func(f *cfg.Func, g *Func) { gamma(g, f).Preds[1] = pred.Const(pred.True) },
			structural: "gsa: b9: merge: v38 = γ(v16: v22, True: v35): no strict dominator d of b9 gives P(d, Preds[k]) for every argument k",
		},
		{
			name: "two γ predicates that overlap, in the matrix: P(b3, b8) misses ¬(v8 < 9)",
			edit: func(f *cfg.Func) func(*Matrix) {
				return func(m *Matrix) {
					l := m.local[pos(f, 8)]
					m.paths[[2]int{pos(f, 3), pos(f, 8)}] = &pathEntry{p: l, mask: m.atomsAt(l)}
				}
			},
			semantic: "gsa: b9: exclusivity: the predicates of b4 and b8 may both hold: r16 and r25 ∨ ¬(r25)",
		},
		{
			name:       "a γ predicate missing a condition",
			code:       func(f *cfg.Func, g *Func) { gamma(g, f).Preds[1] = gamma(g, f).Preds[1].Args[1] },
			structural: "gsa: b9: merge: v38 = γ(v16: v22, v25 ∨ ¬(v25): v35): no strict dominator d of b9 gives P(d, Preds[k]) for every argument k",
		},
		{
			name:       "an η with the wrong exit predicate, in the code",
			code:       func(f *cfg.Func, g *Func) { g.Etas[pos(f, 11)][1].Pred = pred.Cond(10) },
			structural: "gsa: b11: eta: no strict dominator h of b11 gives P(h, b11) for every η of the block",
		},
		{
			name: "an η with the wrong exit predicate, in the matrix",
			edit: func(f *cfg.Func) func(*Matrix) {
				return func(m *Matrix) { m.local[pos(f, 11)] = pred.Cond(10) }
			},
			semantic: "gsa: b11: coherence: the paths from b2 to its predecessors do not imply P(b2, b11) = r10",
		},
		{
			name:       "a wrong renaming: R holds a register that is not fresh",
			code:       func(f *cfg.Func, g *Func) { g.Rename[8][0].Reg = 40 },
			structural: "gsa: b11: renaming: R(v8) holds v40, which is not fresh in f",
		},
		{
			name:       "a wrong renaming: R points at a block without the η",
			code:       func(f *cfg.Func, g *Func) { g.Rename[9][0].At = pos(f, 9) },
			structural: "gsa: b9: renaming: R(v9) holds (v42, b9), but b9 has no v42 = η(p, v9)",
		},
		{
			name: "no η of a μ at a loop exit",
			code: func(f *cfg.Func, g *Func) {
				i := pos(f, 11)
				g.Etas[i] = g.Etas[i][:2]
				delete(g.Rename, 9)
			},
			structural: "gsa: b11: exit: no η of v9, the μ of b2, at the loop's exit",
		},
		{
			name: "f not loop-closed: the return reads the μ, not its η",
			code: func(f *cfg.Func, g *Func) {
				for i, b := range f.Blocks {
					if b.Term.Kind == cfg.TermReturn && b.Term.Reg == 40 {
						b.Term.Reg, g.Code.Blocks[i].Term.Reg = 8, 41
					}
				}
			},
			structural: "gsa: b10: closed: the terminator uses v8, defined in the loop of b2, outside it",
		},
		{
			name:       "a use renamed where R does not apply",
			code:       func(f *cfg.Func, g *Func) { g.Code.Blocks[pos(f, 9)].Instrs[0].Args[0] = 42 },
			structural: "gsa: b9: code: instruction 0 is v39 = Add v42 v6 in the code, v39 = Add v9 v6 in f",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := cfg.Parse(figure2SSA)
			if err != nil {
				t.Fatal(err)
			}
			var edit func(*Matrix)
			if c.edit != nil {
				edit = c.edit(f)
			}
			g, err := build(f, edit)
			if err != nil {
				t.Fatal(err)
			}
			if c.code != nil {
				c.code(f, g)
			}
			if got := errText(Check(f, g)); got != c.structural {
				t.Errorf("Check:\ngot  %s\nwant %s", got, c.structural)
			}
			if c.semantic != "" {
				if got := errText(CheckPredicates(f, g, brute{})); !strings.Contains(got, c.semantic) {
					t.Errorf("CheckPredicates:\ngot  %s\nwant %s", got, c.semantic)
				}
				// The pipeline's solver finds the same.
				if got := errText(CheckPredicates(f, g, Certified{Prover: pred.NewProver()})); !strings.Contains(got, c.semantic) {
					t.Errorf("CheckPredicates, certified:\ngot  %s\nwant %s", got, c.semantic)
				}
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprint(err)
}
