package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the collector's GOGC for a son process when the environment
// sets neither GOGC nor GOMEMLIMIT. A compile is short-lived and most of
// its heap stays live until it ends, so the default 100 makes the
// collector mark the same graph again and again as it grows. 200 saves
// about a tenth of son build's CPU time on the programs of
// bench/compiletime.sh for a few percent more peak memory; 400 saves little
// more for half as much memory again at 100,000 lines (docs/PERFORMANCE.md,
// "Compile time against gcc").
const gcPercent = 200

// setGC applies gcPercent unless the user chose the collector's settings.
func setGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
