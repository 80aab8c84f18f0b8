// Command probe is the fault campaign's test of one tree: it runs a fixed
// set of programs — every testdata/*.smp and examples/*.smp with the
// arguments of their run: lines, then -n programs of internal/gen with
// fixed seeds — through the checked pipeline (compile.Compile with
// Options{Check: true}, then the backend as son check runs it: selection,
// register allocation and regalloc.Check, backend.go) and through the
// differential (every level's result, son.Run after each pass and
// cfg.Run from gcm on, against the
// reference oracle, itself held to the files' run: lines), and writes one
// JSON line per program (package outcome), then a last line saying it is
// done. go run ./internal/faults builds it in a copy of the module with
// one fault applied; run in the unchanged tree it must find nothing.
//
// Each program is bounded by -timeout: a program that takes longer is a
// hang, and the probe stops there (a goroutine cannot be stopped). Before
// each program it writes "probe: running NAME" to its standard error,
// so that a program that kills it can be named, and the run resumed after
// it with -skip.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"son/cfg"
	"son/compile"
	"son/internal/faults/outcome"
	"son/internal/gen"
	"son/opt"
	"son/son"
	"son/syntax"
)

func main() {
	n := flag.Int("n", 30, "generated programs (internal/gen, seeds 0 to n-1)")
	timeout := flag.Duration("timeout", 10*time.Second, "time bound of one program")
	only := flag.String("programs", "", "run only the programs whose name matches this regexp")
	dir := flag.String("dir", ".", "the module's root")
	skip := flag.Int("skip", 0, "skip the first programs of the set (a run that died resumes after the one it died on)")
	flag.Parse()
	// A fault that recurses without end kills the probe with a stack
	// overflow; with Go's default of 1 GB per goroutine that takes long
	// and much memory, and the campaign's programs need far less.
	debug.SetMaxStack(256 << 20)
	var match *regexp.Regexp
	if *only != "" {
		var err error
		if match, err = regexp.Compile(*only); err != nil {
			fmt.Fprintln(os.Stderr, "probe:", err)
			os.Exit(2)
		}
	}
	progs, err := programSet(*dir, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(2)
	}
	ran, index := 0, 0
	for _, p := range progs {
		if match != nil && !match.MatchString(p.name) {
			continue
		}
		if index++; index <= *skip {
			continue
		}
		ran++
		// Said before the program runs: if it kills the probe (a fatal
		// error, such as a stack overflow, which no recover catches),
		// the campaign knows which one did.
		fmt.Fprintln(os.Stderr, runningPrefix+p.name)
		line, hung := runBounded(p, *timeout)
		outcome.Write(os.Stdout, line)
		if hung {
			outcome.Write(os.Stdout, outcome.Done{Done: true, Programs: ran, Stopped: "hang on " + p.name})
			os.Exit(0)
		}
	}
	outcome.Write(os.Stdout, outcome.Done{Done: true, Programs: ran})
}

// runningPrefix starts the line the probe writes to its standard error
// before each program.
const runningPrefix = "probe: running "

// program is one program of the set, with the arguments to run it with.
type program struct {
	name   string
	src    []byte
	args   []int64
	expect map[int64]string // the results of a file's run: lines, by argument
	steps  int64            // the reference's step limit
}

// Step limits: a file's own "// steps:" line, else fileSteps; generated
// programs always end, within genSteps. A level other than the reference
// gets levelFactor times the reference's limit (it may count steps
// differently: cfg.Run counts instructions).
const (
	fileSteps   = 20_000_000 // ref.Run counts statements and expressions: large_loop_count.smp takes 8M
	genSteps    = 1_000_000
	levelFactor = 4
)

// programSet lists the programs: testdata/*.smp, examples/*.smp (each in
// name order), then n generated ones made as TestRandomPrograms makes its
// own.
func programSet(dir string, n int) ([]program, error) {
	var progs []program
	for _, glob := range []string{"testdata/*.smp", "examples/*.smp"} {
		files, err := filepath.Glob(filepath.Join(dir, glob))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			d, err := directives(string(src))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
			if d.steps == 0 {
				d.steps = fileSteps
			}
			rel, _ := filepath.Rel(dir, file)
			progs = append(progs, program{name: filepath.ToSlash(rel), src: src, args: d.args, expect: d.expect, steps: d.steps})
		}
	}
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := int64(0); seed < int64(n); seed++ {
		c := gen.Config{Seed: seed, Size: 10 + int(seed%40), Shape: shapes[seed%4]}
		args := []int64{0, 1, -7}
		if seed != 0 && seed != 1 {
			args = append(args, seed)
		}
		progs = append(progs, program{name: fmt.Sprintf("gen/seed%d", seed), src: []byte(gen.Program(c)), args: args, steps: genSteps})
	}
	return progs, nil
}

// fileDirectives are what the probe reads of a file's comment lines.
type fileDirectives struct {
	args   []int64          // of the run: lines, in order
	expect map[int64]string // each run: line's result: a value, "division by zero at LINE:COL" or "step limit exceeded"
	steps  int64            // of the steps: line, 0 if none
}

// directives reads a program's "// run: ARG => RESULT" lines and its
// "// steps: N" line (compile/programs_test.go reads them in full).
func directives(src string) (d fileDirectives, err error) {
	d.expect = map[int64]string{}
	for i, line := range strings.Split(src, "\n") {
		text, ok := strings.CutPrefix(strings.TrimSpace(line), "//")
		if !ok {
			continue
		}
		text = strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(text, "run:"):
			a, res, ok := strings.Cut(strings.TrimPrefix(text, "run:"), "=>")
			v, err := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
			if !ok || err != nil {
				return d, fmt.Errorf("line %d: malformed run: line", i+1)
			}
			d.args = append(d.args, v)
			res = strings.TrimSpace(res)
			if msg, isErr := strings.CutPrefix(res, "error:"); isErr {
				res = strings.TrimSpace(msg)
			}
			d.expect[v] = res
		case strings.HasPrefix(text, "steps:"):
			if d.steps, err = strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(text, "steps:")), 10, 64); err != nil {
				return d, fmt.Errorf("line %d: malformed steps: line", i+1)
			}
		}
	}
	if len(d.args) == 0 {
		return d, errors.New("no run: line")
	}
	return d, nil
}

// expected compares the reference's result r with what a run: line says,
// and describes the difference, or "". A division by zero is compared
// with its position. A run: line that expects the step limit is not
// compared: the file's limit is its own.
func expected(r result, want string) string {
	got := fmt.Sprint(r.Value)
	switch {
	case r.Internal != nil || want == "step limit exceeded":
		return ""
	case r.Err == "division by zero":
		got = fmt.Sprintf("%s at %d:%d", r.Err, r.Pos.Line, r.Pos.Col)
	case r.Err != "":
		got = r.Err
	}
	if got != want {
		return fmt.Sprintf("the reference gives %s, the run: line says %s", got, want)
	}
	return ""
}

// runBounded runs p, or gives up after timeout: the line says which stage
// hung, and hung is true.
func runBounded(p program, timeout time.Duration) (line outcome.Program, hung bool) {
	var stage atomic.Value // "checked" or "differential"
	stage.Store("checked")
	var partial atomic.Pointer[outcome.Program]
	done := make(chan outcome.Program, 1)
	start := time.Now()
	go func() { done <- run(p, &stage, &partial) }()
	select {
	case line = <-done:
	case <-time.After(timeout):
		hung = true
		line = outcome.Program{Name: p.name}
		if q := partial.Load(); q != nil {
			line = *q
		}
		detail := fmt.Sprintf("no answer in %v", timeout)
		if stage.Load() == "checked" {
			line.Guard, line.GuardDetail = outcome.Hang, detail
		} else {
			line.Diff, line.DiffDetail = outcome.Hang, detail
		}
	}
	line.Millis = time.Since(start).Milliseconds()
	return line, hung
}

// run runs p through the checked pipeline, then through the differential.
func run(p program, stage *atomic.Value, partial *atomic.Pointer[outcome.Program]) outcome.Program {
	line := outcome.Program{Name: p.name}
	line.Guard, line.GuardDetail = checked(p)
	partial.Store(&line)
	stage.Store("differential")
	line.Diff, line.DiffDetail = differential(p)
	return line
}

// config is one way of running the pipeline: the default, the sccp pass
// iterating its two halves (which runs the code of constant propagation
// alone and of unreachable-code analysis alone), and the GSA passes after
// gvn (Options.GSA: loops, then gsa with its validator).
type config struct {
	name string // "" for the default; else said after each catch
	opt  compile.Options
}

var configs = []config{
	{"", compile.Options{}},
	{"sccp iterated", compile.Options{SCCP: opt.Iterated}},
	{"gsa", compile.Options{GSA: true}},
}

// suffix is what a catch in c says after its detail.
func (c config) suffix() string {
	if c.name == "" {
		return ""
	}
	return " [" + c.name + "]"
}

// checked compiles p with every guard on, in each configuration, and says
// which guard failed first.
func checked(p program) (outcome.Kind, string) {
	for _, c := range configs {
		if k, detail := checkedIn(p, c.opt); k != outcome.None {
			return k, detail + c.suffix()
		}
	}
	return outcome.None, ""
}

func checkedIn(p program, o compile.Options) (k outcome.Kind, detail string) {
	defer func() {
		if r := recover(); r != nil {
			k, detail = outcome.Crash, panicDetail("checked pipeline", r)
		}
	}()
	o.Check = true
	u, err := compile.Compile(p.name, p.src, o)
	if err == nil {
		err = backend(u)
	}
	return classifyCompile(err)
}

// classifyCompile says what a compilation's error means: a CheckError is
// a guard's catch (a verifier, a checker, or the pass itself); any other
// error of a program that compiles in the unchanged tree is the pass's.
func classifyCompile(err error) (outcome.Kind, string) {
	if err == nil {
		return outcome.None, ""
	}
	var ce *compile.CheckError
	if !errors.As(err, &ce) {
		return outcome.Pass, "compile error: " + firstLine(err.Error())
	}
	k := outcome.Pass
	switch {
	case ce.Guard == compile.GuardSon || ce.Guard == compile.GuardCfg || strings.Contains(string(ce.Guard), "Verify"):
		k = outcome.Verifier
	case ce.Guard == compile.GuardChecker:
		k = outcome.Checker
	case ce.Guard == compile.GuardTest:
		k = outcome.Testing
	}
	return k, fmt.Sprintf("%s after %s: %s", ce.Guard, ce.Pass, firstLine(ce.Err.Error()))
}

// differential runs p with each argument at every level, its checks off,
// in each configuration, and compares each result with the reference's.
// A reference run that stops at its step limit takes its argument out; a
// level that does not finish within levelFactor times that limit, where
// the reference did, is a difference; so is an internal error of an
// interpreter.
func differential(p program) (k outcome.Kind, detail string) {
	defer func() {
		if r := recover(); r != nil {
			k, detail = outcome.Crash, panicDetail("the reference", r)
		}
	}()
	f, err := syntax.Parse(p.name, p.src)
	if err != nil {
		return outcome.Pass, "parse: " + firstLine(err.Error())
	}
	var args []int64
	want := map[int64]result{}
	for _, a := range p.args {
		r := reference(f, a, p.steps)
		switch {
		case r.Internal != nil:
			return outcome.Differential, fmt.Sprintf("arg %d: the reference: %s", a, firstLine(r.Internal.Error()))
		}
		if want, ok := p.expect[a]; ok {
			if d := expected(r, want); d != "" {
				return outcome.Differential, fmt.Sprintf("arg %d: run: line: %s", a, d)
			}
		}
		if r.stepLimited() {
			continue
		}
		args = append(args, a)
		want[a] = r
	}
	for _, c := range configs {
		if c.opt.GSA {
			// The checked run of the GSA passes already runs each
			// level (and gsa.Run) on the reference's arguments; a third
			// differential run would add time and nothing else.
			continue
		}
		if k, detail := differentialIn(p, c.opt, args, want); k != outcome.None {
			return k, detail + c.suffix()
		}
	}
	return outcome.None, ""
}

// differentialIn runs the levels of p with options o and compares their
// results with want, for each of args.
func differentialIn(p program, o compile.Options, args []int64, want map[int64]result) (k outcome.Kind, detail string) {
	stage := "pass build"
	defer func() {
		if r := recover(); r != nil {
			k, detail = outcome.Crash, panicDetail(stage, r)
		}
	}()
	var diff string
	after := func(u *compile.Unit, pass string) error {
		for _, a := range args {
			stage = "son.Run after " + pass
			v, err := son.Run(u.Graph, a, son.Limits{Steps: levelFactor * p.steps})
			if d := compare(want[a], sonResult(v, err)); d != "" {
				diff = fmt.Sprintf("arg %d: %s: %s", a, stage, d)
				return errors.New(diff)
			}
			if u.Func != nil {
				stage = "cfg.Run after " + pass
				v, err := cfg.Run(u.Func, a, cfg.Limits{Steps: levelFactor * p.steps})
				if d := compare(want[a], cfgResult(v, err)); d != "" {
					diff = fmt.Sprintf("arg %d: %s: %s", a, stage, d)
					return errors.New(diff)
				}
			}
		}
		stage = "pass " + nextPass(pass)
		return nil
	}
	o.AfterPass = after
	// A pass error with the checks off is the checked pipeline's to
	// report; the differential saw nothing wrong up to there.
	compile.Compile(p.name, p.src, o)
	if diff != "" {
		return outcome.Differential, diff
	}
	return outcome.None, ""
}

// nextPass is the name of the pass after pass.
func nextPass(pass string) string {
	names := compile.PassNames()
	for i, name := range names[:len(names)-1] {
		if name == pass {
			return names[i+1]
		}
	}
	return "(end)"
}

// compare describes how got differs from the reference's want, or "".
func compare(want, got result) string {
	switch {
	case got.Internal != nil:
		return firstLine(got.Internal.Error())
	case got.stepLimited():
		return fmt.Sprintf("no result within %dx the reference's step limit; want %v", levelFactor, want)
	case got.String() != want.String():
		return fmt.Sprintf("got %v, want %v", got, want)
	}
	return ""
}

func sonResult(v int64, err error) result {
	var rt *son.RuntimeError
	if errors.As(err, &rt) {
		return result{Err: rt.Msg, Pos: rt.Pos}
	}
	return result{Value: v, Internal: err}
}

func cfgResult(v int64, err error) result {
	var rt *cfg.RuntimeError
	if errors.As(err, &rt) {
		return result{Err: rt.Msg, Pos: rt.Pos}
	}
	return result{Value: v, Internal: err}
}

// panicDetail describes a panic caught in stage: its value and the
// function that panicked.
func panicDetail(stage string, r any) string {
	where := ""
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		fr, more := frames.Next()
		if !strings.HasPrefix(fr.Function, "runtime.") && fr.Function != "" {
			where = fmt.Sprintf(" in %s (%s:%d)", fr.Function, fr.File, fr.Line)
			break
		}
		if !more {
			break
		}
	}
	return fmt.Sprintf("panic in %s: %s%s", stage, firstLine(fmt.Sprint(r)), where)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
