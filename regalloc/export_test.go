package regalloc

// CheckRelive makes Allocate compare relive with the whole liveness in
// every round after the first, and a folded allocation with the unfolded
// one (the tests of package regalloc_test).
var CheckRelive = &checkRelive

// MoveAfter makes the last n moves run before p's instruction run after
// it, first of its moves after.
func MoveAfter(p *Placed, n int) { p.nb, p.na = p.nb-int32(n), p.na+int32(n) }
