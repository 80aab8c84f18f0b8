package gcpolicy

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// reset ends the policy and puts the collector back as a test process
// has it.
func reset() {
	Stop()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}

// TestStart: with neither GOGC nor GOMEMLIMIT set, son collects only
// when the heap nears its memory limit, the budget (64 MiB plus 100 bytes
// per byte of source) less 16 MiB of slack; with either set, it leaves
// the collector alone.
func TestStart(t *testing.T) {
	defer reset()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	if !Start() {
		t.Error("GOGC and GOMEMLIMIT unset: Start reports that the policy does not hold")
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC unset: the collector's percent is %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 48<<20 {
		t.Errorf("GOGC unset: the memory limit is %d, want %d (64 MiB less the slack)", got, 48<<20)
	}
	SetSource(1_000_000)
	if got, want := debug.SetMemoryLimit(-1), int64(48<<20+100_000_000); got != want {
		t.Errorf("after SetSource(1,000,000): the memory limit is %d, want %d", got, want)
	}
	reset()
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		t.Setenv(env, "150")
		if Start() {
			t.Errorf("%s set: Start reports that the policy holds", env)
		}
		SetSource(1_000_000)
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("%s set: Start changed the percent to %d, want it left at 100", env, got)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("%s set: the memory limit is %d, want none", env, got)
		}
	}
	if Budget(math.MaxInt) != math.MaxInt64-(math.MaxInt64-(base-slack))%perByte {
		t.Errorf("Budget(MaxInt) = %d: overflows", Budget(math.MaxInt))
	}
}

// TestStop: Stop puts back the settings Start found, and the policy no
// longer acts on them: neither SetSource nor a live heap over the budget
// changes them. Started again, it holds again.
func TestStop(t *testing.T) {
	defer reset()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(70)
	debug.SetMemoryLimit(1 << 40)
	Start()
	mu.Lock()
	started := epoch
	mu.Unlock()
	SetSource(1_000)
	Stop()
	SetSource(1_000_000)
	check := func(when string) {
		t.Helper()
		if got := debug.SetGCPercent(70); got != 70 {
			t.Errorf("%s: the percent is %d, want 70, as before Start", when, got)
		}
		if got := debug.SetMemoryLimit(-1); got != 1<<40 {
			t.Errorf("%s: the memory limit is %d, want %d, as before Start", when, got, int64(1<<40))
		}
	}
	check("after Stop")
	live := make([]byte, 40<<20) // over 48 MiB / 1.5: would lift the limit
	// Collect until the watch Start began has woken, seen the policy
	// stopped and ended, so that the checks are not passed by a watch
	// that has not run yet.
	watchEnded := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return ended >= started
	}
	for deadline := time.Now().Add(10 * time.Second); !watchEnded(); {
		if time.Now().After(deadline) {
			t.Fatal("after Stop, the watch did not end in 10 s of collections")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
	check("after Stop and collections of 40 MiB live")
	if !Start() {
		t.Fatal("started again: the policy does not hold")
	}
	if got := debug.SetMemoryLimit(-1); got != Budget(0) {
		t.Errorf("started again: the memory limit is %d, want %d", got, Budget(0))
	}
	Stop()
	check("after the second Stop")
}

// TestLiftsLimit: once a collection finds the live heap too close to
// the budget to leave percent percent of it free, the limit goes and the
// collector is proportional (GOGC percent), so that a heap larger than
// the budget is not collected over and over; once a collection finds the
// live heap small again, the budget is the limit again.
func TestLiftsLimit(t *testing.T) {
	defer reset()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	Start()
	lifted := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return lifted
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
	if got := debug.SetGCPercent(percent); got != percent {
		t.Errorf("after the lift the percent is %d, want %d", got, percent)
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
	if got := debug.SetMemoryLimit(-1); got != Budget(0) {
		t.Errorf("the heap freed: the memory limit is %d, want %d", got, Budget(0))
	}
}

// TestProportional: the budget holds while the live heap and percent
// percent of it fit under it.
func TestProportional(t *testing.T) {
	const budget = 150 << 20 // with percent 50, 100 MiB live and its half fit exactly
	for _, c := range []struct {
		live int64
		want bool
	}{
		{0, false},
		{50 << 20, false},
		{budget * 100 / (100 + percent), false},
		{budget*100/(100+percent) + 1, true},
		{budget, true},
		{2 * budget, true},
	} {
		if got := proportional(c.live, budget); got != c.want {
			t.Errorf("proportional(%d, %d) = %v, want %v", c.live, budget, got, c.want)
		}
	}
}
