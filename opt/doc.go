// Package opt holds the global passes on the Sea of Nodes, each in a file
// of its own with its checker beside it: the combined constant propagation
// and unreachable-code analysis of Click and Cooper (sccp.go, checked by
// sccp_check.go), and the redundant zero-check elimination of Demange et
// al. (zerocheck.go, checked by zerocheck_check.go). Each checker takes
// only the pass's input, as the pipeline recorded it before the pass
// (SCCPRecord, ZeroCheckRecord: each live node's op, constant, type and
// inputs by ID, not a son.Graph.Clone), and its output, never the pass's
// own report, and its doc comment says what it trusts. A failure is a bug
// in son.
package opt
