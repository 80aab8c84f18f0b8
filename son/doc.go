// Package son is the Sea of Nodes: the graph, its builder from a resolved
// Simple program, the peepholes that run on every new node and then to a
// fixpoint, the graph's interpreter (Run), the verifier, and the printers.
//
// # The graph
//
// One Node struct with an Op, as Go's SSA backend has Value and Op; the
// properties of ops live in one table (op.go). In[0] is the control input
// of nodes that have one; floating data nodes have nil there. Out is the
// exact mirror of In, kept so by the only functions that change edges
// (Graph.SetIn, AddIn, DelIn, Subsume, Kill), each in O(1) (edges.go).
// Node IDs are never reused, so a node can be followed from pass to pass.
// Everything live is reachable from Stop through inputs.
//
// Control: Start is a tuple (control, arg) read by CProj 0 and Proj 1; If
// and Never are tuples (true, false) read by CProj 0 and 1; Region merges
// control (In[0] is nil, In[1..n] the predecessors) and its Phis have one
// value per predecessor at the same index; Loop is a Region of entry and
// back edge; Return ends a path and Stop gathers the Returns; ZeroCheck
// passes control on unless its divisor is 0, where the program stops with
// a division-by-zero error (Demange et al., section 4). A division whose
// divisor may be zero is pinned below the ZeroCheck of that divisor; one
// whose divisor cannot be zero floats.
//
// # Types
//
// Each node carries a type of package types; Compute is every op's
// transfer function, monotone, shared by the peephole and the global
// analyses. Control types carry reachability: XCtrl is control that never
// arrives, and a Phi meets only the values whose region input may arrive.
// Two choices keep the checks of a division alive: a ZeroCheck passes
// control on in the types even when its divisor is the constant 0, and
// the value of a division by the constant 0 — never computed, as the
// check stops the program first — is typed 0 rather than Top, so that no
// test on it makes the code around the check look dead.
//
// # Building
//
// Build walks the resolved program with a Scope node of the current
// control and the value of every live variable (Simple's ScopeNode). At
// an if, only the variables the if assigns (listed by the resolver) are
// saved before the branch and merged at a Region with Phis; a loop makes
// its Phis eagerly at the head, but only for the variables the loop
// assigns, and closes them with the back edge; break and continue save
// the loop's variables for one merge at the exit and one at the bottom of
// the body. So building costs time linear in the program rather than in
// live variables times branches. && || ?: and chained comparisons build
// control flow, not eager evaluation.
//
// A loop without an exit would not be reachable from Stop: like Simple,
// the builder and the peephole fixpoint give it a Never — an If that
// always goes around at run time — whose other side returns the Top value
// (keepalive.go). Build gives such loops their Never before it counts the
// divisions that need their check back after it folded the Ifs left with
// one side (guardFolded): a division that only a Never keeps alive counts.
//
// # Peepholes
//
// Every new node goes through Graph.Peephole: compute its type; a constant
// becomes a Constant, dead control the XCtrl node; else look the node up
// by value (commutative operands in either order); else idealize it with
// the rules of idealize.go (algebra, constants to the right and hoisted
// through associative ops, Simple's Phi rules, dead control, regions with
// one way in). A node left unused dies at once. Graph.Iterate then runs
// peepholes from a worklist to a fixpoint, whatever order the worklist is
// pulled in (Graph.Seed), and sweeps away cycles that nothing reaches.
// Types only rise in that iteration; a loop Phi whose integer range could
// narrow one value per round stops narrowing after maxNarrow rounds.
//
// # Semantics and checks
//
// Run is the semantics of Demange, Fernández de Retana and Pichardie
// (CC'18, section 2.2): control moves between control nodes; data nodes
// are evaluated on demand from the current values of the Phis; entering a
// Region from its k-th input assigns all its Phis in parallel; a step of
// its limit is one operation, a control move or a data node evaluated.
// Verify checks their well-formedness rules, strictness among them (every
// use dominated by the regions of the Phis it depends on and by the checks
// of the divisions it depends on, on one dominator tree of the control
// nodes: strict.go, ctrltree.go), and the graph's hygiene, naming the node
// and the rule of each problem.
package son
