// Package gcpolicy is the collector's policy of a son process, when the
// environment sets neither GOGC nor GOMEMLIMIT (docs/PERFORMANCE.md, "Peak
// memory"): son's main starts it, and BenchmarkScaling's pipeline-policy
// row runs under it to measure what son build costs.
//
// A compile is short-lived and most of its heap stays live until it ends,
// so a proportional collector marks the same graph again and again as it
// grows. Instead, as Go's own compiler does (base.AdjustStartingHeap), the
// heap may grow with no collection at all up to a budget, base + perByte ×
// the source's size (100 bytes per byte, the goal that docs/LANGUAGE.md
// sets for the peak): a small or middling program is compiled without a
// single collection, and a large one is collected only when its heap nears
// the budget. The memory limit is the budget less slack, for what the
// limit does not count (the executable's own pages) and what the heap
// overshoots it by while a collection runs: with the whole budget as the
// limit, the peak RSS was 6% over it.
//
// After each collection, the heap's next goal is the larger of the limit
// and the live heap plus percent percent of it. While the live heap leaves
// that much room under the limit, the limit stays: the heap grows to it,
// and the next collection comes when the room is allocated. Beyond,
// holding the heap under the limit would mean collecting over and over,
// each collection marking a heap that nearly fills it: the limit is lifted
// and the collector is proportional, with GOGC percent, until a collection
// finds the live heap small enough again. The peak is thus the limit, or 1
// + percent/100 times the largest live heap if that is more. Each
// collection marks the live heap, so the collector's CPU grows as percent
// shrinks: 100 (the policy until November 2026) made the peak twice the
// live heap; 50 makes it 1.5 times for 7 to 21% more CPU on the hostile
// shapes of docs/PERFORMANCE.md ("mem13"), 25 would make it 1.25 times for
// 20 to 45% more.
package gcpolicy

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The budget and the collector's percent once the limit is lifted (see the
// package comment).
const (
	base    = 64 << 20
	perByte = 100
	slack   = 16 << 20
	percent = 50
)

// The policy's state. managed is set while the policy holds the
// collector's settings (Start to Stop), lifted while the collector is
// proportional; limit is the memory limit. epoch counts the starts and
// stops, so that the watch of a stopped policy ends at its next check
// even if the policy was started again meanwhile. oldPercent and oldLimit
// are the settings Start found, which Stop puts back.
var (
	mu         sync.Mutex
	managed    bool
	lifted     bool
	limit      int64
	epoch      int
	ended      int // the latest epoch whose watch has seen it over and ended (for tests)
	oldPercent int
	oldLimit   int64
)

// Start starts the policy unless the environment chose the collector's
// settings (GOGC or GOMEMLIMIT): no proportional collection, and the
// budget of an empty program until SetSource learns the source's size. It
// reports whether the policy holds the collector's settings; starting it
// again while it does changes nothing.
func Start() bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	mu.Lock()
	defer mu.Unlock()
	if managed {
		return true
	}
	managed, lifted, limit = true, false, Budget(0)
	epoch++
	oldPercent = debug.SetGCPercent(-1)
	oldLimit = debug.SetMemoryLimit(limit)
	watch(epoch)
	return true
}

// SetSource sets the memory limit for a program of n bytes of source,
// if the policy holds the collector's settings.
func SetSource(n int) {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return
	}
	limit = Budget(n)
	if !lifted {
		debug.SetMemoryLimit(limit)
	}
}

// Stop ends the policy, if started: the collector's percent and memory
// limit are those Start found (Go's defaults, GOGC 100 and no limit, in a
// process that set none), and the watch after each collection ends.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return
	}
	managed, lifted = false, false
	epoch++
	debug.SetGCPercent(oldPercent)
	debug.SetMemoryLimit(oldLimit)
}

// Budget is the memory limit for n bytes of source: their budget less
// slack.
func Budget(n int) int64 {
	const floor = base - slack
	return floor + perByte*int64(min(n, (math.MaxInt64-floor)/perByte))
}

// proportional says whether, with live bytes live after a collection and
// a memory limit of limit bytes, the collector should be proportional
// (GOGC percent, no limit) rather than hold the heap under the limit:
// whether live and percent percent of it are over the limit.
func proportional(live, limit int64) bool {
	return live > limit/(100+percent)*100
}

// watch applies the policy after each collection (see the package
// comment), as long as the policy started in epoch e holds.
func watch(e int) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var check func()
	check = func() {
		mu.Lock()
		defer mu.Unlock()
		if !managed || epoch != e {
			ended = max(ended, e)
			return
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return // no measure of the live heap: keep the budget
		}
		lift := proportional(int64(sample[0].Value.Uint64()), limit)
		switch {
		case lift && !lifted:
			debug.SetGCPercent(percent)
			debug.SetMemoryLimit(math.MaxInt64)
		case !lift && lifted:
			debug.SetMemoryLimit(limit)
			debug.SetGCPercent(-1)
		}
		lifted = lift
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
