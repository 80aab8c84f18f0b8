//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package compile

import "time"

// cpuNow reports no CPU time where getrusage is not at hand:
// BenchmarkScaling then leaves out its cpu-ns/node.
func cpuNow() (time.Duration, bool) { return 0, false }
