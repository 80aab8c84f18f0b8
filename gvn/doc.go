// Package gvn is global value numbering on the SSA level of package cfg,
// split as in CompCertSSA (Barthe, Demange, Pichardie, paper 003, section
// 7) into an untrusted analysis and a validator that alone lets its result
// rewrite the function.
//
//   - Number (number.go, partition.go) is the analysis: Alpern, Wegman and
//     Zadeck's optimistic partition of the registers into congruence
//     classes ("Detecting equality of variables in programs", POPL'88; the
//     optimistic variant of Click's thesis). Every value starts in the
//     class of its label — its op and constant for an instruction (every
//     Arg in one class), its block for a Phi — and classes are split, from
//     a worklist of classes in Hopcroft's manner, until two registers of a
//     class have congruent arguments position by position (as a multiset
//     for the commutative ops Add, Mul, And, Or, Xor, Eq, Ne). Each value
//     is touched O(log n) times: O(m log n) in all. Then it proposes, for
//     each value whose class has a member whose definition strictly
//     dominates it, a replacement by that member, found by a walk of the
//     dominator tree (package dom, Lengauer–Tarjan).
//   - Validate (validate.go) is the checker, sharing nothing with Number
//     but the definition of the commutative ops: it checks that the
//     function passes cfg.Verify (the paper's wf_ssa_function), that the
//     numbering meets GVN_spec (paper 003, figure 11: registers of one
//     number are defined by the same op with equal-numbered arguments, or
//     by Phis of one block with equal-numbered arguments; the rule that no
//     two parameters share a number holds of itself, a cfg.Func having
//     one parameter, read by Arg) and that the definition
//     of each replacement strictly dominates the register it replaces
//     (def_sdom, with the dominators cfg.Verify computed to check the
//     function: Cooper, Harvey and Kennedy's algorithm, not the pass's
//     Lengauer–Tarjan). Only the Valid it returns can Apply the proposal.
//   - Apply (rewrite.go) makes each replaced instruction a Copy of its
//     replacement (a replaced Phi a Copy at the start of its block), then
//     propagates copies (paper 003, section 6.2: every use of a copy's
//     destination reads its source) and removes the definitions nothing
//     uses any more. A Check is never removed; a division whose value is
//     unused is, since its Check stays and a division that has passed its
//     check is pure.
//
// A Check defines no value and is in no class. Registers used but never
// defined (cfg.Verify rejects them) are each alone in a class of Number.
// The result passes cfg.Verify when the input does: every use of a
// replaced register is dominated by its definition, which its
// replacement's definition strictly dominates. CheckRewrite (check.go),
// run by compile with checking on, compares the rewritten function with
// the one gvn got, under the numbering Validate accepted.
package gvn
