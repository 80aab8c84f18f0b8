//go:build !linux

package compile

import "time"

// threadCPUNow reports no thread CPU time off Linux (no RUSAGE_THREAD):
// the benchmarks then leave out their thread-ns/node.
func threadCPUNow() (time.Duration, bool) { return 0, false }
