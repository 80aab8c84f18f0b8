package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"son/cfg"
	"son/ref"
	"son/son"
	"son/syntax"
)

// FuzzCompile: any program that parses goes through the whole pipeline
// with every check on, and runs after every pass to the value or the
// runtime error (at the same position) of the reference semantics,
// ref.Run: levelsFailure's rule; compiled with the checks off (as son run
// and son build compile, folding more in the builder), every pass leaves
// the program it leaves with them on (TestUncheckedMatchesChecked's rule);
// and on Linux x86-64 its executable (allocation checked) prints that
// value or that error, with the exit status. Seeded with testdata and the
// examples.
func FuzzCompile(f *testing.F) {
	for _, pat := range []string{"../testdata/*.smp", "../examples/*.smp"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src, int64(3))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, arg int64) {
		if f := levelsFailure(src, []int64{arg}, 10_000); f != nil {
			t.Fatalf("%s\n%s", f.Msg, src)
		}
		if _, err := syntax.Parse("fuzz.smp", src); err == nil {
			off, _ := passListings("fuzz.smp", src, Options{})
			on, _ := passListings("fuzz.smp", src, Options{Check: true})
			if !slices.Equal(off, on) {
				i := 0
				for i < min(len(off), len(on))-1 && off[i] == on[i] {
					i++
				}
				t.Fatalf("with the checkers off, after %s\nwith them on, after %s\n%s", off[i], on[i], src)
			}
		}
		// The executable too, where it runs and the reference ends.
		if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
			return
		}
		want, err := referenceResults(string(src), []int64{arg})
		if err != nil || want[0] == "" {
			return
		}
		path, err := buildNative(t, t.TempDir(), "fuzz.smp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		checkNative(t, "fuzz.smp", path, arg, want[0])
	})
}

// runtimeMsg is the message of a runtime error of the program at any
// level, and whether err is one.
func runtimeMsg(err error) (string, bool) {
	msg, _, ok := runtimeError(err)
	return msg, ok
}

// runtimeError is the message and position of a runtime error of the
// program at any level (son.Run, cfg.Run or ref.Run), and whether err is
// one.
func runtimeError(err error) (msg string, pos syntax.Pos, ok bool) {
	var rt *son.RuntimeError
	var crt *cfg.RuntimeError
	var rrt *ref.RuntimeError
	switch {
	case errors.As(err, &rt):
		return rt.Msg, rt.Pos, true
	case errors.As(err, &crt):
		return crt.Msg, crt.Pos, true
	case errors.As(err, &rrt):
		return rrt.Msg, rrt.Pos, true
	}
	return "", syntax.Pos{}, false
}

// resultText is the outcome of a run as levelsFailure compares it: the
// value, or the error with its position when it has one ("2:10: runtime
// error: division by zero"), so that a level reporting a division by zero
// at another position differs.
func resultText(v int64, err error) string {
	if err == nil {
		return fmt.Sprint(v)
	}
	if _, pos, ok := runtimeError(err); ok && pos.IsKnown() {
		return pos.String() + ": " + err.Error()
	}
	return err.Error()
}
