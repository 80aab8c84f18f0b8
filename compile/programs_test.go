package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"son/cfg"
	"son/gsa"
	"son/ref"
	"son/son"
	"son/syntax"
)

// The program tables. Every .smp file under testdata/, examples/ and bench/ carries
// its expectations in comment lines of its own (anywhere in the file):
//
//	// run: ARG => RESULT          one per argument tried; RESULT is an int64,
//	                               "error: division by zero at LINE:COL"
//	                               (the position of the / or % is required)
//	                               or "error: step limit exceeded"
//	// ir: TEXT                    son.Print after the whole pipeline
//	// ir after PASS: TEXT         son.Print after the pass PASS (e.g. build)
//	// steps: N                    step limit of this file's runs
//
// Any other comment line is free text. Every program must declare at least
// one run: line. The results must hold in the reference semantics
// (ref.Run) and after every pass of the pipeline (son.Run, and cfg.Run
// once there are blocks), a division by zero at its position everywhere,
// and the final graph must not depend on the order of the peephole
// worklist.
//
// Files under testdata/errors/ are programs that must not compile; their
// "// error: LINE:COL: MESSAGE" lines list the exact errors, in order.

// runLine is one "// run:" directive.
type runLine struct {
	Line  int        // line of the directive in its file
	Arg   int64      // the argument
	Value int64      // the result, when Err is ""
	Err   string     // the runtime error expected ("division by zero", "step limit exceeded"), or ""
	Pos   syntax.Pos // where the division by zero is
}

// want is the expected result as written in the directive.
func (r runLine) want() string {
	if r.Pos.IsKnown() {
		return "error: " + r.Err + " at " + r.Pos.String()
	}
	if r.Err != "" {
		return "error: " + r.Err
	}
	return strconv.FormatInt(r.Value, 10)
}

// directives are the expectations of one program file.
type directives struct {
	Runs    []runLine
	IR      *string           // "// ir:", nil if absent
	IRAfter map[string]string // "// ir after PASS:", by pass
	Steps   int64             // "// steps:", 0 if absent
	Errors  []string          // "// error: LINE:COL: MESSAGE", in order
}

// runtimeErrors are the runtime errors a run: line may expect.
var runtimeErrors = []string{"division by zero", "step limit exceeded"}

// parseDirectives reads the expectations out of a program's comment lines.
// A directive it recognizes but cannot read is an error naming its line.
func parseDirectives(src string) (*directives, error) {
	d := &directives{IRAfter: map[string]string{}}
	for i, line := range strings.Split(src, "\n") {
		lineNo := i + 1
		text, ok := strings.CutPrefix(strings.TrimSpace(line), "//")
		if !ok {
			continue
		}
		text = strings.TrimSpace(text)
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s (in %q)", lineNo, fmt.Sprintf(format, args...), line)
		}
		switch {
		case strings.HasPrefix(text, "run:"):
			r, err := parseRun(strings.TrimPrefix(text, "run:"))
			if err != nil {
				return nil, fail("malformed run: directive: %v", err)
			}
			r.Line = lineNo
			d.Runs = append(d.Runs, r)
		case strings.HasPrefix(text, "ir:"):
			if d.IR != nil {
				return nil, fail("second ir: directive")
			}
			ir := strings.TrimSpace(strings.TrimPrefix(text, "ir:"))
			d.IR = &ir
		case strings.HasPrefix(text, "ir after "):
			pass, ir, ok := strings.Cut(strings.TrimPrefix(text, "ir after "), ":")
			pass = strings.TrimSpace(pass)
			if !ok || pass == "" || strings.ContainsAny(pass, " \t") {
				return nil, fail("malformed ir after directive: want \"ir after PASS: TEXT\"")
			}
			if !isPass(pass) {
				return nil, fail("unknown pass %q (passes: %v)", pass, PassNames())
			}
			if _, dup := d.IRAfter[pass]; dup {
				return nil, fail("second ir after %s directive", pass)
			}
			d.IRAfter[pass] = strings.TrimSpace(ir)
		case strings.HasPrefix(text, "steps:"):
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(text, "steps:")), 10, 64)
			if err != nil || n <= 0 {
				return nil, fail("malformed steps: directive: want a positive integer")
			}
			if d.Steps != 0 {
				return nil, fail("second steps: directive")
			}
			d.Steps = n
		case strings.HasPrefix(text, "error:"):
			e := strings.TrimSpace(strings.TrimPrefix(text, "error:"))
			if e == "" {
				return nil, fail("empty error: directive")
			}
			d.Errors = append(d.Errors, e)
		}
	}
	return d, nil
}

// parseRun reads "ARG => RESULT". A division by zero must say where it
// is: "error: division by zero at LINE:COL".
func parseRun(s string) (runLine, error) {
	var r runLine
	argText, result, ok := strings.Cut(s, "=>")
	if !ok {
		return r, errors.New(`want "ARG => RESULT", no "=>"`)
	}
	argText, result = strings.TrimSpace(argText), strings.TrimSpace(result)
	arg, err := strconv.ParseInt(argText, 10, 64)
	if err != nil {
		return r, fmt.Errorf("argument %q is not a decimal int64", argText)
	}
	r.Arg = arg
	if msg, isErr := strings.CutPrefix(result, "error:"); isErr {
		msg = strings.TrimSpace(msg)
		if at, ok := strings.CutPrefix(msg, "division by zero"); ok {
			pos, err := parseAt(at)
			if err != nil {
				return r, fmt.Errorf("division by zero %v", err)
			}
			r.Err, r.Pos = "division by zero", pos
			return r, nil
		}
		for _, known := range runtimeErrors {
			if msg == known {
				r.Err = msg
				return r, nil
			}
		}
		return r, fmt.Errorf("unknown runtime error %q (known: %q)", msg, runtimeErrors)
	}
	v, err := strconv.ParseInt(result, 10, 64)
	if err != nil {
		return r, fmt.Errorf("result %q is neither a decimal int64 nor \"error: ...\"", result)
	}
	r.Value = v
	return r, nil
}

// parseAt reads the " at LINE:COL" that follows "division by zero".
func parseAt(s string) (syntax.Pos, error) {
	const want = `needs its position: "division by zero at LINE:COL"`
	at, ok := strings.CutPrefix(strings.TrimSpace(s), "at ")
	if !ok || strings.TrimLeft(s, " \t") == s {
		return syntax.Pos{}, errors.New(want)
	}
	line, col, ok := strings.Cut(strings.TrimSpace(at), ":")
	l, err1 := strconv.ParseInt(line, 10, 32)
	c, err2 := strconv.ParseInt(col, 10, 32)
	if !ok || err1 != nil || err2 != nil || l <= 0 || c <= 0 {
		return syntax.Pos{}, fmt.Errorf("at %q: %s", strings.TrimSpace(at), want)
	}
	return syntax.Pos{Line: int32(l), Col: int32(c)}, nil
}

// compileTimeout bounds one compilation in the tables: a peephole that
// never reaches its fixpoint fails that program's test instead of hanging
// the whole run.
const compileTimeout = 60 * time.Second

// compileWithin compiles src as Compile does, or fails t if that takes
// longer than compileTimeout (the compilation is then left running).
func compileWithin(t *testing.T, file string, src []byte, opt Options) (*Unit, error) {
	t.Helper()
	type result struct {
		u   *Unit
		err error
	}
	done := make(chan result, 1)
	go func() {
		u, err := Compile(file, src, opt)
		done <- result{u, err}
	}()
	select {
	case r := <-done:
		return r.u, r.err
	case <-time.After(compileTimeout):
		t.Fatalf("%s: compile with %+v did not finish in %v", file, opt, compileTimeout)
		return nil, nil
	}
}

func isPass(name string) bool {
	for _, p := range PassNames() {
		if p == name {
			return true
		}
	}
	return false
}

// checkRun compares the outcome of one run, at any level, with its
// directive, returning a description of the difference or "". A division
// by zero must be reported at the directive's position.
func checkRun(r runLine, got int64, err error) string {
	switch {
	case r.Err == "" && err != nil:
		return fmt.Sprintf("want %d, got error %v", r.Value, err)
	case r.Err == "" && got != r.Value:
		return fmt.Sprintf("want %d, got %d", r.Value, got)
	case r.Err == "":
		return ""
	case err == nil:
		return fmt.Sprintf("want error: %s, got %d", r.Err, got)
	}
	want := "runtime error: " + r.Err
	_, pos, ok := runtimeError(err)
	if !ok {
		return fmt.Sprintf("want %s, got %v (not a runtime error of the program)", want, err)
	}
	if r.Err == "step limit exceeded" {
		if !strings.HasPrefix(err.Error(), want) {
			return fmt.Sprintf("want %s, got %v", want, err)
		}
		return ""
	}
	if err.Error() != want {
		return fmt.Sprintf("want %s, got %v", want, err)
	}
	if pos != r.Pos {
		return fmt.Sprintf("want %s at %s, got it at %s", want, r.Pos, pos)
	}
	return ""
}

// TestPrograms runs the programs of testdata and the reproducers that
// TestRandomPrograms kept in testdata/regress (there may be none).
func TestPrograms(t *testing.T) {
	testProgramDir(t, "../testdata", "", true)
	testProgramDir(t, "../testdata/regress", "regress_", false)
}

func TestExamples(t *testing.T) { testProgramDir(t, "../examples", "", true) }

// TestBench runs the benchmark programs of bench/ (bench/run.sh times them) on
// their small arguments.
func TestBench(t *testing.T) { testProgramDir(t, "../bench", "", true) }

// programFiles lists the programs dir/*.smp of each dir, in order, and
// fails t if a dir has none: the program set the tests that go over every
// program share.
func programFiles(t *testing.T, dirs ...string) []string {
	t.Helper()
	var files []string
	for _, dir := range dirs {
		fs, err := filepath.Glob(filepath.Join(dir, "*.smp"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no programs in %s: %v", dir, err)
		}
		files = append(files, fs...)
	}
	return files
}

// testProgramDir runs the programs dir/*.smp, each as a subtest named
// prefix and its file name; required says that dir must have some.
func testProgramDir(t *testing.T, dir, prefix string, required bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*.smp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 && required {
		t.Fatalf("no programs in %s", dir)
	}
	for _, file := range files {
		t.Run(prefix+strings.TrimSuffix(filepath.Base(file), ".smp"), func(t *testing.T) {
			t.Parallel()
			testProgram(t, file)
		})
	}
}

// testProgram checks one program file against its directives.
func testProgram(t *testing.T, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := parseDirectives(string(src))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(d.Runs) == 0 {
		t.Fatalf("%s: no \"// run: ARG => RESULT\" line", file)
	}
	if len(d.Errors) > 0 {
		t.Fatalf("%s: error: directives belong in testdata/errors", file)
	}
	lim := son.Limits{Steps: d.Steps}

	// The results in the reference semantics.
	file0, err := syntax.Parse(file, src)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, r := range d.Runs {
		got, err := ref.Run(file0, r.Arg, ref.Limits{Steps: d.Steps})
		if diff := checkRun(r, got, err); diff != "" {
			t.Errorf("%s:%d: ref.Run: arg %d: %s", file, r.Line, r.Arg, diff)
		}
	}

	// The results after every pass, from one compilation, with the passes
	// of GSAPasses, and the GSA interpreter after pass gsa.
	after := func(u *Unit, pass string) error {
		if want, ok := d.IRAfter[pass]; ok {
			if got := son.Print(u.Graph); got != want {
				t.Errorf("%s: pass %s: ir:\nwant %s\ngot  %s", file, pass, want, got)
			}
		}
		for _, r := range d.Runs {
			got, err := son.Run(u.Graph, r.Arg, lim)
			if diff := checkRun(r, got, err); diff != "" {
				t.Errorf("%s:%d: pass %s: arg %d: %s", file, r.Line, pass, r.Arg, diff)
			}
			if u.Func != nil {
				got, err := cfg.Run(u.Func, r.Arg, cfg.Limits{Steps: lim.Steps})
				if diff := checkRun(r, got, err); diff != "" {
					t.Errorf("%s:%d: pass %s, cfg.Run: arg %d: %s", file, r.Line, pass, r.Arg, diff)
				}
			}
			if pass == "gsa" {
				got, err := gsa.Run(u.GSA, r.Arg, cfg.Limits{Steps: lim.Steps})
				if diff := checkRun(r, got, err); diff != "" {
					t.Errorf("%s:%d: pass gsa, gsa.Run: arg %d: %s", file, r.Line, r.Arg, diff)
				}
			}
		}
		return nil
	}
	u, err := compileWithin(t, file, src, Options{Check: true, AfterPass: after, GSA: true})
	if err != nil {
		t.Fatalf("%s: compile: %v", file, err)
	}
	if want := len(PassNames()) + len(GSAPasses); len(u.Stats) != want {
		t.Fatalf("%s: %d passes ran, want %d", file, len(u.Stats), want)
	}

	// The final graph: its print, the same whatever the worklist order, and
	// a true fixpoint.
	var first string
	for seed := int64(0); seed <= 5; seed++ {
		u, err := compileWithin(t, file, src, Options{Check: true, Seed: seed})
		if err != nil {
			t.Fatalf("%s: seed %d: compile: %v", file, seed, err)
		}
		got := son.Print(u.Graph)
		if seed == 0 {
			checkNotLarger(t, file, u)
			first = got
			if d.IR != nil && got != *d.IR {
				t.Errorf("%s: ir after all passes:\nwant %s\ngot  %s", file, *d.IR, got)
			}
		} else if got != first {
			t.Errorf("%s: the fixpoint depends on the worklist order:\nseed 0: %s\nseed %d: %s", file, first, seed, got)
		}
		if n := u.Graph.Progress(); n != nil {
			t.Errorf("%s: seed %d: not a fixpoint: a peephole still applies to %v", file, seed, n)
		}
	}
}

// checkNotLarger requires the final graph to be no larger than the graph
// after the peepholes alone: the global passes only ever remove.
func checkNotLarger(t *testing.T, file string, u *Unit) {
	t.Helper()
	var peep, last PassStats
	for _, st := range u.Stats {
		if st.Name == "peephole" {
			peep = st
		}
		last = st
	}
	// Returns aside: the cleanup pass gives each returning path its own
	// Return again (son.SplitReturns), k Returns for a Region, Phi and
	// Return, which saves the jumps to a shared return.
	if last.Nodes-last.Ops["Return"] > peep.Nodes-peep.Ops["Return"] {
		t.Errorf("%s: %d nodes after %s (%d Returns), more than the %d after the peepholes alone (%d Returns)",
			file, last.Nodes, last.Name, last.Ops["Return"], peep.Nodes, peep.Ops["Return"])
	}
}

// TestCompileErrors checks the programs of testdata/errors, which must be
// rejected with exactly the errors their "// error:" lines list.
func TestCompileErrors(t *testing.T) {
	files, err := filepath.Glob("../testdata/errors/*.smp")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no programs in ../testdata/errors")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".smp"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := parseDirectives(string(src))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(d.Errors) == 0 {
				t.Fatalf("%s: no \"// error: LINE:COL: MESSAGE\" line", file)
			}
			_, err = compileWithin(t, file, src, Options{Check: true})
			var list syntax.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("%s: want errors %q, got %v", file, d.Errors, err)
			}
			var got []string
			for _, e := range list {
				got = append(got, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg))
			}
			if strings.Join(got, "\n") != strings.Join(d.Errors, "\n") {
				t.Errorf("%s:\nwant\n\t%s\ngot\n\t%s", file, strings.Join(d.Errors, "\n\t"), strings.Join(got, "\n\t"))
			}
		})
	}
}

// programBody is a program file without the comment lines (and blank
// lines) at its start and end, where its description and directives are.
func programBody(src string) string {
	lines := strings.Split(src, "\n")
	isNote := func(l string) bool {
		l = strings.TrimSpace(l)
		return l == "" || strings.HasPrefix(l, "//")
	}
	for len(lines) > 0 && isNote(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isNote(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// TestLanguageDoc makes sure every program shown in docs/LANGUAGE.md (a
// fenced block marked "simple") is a program of testdata, so that what the
// document says of it is tested.
func TestLanguageDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/LANGUAGE.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../testdata/*.smp")
	if err != nil {
		t.Fatal(err)
	}
	errFiles, err := filepath.Glob("../testdata/errors/*.smp")
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{}
	for _, f := range append(files, errFiles...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bodies[programBody(string(src))] = f
	}
	blocks := fencedBlocks(string(doc), "simple")
	if len(blocks) == 0 {
		t.Fatal("no ```simple blocks in docs/LANGUAGE.md")
	}
	for _, b := range blocks {
		if _, ok := bodies[strings.TrimSpace(b.text)]; !ok {
			t.Errorf("docs/LANGUAGE.md:%d: example is not a program of testdata (nor testdata/errors):\n%s", b.line, b.text)
		}
	}
}

type fenced struct {
	line int // line of the opening fence
	text string
}

// fencedBlocks returns the fenced code blocks of a Markdown text whose
// info string is lang.
func fencedBlocks(md, lang string) []fenced {
	var out []fenced
	var cur *fenced
	var body []string
	for i, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			if strings.TrimSpace(strings.TrimPrefix(trimmed, "```")) == lang {
				cur = &fenced{line: i + 1}
				body = nil
			} else {
				cur = &fenced{line: -1} // another language: skip it
			}
		case cur != nil && trimmed == "```":
			if cur.line > 0 {
				cur.text = strings.Join(body, "\n")
				out = append(out, *cur)
			}
			cur = nil
		case cur != nil:
			body = append(body, line)
		}
	}
	return out
}

// TestProgramFormat tests the reader of the directives itself.
func TestProgramFormat(t *testing.T) {
	bad := []struct{ src, want string }{
		{"// run: 1 5", `line 1: malformed run: directive: want "ARG => RESULT", no "=>"`},
		{"int x;\n// run: x => 5", `line 2: malformed run: directive: argument "x" is not a decimal int64`},
		{"// run: => 5", `line 1: malformed run: directive: argument "" is not a decimal int64`},
		{"// run: 1 =>", `line 1: malformed run: directive: result "" is neither a decimal int64 nor "error: ..."`},
		{"// run: 1 => five", `line 1: malformed run: directive: result "five" is neither`},
		{"// run: 1 => 9223372036854775808", `line 1: malformed run: directive: result "9223372036854775808" is neither`},
		{"// run: 99999999999999999999 => 1", `line 1: malformed run: directive: argument "99999999999999999999"`},
		{"// run: 1 => error: overflow", `line 1: malformed run: directive: unknown runtime error "overflow"`},
		{"int x;\n// run: 1 => error: division by zero", `line 2: malformed run: directive: division by zero needs its position: "division by zero at LINE:COL"`},
		{"// run: 1 => error: division by zero 1:2", `line 1: malformed run: directive: division by zero needs its position`},
		{"// run: 1 => error: division by zeroat 1:2", `line 1: malformed run: directive: division by zero needs its position`},
		{"// run: 1 => error: division by zero at 3", `line 1: malformed run: directive: division by zero at "3": needs its position`},
		{"// run: 1 => error: division by zero at 0:4", `line 1: malformed run: directive: division by zero at "0:4": needs its position`},
		{"// run: 1 => error: division by zero at 2:x", `line 1: malformed run: directive: division by zero at "2:x": needs its position`},
		{"// run: 1 => error: division by zero at 1:2 3", `line 1: malformed run: directive: division by zero at "1:2 3": needs its position`},
		{"// run: 1 => error: step limit exceeded at 1:2", `line 1: malformed run: directive: unknown runtime error "step limit exceeded at 1:2"`},
		{"// run: 1 => 2 => 3", `line 1: malformed run: directive: result "2 => 3" is neither`},
		{"// steps: many", "line 1: malformed steps: directive"},
		{"// steps: 0", "line 1: malformed steps: directive"},
		{"// ir: a\n// ir: b", "line 2: second ir: directive"},
		{"// ir after nothing: x", `line 1: unknown pass "nothing"`},
		{"// ir after build x", "line 1: malformed ir after directive"},
	}
	for _, tt := range bad {
		_, err := parseDirectives(tt.src)
		if err == nil {
			t.Errorf("%q: no error, want %q", tt.src, tt.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q:\ngot  %v\nwant %s...", tt.src, err, tt.want)
		}
	}

	src := `// A description, with the word run: in it is not a directive
//run: -3 => -9223372036854775808
  //   run:  7=>  error: division by zero  at 12:5
// run: 8 => error: division by zero at 1:9
// run: 0 => error: step limit exceeded
// ir: return Phi(Region,(arg+2),(arg-3));
// ir after build: return 5;
// steps: 1000
int x = 1; // run: 42 => 1
return x;
`
	d, err := parseDirectives(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []runLine{
		{Line: 2, Arg: -3, Value: -9223372036854775808},
		{Line: 3, Arg: 7, Err: "division by zero", Pos: syntax.Pos{Line: 12, Col: 5}},
		{Line: 4, Arg: 8, Err: "division by zero", Pos: syntax.Pos{Line: 1, Col: 9}},
		{Line: 5, Arg: 0, Err: "step limit exceeded"},
	}
	if fmt.Sprint(d.Runs) != fmt.Sprint(want) {
		t.Errorf("runs:\ngot  %v\nwant %v", d.Runs, want)
	}
	if d.IR == nil || *d.IR != "return Phi(Region,(arg+2),(arg-3));" {
		t.Errorf("ir: got %v", d.IR)
	}
	if d.IRAfter["build"] != "return 5;" || len(d.IRAfter) != 1 {
		t.Errorf("ir after: got %v", d.IRAfter)
	}
	if d.Steps != 1000 {
		t.Errorf("steps: got %d", d.Steps)
	}

	if got := d.Runs[2].want(); got != "error: division by zero at 1:9" {
		t.Errorf("want() = %q", got)
	}

	// A run line's expectation against outcomes, from every level: a
	// division by zero must be at the directive's position.
	at := syntax.Pos{Line: 2, Col: 10}
	other := syntax.Pos{Line: 2, Col: 3}
	div := runLine{Err: "division by zero", Pos: at}
	step := runLine{Err: "step limit exceeded"}
	five := runLine{Value: 5}
	checks := []struct {
		r    runLine
		got  int64
		err  error
		fail bool
	}{
		{five, 5, nil, false},
		{five, 6, nil, true},
		{five, 0, &son.RuntimeError{Pos: at, Msg: "division by zero"}, true},
		{div, 0, &son.RuntimeError{Pos: at, Msg: "division by zero"}, false},
		{div, 0, &cfg.RuntimeError{Pos: at, Msg: "division by zero"}, false},
		{div, 0, &ref.RuntimeError{Pos: at, Msg: "division by zero"}, false},
		{div, 0, &son.RuntimeError{Pos: other, Msg: "division by zero"}, true},
		{div, 0, &cfg.RuntimeError{Pos: other, Msg: "division by zero"}, true},
		{div, 0, &ref.RuntimeError{Pos: other, Msg: "division by zero"}, true},
		{div, 0, &son.RuntimeError{Msg: "division by zero"}, true}, // no position
		{div, 0, &son.RuntimeError{Msg: "step limit exceeded (10 steps)"}, true},
		{div, 0, errors.New("runtime error: division by zero"), true}, // not the program's error
		{div, 1, nil, true},
		{step, 0, &son.RuntimeError{Msg: "step limit exceeded (1000 steps)"}, false},
		{step, 0, &ref.RuntimeError{Msg: "step limit exceeded (1000 steps)"}, false},
		{step, 0, &son.RuntimeError{Msg: "division by zero"}, true},
	}
	for _, c := range checks {
		if diff := checkRun(c.r, c.got, c.err); (diff != "") != c.fail {
			t.Errorf("checkRun(%s, %d, %v) = %q", c.r.want(), c.got, c.err, diff)
		}
	}
}
