package outssa_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"son/cfg"
	"son/compile"
	"son/outssa"
)

var update = flag.Bool("update", false, "rewrite the rtl and moves sections of testdata/programs.txt")

// archive is a file of sections "-- NAME --", in order, after a header.
type archive struct {
	header string
	names  []string
	text   map[string]string
}

func readArchive(t *testing.T, file string) *archive {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	a := &archive{text: map[string]string{}}
	cur := ""
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "-- "); ok && strings.HasSuffix(name, " --") {
			cur = strings.TrimSuffix(name, " --")
			a.names = append(a.names, cur)
			continue
		}
		if cur == "" {
			a.header += line
		} else {
			a.text[cur] += line
		}
	}
	return a
}

func (a *archive) write(t *testing.T, file string) {
	var b strings.Builder
	b.WriteString(a.header)
	for _, n := range a.names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, a.text[n])
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestPrograms compiles each program of testdata/programs.txt with
// checking on, and compares the RTL and the move counts with the file;
// the SSA and RTL functions must both give each run: line's result.
func TestPrograms(t *testing.T) {
	const file = "testdata/programs.txt"
	a := readArchive(t, file)
	for _, n := range a.names {
		name, ok := strings.CutSuffix(n, ".smp")
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			src := a.text[n]
			u, err := compile.Compile(n, []byte(src), compile.Options{Check: true})
			if err != nil {
				t.Fatal(err)
			}
			rtl := cfg.Print(u.Func)
			r := u.OutSSA
			moves := fmt.Sprintf("naive %d copies %d cycles %d\n", r.Naive, r.Copies, r.Cycles)
			if *update {
				a.text[name+".rtl"], a.text[name+".moves"] = rtl, moves+"\n"
				return
			}
			if want := a.text[name+".rtl"]; rtl != want {
				t.Errorf("RTL:\n%s\nwant:\n%s", rtl, want)
			}
			if want := strings.TrimSpace(a.text[name+".moves"]); strings.TrimSpace(moves) != want {
				t.Errorf("moves: %s, want %s", strings.TrimSpace(moves), want)
			}
			runs := 0
			for _, line := range strings.Split(src, "\n") {
				spec, ok := strings.CutPrefix(line, "// run: ")
				if !ok {
					continue
				}
				argText, resText, _ := strings.Cut(spec, " => ")
				arg, err1 := strconv.ParseInt(argText, 10, 64)
				want, err2 := strconv.ParseInt(resText, 10, 64)
				if err1 != nil || err2 != nil {
					t.Fatalf("bad run: line %q", line)
				}
				runs++
				for _, f := range []*cfg.Func{u.SSA, u.Func} {
					if got, err := cfg.Run(f, arg, cfg.Limits{}); err != nil || got != want {
						t.Errorf("%v level: run(%d) = %d, %v; want %d", f.Level, arg, got, err, want)
					}
				}
			}
			if runs == 0 {
				t.Fatal("no run: line")
			}
		})
	}
	if *update {
		a.write(t, file)
	}
}

// TestBadInput: what the pass refuses, with the block and the rule.
func TestBadInput(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"critical edge", `func f level SSA
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	jump b3
b3:
	v2 = Phi v1 v1
	return v2
`, "b1: critical-edge: the edge b1 → b3 is critical"},
		{"a Phi entered by a branch", `func f level SSA
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	v2 = Phi v1
	return v2
b3:
	return v1
`, "outssa: b2: join-entry: the block has Phis but is entered from b1 by a branch, not a jump: its moves would have no place"},
		{"RTL already", "func f level RTL\nb1:\n\tv1 = Arg\n\treturn v1\n", "outssa: function f is at the RTL level, not SSA"},
	} {
		f, err := cfg.Parse(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := outssa.Translate(f); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		// In place, the same error, and f as it was.
		before := cfg.Print(f)
		if _, err := outssa.TranslateInPlace(f); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: in place: got %v, want %q", c.name, err, c.want)
		}
		if after := cfg.Print(f); after != before {
			t.Errorf("%s: in place, the refused function changed:\n%s\nwas:\n%s", c.name, after, before)
		}
	}
}

// TestTranslateInPlace: on every program of the archive, of examples and
// of testdata that compiles, TranslateInPlace returns the SSA function
// itself made the function Translate returns (a copy, the input left as
// it was), with the same counts of moves.
func TestTranslateInPlace(t *testing.T) {
	a := readArchive(t, "testdata/programs.txt")
	srcs := map[string]string{}
	for _, name := range a.names {
		if strings.HasSuffix(name, ".smp") {
			srcs[name] = a.text[name]
		}
	}
	files, _ := filepath.Glob("../examples/*.smp")
	more, _ := filepath.Glob("../testdata/*.smp")
	for _, file := range append(files, more...) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs[file] = string(b)
	}
	n := 0
	for name, src := range srcs {
		u, err := compile.Compile(name, []byte(src), compile.Options{})
		if err != nil {
			continue // a program the front end refuses: no SSA function
		}
		ssa := cfg.Print(u.SSA)
		r1, err := outssa.Translate(u.SSA)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := cfg.Print(u.SSA); got != ssa {
			t.Fatalf("%s: Translate changed its input:\n%s\nwas:\n%s", name, got, ssa)
		}
		f := u.SSA
		r2, err := outssa.TranslateInPlace(f)
		if err != nil {
			t.Fatalf("%s: in place: %v", name, err)
		}
		if r2.Func != f || f.Level != cfg.RTL {
			t.Errorf("%s: in place, the result is %p at the %v level, not the input %p", name, r2.Func, r2.Func.Level, f)
		}
		if got, want := cfg.Print(r2.Func), cfg.Print(r1.Func); got != want {
			t.Errorf("%s: in place:\n%s\ncopied:\n%s", name, got, want)
		}
		if r1.Naive != r2.Naive || r1.Copies != r2.Copies || r1.Cycles != r2.Cycles {
			t.Errorf("%s: moves %+v in place, %+v copied", name, *r2, *r1)
		}
		if err := cfg.Verify(r2.Func); err != nil {
			t.Errorf("%s: in place: %v", name, err)
		}
		n++
	}
	if n < len(a.names)/3+len(files) {
		t.Fatalf("only %d programs compiled", n)
	}
}
