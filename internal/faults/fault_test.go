package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"son/internal/faults/outcome"
)

// tree writes files (path → content) under a new directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestApply(t *testing.T) {
	dir := tree(t, map[string]string{"p/x.go": "a := b + c\nd := e - f\n"})
	f := Fault{Name: "sub-as-add", File: "p/x.go", Old: "e - f", New: "e + f"}
	if err := f.Apply(dir); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "p/x.go"); got != "a := b + c\nd := e + f\n" {
		t.Errorf("after the edit: %q", got)
	}
}

func TestStale(t *testing.T) {
	const text = "x := 1\nx := 1\ny := 2\n"
	dir := tree(t, map[string]string{"p/x.go": text})
	for _, c := range []struct {
		f     Fault
		count int
		msg   string
	}{
		{Fault{Name: "gone", File: "p/x.go", Old: "z := 3", New: "z := 4"}, 0,
			"fault gone is stale: its old text occurs 0 times in p/x.go, want once"},
		{Fault{Name: "twice", File: "p/x.go", Old: "x := 1", New: "x := 2"}, 2,
			"fault twice is stale: its old text occurs 2 times in p/x.go, want once"},
		{Fault{Name: "empty", File: "p/x.go", Old: "", New: "x"}, len(text) + 1,
			"fault empty is stale: its old text occurs 22 times in p/x.go, want once"},
		{Fault{Name: "nofile", File: "p/y.go", Old: "y", New: "z"}, -1, "fault nofile is stale: open "},
	} {
		err := c.f.Apply(dir)
		var se *StaleError
		if !errors.As(err, &se) || se.Count != c.count || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want a StaleError with count %d: %s", c.f.Name, err, c.count, c.msg)
		}
		if got := read(t, dir, "p/x.go"); got != text {
			t.Errorf("%s: the file changed: %q", c.f.Name, got)
		}
	}
}

func TestCopyModule(t *testing.T) {
	src := tree(t, map[string]string{
		"go.mod":            "module m\n",
		"a/b.go":            "package a\n",
		".git/config":       "[core]\n",
		"sub/.git":          "gitdir: elsewhere\n",
		"testdata/x.smp":    "return 1;\n",
		".ci/run":           "#!/bin/sh\n",
		"docs/ASSURANCE.md": "# Assurance\n",
	})
	dst := t.TempDir()
	if err := copyModule(src, dst); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dst, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dst, path)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	want := ".ci/run a/b.go docs/ASSURANCE.md go.mod testdata/x.smp"
	if strings.Join(got, " ") != want {
		t.Errorf("copied %v, want %s", got, want)
	}
	root, err := moduleRoot(filepath.Join(src, "a"))
	if err != nil || root != src {
		t.Errorf("moduleRoot: %q, %v; want %q", root, err, src)
	}
}

// guardFile matches the files of the guards, which no fault may edit:
// verifiers, checkers, interpreters, the reference semantics, and the
// campaign itself.
var guardFile = regexp.MustCompile(`(^|/)(check|verify|validate|interp|run|eval|.*_check|.*_test)\.go$|^son/ref/|^internal/|^cfg/|^compile/`)

// TestCatalogue requires every fault to apply to the tree as it is (its
// old text found exactly once), to edit a pass and not a guard, and to
// have a unique name, a known pass and a description.
func TestCatalogue(t *testing.T) {
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(Catalogue) < 45 {
		t.Errorf("%d faults, want at least 45", len(Catalogue))
	}
	passes := map[string]int{}
	names := map[string]bool{}
	for _, f := range Catalogue {
		if err := f.Check(root); err != nil {
			t.Error(err)
		}
		if guardFile.MatchString(f.File) {
			t.Errorf("%s edits %s, a guard or not a pass", f.Name, f.File)
		}
		if names[f.Name] || f.Name == "" {
			t.Errorf("fault name %q is empty or not unique", f.Name)
		}
		names[f.Name] = true
		if f.What == "" || f.Old == f.New {
			t.Errorf("%s: no description, or an edit that changes nothing", f.Name)
		}
		passes[f.Pass]++
	}
	for _, p := range []string{"build", "peephole", "sccp", "zerocheck", "gcm", "cfg emission", "gvn", "outssa", "gsa", "isel", "regalloc"} {
		if passes[p] < 3 {
			t.Errorf("%d faults of pass %q, want at least 3", passes[p], p)
		}
		delete(passes, p)
	}
	// The GSA preparation passes (loops) have one, caught by gsa's checker.
	if passes["loops"] < 1 {
		t.Errorf("no fault of pass \"loops\"")
	}
	delete(passes, "loops")
	if len(passes) > 0 {
		t.Errorf("unknown passes: %v", passes)
	}
}

func TestReplaceBetween(t *testing.T) {
	doc := "# A\n\n" + beginMarker + "\nold table\n" + endMarker + "\n\nafter\n"
	got, err := replaceBetween(doc, "new table\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# A\n\n" + beginMarker + "\nnew table\n" + endMarker + "\n\nafter\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := replaceBetween("# A\n"+endMarker+beginMarker, "x"); err == nil {
		t.Error("markers in the wrong order: no error")
	}
}

func TestLastRunning(t *testing.T) {
	stderr := "probe: running testdata/a.smp\nprobe: running testdata/b.smp\nruntime: goroutine stack exceeds 268435456-byte limit\nfatal error: stack overflow\n"
	if got := lastRunning(stderr); got != "testdata/b.smp" {
		t.Errorf("lastRunning = %q, want testdata/b.smp", got)
	}
	if got := oneLine(stderr, nil); got != "fatal error: stack overflow" {
		t.Errorf("oneLine = %q", got)
	}
	if got := lastRunning("fatal error: out of memory\n"); got != "" {
		t.Errorf("lastRunning of a probe that announced nothing = %q", got)
	}
}

func TestLabel(t *testing.T) {
	for _, c := range []struct {
		v    outcome.Verdict
		want string
	}{
		{outcome.Verdict{First: outcome.Verifier, Detail: "son.Verify after sccp: graph is not well formed:"}, "son.Verify after sccp"},
		{outcome.Verdict{First: outcome.Checker, Detail: "checker after gcm: the schedule does not hold: [sccp iterated]"}, "checker after gcm"},
		{outcome.Verdict{First: outcome.Pass, Detail: "pass after gcm: Loop#7: ..."}, "the pass (gcm)"},
		{outcome.Verdict{First: outcome.Differential, Detail: "arg 3: cfg.Run after gcm: got 1, want 2"}, "differential (cfg.Run after gcm)"},
		{outcome.Verdict{First: outcome.Differential, Detail: "arg 3: run: line: the reference gives 5, the run: line says 4"}, "differential (the reference against a run: line)"},
		{outcome.Verdict{First: outcome.Crash, Detail: "panic in pass sccp: index out of range in son/opt.Analyze (opt/sccp.go:3)"}, "crash (pass sccp)"},
		{outcome.Verdict{First: outcome.Hang, Detail: "no answer in 20s"}, "hang"},
		{outcome.Verdict{}, "**nothing**"},
	} {
		if got := label(c.v); got != c.want {
			t.Errorf("label(%q) = %q, want %q", c.v.Detail, got, c.want)
		}
	}
}

// sample are faults for TestCampaignSample: each caught by a guard on
// the program named, in a few seconds.
var sample = []struct {
	fault, programs string
	first           outcome.Kind
	detail          string
}{
	// A builder fault is now caught first by the build's checker
	// (buildcheck), which runs before the verifier: a peephole fault
	// stands for the verifier's catches.
	{"peep-div-unpinned", `^testdata/div_zero_runtime\.smp$`, outcome.Verifier, "son.Verify after build: "},
	{"gcm-phi-args-reversed", `^examples/gcd\.smp$`, outcome.Checker, "checker after gcm: "},
	// The allocator's, caught by regalloc.Check in the backend the probe
	// runs after the last pass, on a program that spills.
	{"regalloc-reload-next-slot", `^testdata/spill_loop\.smp$`, outcome.Checker, "checker after regalloc: regalloc check: "},
}

// TestCampaignSample runs the whole machinery — copy, edit, build, probe,
// classify — on the unchanged tree and on a sample of faults, each on one
// program, and requires the guard that catches each. The whole catalogue
// is go run ./internal/faults.
func TestCampaignSample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the probe in copies of the module")
	}
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	c := &campaign{root: root, n: 0, timeout: 30 * time.Second, deadline: 2 * time.Minute, gocache: goCache(t)}
	c.programs = `^testdata/div_in_loop\.smp$|^examples/gcd\.smp$`
	base := c.run(nil)
	if base.Status != Ran || base.Verdict.First != outcome.None || base.Verdict.Programs != 2 {
		t.Fatalf("the unchanged tree: %+v", base)
	}
	for _, s := range sample {
		f := byName(t, s.fault)
		c.programs = s.programs
		r := c.run(&f)
		t.Logf("%s: %s in %v", s.fault, label(r.Verdict), r.Time.Round(time.Millisecond))
		if r.Status != Ran || r.Verdict.First != s.first || !strings.HasPrefix(r.Verdict.Detail, s.detail) {
			t.Errorf("%s: %s %s: first %q %q, want %q %q", s.fault, r.Status, r.Note, r.Verdict.First, r.Verdict.Detail, s.first, s.detail)
		}
	}
	// A fault whose text is gone is reported as stale, not run.
	stale := Fault{Name: "gone", Pass: "gcm", File: "gcm/gcm.go", Old: "no such text", New: "x"}
	if r := c.run(&stale); r.Status != Stale {
		t.Errorf("stale fault: %+v", r)
	}
	// One that does not compile, as broken.
	broken := byName(t, "gcm-lca-deeper")
	broken.New = "return s.deeper(a, b, c)"
	if r := c.run(&broken); r.Status != Broken || !strings.Contains(r.Note, "does not compile: ") {
		t.Errorf("broken fault: %+v", r)
	}
}

func goCache(t *testing.T) string {
	t.Helper()
	dir, err := goCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func byName(t *testing.T, name string) Fault {
	t.Helper()
	for _, f := range Catalogue {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no fault %s", name)
	return Fault{}
}
