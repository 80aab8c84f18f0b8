package fromcfg

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"son/cfg"
	"son/lower"
	"son/ref"
	"son/son"
	"son/ssagen"
	"son/syntax"
)

// runArgs reads the arguments of the "// run: ARG => RESULT" lines.
func runArgs(src string) (args []int64) {
	for _, l := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "// run:"); ok {
			a, _, _ := strings.Cut(rest, "=>")
			if n, err := strconv.ParseInt(strings.TrimSpace(a), 10, 64); err == nil {
				args = append(args, n)
			}
		}
	}
	return args
}

// outcome formats a run's result: the value, the runtime error at its
// position, "step limit", or "internal: ..." for anything else.
func outcome(v int64, err error) string {
	if err == nil {
		return strconv.FormatInt(v, 10)
	}
	msg := err.Error()
	if strings.Contains(msg, "step limit exceeded") {
		return "step limit"
	}
	switch e := err.(type) {
	case *ref.RuntimeError:
		return msg + " at " + e.Pos.String()
	case *son.RuntimeError:
		return msg + " at " + e.Pos.String()
	}
	return "internal: " + msg
}

// TestPrograms translates ssagen's output for every program into a graph,
// which son.Verify must accept and son.Run must run as ref.Run runs the
// source, before and after the peepholes.
func TestPrograms(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.smp")
	more, _ := filepath.Glob("../examples/*.smp")
	for _, file := range append(files, more...) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := syntax.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		rtl, err := lower.Func(f, "f")
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range ssagen.Flavours {
			res, err := ssagen.Build(rtl, fl)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Graph(res.Func)
			if err != nil {
				t.Fatalf("%s %v: %v\n%s", file, fl, err, cfg.Print(res.Func))
			}
			check := func(stage string) {
				if err := son.Verify(g); err != nil {
					t.Fatalf("%s %v %s: %v\n%s", file, fl, stage, err, cfg.Print(res.Func))
				}
				for _, arg := range runArgs(string(src)) {
					const lim = 2_000_000
					want := outcome(ref.Run(f, arg, ref.Limits{Steps: lim}))
					got := outcome(son.Run(g, arg, son.Limits{Steps: 4 * lim}))
					if got != want && want != "step limit" {
						t.Errorf("%s %v %s: arg %d: got %s, want %s", file, fl, stage, arg, got, want)
					}
				}
			}
			check("built")
			g.PushAll()
			if err := g.Iterate(); err != nil {
				t.Fatalf("%s %v: peepholes: %v", file, fl, err)
			}
			check("after peepholes")
		}
	}
}
