// Package gsa is the gated SSA level (Herklotz, Demange, Blazy, paper
// 004, sections 4 to 6): the SSA function's code with its Phis replaced by
// merge instructions — μ at loop headers, γ with a path predicate guarding
// each argument at the other junctions — and η instructions at loop
// exits, each selecting the value of a μ when the loop's exit predicate
// holds.
//
// # Files
//
//   - gsa.go: the data structures (Func, Merge, Eta, Renaming).
//   - paths.go: the path predicates and the predicate matrix.
//   - build.go: Build, SSA to GSA.
//   - run.go: Run, the interpreter of figure 7.
//   - back.go: ToSSA, GSA back to SSA.
//   - print.go: Print and DOT.
//   - check.go: Validate, the validator: Check, its structural part, and
//     CheckPredicates, its semantic part (coherence, well-exclusivity).
//   - facts.go: the validator's own dominators and loops.
//   - project.go: the projection ↓x at many blocks over shared DAGs.
//   - solver.go: Certified, the pipeline's Solver, every answer proved.
//
// The function Build takes must be prepared by package loops (one entry
// and one latch per loop, a landing pad on every exit, loop-closed form).
// Build is linear in the size of the function times its dominator tree's
// depth (a predicate from a junction's immediate dominator to a
// predecessor is a conjunction over the dominator tree path between them);
// the predicates share their subterms.
package gsa

import (
	"son/cfg"
	"son/pred"
)

// Func is a function at the GSA level (figure 5): the code map I as a
// cfg.Func whose blocks have no Phis, the merge-block map M and the
// selection-block map E by block position, and what the construction
// produced alongside: the predicate matrix P and the renaming map R.
type Func struct {
	Code   *cfg.Func
	Merges [][]*Merge // M: the merge block of each position (junctions only)
	Etas   [][]*Eta   // E: the η block of each position (loop exit pads only)
	Matrix *Matrix    // P, over the positions of Code (those of the SSA function)
	Rename Renaming   // R
	Header []bool     // whether each position is a loop header (its merges are μs)
}

// MergeKind tells μ from γ.
type MergeKind uint8

const (
	Mu    MergeKind = iota // Dst = μ(Args[0], Args[1]): the entry value, then the latch's
	Gamma                  // Dst = γ((Preds[i], Args[i])...): the first Args[i] whose Preds[i] is 1
)

// Merge is a μ or a γ instruction.
type Merge struct {
	Kind  MergeKind
	Dst   cfg.Reg
	Args  []cfg.Reg
	Preds []*pred.Pred // γ only: Preds[i] guards Args[i]
	Phi   *cfg.Phi     // the Phi it came from, for positions
}

// Eta is Dst = η(Pred, Src): at a loop exit, Src when Pred is 1.
type Eta struct {
	Dst, Src cfg.Reg
	Pred     *pred.Pred
}

// Renamed is one entry of R(r): the fresh register of an η and the pad
// it is at.
type Renamed struct {
	Reg cfg.Reg
	At  int // block position of the η
}

// Renaming is R (Definition 5.7): for each register defined by a μ, the η
// registers that stand for it past the loop's exits.
type Renaming map[cfg.Reg][]Renamed

// Junction reports whether the block at position i has several
// predecessors: the only blocks whose merge block runs (figure 7, JOIN).
func (g *Func) Junction(i int) bool { return len(g.Code.Blocks[i].Preds) > 1 }
