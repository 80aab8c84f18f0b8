package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The collector's policy for a son process, when the environment sets
// neither GOGC nor GOMEMLIMIT (docs/PERFORMANCE.md, "Peak memory"). A
// compile is short-lived and most of its heap stays live until it ends, so
// a proportional collector marks the same graph again and again as it
// grows. Instead, as Go's own compiler does (base.AdjustStartingHeap), the
// heap may grow with no collection at all up to a budget, the memory
// limit gcBase + gcPerByte × the source's size (100 bytes per byte, the
// goal that docs/LANGUAGE.md sets for the peak): a small or middling program is compiled
// without a single collection, and a large one is collected only when its
// heap nears the budget. When a collection finds more than half of the
// budget live, holding the heap under it would mean collecting over and
// over; the limit is then lifted, and the collector is proportional from
// there on (GOGC gcPercent): the peak is about twice the live heap.
const (
	gcBase    = 64 << 20
	gcPerByte = 100
	gcPercent = 100
)

// gcManaged is set when son chose the collector's settings (setGC), so
// that budgetGC may change them.
var (
	gcMu      sync.Mutex
	gcManaged bool
	gcLifted  bool
)

// setGC starts the policy unless the user chose the collector's settings:
// no proportional collection, and the budget of an empty program until
// budgetGC learns the source's size.
func setGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcMu.Lock()
	gcManaged, gcLifted = true, false
	gcMu.Unlock()
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcBase)
	watchGC()
}

// budgetGC sets the memory limit for a program of n bytes of source.
func budgetGC(n int) {
	gcMu.Lock()
	defer gcMu.Unlock()
	if gcManaged && !gcLifted {
		debug.SetMemoryLimit(gcBudget(n))
	}
}

// gcBudget is the memory limit for n bytes of source.
func gcBudget(n int) int64 {
	return gcBase + gcPerByte*int64(min(n, (math.MaxInt64-gcBase)/gcPerByte))
}

// watchGC looks at the live heap after each collection, until it is over
// half the memory limit; then it lifts the limit for a proportional
// collector (see gcBase).
func watchGC() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var check func()
	check = func() {
		gcMu.Lock()
		defer gcMu.Unlock()
		if !gcManaged || gcLifted {
			return
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && int64(sample[0].Value.Uint64()) <= debug.SetMemoryLimit(-1)/2 {
			afterGC(check)
			return
		}
		gcLifted = true
		debug.SetGCPercent(gcPercent)
		debug.SetMemoryLimit(math.MaxInt64)
	}
	afterGC(check)
}

// afterGC calls f once, after the next collection: a finalizer runs once
// the collector has found its object unreachable.
func afterGC(f func()) {
	sentinel := new([16]byte) // not a tiny allocation, which a finalizer could not tell apart
	runtime.SetFinalizer(sentinel, func(*[16]byte) { f() })
}
