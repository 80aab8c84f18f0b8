package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"son/amd64"
	"son/regalloc"
)

// TestCodeMatchesCompile: amd64.Code, which lets the selected code go
// before the allocation is checked (son check, son build), makes the same
// machine code as amd64.Compile, and its Program says it has no listing.
func TestCodeMatchesCompile(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "examples", "*.smp"))
	if len(files) < 10 {
		t.Fatalf("%d examples", len(files))
	}
	for _, file := range files {
		src, u, err := compileFile(t, file)
		if err != nil {
			t.Fatalf("%s: %v", file, err) // every example compiles
		}
		full, err := amd64.Compile(u.Func, u.Name, src, amd64.CheckAll)
		if err != nil {
			t.Fatalf("%s: Compile: %v", file, err)
		}
		code, err := amd64.Code(u.Func, u.Name, amd64.CheckAll)
		if err != nil {
			t.Fatalf("%s: Code: %v", file, err)
		}
		if !bytes.Equal(full.Code, code.Code) || full.Entry != code.Entry {
			t.Errorf("%s: Code made other machine code than Compile", file)
		}
		if code.Alloc.Moves != full.Alloc.Moves || code.Alloc.Spilled != full.Alloc.Spilled {
			t.Errorf("%s: allocation %d moves, %d spilled; Compile's %d, %d", file,
				code.Alloc.Moves, code.Alloc.Spilled, full.Alloc.Moves, full.Alloc.Spilled)
		}
		if code.Func != nil {
			t.Errorf("%s: Code's Program keeps the selected code", file)
		}
		if got := code.Listing(); !strings.HasPrefix(got, "; no listing") {
			t.Errorf("%s: Code's listing is %q", file, got)
		}
	}
	t.Logf("%d examples", len(files))
}

// TestLowerFastMatches: amd64.Compile, whose lowering emits the common
// forms straight from their registers' locations (lowerFast), makes the
// same machine code as amd64.Lower, which resolves every instruction into
// an Inst and encodes it, on every program of testdata, its regressions
// and examples.
func TestLowerFastMatches(t *testing.T) {
	files := programFiles(t, "../testdata", "../testdata/regress", "../examples")
	eachCompiled(t, files, func(file string, _ []byte, u *Unit) {
		p, err := amd64.Compile(u.Func, u.Name, nil, 0)
		if err != nil {
			t.Fatalf("%s: Compile: %v", file, err)
		}
		q, err := amd64.Lower(p.Func, p.Alloc, nil)
		if err != nil {
			t.Fatalf("%s: Lower: %v", file, err)
		}
		if !bytes.Equal(p.Code, q.Code) || p.Entry != q.Entry {
			t.Errorf("%s: Compile made other machine code than Lower", file)
		}
	})
}

// eachCompiled calls f on each of files that compiles to RTL (a program
// the front end rejects has no code), and fails t unless three quarters
// of them do: a test that compiled none would check nothing.
func eachCompiled(t *testing.T, files []string, f func(file string, src []byte, u *Unit)) {
	t.Helper()
	compiled := 0
	for _, file := range files {
		src, u, err := compileFile(t, file)
		if err != nil {
			continue
		}
		compiled++
		f(file, src, u)
	}
	if compiled < len(files)*3/4 {
		t.Fatalf("%d of %d programs compiled", compiled, len(files))
	}
	t.Logf("%d of %d programs compiled and checked", compiled, len(files))
}

// compileFile reads file and compiles it to RTL (Compile's error, if
// any).
func compileFile(t *testing.T, file string) ([]byte, *Unit, error) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	u, err := Compile(file, src, Options{})
	return src, u, err
}

// TestCheckerInTwoSteps: NewChecker rejects an allocation that does not
// fit the function before any dataflow, with Check's message.
func TestCheckerInTwoSteps(t *testing.T) {
	_, rf := selectFaultProgram(t, Options{})
	res, err := regalloc.Allocate(rf)
	if err != nil {
		t.Fatal(err)
	}
	c, err := regalloc.NewChecker(rf, res)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Flow(); err != nil {
		t.Fatal(err)
	}
	res.Blocks = res.Blocks[:len(res.Blocks)-1]
	want := "regalloc check: " + strconv.Itoa(len(res.Blocks)) + " blocks allocated, the function has " + strconv.Itoa(len(rf.Blocks))
	if _, err := regalloc.NewChecker(rf, res); err == nil || err.Error() != want {
		t.Errorf("NewChecker: %v, want %q", err, want)
	}
	if err := regalloc.Check(rf, res); err == nil || err.Error() != want {
		t.Errorf("Check: %v, want %q", err, want)
	}
}
