// Package cfg is the basic-block intermediate representation, used at two
// levels. At the SSA level every register has one definition, which
// dominates every use, and blocks start with Phis; at the RTL level there
// are no Phis and a register may be assigned many times. The control-flow
// graph is normalized as in CompCertSSA (Barthe, Demange, Pichardie, paper
// 003, section 3.2): no critical edges, and a block with several
// predecessors is entered only by unconditional jumps, so that its Phis can
// be run on the edge.
//
// # Files
//
//   - cfg.go: the data structures (Func, Block, Phi, Instr, Term, Op).
//   - verify.go: Verify, the well-formedness rules of each level.
//   - run.go, eval.go: Run, the interpreter of paper 003's figure 8, and
//     the arithmetic it uses.
//   - print.go, parse.go: the text form and its parser.
//   - dot.go: DOT, a Graphviz drawing.
//   - preds.go: the order of predecessors (SortPreds).
//   - index.go, regs.go: block positions, dominators (package dom) and
//     register numbering, shared by the above.
//
// Nothing here recurses along paths of the function: a chain of a
// hundred thousand blocks is verified, run, printed and parsed with loops.
//
// # Semantics
//
// Run starts at Blocks[0] and executes the instructions of a block in
// order, then its terminator: a Jump goes to Succs[0], a Branch to Succs[0]
// if its register is not 0 and to Succs[1] otherwise, a Return ends the run
// with its register's value. Entering a block from its k-th predecessor
// assigns all its Phis at once, each from its k-th argument read before any
// is assigned (paper 003, figure 8: phistore, and its parallel assignment
// property). A Check of 0 stops the program with "runtime error: division
// by zero", as son.Run does. Arithmetic wraps in 64-bit two's complement;
// see EvalBinary.
//
// # The order of predecessors
//
// Preds are ordered by block position: a block's predecessors are listed
// in the order in which they appear in Func.Blocks, and a Phi's k-th
// argument comes from Preds[k]. In a loop header whose blocks come in
// reverse postorder, the entry edge therefore comes first and the back
// edge, from a later block, last. Parse builds Preds that way from the
// terminators, and Print writes them that way: for a Func whose Preds are
// in another order, Print lists the predecessors by position and permutes
// each Phi's arguments to match, so the text means what the Func means.
// SortPreds puts a Func's own Preds (and Phi arguments) in that order.
// Verify does not require it.
//
// # The text form
//
// Print writes, and Parse reads:
//
//	func sum level SSA
//	b1:  ; entry, depth 0
//		v1 = Arg                 ; line 1
//		v2 = Const 0
//		jump b2
//	b2:  ; preds b1 b4, depth 1
//		v3 = Phi v2 v6
//		v4 = Phi v1 v7
//		branch v4 b4 b3          ; line 3
//	b3:  ; preds b2, depth 0
//		return v3                ; line 6
//	b4:  ; preds b2, depth 1
//		v5 = Const 1
//		v6 = Add v3 v4           ; line 4
//		v7 = Sub v4 v5           ; line 5
//		jump b2
//
// The first line is "func NAME level SSA" or "level RTL"; NAME is a word
// without spaces or a Go-quoted string. Then the blocks, in order, the
// entry first: a header "bID:", then the block's Phis ("vD = Phi vA vB
// ..."), its instructions ("vD = Op vA vB", "vD = Const N", "check vA") and
// its terminator ("jump bS", "branch vC bT bF", "return vR"; a block with
// no terminator has no line for it). Lines are indented by one tab; the
// text of an instruction is padded to 24 characters before a "; line N"
// comment, written when its position is known.
//
// Everything after ";" is a comment. Parse reads two things in comments,
// given as comma-separated fields: "line N" (or "line N:C") sets the
// position of the Phi, instruction or terminator it follows, and "depth
// N" in a block header sets LoopDepth. The header's "entry" and "preds"
// fields are for the reader: Parse recomputes Succs from the terminators
// and Preds from the Succs in block order. Blocks may be referred to
// before they are declared. Parse checks the syntax of each line, op
// names and arities, and that every block referred to exists; all other
// rules are Verify's, so that broken functions can be written as text.
package cfg
