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
	if files = append(files, more...); len(files) < 100 {
		t.Fatalf("only %d programs", len(files))
	}
	for _, file := range files {
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

// TestErrors: control flow a Loop cannot express, and a division that no
// Check guards.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`func f level SSA
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	jump b4
b3:
	jump b5
b4:
	branch v1 b6 b8
b6:
	jump b5
b5:
	branch v1 b7 b9
b7:
	jump b4
b8:
	return v1
b9:
	return v1
`, "fromcfg: irreducible control flow"},
		{`func f level SSA
b1:
	v1 = Arg
	v2 = Div v1 v1
	return v2
`, "fromcfg: b1: v2 = Div v1 v1 divides by v1, which no Check of the block tests"},
		{`func f level RTL
b1:
	v1 = Arg
	return v1
`, "fromcfg: not an SSA function"},
	} {
		f, err := cfg.Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Graph(f); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestShapes: a loop with two back edges (a continue) gets a Region of
// its back edges under the Loop, with a Phi of that Region; a division by
// a non-zero constant needs no ZeroCheck.
func TestShapes(t *testing.T) {
	f, err := cfg.Parse(`func f level SSA
b1:
	v1 = Arg
	v2 = Const 0
	jump b2
b2:
	v3 = Phi v2 v6 v8
	v4 = Lt v3 v1
	branch v4 b3 b6
b3:
	v5 = Const 1
	v6 = Add v3 v5
	branch v6 b4 b5
b4:
	jump b2
b5:
	v7 = Const 2
	v8 = Add v3 v7
	jump b2
b6:
	v9 = Const 3
	v10 = Div v3 v9
	return v10
`)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Graph(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := son.Verify(g); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[int64]int64{0: 0, 1: 0, 5: 1, 10: 3} {
		if got, err := son.Run(g, arg, son.Limits{}); err != nil || got != want {
			t.Errorf("arg %d: got %d, %v; want %d", arg, got, err, want)
		}
	}
	var loop *son.Node
	for _, n := range g.Live() {
		if n.Op == son.OpLoop {
			loop = n
		}
		if n.Op == son.OpDiv && n.In[0] != nil {
			t.Errorf("%v: a division by 3 has control %v", n, n.In[0])
		}
	}
	if loop == nil || loop.In[2].Op != son.OpRegion || len(loop.In[2].In) != 3 {
		t.Fatalf("want a Loop whose back edge is a Region of two, got %v", loop)
	}
}
