package compile

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// threadCPUNow is the CPU time the calling thread has used, user and
// system, and whether the system tells it. Read with the goroutine
// locked to its thread (runtime.LockOSThread), it is the goroutine's own
// work and the collector's assists it paid, without the collector's
// background workers and the runtime's other threads, which the
// process's time (cpuNow) also counts: on a run of 100 µs, 15 to 60 µs of
// those (branch back14).
func threadCPUNow() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
