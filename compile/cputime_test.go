//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package compile

import (
	"syscall"
	"time"
)

// cpuNow is the CPU time the process has used, user and system, and
// whether the system tells it (BenchmarkScaling's cpu-ns/node).
func cpuNow() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
