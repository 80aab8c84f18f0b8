package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiling of a whole son process, for the compile-time work of
// docs/PERFORMANCE.md: hidden, as it is for son's developers, not its
// users. SON_CPUPROFILE=file writes a CPU profile of the run to file and
// SON_MEMPROFILE=file a profile of every allocation (sampled as
// runtime.MemProfileRate says; SON_MEMPROFILERATE=n changes it). Both are
// read with go tool pprof.
const (
	envCPUProfile  = "SON_CPUPROFILE"
	envMemProfile  = "SON_MEMPROFILE"
	envMemProfRate = "SON_MEMPROFILERATE"
)

// startProfiles starts the profiles the environment asks for and returns
// the function that writes them at the end of the run.
func startProfiles(stderr io.Writer) (stop func()) {
	cpu, mem := os.Getenv(envCPUProfile), os.Getenv(envMemProfile)
	if cpu == "" && mem == "" {
		return func() {}
	}
	if rate := os.Getenv(envMemProfRate); rate != "" && mem != "" {
		var n int
		if _, err := fmt.Sscan(rate, &n); err == nil && n > 0 {
			runtime.MemProfileRate = n
		} else {
			fmt.Fprintf(stderr, "son: %s=%q is not a positive number of bytes; the default rate is used\n", envMemProfRate, rate)
		}
	}
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "son: %s: %v\n", envCPUProfile, err)
		} else {
			cpuFile = f
		}
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem != "" {
			f, err := os.Create(mem)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "son: %s: %v\n", envMemProfile, err)
			}
		}
	}
}
