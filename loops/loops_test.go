package loops_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"son/cfg"
	"son/compile"
	"son/loops"
)

// ssaOf compiles a program file through gvn and returns its SSA function.
func ssaOf(t *testing.T, file string) *cfg.Func {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	u, err := compile.Compile(file, src, compile.Options{StopAfter: "gvn"})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return u.Func
}

var args = []int64{0, 1, 2, 3, 5, 10, -1, 100}

// outcome is a run's result as text.
func outcome(f *cfg.Func, arg int64) string {
	v, err := cfg.Run(f, arg, cfg.Limits{Steps: 2_000_000})
	if err != nil {
		if re, ok := err.(*cfg.RuntimeError); ok && strings.HasPrefix(re.Msg, "step limit") {
			return "step limit"
		}
		return err.Error()
	}
	return fmt.Sprint(v)
}

// TestPreparePrograms runs each preparation pass on every program and
// checks the result with cfg.Verify, its shape, and cfg.Run against the
// function before.
func TestPreparePrograms(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata", "../examples", "../bench"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.smp"))
		files = append(files, fs...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d programs", len(files))
	}
	passes := []struct {
		name string
		run  func(*cfg.Func) error
	}{{"Normalize", loops.Normalize}, {"Pads", loops.Pads}, {"Close", loops.Close}}
	for _, file := range files {
		f := ssaOf(t, file)
		want := make([]string, len(args))
		for i, a := range args {
			want[i] = outcome(f, a)
		}
		for _, p := range passes {
			if err := p.run(f); err != nil {
				t.Fatalf("%s: %s: %v", file, p.name, err)
			}
			if err := cfg.Verify(f); err != nil {
				t.Fatalf("%s: after %s: %v\n%s", file, p.name, err, cfg.Print(f))
			}
			for i, a := range args {
				if got := outcome(f, a); got != want[i] {
					t.Fatalf("%s: after %s: arg %d: got %s, want %s\n%s", file, p.name, a, got, want[i], cfg.Print(f))
				}
			}
		}
		checkShape(t, file, f)
	}
}

// checkShape checks what the three passes promise: each loop header has
// two predecessors, the entry then the latch; each edge out of a loop ends
// at an empty pad; no register defined in a loop is used outside it but
// by a Phi of a pad.
func checkShape(t *testing.T, file string, f *cfg.Func) {
	t.Helper()
	a, err := loops.Analyze(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	defAt := map[cfg.Reg]int{}
	for i, b := range f.Blocks {
		for _, p := range b.Phis {
			defAt[p.Dst] = i
		}
		for _, in := range b.Instrs {
			defAt[in.Dst] = i
		}
	}
	for _, l := range a.Loops {
		h := l.Header
		if len(h.Preds) != 2 || len(l.Latches) != 1 || h.Preds[1] != l.Latches[0] {
			t.Errorf("%s: loop %v: preds %v, latches %v: want the entry then the one latch", file, h, h.Preds, l.Latches)
		}
	}
	for i, b := range f.Blocks {
		inner := a.Of[i]
		for _, s := range b.Succs() {
			j := a.Pos[s]
			if inner != nil && !a.Contains(inner, j) {
				if len(s.Preds) != 1 || len(s.Instrs) != 0 || s.Term.Kind != cfg.TermJump {
					t.Errorf("%s: edge %v -> %v leaves loop %v but %v is not a pad", file, b, s, inner.Header, s)
				}
			}
		}
		check := func(r cfg.Reg, at int, padPhi bool) {
			d, ok := defAt[r]
			if !ok || a.Of[d] == nil || a.Contains(a.Of[d], at) {
				return
			}
			if !padPhi {
				t.Errorf("%s: %v: %v, defined in loop %v, is used outside it", file, f.Blocks[at], r, a.Of[d].Header)
			}
		}
		for _, p := range b.Phis {
			for k, r := range p.Args {
				check(r, a.Pos[b.Preds[k]], false)
			}
		}
		for _, in := range b.Instrs {
			for _, r := range in.Args {
				check(r, i, false)
			}
		}
		if b.Term.Kind != cfg.TermJump {
			check(b.Term.Reg, i, false)
		}
	}
}
