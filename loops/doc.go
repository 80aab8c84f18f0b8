// Package loops prepares a function at the cfg SSA level for gated SSA
// (paper 004, section 6.2): loops normalized to one entry edge and one
// back edge (Normalize), a landing pad on every loop exit (Pads), and
// loop-closed form (Close). Each pass keeps the function well formed
// (cfg.Verify) and its meaning (cfg.Run), and returns an error naming the
// block for control flow it cannot handle (an irreducible loop).
//
// # Files
//
//   - loops.go: Analyze, the loop forest of a function (natural loops over
//     the dominator tree), shared by the passes and by package gsa.
//   - normalize.go: Normalize, a preheader and a single latch per loop.
//   - pads.go: Pads, an empty block on every edge that leaves a loop.
//   - close.go: Close, loop-closed SSA.
//   - edit.go: what the passes share to add blocks, registers and Phis.
//
// Analyze, Normalize and Pads take time linear in the size of the
// function times its loop depth (a block's loops are walked), plus the
// dominator computation; Close adds the dominance frontiers and, for each
// loop, the iterated frontier of its pads.
package loops

import "son/cfg"

// Prepare runs Normalize, Pads and Close in that order: the form that
// package gsa builds on.
func Prepare(f *cfg.Func) error {
	if err := Normalize(f); err != nil {
		return err
	}
	if err := Pads(f); err != nil {
		return err
	}
	return Close(f)
}
