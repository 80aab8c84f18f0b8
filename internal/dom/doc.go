// Package dom computes dominator trees of directed graphs: the control nodes
// of a Sea of Nodes graph, and basic blocks later.
//
// A graph is given as successor lists: vertices are 0..len(succ)-1, the entry
// is 0, and succ[v] lists the successors of v (duplicates and self-loops are
// allowed). Vertex a dominates b if every path from the entry to b passes
// through a. Both algorithms return idom, where idom[0] = 0, idom[v] is the
// immediate dominator of v, and idom[v] = -1 if v is unreachable from 0.
//
// There are two independent algorithms with the same contract, so that a
// bug in one cannot hide in the other: a pass uses one and its checker the
// other. They share no code of the algorithms; they share a layout: both
// read successor lists laid out flat, and the list forms are laid out so
// first by one function, flatten, which checks the range of each
// successor and computes nothing. TestRandom holds both, in both forms, to
// a brute-force search.
//
//   - LengauerTarjan is the "simple" Lengauer–Tarjan algorithm with path
//     compression: O(m log n) time.
//   - CooperHarveyKennedy is the iterative algorithm of Cooper, Harvey and
//     Kennedy: O(n + m) per pass over the graph in reverse postorder,
//     O((n + m) n) in the worst case, but few passes on real control flow.
//
// Both use O(n + m) memory. A Tree, made from idom by NewTree in O(n),
// answers dominance queries in O(1), and so does Intervals (NewIntervals),
// which keeps only the numbering those need. These two are shared by the
// passes and the checkers, whichever algorithm made idom: a bug in them is
// not caught by the pairing, but by their own tests (TestPreorder,
// TestLCA, TestIntervalsAgreeWithTree; checkTree against the chains of
// idom).
//
// Nothing here recurses: graphs may be chains of millions of vertices.
package dom
