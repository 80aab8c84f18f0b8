// Command limits measures the figures of docs/PERFORMANCE.md, "Limits":
// the wall time and peak resident memory of `son check` on each shape of
// package hostile at each size, one subprocess per run, peak memory from
// the kernel's accounting of the child (getrusage's ru_maxrss).
//
//	go build -o /tmp/son ./cmd/son
//	go run ./internal/hostile/cmd/limits -son /tmp/son -sizes 1000000,10000000
//
// With -write SHAPE:SIZE it prints that program instead, to try by hand.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"son/internal/hostile"
)

func main() {
	son := flag.String("son", "son", "the son binary to measure")
	sizes := flag.String("sizes", "1000000,10000000", "comma-separated program sizes in bytes")
	shapes := flag.String("shapes", "", "comma-separated shapes (default all)")
	limit := flag.Duration("timeout", 5*time.Minute, "give up on a run after this long")
	write := flag.String("write", "", "print the program SHAPE:SIZE and exit")
	flag.Parse()
	if *write != "" {
		name, size, _ := strings.Cut(*write, ":")
		s, ok := hostile.Lookup(name)
		n, err := strconv.Atoi(size)
		if !ok || err != nil {
			fail("bad -write %q: want SHAPE:SIZE", *write)
		}
		fmt.Print(s.Program(n))
		return
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			fail("bad size %q", f)
		}
		ns = append(ns, n)
	}
	list := hostile.Shapes
	if *shapes != "" {
		list = nil
		for _, name := range strings.Split(*shapes, ",") {
			s, ok := hostile.Lookup(name)
			if !ok {
				fail("no shape %q", name)
			}
			list = append(list, s)
		}
	}
	dir, err := os.MkdirTemp("", "limits")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(dir)
	fmt.Println("| shape | size | time | CPU time | peak RSS | bytes per source byte |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, s := range list {
		for _, n := range ns {
			src := s.Program(n)
			path := filepath.Join(dir, s.Name+".smp")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				fail("%v", err)
			}
			wall, cpu, rss, err := measure(*son, path, *limit)
			status := ""
			if err != nil {
				status = " (" + err.Error() + ")"
			}
			fmt.Printf("| %s | %.1f MB | %.2f s | %.2f s | %.0f MB | %.0f |%s\n", s.Name, float64(len(src))/1e6,
				wall.Seconds(), cpu.Seconds(), float64(rss)/1e6, float64(rss)/float64(len(src)), status)
		}
	}
}

// measure runs son check on path and returns its wall time, its CPU time
// (user and system: on a shared machine the wall time measures the load
// as much as son) and its peak resident set in bytes.
func measure(son, path string, limit time.Duration) (time.Duration, time.Duration, int64, error) {
	cmd := exec.Command(son, "check", path)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, err
	}
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	wall := time.Since(start)
	var rss int64
	var cpu time.Duration
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // kilobytes on Linux
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return wall, cpu, rss, err
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "limits: "+format+"\n", args...)
	os.Exit(2)
}
