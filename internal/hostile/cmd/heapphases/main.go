// Command heapphases finds where `son check`'s live heap peaks: it runs
// son check's steps in process (every pass with checks on and each level
// dropped when done, then the selection, the allocation and their
// checkers) under a proportional collector of a low percent, reads the
// live heap after every collection, and prints the largest for each pass
// with the son functions on the stack at that moment: what the peaks of
// docs/PERFORMANCE.md, "Peak memory: levers", are made of.
//
//	go run ./internal/hostile/cmd/heapphases -shape and -size 1000000
//	go run ./internal/hostile/cmd/heapphases prog.smp
//	go run ./internal/hostile/cmd/heapphases -shape ifs -profile build -o ifs.prof
//	go tool pprof -sample_index=inuse_space -top ifs.prof
//
// A developer's tool: the collector runs far more often than in son (GOGC
// 10 by default), so time it with limits, not with this.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"

	"son/amd64"
	"son/compile"
	"son/internal/hostile"
)

func main() {
	shape := flag.String("shape", "", "the hostile shape to measure (instead of a file)")
	size := flag.Int("size", 1000000, "the shape's size in bytes")
	gogc := flag.Int("gogc", 10, "the collector's percent while measuring")
	profPass := flag.String("profile", "", "write a heap profile at the largest live heap of this pass (or backend)")
	profFile := flag.String("o", "heap.prof", "the file of -profile's heap profile")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: heapphases [-gogc N] (-shape S [-size N] | prog.smp)")
		flag.PrintDefaults()
	}
	flag.Parse()
	name, src, err := source(*shape, *size, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "heapphases:", err)
		os.Exit(2)
	}
	if *gogc <= 0 {
		fmt.Fprintln(os.Stderr, "heapphases: -gogc must be positive")
		os.Exit(2)
	}
	var prof *profile
	if *profPass != "" {
		if !slices.Contains(phases(), *profPass) {
			fmt.Fprintf(os.Stderr, "heapphases: -profile: no pass %q\n", *profPass)
			os.Exit(2)
		}
		runtime.MemProfileRate = 64 << 10
		prof = &profile{pass: *profPass}
	}
	rows, err := measure(name, src, *gogc, prof)
	if prof != nil && err == nil {
		err = os.WriteFile(*profFile, prof.data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "heapphases:", err)
		os.Exit(1)
	}
	fmt.Printf("%s, %d bytes, GOGC=%d: the largest live heap after a collection in each pass\n\n", name, len(src), *gogc)
	fmt.Println("| pass | largest live | collections | at (innermost son frames) |")
	fmt.Println("|---|---:|---:|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %.1f MB | %d | %s |\n", r.Phase, float64(r.Live)/1e6, r.GCs, strings.Join(r.Frames, " < "))
	}
}

// source returns the program to measure: a hostile shape or a file.
func source(shape string, size int, args []string) (string, []byte, error) {
	switch {
	case shape != "" && len(args) == 0:
		s, ok := hostile.Lookup(shape)
		if !ok {
			return "", nil, fmt.Errorf("no shape %q", shape)
		}
		if size <= 0 {
			return "", nil, fmt.Errorf("-size must be positive")
		}
		return shape + ".smp", []byte(s.Program(size)), nil
	case shape == "" && len(args) == 1:
		src, err := os.ReadFile(args[0])
		return args[0], src, err
	}
	return "", nil, fmt.Errorf("want either -shape or one program file")
}

// A row is the largest live heap seen after a collection during one pass
// (its checks included; "backend" is the selection, the allocation and
// their checkers), how many collections ended in it, and the son
// functions on the compiling goroutine's stack when that largest was seen.
type row struct {
	Phase  string
	Live   uint64
	GCs    int
	Frames []string
}

// measure compiles src as son check does and returns a row for each pass
// in which at least one collection ended, in the order of the passes.
// If prof is not nil, its data is a heap profile taken at the largest
// live heap of its pass (the collection's view, as the runtime's heap
// profile is).
func measure(name string, src []byte, gogc int, prof *profile) ([]row, error) {
	var (
		mu    sync.Mutex
		names = phases()
		at    = 0 // the pass running: names[at]
		rows  = map[string]*row{}
		done  = false
	)
	self := goroutine()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var watch func()
	watch = func() {
		mu.Lock()
		defer mu.Unlock()
		if done {
			return
		}
		metrics.Read(sample)
		live := sample[0].Value.Uint64()
		p := names[at]
		r := rows[p]
		if r == nil {
			r = &row{Phase: p}
			rows[p] = r
		}
		r.GCs++
		if live > r.Live {
			r.Live, r.Frames = live, sonFrames(self)
			if prof != nil && prof.pass == p {
				var b bytes.Buffer
				if pprof.Lookup("heap").WriteTo(&b, 0) == nil {
					prof.data = b.Bytes()
				}
			}
		}
		runtime.SetFinalizer(new([16]byte), func(*[16]byte) { watch() })
	}
	old := debug.SetGCPercent(gogc)
	defer debug.SetGCPercent(old)
	runtime.SetFinalizer(new([16]byte), func(*[16]byte) { watch() })
	next := func(pass string) {
		mu.Lock()
		defer mu.Unlock()
		for i, p := range names {
			if p == pass {
				at = i + 1
			}
		}
	}
	opts := compile.Options{Check: true, DropGraph: true, AfterPass: func(_ *compile.Unit, pass string) error {
		next(pass)
		return nil
	}}
	u, err := compile.Compile(name, src, opts)
	if err == nil {
		next(names[len(names)-2]) // the last pass: now the backend
		_, err = amd64.Code(u.Func, u.Name, amd64.CheckAll)
	}
	runtime.GC() // the last pass's collections are reported before done is set
	mu.Lock()
	done = true
	mu.Unlock()
	var out []row
	for _, p := range names {
		if r := rows[p]; r != nil {
			out = append(out, *r)
		}
	}
	return out, err
}

// phases are the names of measure's rows: the passes, then the backend.
func phases() []string { return append(compile.PassNames(), "backend") }

// A profile asks measure for a heap profile at the largest live heap of
// pass.
type profile struct {
	pass string
	data []byte
}

// driverFrame says whether a line of a stack trace is a call of the
// drivers (this command, compile.Compile and its runPass), which every
// stack has; compile's own steps (validateBuild, the checkers' wrappers)
// name where a pass's memory goes, and stay.
func driverFrame(line string) bool {
	return strings.Contains(line, "heapphases") || strings.HasPrefix(line, "son/compile.Compile(") ||
		strings.HasPrefix(line, "son/compile.runPass(")
}

// goroutine returns the header of the calling goroutine's stack trace,
// "goroutine N ", which names it in a trace of all goroutines.
func goroutine() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	head, _, _ := strings.Cut(string(buf), "[")
	return head
}

// sonFrames returns the functions of package son's tree on the stack of
// the goroutine whose header is self (the one that compiles), innermost
// first, at most four, without the drivers' frames (driverFrame).
func sonFrames(self string) []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var frames []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.HasPrefix(g, self) {
			continue
		}
		for _, line := range strings.Split(g, "\n") {
			i := strings.LastIndex(line, "(")
			if i < 0 || !strings.HasPrefix(line, "son/") || driverFrame(line) {
				continue // a file:line, another package, or the driver
			}
			fn := strings.TrimPrefix(line[:i], "son/")
			if len(frames) == 0 || frames[len(frames)-1] != fn {
				frames = append(frames, fn)
			}
			if len(frames) == 4 {
				return frames
			}
		}
	}
	return frames
}
