package outssa_test

import (
	"strings"
	"testing"

	"son/cfg"
	"son/compile"
	"son/outssa"
)

// TestCheck runs Check on the cases of testdata/check.txt. A case with an
// empty .ssa section takes the SSA function of the case before it.
func TestCheck(t *testing.T) {
	a := readArchive(t, "testdata/check.txt")
	var ssa string
	for _, n := range a.names {
		name, ok := strings.CutSuffix(n, ".ssa")
		if !ok {
			continue
		}
		if text := a.text[n]; strings.TrimSpace(text) != "" {
			ssa = text
		}
		t.Run(name, func(t *testing.T) {
			in, err := cfg.Parse(ssa)
			if err != nil {
				t.Fatal(err)
			}
			out, err := cfg.Parse(a.text[name+".rtl"])
			if err != nil {
				t.Fatal(err)
			}
			got := "ok"
			if err := outssa.Check(in, out); err != nil {
				got = err.Error()
			}
			if want := strings.TrimSpace(a.text[name+".want"]); got != want {
				t.Errorf("Check:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestCheckAcceptsTranslate: the checker accepts the pass's output on
// every program of testdata/programs.txt read back from its text.
func TestCheckAcceptsTranslate(t *testing.T) {
	a := readArchive(t, "testdata/programs.txt")
	for _, n := range a.names {
		if !strings.HasSuffix(n, ".smp") {
			continue
		}
		u, err := compile.Compile(n, []byte(a.text[n]), compile.Options{StopAfter: "gcm"})
		if err != nil {
			t.Fatal(err)
		}
		r, err := outssa.Translate(u.Func)
		if err != nil {
			t.Fatal(err)
		}
		in, err1 := cfg.Parse(cfg.Print(u.Func))
		out, err2 := cfg.Parse(cfg.Print(r.Func))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if err := outssa.Check(in, out); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}
