package regalloc

// CheckRelive makes Allocate compare relive with the whole liveness in
// every round after the first (the tests of package regalloc_test).
var CheckRelive = &checkRelive
