package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"son/internal/faults/outcome"
)

// Status is how far the campaign got with a fault.
type Status string

const (
	Ran    Status = "ran"    // the probe ran on the faulty tree
	Stale  Status = "stale"  // the edit does not apply: its old text is not found exactly once
	Broken Status = "broken" // the faulty tree does not compile: the entry is wrong
)

// Result is the campaign's finding on one fault.
type Result struct {
	Fault   Fault
	Status  Status
	Note    string // why it is stale or broken, or why the probe stopped early
	Verdict outcome.Verdict
	Lines   []outcome.Program // the probe's lines, one per program
	Time    time.Duration
}

// campaign holds what every probe run shares.
type campaign struct {
	root      string        // the module's root
	n         int           // generated programs
	timeout   time.Duration // bound of one program in the probe
	deadline  time.Duration // bound of the probe runs of one fault, all programs
	programs  string        // -programs for the probe
	gocache   string        // the build cache, shared by every copy
	keepGoing bool          // run the faults even if the unchanged tree fails the probe
}

// probeArgs are the probe's flags.
func (c *campaign) probeArgs(dir string) []string {
	args := []string{"-dir", dir, "-n", fmt.Sprint(c.n), "-timeout", c.timeout.String()}
	if c.programs != "" {
		args = append(args, "-programs", c.programs)
	}
	return args
}

// run copies the module, applies f (none for the unchanged tree), builds
// the probe in the copy and runs it there.
func (c *campaign) run(f *Fault) (res Result) {
	start := time.Now()
	res = Result{Status: Ran}
	if f != nil {
		res.Fault = *f
	}
	defer func() { res.Time = time.Since(start) }()
	tmp, err := os.MkdirTemp("", "son-fault-")
	if err != nil {
		res.Status, res.Note = Broken, err.Error()
		return res
	}
	defer os.RemoveAll(tmp)
	tree := filepath.Join(tmp, "son")
	if err := os.Mkdir(tree, 0o755); err == nil {
		err = copyModule(c.root, tree)
	}
	if err != nil {
		res.Status, res.Note = Broken, "copying the module: "+err.Error()
		return res
	}
	if f != nil {
		if err := f.Apply(tree); err != nil {
			res.Status, res.Note = Stale, err.Error()
			return res
		}
	}
	bin := filepath.Join(tmp, "probe")
	// -trimpath: the copies live in different directories, and without it
	// the directory is part of every package's build key, so nothing the
	// fault leaves unchanged would come from the cache.
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./internal/faults/probe")
	build.Dir = tree
	build.Env = append(os.Environ(), "GOCACHE="+c.gocache, "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		res.Status, res.Note = Broken, "does not compile: "+oneLine(string(out), err)
		return res
	}
	// A probe that dies outside of any recover (a fatal error such as a
	// stack overflow) is started again after the program it died on,
	// which counts as a crash, and so is one that stopped after a hang;
	// one that runs out of the time of the whole run is not.
	ctx, cancel := context.WithTimeout(context.Background(), c.deadline)
	defer cancel()
	var lines []outcome.Program
	for skip := 0; ; {
		probe := exec.CommandContext(ctx, bin, append(c.probeArgs(tree), "-skip", fmt.Sprint(skip))...)
		probe.Dir = tree
		var stdout, stderr bytes.Buffer
		probe.Stdout, probe.Stderr = &stdout, &stderr
		runErr := probe.Run()
		got, done, err := outcome.Read(&stdout)
		if err != nil {
			res.Status, res.Note = Broken, "reading the probe: "+err.Error()
			return res
		}
		lines = append(lines, got...)
		if done != nil {
			if done.Stopped == "" {
				break
			}
			// It stopped after a hang, reported among its lines:
			// resume after that program.
			res.Note = "the probe was resumed after a " + done.Stopped
			skip += len(got)
			continue
		}
		line := outcome.Program{Name: lastRunning(stderr.String()), Guard: outcome.Crash,
			GuardDetail: "the probe died: " + oneLine(stderr.String(), runErr)}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			line.Guard, line.GuardDetail = outcome.Hang, fmt.Sprintf("the probe took more than %v", c.deadline)
		}
		lines = append(lines, line)
		if line.Guard == outcome.Hang || line.Name == "" {
			res.Note = line.GuardDetail
			break
		}
		skip += len(got) + 1
		res.Note = "the probe died and was resumed: " + line.GuardDetail
	}
	res.Lines = lines
	res.Verdict = outcome.Classify(lines)
	return res
}

// lastRunning is the program the probe was running when it stopped: the
// last it announced on its standard error, or "" if none.
func lastRunning(stderr string) string {
	name := ""
	for _, l := range strings.Split(stderr, "\n") {
		if n, ok := strings.CutPrefix(l, "probe: running "); ok {
			name = n
		}
	}
	return name
}

// oneLine is the most telling line of a tool's output: the first that
// names an error or a panic, else the first, else err.
func oneLine(out string, err error) string {
	var first string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if first == "" {
			first = l
		}
		if strings.HasPrefix(l, "probe: running ") {
			continue
		}
		if strings.Contains(l, "error") || strings.HasPrefix(l, "panic") || strings.Contains(l, ".go:") {
			return l
		}
	}
	if first != "" {
		return first
	}
	if err != nil {
		return err.Error()
	}
	return "no output"
}
