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

import (
	"fmt"

	"son/cfg"
)

// Prepare runs Normalize, Pads and Close in that order: the form that
// package gsa builds on. f must pass cfg.Verify at the SSA level; it is
// checked first, since the passes follow its edges and registers without
// looking again (a broken f could make Close loop forever).
func Prepare(f *cfg.Func) error {
	if f == nil || f.Level != cfg.SSA {
		return fmt.Errorf("loops: not an SSA function")
	}
	if err := cfg.Verify(f); err != nil {
		return fmt.Errorf("loops: %w", err)
	}
	if err := Normalize(f); err != nil {
		return err
	}
	if err := Pads(f); err != nil {
		return err
	}
	return Close(f)
}
