package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// resetGC puts the collector back as a test process has it.
func resetGC() {
	gcMu.Lock()
	gcManaged, gcLifted = false, false
	gcMu.Unlock()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}

// TestSetGC: with neither GOGC nor GOMEMLIMIT set, son collects only
// when the heap nears its budget, 64 MiB plus 100 bytes per byte of
// source; with either set, it leaves the collector alone.
func TestSetGC(t *testing.T) {
	defer resetGC()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	setGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC unset: the collector's percent is %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 48<<20 {
		t.Errorf("GOGC unset: the memory limit is %d, want %d (64 MiB less the slack)", got, 48<<20)
	}
	budgetGC(1_000_000)
	if got, want := debug.SetMemoryLimit(-1), int64(48<<20+100_000_000); got != want {
		t.Errorf("after budgetGC(1,000,000): the memory limit is %d, want %d", got, want)
	}
	resetGC()
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		t.Setenv(env, "150")
		setGC()
		budgetGC(1_000_000)
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("%s set: setGC changed the percent to %d, want it left at 100", env, got)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("%s set: the memory limit is %d, want none", env, got)
		}
	}
	if gcBudget(math.MaxInt) != math.MaxInt64-(math.MaxInt64-(gcBase-gcSlack))%gcPerByte {
		t.Errorf("gcBudget(MaxInt) = %d: overflows", gcBudget(math.MaxInt))
	}
}

// TestGCLiftsLimit: once a collection finds the live heap too close to
// the budget to leave gcPercent percent of it free, the limit goes and the
// collector is proportional (GOGC gcPercent), so that a heap larger than
// the budget is not collected over and over; once a collection finds the
// live heap small again, the budget is the limit again.
func TestGCLiftsLimit(t *testing.T) {
	defer resetGC()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	setGC()
	lifted := func() bool {
		gcMu.Lock()
		defer gcMu.Unlock()
		return gcLifted
	}
	collectUntil := func(want bool) {
		for deadline := time.Now().Add(10 * time.Second); lifted() != want && time.Now().Before(deadline); {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
	}
	for range 3 { // a small heap keeps the budget
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if lifted() {
		t.Fatal("the limit was lifted with a small heap live")
	}
	live := make([]byte, 40<<20) // over 48 MiB / 1.5
	for i := range live {
		live[i] = byte(i)
	}
	collectUntil(true)
	runtime.KeepAlive(live)
	if !lifted() {
		t.Fatal("40 MiB live under a 48 MiB limit: the limit was not lifted")
	}
	if got := debug.SetGCPercent(gcPercent); got != gcPercent {
		t.Errorf("after the lift the percent is %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after the lift the memory limit is %d, want none", got)
	}
	live = nil
	collectUntil(false)
	if lifted() {
		t.Fatal("the heap freed: the budget is not the limit again")
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("the heap freed: the percent is %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != gcBudget(0) {
		t.Errorf("the heap freed: the memory limit is %d, want %d", got, gcBudget(0))
	}
}

// TestGCProportional: the budget holds while the live heap and gcPercent
// percent of it fit under it.
func TestGCProportional(t *testing.T) {
	const budget = 150 << 20 // with gcPercent 50, 100 MiB live and its half fit exactly
	for _, c := range []struct {
		live int64
		want bool
	}{
		{0, false},
		{50 << 20, false},
		{budget * 100 / (100 + gcPercent), false},
		{budget*100/(100+gcPercent) + 1, true},
		{budget, true},
		{2 * budget, true},
	} {
		if got := gcProportional(c.live, budget); got != c.want {
			t.Errorf("gcProportional(%d, %d) = %v, want %v", c.live, budget, got, c.want)
		}
	}
}
