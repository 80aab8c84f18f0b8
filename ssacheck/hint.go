// Package ssacheck is the translation validator of SSA generation (paper
// 003, section 5): given an RTL function, a candidate SSA form of it and
// the hint of section 5.5, Validate accepts the SSA form only if it is a
// correct one, that is, one that computes what the RTL computes. It
// trusts nothing of the generator (package ssagen), with which it shares
// no code: only the cfg data structures and the Hint type, which it
// defines. It computes its own dominators (Cooper, Harvey and Kennedy's
// algorithm, where ssagen uses Lengauer and Tarjan's).
//
// # The two passes
//
// The structural pass (check.go) checks that erasing the Phis and the
// indices of the SSA form gives back the RTL, block by block and
// instruction by instruction; that the SSA form is normalized (no
// critical edge, junctions entered by jumps); that every register and
// every version x_i of an RTL register x is defined once; and that Phis
// are only at junctions, with one argument per predecessor, each an
// instance of the Phi's own variable.
//
// The typing pass (typing.go) is the type system of section 5.1 in its
// inference form (section 5.5). A local typing maps each RTL register x
// to the index of its most recent definition, or to ⊥ (index 0) where no
// single definition reaches: at the entry every register is ⊥. An
// instruction defining x_i updates x to i (wt_instr); a use of x_k needs
// the local typing to give x the index k (use_ok). At a junction j the
// Phis assign their variables (ASSIG), and the k-th argument of the Phi of
// x must be the version of x that the local typing at the end of the k-th
// predecessor gives (USES). For a variable that no Phi of j assigns, the
// incoming indices must agree (NASSIG); where they may not, Validate types
// x as ⊥ at j, so that any later use of x, or any Phi argument taken from
// it, is rejected. This stands for the rule's "x is not live at j"
// disjunct: a dead x is never read before it is redefined, so ⊥ costs
// nothing, and one validator takes the minimal, semi-pruned and pruned
// forms alike with no liveness parameter (the strictness of section 5.2
// is checked at each use instead).
//
// The local typings are computed along a walk of the dominator tree, as a
// register file with an undo log: the local typing at a point is the
// nearest definition on the dominator tree path above it, and "incoming
// indices may disagree" at j is j being in the iterated dominance frontier
// of the definitions of x (computed by the validator too, from its own
// dominators). The whole check is O(n + m + r + Σ|DF|·d), with r the
// register mentions and d the definitions per block, the bound of Cytron
// et al.'s phi placement; it recurses nowhere.
package ssacheck

import "son/cfg"

// Hint is what the SSA generator tells the validator (paper 003, section
// 5.5): the index of each definition and the Phis of each junction.
// Blocks are by position in the function.
type Hint struct {
	// Def[b][k] is the index i of the version x_i that instruction k of
	// block b defines, x being the register the RTL instruction assigns;
	// 0 for an instruction that defines nothing (a Check).
	Def [][]int32
	// Phis[b] lists the Phis of block b, in order: the RTL register each
	// defines a version of, and its index.
	Phis [][]PhiHint
}

// PhiHint is the variable and index a Phi defines.
type PhiHint struct {
	Reg   cfg.Reg // the RTL register
	Index int32   // the version's index, > 0
}
