package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"son/cfg"
	"son/gsa"
	"son/internal/gen"
	"son/internal/shrink"
	"son/internal/testenv"
	"son/opt"
	"son/ref"
	"son/son"
	"son/syntax"
)

// randomSteps is the step limit of every run of a generated program. Its
// loops are bounded, so it only ever stops a program the shrinker has made
// loop forever.
const randomSteps = 1_000_000

// regressDir is where TestRandomPrograms keeps the reproducers it shrinks;
// TestPrograms runs every program there.
const regressDir = "../testdata/regress"

// maxRandomFailures is the number of distinct failures TestRandomPrograms
// shrinks and keeps before it gives up.
const maxRandomFailures = 5

// TestRandomPrograms runs generated programs (internal/gen) through every
// level with every check on, and requires the result of the reference
// semantics everywhere (levelsFailure's rule, which FuzzCompile shares:
// the value or the division by zero, at the same position, of ref.Run,
// from son.Run after every pass and from cfg.Run once there are blocks,
// for the arguments 0, 1, -7 and the seed).
//
// On a failure — results that differ, a verifier or checker that fails, a
// compilation or run that panics — it shrinks the program with
// internal/shrink, keeping the same kind of failure (results that first
// differ in the same interpreter after the same pass, a check failing
// after the same pass, a panic at the same stage), writes the reproducer to
// testdata/regress/gen_seed<SEED>.smp with "// run:" lines holding the
// results of the reference semantics (ref.Run, which shares no code with
// the compiler), and fails with the path and the shrunk program.
// TestPrograms then runs it like any other program of testdata. Once the
// bug is fixed, the file stays as a regression test: check its results by
// hand (ref.Run may be the one that is wrong) and commit it. A second failure
// of a kind already kept in the same run is reported without shrinking.
//
// Environment knobs:
//
//	SON_RANDOM=n       run n programs (default 300, 50 with -short)
//	SON_RANDOM_SIZE=s  make programs of about s statements (default 10 to 49,
//	                   varying with the seed; the branchy shape nests ifs
//	                   to depth 12 whatever the size, so its programs are
//	                   often thousands of lines)
//	SON_RANDOM_SEED=k  start at seed k (default 0): seeds k to k+n-1
//	SON_RANDOM_SCCP=m  the analysis of the sccp pass: combined (default),
//	                   const, reach or iterated, as son's -sccp flag
//	                   (TestRandomProgramsEveryAnalysis runs the other
//	                   three on fewer programs)
//
// For example, a long campaign on larger programs:
//
//	SON_RANDOM=100000 SON_RANDOM_SIZE=200 SON_RANDOM_SEED=1000000 go test ./compile -run RandomPrograms -timeout 0
func TestRandomPrograms(t *testing.T) {
	n := int64(300)
	if testing.Short() {
		n = 50
	}
	n = testenv.Int(t, "SON_RANDOM", n, "a number of programs")
	size := testenv.Int(t, "SON_RANDOM_SIZE", 0, "a number of statements")
	first := testenv.Int(t, "SON_RANDOM_SEED", 0, "a seed")
	if name := os.Getenv("SON_RANDOM_SCCP"); name != "" {
		mode, err := opt.ParseMode(name)
		if err != nil {
			t.Fatalf("SON_RANDOM_SCCP=%q: %v", name, err)
		}
		useSCCP(t, mode)
	}
	randomCampaign(t, first, n, int(size))
}

// TestRandomProgramsEveryAnalysis is TestRandomPrograms with each analysis
// the sccp pass offers besides the combined one (issue 12: each mode's
// solution must pass the checker of its own equations, and the programs
// give the reference's results), on fewer programs and other seeds than
// TestRandomPrograms's defaults. SON_RANDOM_SCCP with TestRandomPrograms
// runs a longer campaign in one mode.
func TestRandomProgramsEveryAnalysis(t *testing.T) {
	n := int64(100)
	if testing.Short() {
		n = 10
	}
	for k, mode := range []opt.Mode{opt.ConstOnly, opt.ReachOnly, opt.Iterated} {
		t.Run(mode.String(), func(t *testing.T) {
			useSCCP(t, mode)
			randomCampaign(t, 3_000_000+int64(k)*100_000, n, 0)
		})
	}
}

// randomSCCP is the analysis levelsFailure compiles with (Options.SCCP).
var randomSCCP = opt.Combined

// useSCCP sets randomSCCP to mode for the rest of t.
func useSCCP(t *testing.T, mode opt.Mode) {
	old := randomSCCP
	randomSCCP = mode
	t.Cleanup(func() { randomSCCP = old })
}

// randomCampaign checks the n generated programs of seeds first to
// first+n-1, of size statements (0: varying with the seed), as
// TestRandomPrograms says.
func randomCampaign(t *testing.T, first, n int64, size int) {
	kept := map[string]string{} // kind of failure → file kept for it
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := first; seed < first+n; seed++ {
		cfg := gen.Config{Seed: seed, Size: 10 + int(((seed%40)+40)%40), Shape: shapes[((seed%4)+4)%4]}
		if size > 0 {
			cfg.Size = size
		}
		if report := checkRandomProgram(t, cfg, regressDir, kept); report != "" {
			t.Error(report)
			if len(kept) >= maxRandomFailures {
				t.Fatalf("%d kinds of failure: stopping", len(kept))
			}
		}
	}
}

// checkRandomProgram runs the program of cfg through every level. On a
// failure of a kind not in kept, it shrinks the program and keeps it in
// dir (noting the file in kept); it returns the report of the failure, or
// "" if there is none.
func checkRandomProgram(t *testing.T, cfg gen.Config, dir string, kept map[string]string) string {
	t.Helper()
	seed := cfg.Seed
	src := gen.Program(cfg)
	args := randomArgs(seed)
	f := levelsFailure([]byte(src), args, randomSteps)
	if f == nil {
		return ""
	}
	if path, ok := kept[f.Kind]; ok {
		return fmt.Sprintf("seed %d: %s (a failure of the kind already kept in %s)", seed, firstLine(f.Msg), path)
	}
	path, shrunk := keepRegression(t, seed, cfg, src, sameFailure(src, f, args), dir)
	kept[f.Kind] = path
	msg := f.Msg
	if g := levelsFailure([]byte(shrunk), args, randomSteps); g != nil {
		msg = g.Msg
	}
	return fmt.Sprintf("seed %d (%v, size %d): %s\nshrunk from %d to %d lines and kept in %s:\n%s",
		seed, cfg.Shape, cfg.Size, msg, strings.Count(src, "\n"), strings.Count(shrunk, "\n"), path, shrunk)
}

// randomArgs are the arguments a generated program runs with.
func randomArgs(seed int64) []int64 {
	args := []int64{0, 1, -7}
	if !slices.Contains(args, seed) {
		args = append(args, seed)
	}
	return args
}

// injectFault, if set, changes the result of each run of levelsFailure:
// a stand-in for a bug of son, to test what is done with a failure.
var injectFault func(u *Unit, pass string, v int64, err error) (int64, error)

// levelFailure is what went wrong with a program in the pipeline.
type levelFailure struct {
	// Kind is what a shrunk program must keep: "results differ in
	// son.Run after PASS" (or cfg.Run), "check failed after PASS",
	// "panic in pass PASS", ...
	Kind string
	Msg  string // the whole story, for the report
}

// stageError stops a compilation from AfterPass.
type stageError struct {
	kind string
	err  error
}

func (e *stageError) Error() string { return e.kind + ": " + e.err.Error() }

// levelStepFactor is how many times the reference's step budget each
// level gets: the levels count their steps in units of their own, so a
// level may take somewhat more of them than ref.Run for the same run.
const levelStepFactor = 4

// levelsFailure runs src in the reference semantics (ref.Run) with each
// argument, then compiles it with every check on and runs it after every
// pass, and returns what fails, or nil. Every level (son.Run after every
// pass, cfg.Run once there are blocks, gsa.Run after pass gsa: the
// pipeline runs with Options.GSA) must give the reference's
// result: the same value, or a division by zero at the same position. A
// source error is no failure (the program is not one); an argument whose
// reference run hits the step limit is left out of the comparison, and a
// level that hits its own (levelStepFactor times larger) where the
// reference did not differs. A panic, in ref.Run, a pass or an
// interpreter, is caught. TestRandomPrograms and FuzzCompile both judge
// programs by it.
func levelsFailure(src []byte, args []int64, steps int64) (f *levelFailure) {
	stage := "ref.Run" // where a panic would be
	defer func() {
		if r := recover(); r != nil {
			kind := "panic in " + stage
			f = &levelFailure{Kind: kind, Msg: fmt.Sprintf("%s: %v\n%s", kind, r, debug.Stack())}
		}
	}()
	file, err := syntax.Parse("random.smp", src)
	if err != nil {
		return nil
	}
	want := make([]string, len(args)) // ref.Run's results, "-" for the step limit
	for k, arg := range args {
		v, err := ref.Run(file, arg, ref.Limits{Steps: steps})
		msg, ok := runtimeMsg(err)
		switch {
		case err != nil && !ok:
			kind := "interpreter error in ref.Run"
			return &levelFailure{Kind: kind, Msg: fmt.Sprintf("%s: arg %d: %v", kind, arg, err)}
		case err != nil && msg != "division by zero":
			want[k] = "-"
		default:
			want[k] = resultText(v, err)
		}
	}
	stage = "pass build"
	after := func(u *Unit, pass string) error {
		for k, arg := range args {
			if want[k] == "-" {
				continue
			}
			// son.Run on the graph; from gcm on, cfg.Run on the blocks too.
			lim := steps * levelStepFactor
			runs := []struct {
				name string
				run  func() (int64, error)
			}{{"son.Run", func() (int64, error) { return son.Run(u.Graph, arg, son.Limits{Steps: lim}) }}}
			if u.Func != nil {
				runs = append(runs, struct {
					name string
					run  func() (int64, error)
				}{"cfg.Run", func() (int64, error) { return cfg.Run(u.Func, arg, cfg.Limits{Steps: lim}) }})
			}
			if pass == "gsa" {
				runs = append(runs, struct {
					name string
					run  func() (int64, error)
				}{"gsa.Run", func() (int64, error) { return gsa.Run(u.GSA, arg, cfg.Limits{Steps: lim}) }})
			}
			for _, r := range runs {
				stage = r.name + " after " + pass
				v, err := r.run()
				if injectFault != nil {
					v, err = injectFault(u, pass, v, err)
				}
				if _, ok := runtimeMsg(err); err != nil && !ok {
					return &stageError{"interpreter error in " + stage, fmt.Errorf("arg %d: %v", arg, err)}
				}
				if got := resultText(v, err); got != want[k] {
					return &stageError{"results differ in " + stage,
						fmt.Errorf("arg %d: ref.Run %s, %s %s", arg, want[k], stage, got)}
				}
			}
		}
		stage = "pass " + nextPass(pass)
		return nil
	}
	_, err = Compile("random.smp", src, Options{Check: true, AfterPass: after, GSA: true, SCCP: randomSCCP})
	var (
		list syntax.ErrorList
		se   *stageError
		ce   *CheckError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &list):
		// ref.Run ran a program that Compile rejects.
		kind := "compile error in " + stage
		return &levelFailure{Kind: kind, Msg: kind + ": " + err.Error()}
	case errors.As(err, &se):
		return &levelFailure{Kind: se.kind, Msg: se.Error()}
	case errors.As(err, &ce):
		kind := "check failed after " + ce.Pass
		return &levelFailure{Kind: kind, Msg: kind + ": " + ce.Err.Error()}
	}
	kind := "compile error in " + stage
	return &levelFailure{Kind: kind, Msg: kind + ": " + err.Error()}
}

// nextPass is the name of the pass after pass, or "(end)", in the
// pipeline with the passes of GSAPasses.
func nextPass(pass string) string {
	var names []string
	for _, p := range pipeline(Options{GSA: true}) {
		names = append(names, p.Name)
	}
	if i := slices.Index(names, pass); i >= 0 && i+1 < len(names) {
		return names[i+1]
	}
	return "(end)"
}

// sameFailure is the predicate a program shrunk from one that failed with
// f must satisfy: the same kind of failure and, if every argument's
// reference run of src0 ended (as a generated program's always do), the
// same of its own, so that the reproducer has a result for every argument.
func sameFailure(src0 string, f *levelFailure, args []int64) func(string) bool {
	ref, err := referenceResults(src0, args)
	terminates := err == nil && !slices.Contains(ref, "")
	return func(src string) bool {
		// The reference first: a candidate that loops forever costs the
		// step limit once, not once per level.
		if terminates {
			if res, err := referenceResults(src, args); err != nil || slices.Contains(res, "") {
				return false
			}
		}
		g := levelsFailure([]byte(src), args, randomSteps)
		return g != nil && g.Kind == f.Kind
	}
}

// referenceResults runs src in the reference semantics, ref.Run, with
// each argument, and returns the results as a run: directive writes them
// ("42", "error: division by zero at 3:14"), "" for a run that hit the
// step limit. It fails if src does not parse or ref.Run fails otherwise.
func referenceResults(src string, args []int64) (res []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic in ref.Run: %v", r)
		}
	}()
	f, err := syntax.Parse("reference.smp", []byte(src))
	if err != nil {
		return nil, err
	}
	for _, arg := range args {
		v, err := ref.Run(f, arg, ref.Limits{Steps: randomSteps})
		var rt *ref.RuntimeError
		switch {
		case err == nil:
			res = append(res, strconv.FormatInt(v, 10))
		case errors.As(err, &rt) && rt.Msg == "division by zero":
			res = append(res, "error: division by zero at "+rt.Pos.String())
		case errors.As(err, &rt) && strings.HasPrefix(rt.Msg, "step limit exceeded"):
			res = append(res, "")
		default:
			return nil, err
		}
	}
	return res, nil
}

// keepRegression shrinks src, a generated program on which fails holds,
// and writes the result to dir/gen_seed<SEED>.smp with a header saying
// where it comes from and a "// run:" line per argument with the result of
// the reference semantics, ref.Run (an argument whose reference run hits
// the step limit gets a note instead; if ref.Run itself fails there are no
// run lines, and TestPrograms will say so until someone writes them). It returns the
// file's path and the shrunk program.
func keepRegression(t *testing.T, seed int64, cfg gen.Config, src string, fails func(string) bool, dir string) (path, shrunk string) {
	t.Helper()
	start := time.Now()
	shrunk, st := shrink.ShrinkStats(src, fails)
	t.Logf("seed %d: shrunk from %d to %d bytes in %v (%d calls of the predicate, %d candidates, %d edits kept)",
		seed, len(src), len(shrunk), time.Since(start).Round(time.Millisecond), st.Calls, st.Candidates, st.Kept)

	var b strings.Builder
	mode := ""
	if randomSCCP != opt.Combined {
		mode = fmt.Sprintf(" with -sccp %v", randomSCCP)
	}
	fmt.Fprintf(&b, "// Found by TestRandomPrograms%s, seed %d (internal/gen, size %d, shape %v); shrunk by internal/shrink.\n",
		mode, seed, cfg.Size, cfg.Shape)
	if f := levelsFailure([]byte(shrunk), randomArgs(seed), randomSteps); f != nil {
		fmt.Fprintf(&b, "// Failed with: %s\n", firstLine(f.Msg))
	}
	b.WriteString("// The results are those of the reference semantics (ref.Run, the AST interpreter).\n")
	args := randomArgs(seed)
	// The program starts below this header, one line per argument and a
	// blank line: run it at that place, so that the positions of its
	// divisions by zero are those of the file.
	above := strings.Count(b.String(), "\n") + len(args) + 1
	res, err := referenceResults(strings.Repeat("\n", above)+shrunk, args)
	if err != nil {
		fmt.Fprintf(&b, "// No reference result, ref.Run fails (%s): write the run lines by hand.\n", firstLine(err.Error()))
	}
	for i, r := range res {
		if r == "" {
			fmt.Fprintf(&b, "// (arg %d: no run line, the reference run exceeds %d steps)\n", args[i], randomSteps)
			continue
		}
		fmt.Fprintf(&b, "// run: %d => %s\n", args[i], r)
	}
	b.WriteString("\n")
	b.WriteString(shrunk)

	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("keeping the reproducer of seed %d: %v", seed, err)
	}
	path = filepath.Join(dir, fmt.Sprintf("gen_seed%d.smp", seed))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatalf("keeping the reproducer of seed %d: %v", seed, err)
	}
	return path, shrunk
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestKeepRegression tests the machinery of TestRandomPrograms on a fake
// failure: "the program contains a %".
func TestKeepRegression(t *testing.T) {
	fails := func(src string) bool { return strings.Contains(src, "%") }
	var seed int64
	var cfg gen.Config
	var src string
	for seed = 1; ; seed++ { // the first generated program with a % in it
		cfg = gen.Config{Seed: seed, Size: 40, Shape: gen.Mixed}
		if src = gen.Program(cfg); fails(src) {
			break
		}
	}
	dir := t.TempDir()
	path, shrunk := keepRegression(t, seed, cfg, src, fails, dir)
	if want := filepath.Join(dir, fmt.Sprintf("gen_seed%d.smp", seed)); path != want {
		t.Errorf("path %s, want %s", path, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	t.Logf("%s:\n%s", path, text)

	header := fmt.Sprintf("// Found by TestRandomPrograms, seed %d (internal/gen, size 40, shape mixed); shrunk by internal/shrink.\n", seed)
	if !strings.HasPrefix(text, header) {
		t.Errorf("the file does not start with\n%s", header)
	}
	if !strings.HasSuffix(text, shrunk) || !fails(shrunk) {
		t.Errorf("the file does not end with the shrunk program, or that no longer fails:\n%s", shrunk)
	}
	if _, err := syntax.Parse(path, data); err != nil {
		t.Errorf("the file does not parse: %v", err)
	}
	if len(shrunk)*20 > len(src) || strings.Count(shrunk, "\n") > 3 {
		t.Errorf("shrunk from %d bytes only to %d (%d lines)", len(src), len(shrunk), strings.Count(shrunk, "\n"))
	}

	// One run line per argument, with the results of the reference
	// semantics.
	if !strings.Contains(text, "\n// The results are those of the reference semantics (ref.Run, the AST interpreter).\n") {
		t.Errorf("the file does not say where its results come from")
	}
	d, err := parseDirectives(text)
	if err != nil {
		t.Fatal(err)
	}
	args := randomArgs(seed)
	if len(d.Runs) != len(args) {
		t.Fatalf("%d run lines, want %d (one per argument %v)", len(d.Runs), len(args), args)
	}
	f, err := syntax.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range d.Runs {
		if r.Arg != args[i] {
			t.Errorf("run line %d is for arg %d, want %d", i, r.Arg, args[i])
		}
		v, err := ref.Run(f, r.Arg, ref.Limits{})
		if diff := checkRun(r, v, err); diff != "" {
			t.Errorf("line %d: %s", r.Line, diff)
		}
	}
	// And the file passes the runner of testdata, as a kept reproducer
	// does once its bug is fixed.
	testProgram(t, path)
}

// TestRandomProgramsKeepsFailures runs the failure path of
// TestRandomPrograms on a fault injected into the results of one pass: a
// program whose graph still has a remainder returns one more. After sccp
// that is a bug of a pass; after build it is a bug of the builder or of a
// peephole it runs, which the old oracle (son.Run after build) could not
// see, being that level itself. Each time the reproducer is shrunk to a
// few lines that still show the same fault, its run lines are the results
// of ref.Run, without the fault, so it passes the runner of testdata as it
// would once the bug is fixed, and a second failure of the same kind is
// reported without shrinking.
func TestRandomProgramsKeepsFailures(t *testing.T) {
	for _, faulty := range []string{"sccp", "build"} {
		t.Run(faulty, func(t *testing.T) { testKeepsFailures(t, faulty) })
	}
}

func testKeepsFailures(t *testing.T, faulty string) {
	injectFault = func(u *Unit, pass string, v int64, err error) (int64, error) {
		if pass == faulty && err == nil && Stats(u.Graph).Ops["Mod"] > 0 {
			v++
		}
		return v, err
	}
	defer func() { injectFault = nil }()

	kind := "results differ in son.Run after " + faulty
	dir := t.TempDir()
	kept := map[string]string{}
	var reports []string
	for seed := int64(0); seed < 100 && len(reports) < 2; seed++ {
		cfg := gen.Config{Seed: seed, Size: 30, Shape: gen.Mixed}
		if r := checkRandomProgram(t, cfg, dir, kept); r != "" {
			reports = append(reports, r)
		}
	}
	if len(reports) < 2 {
		t.Fatalf("the injected fault shows in %d programs, want 2", len(reports))
	}
	t.Logf("first report: %s", reports[0])
	if !strings.Contains(reports[0], kind) || !strings.Contains(reports[1], "already kept in") {
		t.Errorf("reports:\n%s\n%s", reports[0], reports[1])
	}
	path := kept[kind]
	if path == "" || len(kept) != 1 {
		t.Fatalf("kept %v", kept)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s:\n%s", path, data)
	if !strings.HasPrefix(string(data), "// Found by TestRandomPrograms, seed ") ||
		!strings.Contains(string(data), "// Failed with: "+kind+": arg ") {
		t.Errorf("the file's header is wrong")
	}
	body := programBody(string(data))
	if n := strings.Count(body, "\n") + 1; n > 4 {
		t.Errorf("shrunk only to %d lines", n)
	}
	if f := levelsFailure(data, randomArgs(0), randomSteps); f == nil || f.Kind != kind {
		t.Errorf("the reproducer does not show the fault: %v", f)
	}
	injectFault = nil
	testProgram(t, path)
}
