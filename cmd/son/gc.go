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
// heap may grow with no collection at all up to a budget, gcBase +
// gcPerByte × the source's size (100 bytes per byte, the goal that
// docs/LANGUAGE.md sets for the peak): a small or middling program is
// compiled without a single collection, and a large one is collected
// only when its heap nears the budget. The memory limit is the budget
// less gcSlack, for what the limit does not count (the executable's own
// pages) and what the heap overshoots it by while a collection runs: with
// the whole budget as the limit, the peak RSS was 6% over it.
//
// After each collection, the heap's next goal is the larger of the limit
// and the live heap plus gcPercent percent of it. While the live heap
// leaves that much room under the limit, the limit stays: the heap grows
// to it, and the next collection comes when the room is allocated. Beyond,
// holding the heap under the limit would mean collecting over and over,
// each collection marking a heap that nearly fills it: the limit is lifted
// and the collector is proportional, with GOGC gcPercent, until a
// collection finds the live heap small enough again. The peak is thus the
// limit, or 1 + gcPercent/100 times the largest live heap if that is more.
// Each collection marks the live heap, so the collector's CPU grows as
// gcPercent shrinks: 100 (the policy until November 2026) made the peak
// twice the live heap; 50 makes it 1.5 times for 7 to 21% more CPU on the
// hostile shapes of docs/PERFORMANCE.md ("mem13"), 25 would make it 1.25
// times for 20 to 45% more.
const (
	gcBase    = 64 << 20
	gcPerByte = 100
	gcSlack   = 16 << 20
	gcPercent = 50
)

// gcManaged is set when son chose the collector's settings (setGC), so
// that budgetGC and the check after each collection may change them;
// gcLimit is the memory limit, gcLifted whether the collector is proportional.
var (
	gcMu      sync.Mutex
	gcManaged bool
	gcLifted  bool
	gcLimit   int64
)

// setGC starts the policy unless the user chose the collector's settings:
// no proportional collection, and the budget of an empty program until
// budgetGC learns the source's size.
func setGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcMu.Lock()
	gcManaged, gcLifted, gcLimit = true, false, gcBudget(0)
	gcMu.Unlock()
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcBudget(0))
	watchGC()
}

// budgetGC sets the memory limit for a program of n bytes of source.
func budgetGC(n int) {
	gcMu.Lock()
	defer gcMu.Unlock()
	if !gcManaged {
		return
	}
	gcLimit = gcBudget(n)
	if !gcLifted {
		debug.SetMemoryLimit(gcLimit)
	}
}

// gcBudget is the memory limit for n bytes of source: their budget less
// gcSlack.
func gcBudget(n int) int64 {
	const base = gcBase - gcSlack
	return base + gcPerByte*int64(min(n, (math.MaxInt64-base)/gcPerByte))
}

// gcProportional says whether, with live bytes live after a collection
// and a memory limit of limit bytes, the collector should be proportional
// (GOGC gcPercent, no limit) rather than hold the heap under the limit:
// whether live and gcPercent percent of it are over the limit.
func gcProportional(live, limit int64) bool {
	return live > limit/(100+gcPercent)*100
}

// watchGC applies the policy after each collection (see gcPercent).
func watchGC() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var check func()
	check = func() {
		gcMu.Lock()
		defer gcMu.Unlock()
		if !gcManaged {
			return
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return // no measure of the live heap: keep the budget
		}
		lift := gcProportional(int64(sample[0].Value.Uint64()), gcLimit)
		switch {
		case lift && !gcLifted:
			debug.SetGCPercent(gcPercent)
			debug.SetMemoryLimit(math.MaxInt64)
		case !lift && gcLifted:
			debug.SetMemoryLimit(gcLimit)
			debug.SetGCPercent(-1)
		}
		gcLifted = lift
		afterGC(check)
	}
	afterGC(check)
}

// afterGC calls f once, after the next collection: a finalizer runs once
// the collector has found its object unreachable.
func afterGC(f func()) {
	sentinel := new([16]byte) // not a tiny allocation, which a finalizer could not tell apart
	runtime.SetFinalizer(sentinel, func(*[16]byte) { f() })
}
