// Package opt holds the global passes on the Sea of Nodes, each in a file
// of its own with its checker beside it: the combined constant propagation
// and unreachable-code analysis of Click and Cooper (sccp.go, checked by
// sccp_check.go), and the redundant zero-check elimination of Demange et
// al. (zerocheck.go, checked by zerocheck_check.go). A pass returns an
// error only when its checker rejects its result: a bug in son.
package opt
