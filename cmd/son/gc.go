package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the collector's GOGC for a son process when the environment
// sets neither GOGC nor GOMEMLIMIT. A compile is short-lived and most of
// its heap stays live until it ends, so the default 100 makes the
// collector mark the same graph again and again as it grows; 400 saves a
// fifth of son build's CPU time on the programs of bench/compiletime.sh for
// about a third more peak memory (docs/PERFORMANCE.md, "Compile time
// against gcc").
const gcPercent = 400

// setGC applies gcPercent unless the user chose the collector's settings.
func setGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
