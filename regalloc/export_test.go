package regalloc

// CheckRelive makes Allocate compare relive with the whole liveness in
// every round after the first, and a folded allocation with the unfolded
// one (the tests of package regalloc_test).
var CheckRelive = &checkRelive
