package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"son/amd64"
	"son/compile"
)

// programs are written to the test's directory, which is made the
// current one, so that messages name them as given.
var programs = map[string]string{
	"add.smp": "return arg+1;\n",
	"div.smp": "int a = 0;\nreturn 10 / a;\n",
	"inf.smp": "while (1) {}\nreturn 0;\n",
	// After build, x*2 is still (1*2): the loop's Phi for x became 1 only
	// when the loop closed, and its users wait on the worklist.
	"loop.smp": `int x = 1;
int y = 0;
int i = 0;
while (i < arg) {
	y = y + x * 2;
	x = x;
	i = i + 1;
}
return y;
`,
	"undef.smp":  "int a = 1;\nreturn y +\n   z;\n",
	"syntax.smp": "int x = ;\nreturn x;\n",
	"show.smp":   "int x = arg * 2;\nif (x > 4) {\n\t#showGraph;\n\tx = 1;\n}\n#showGraph;\nreturn x;\n",
	// Click and Cooper's running example: only the combined analysis
	// proves x stays 1.
	"paper001.smp": "int x = 1;\nwhile (arg) {\n\tif (x != 1) x = 2;\n\targ = arg - 1;\n}\nreturn x;\n",
}

// inDir writes programs into a new temporary directory and makes it the
// current one.
func inDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range programs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o777); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return dir
}

// runSon runs the command line in-process.
func runSon(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb strings.Builder
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func hint(cmd string) string {
	if cmd == "" {
		return "Run 'son help' for usage.\n"
	}
	return "Run 'son help " + cmd + "' for usage.\n"
}

func TestRun(t *testing.T) {
	inDir(t)
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "no arg", args: []string{"run", "add.smp"}, stdout: "1\n"},
		{name: "arg", args: []string{"run", "add.smp", "41"}, stdout: "42\n"},
		{name: "negative arg", args: []string{"run", "add.smp", "-5"}, stdout: "-4\n"},
		{name: "min arg", args: []string{"run", "add.smp", "-9223372036854775808"}, stdout: "-9223372036854775807\n"},
		{name: "hex arg", args: []string{"run", "add.smp", "0x2A"}, stdout: "43\n"},
		{name: "negative hex arg", args: []string{"run", "add.smp", "-0x10"}, stdout: "-15\n"},
		{name: "zero arg", args: []string{"run", "add.smp", "0"}, stdout: "1\n"},
		{name: "flags", args: []string{"run", "-check", "-seed", "7", "-steps", "1000", "loop.smp", "3"}, stdout: "6\n"},
		{name: "after build", args: []string{"run", "-after", "build", "loop.smp", "3"}, stdout: "6\n"},
		{name: "division by zero", args: []string{"run", "div.smp"}, code: 1,
			stderr: "div.smp:2:11: runtime error: division by zero\n"},
		{name: "step limit", args: []string{"run", "-steps", "100", "inf.smp"}, code: 1,
			stderr: "inf.smp: runtime error: step limit exceeded (100 steps)\n"},
		{name: "stdin", stdin: "return arg*2;\n", args: []string{"run", "-", "21"}, stdout: "42\n"},
		{name: "stdin runtime error", stdin: "return 1 % (arg-3);\n", args: []string{"run", "-", "3"}, code: 1,
			stderr: "<stdin>:1:10: runtime error: division by zero\n"},

		{name: "ir", args: []string{"ir", "-level", "son", "loop.smp"}, stdout: "return Phi(Loop,0,(Phi_y+2));\n"},
		{name: "ir after build", args: []string{"ir", "-after", "build", "loop.smp"}, stdout: "return Phi(Loop,0,(Phi_y+(1*2)));\n"},
		{name: "ir after peephole", args: []string{"ir", "-after", "peephole", "-check", "loop.smp"}, stdout: "return Phi(Loop,0,(Phi_y+2));\n"},
		{name: "ir stdin", stdin: "return arg+1;", args: []string{"ir", "-level", "son", "-"}, stdout: "return (arg+1);\n"},
		{name: "ir cfg", args: []string{"ir", "-level", "cfg", "add.smp"}, stdout: "func add.smp level SSA\nb1:  ; entry, depth 0\n\tv4 = Arg\n\tv6 = Const 1\n\tv7 = Add v4 v6           ; line 1\n\treturn v7                ; line 1\n"},
		{name: "ir rtl", args: []string{"ir", "add.smp"}, stdout: "func add.smp level RTL\nb1:  ; entry, depth 0\n\tv4 = Arg\n\tv6 = Const 1\n\tv7 = Add v4 v6           ; line 1\n\treturn v7                ; line 1\n"},
		{name: "ir after outssa", args: []string{"ir", "-after", "outssa", "-check", "add.smp"}, stdout: "func add.smp level RTL\nb1:  ; entry, depth 0\n\tv4 = Arg\n\tv6 = Const 1\n\tv7 = Add v4 v6           ; line 1\n\treturn v7                ; line 1\n"},
		{name: "ir rtl before outssa", args: []string{"ir", "-level", "rtl", "-after", "gcm", "add.smp"}, code: 2,
			stderr: "son: ir: -level rtl: there is no RTL before pass outssa (stopped after gcm)\n" + hint("ir")},
		{name: "run rtl", args: []string{"run", "-level", "rtl", "-check", "loop.smp", "3"}, stdout: "6\n"},
		{name: "ir cfg before gcm", args: []string{"ir", "-level", "cfg", "-after", "cleanup", "add.smp"}, code: 2,
			stderr: "son: ir: -level cfg: there are no basic blocks before pass gcm (stopped after cleanup)\n" + hint("ir")},
		{name: "bad level", args: []string{"ir", "-level", "asm", "add.smp"}, code: 2,
			stderr: "son: ir: -level: want son, cfg, rtl, gsa, via-rtl or via-ssa, not \"asm\"\n" + hint("ir")},
		{name: "run cfg", args: []string{"run", "-level", "cfg", "loop.smp", "3"}, stdout: "6\n"},
		{name: "run cfg division by zero", args: []string{"run", "-level", "cfg", "div.smp"}, code: 1,
			stderr: "div.smp:2:11: runtime error: division by zero\n"},
		{name: "run ast", args: []string{"run", "-level", "ast", "loop.smp", "3"}, stdout: "6\n"},
		{name: "run ast division by zero", args: []string{"run", "-level", "ast", "div.smp"}, code: 1,
			stderr: "div.smp:2:11: runtime error: division by zero\n"},
		{name: "run ast step limit", args: []string{"run", "-level", "ast", "-steps", "100", "inf.smp"}, code: 1,
			stderr: "inf.smp: runtime error: step limit exceeded (100 steps)\n"},
		{name: "run ast stdin", stdin: "return 1 % (arg-3);\n", args: []string{"run", "-level", "ast", "-", "3"}, code: 1,
			stderr: "<stdin>:1:10: runtime error: division by zero\n"},
		{name: "run ast source error", args: []string{"run", "-level", "ast", "undef.smp"}, code: 2,
			stderr: "undef.smp:2:8: undefined name 'y'\nundef.smp:3:4: undefined name 'z'\n"},
		{name: "run ast no graph", args: []string{"run", "-level", "ast", "show.smp", "3"}, stdout: "1\n"},
		{name: "run ast after", args: []string{"run", "-level", "ast", "-after", "build", "add.smp"}, code: 2,
			stderr: "son: run: -after build cannot go with -level ast, which runs the syntax tree before any pass\n" + hint("run")},
		{name: "run ast missing file", args: []string{"run", "-level", "ast", "nofile.smp"}, code: 2,
			stderr: "son: run: cannot read nofile.smp: no such file or directory\n" + hint("run")},
		{name: "run gsa", args: []string{"run", "-level", "gsa", "-check", "loop.smp", "3"}, stdout: "6\n"},
		{name: "run via gsa", args: []string{"run", "-via", "gsa", "-level", "rtl", "-check", "loop.smp", "3"}, stdout: "6\n"},
		{name: "run gsa before gsa", args: []string{"run", "-level", "gsa", "-after", "gvn", "loop.smp"}, code: 2,
			stderr: "son: run: -level gsa: there is no gated SSA before pass gsa (stopped after gvn)\n" + hint("run")},
		{name: "ir after gsa", args: []string{"ir", "-after", "gsa", "loop.smp"}, stdout: "func loop.smp level GSA\n; predicates: size 6 over 5 blocks, 1.20 per block\n" +
			"b1:  ; entry, depth 0\n\tv4 = Arg\n\tv6 = Const 1\n\tv7 = Const 0\n\tv21 = Const 2\n\tjump b2\n" +
			"b2:  ; preds b1 b3, depth 1\n\tv10 = μ(v7, v23)\n\tv11 = μ(v7, v24)\n\tv12 = Lt v11 v4          ; line 4\n\tbranch v12 b3 b5         ; line 4\n" +
			"b3:  ; preds b2, depth 1\n\tv23 = Add v10 v21        ; line 5\n\tv24 = Add v11 v6         ; line 7\n\tjump b2\n" +
			"b5:  ; preds b2, depth 0, predicate size 6\n\tv25 = η(¬(v11 < v4): v10)\n\tv26 = η(¬(v11 < v4): v10)\n\tv27 = η(¬(v11 < v4): v11)\n\tjump b4\n" +
			"b4:  ; preds b5, depth 0\n\treturn v25               ; line 9\n"},
		{name: "run bad level", args: []string{"run", "-level", "asm", "add.smp"}, code: 2,
			stderr: "son: run: -level: want son, cfg, rtl, gsa, native or ast, not \"asm\"\n" + hint("run")},

		{name: "source errors", args: []string{"run", "undef.smp"}, code: 2,
			stderr: "undef.smp:2:8: undefined name 'y'\nundef.smp:3:4: undefined name 'z'\n"},
		{name: "syntax error", args: []string{"ir", "syntax.smp"}, code: 2,
			stderr: "syntax.smp:1:9: syntax error: unexpected ';', expected expression\n"},
		{name: "stdin source error", stdin: "return q;\n", args: []string{"check", "-"}, code: 2,
			stderr: "<stdin>:1:8: undefined name 'q'\n"},

		// Bad usage.
		{name: "unknown command", args: []string{"frob", "add.smp"}, code: 2,
			stderr: "son: unknown command \"frob\"\n" + hint("")},
		{name: "unknown top flag", args: []string{"-x"}, code: 2,
			stderr: "son: flag provided but not defined: -x\n" + hint("")},
		{name: "unknown flag", args: []string{"run", "-zz", "add.smp"}, code: 2,
			stderr: "son: run: flag provided but not defined: -zz\n" + hint("run")},
		{name: "flag of another command", args: []string{"check", "-nodes", "add.smp"}, code: 2,
			stderr: "son: check: flag provided but not defined: -nodes\n" + hint("check")},
		{name: "check after", args: []string{"check", "-after", "sccp", "loop.smp"},
			stdout: "build: verified (19 nodes)\npeephole: verified (18 nodes)\nsccp: verified (18 nodes)\nOK\n"},
		{name: "check after unknown pass", args: []string{"check", "-after", "opt", "add.smp"}, code: 2,
			stderr: "son: check: unknown pass \"opt\" for -after (passes: build, peephole, sccp, zerocheck, cleanup, gcm, gvn, outssa; with -via gsa, after gvn: loops, gsa)\n" + hint("check")},
		{name: "trace before sccp", args: []string{"ir", "-trace", "-after", "build", "add.smp"}, code: 2,
			stderr: "son: ir: -trace: the trace is of pass sccp, which does not run with -after build\n" + hint("ir")},
		{name: "trace and stats", args: []string{"ir", "-trace", "-stats", "add.smp"}, code: 2,
			stderr: "son: ir: -trace and -stats cannot be used together: the trace would break the JSON\n" + hint("ir")},
		{name: "stats and level", args: []string{"ir", "-stats", "-level", "son", "add.smp"}, code: 2,
			stderr: "son: ir: -stats reports every pass at every level: it takes no -level\n" + hint("ir")},
		{name: "nodes and level cfg", args: []string{"ir", "-nodes", "-level", "cfg", "add.smp"}, code: 2,
			stderr: "son: ir: -nodes lists the Sea of Nodes: it cannot be used with -level cfg\n" + hint("ir")},
		{name: "nodes and level rtl", args: []string{"ir", "-nodes", "-level", "rtl", "add.smp"}, code: 2,
			stderr: "son: ir: -nodes lists the Sea of Nodes: it cannot be used with -level rtl\n" + hint("ir")},
		{name: "nodes and level gsa", args: []string{"ir", "-nodes", "-level", "gsa", "add.smp"}, code: 2,
			stderr: "son: ir: -nodes lists the Sea of Nodes: it cannot be used with -level gsa\n" + hint("ir")},
		{name: "nodes after gcm", args: []string{"ir", "-nodes", "-level", "son", "add.smp"},
			stdout: "   1 Start        [Ctrl, int]\n   2 Stop         Ctrl         8\n   3 CProj 0      Ctrl         1\n   4 Proj 1 arg   int          1\n" +
				"   6 Constant     1\n   7 Add          int          _ 4 6\n   8 Return       Ctrl         3 7\n"},
		{name: "bad flag value", args: []string{"ir", "-seed", "x", "add.smp"}, code: 2,
			stderr: "son: ir: invalid value \"x\" for flag -seed: parse error\n" + hint("ir")},
		{name: "bad steps", args: []string{"run", "-steps", "0", "add.smp"}, code: 2,
			stderr: "son: run: -steps must be positive, not 0\n" + hint("run")},
		{name: "missing file", args: []string{"run"}, code: 2,
			stderr: "son: run: no program file given\n" + hint("run")},
		{name: "missing file ir", args: []string{"ir", "-nodes"}, code: 2,
			stderr: "son: ir: no program file given\n" + hint("ir")},
		{name: "no such file", args: []string{"run", "nosuch.smp"}, code: 2,
			stderr: "son: run: cannot read nosuch.smp: no such file or directory\n" + hint("run")},
		{name: "unreadable file", args: []string{"graph", "adir"}, code: 2,
			stderr: "son: graph: cannot read adir: is a directory\n" + hint("graph")},
		// The argument follows the rules of an integer literal.
		{name: "bad arg", args: []string{"run", "add.smp", "abc"}, code: 2,
			stderr: "son: run: bad argument \"abc\": want an integer literal such as 42, -7 or 0x2A\n" + hint("run")},
		{name: "arg too big", args: []string{"run", "add.smp", "9223372036854775808"}, code: 2,
			stderr: "son: run: bad argument \"9223372036854775808\": integer literal out of range: 9223372036854775808\n" + hint("run")},
		{name: "plus arg", args: []string{"run", "add.smp", "+5"}, code: 2,
			stderr: "son: run: bad argument \"+5\": want an integer literal such as 42, -7 or 0x2A\n" + hint("run")},
		{name: "leading zero arg", args: []string{"run", "add.smp", "007"}, code: 2,
			stderr: "son: run: bad argument \"007\": integer literal cannot start with 0\n" + hint("run")},
		{name: "bad hex arg", args: []string{"run", "add.smp", "0x1g"}, code: 2,
			stderr: "son: run: bad argument \"0x1g\": invalid character 'g' in integer literal\n" + hint("run")},
		{name: "too many args", args: []string{"run", "add.smp", "1", "2"}, code: 2,
			stderr: "son: run: too many arguments: want a program file and at most one integer\n" + hint("run")},
		{name: "too many files", args: []string{"ir", "add.smp", "loop.smp"}, code: 2,
			stderr: "son: ir: too many arguments: want one program file\n" + hint("ir")},
		{name: "unknown pass", args: []string{"ir", "-after", "nope", "add.smp"}, code: 2,
			stderr: "son: ir: unknown pass \"nope\" for -after (passes: build, peephole, sccp, zerocheck, cleanup, gcm, gvn, outssa, amd64; with -via gsa, after gvn: loops, gsa)\n" + hint("ir")},
		{name: "nodes and stats", args: []string{"ir", "-nodes", "-stats", "add.smp"}, code: 2,
			stderr: "son: ir: -nodes and -stats cannot be used together\n" + hint("ir")},
		{name: "unknown output format", args: []string{"graph", "-o", "x.txt", "add.smp"}, code: 2,
			stderr: "son: graph: cannot write x.txt: want a file name ending in .dot, .gv, .svg, .png or .pdf\n" + hint("graph")},
		{name: "no output format", args: []string{"graph", "-o", "x", "add.smp"}, code: 2,
			stderr: "son: graph: cannot write x: want a file name ending in .dot, .gv, .svg, .png or .pdf\n" + hint("graph")},
		{name: "help of unknown command", args: []string{"help", "frob"}, code: 2,
			stderr: "son: unknown command \"frob\"\n" + hint("")},
		{name: "unwritable output", args: []string{"graph", "-o", "nodir/x.dot", "add.smp"}, code: 2,
			stderr: "son graph: cannot write nodir/x.dot: no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runSon(tt.stdin, tt.args...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("son %s\n got exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
					strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

func TestStats(t *testing.T) {
	inDir(t)
	code, stdout, stderr := runSon("", "ir", "-stats", "loop.smp")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "{\n  \"passes\": [\n    {\n      \"name\": \"build\",") || !strings.HasSuffix(stdout, "}\n") {
		t.Errorf("not indented JSON of the expected shape:\n%s", stdout)
	}
	var report struct {
		Passes []struct {
			Name   string         `json:"name"`
			Nodes  int            `json:"nodes"`
			TimeNS *int64         `json:"time_ns"`
			Ops    map[string]int `json:"ops"`
			Blocks []struct {
				ID        int      `json:"id"`
				LoopDepth int      `json:"loop_depth"`
				Ops       []string `json:"ops"`
			} `json:"blocks"`
			Moves *struct {
				Naive  int `json:"naive"`
				Copies int `json:"copies"`
				Cycles int `json:"cycles"`
			} `json:"moves"`
		} `json:"passes"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&report); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	names := compile.PassNames()
	if len(report.Passes) != len(names) {
		t.Fatalf("%d passes reported, want %d", len(report.Passes), len(names))
	}
	cfgLevel := false // from gcm on
	for i, p := range report.Passes {
		cfgLevel = cfgLevel || p.Name == "gcm"
		if p.Name != names[i] {
			t.Errorf("pass %d is %q, want %q", i, p.Name, names[i])
		}
		// The time varies from run to run: only its presence is sure.
		if p.TimeNS == nil || *p.TimeNS < 0 {
			t.Errorf("%s: time_ns missing or negative", p.Name)
		}
		sum := 0
		for _, n := range p.Ops {
			sum += n
		}
		if p.Nodes <= 0 || sum != p.Nodes {
			t.Errorf("%s: %d nodes, ops add up to %d", p.Name, p.Nodes, sum)
		}
		if cfgLevel != (len(p.Blocks) > 0) {
			t.Errorf("%s: %d blocks", p.Name, len(p.Blocks))
		}
		// Out of SSA, the loop's 2 Phis (y and i; x became 1) on 2 edges
		// would take 4 moves; coalescing leaves the one that starts i at
		// 0 in its own register (y has the first Const 0).
		if (p.Name == "outssa") != (p.Moves != nil) || p.Moves != nil && (p.Moves.Naive != 4 || p.Moves.Copies != 1 || p.Moves.Cycles != 0) {
			t.Errorf("%s: moves %+v, want naive 4, copies 1, cycles 0 after outssa only", p.Name, p.Moves)
		}
		if p.Name == "gcm" {
			deep := false
			for _, b := range p.Blocks {
				deep = deep || b.LoopDepth == 1 && strings.Join(b.Ops, " ") == "Phi Phi Lt"
			}
			if !deep || p.Blocks[0].ID != 1 {
				t.Errorf("gcm blocks %+v: want b1 first and a loop head at depth 1 with its 2 Phis and the test", p.Blocks)
			}
		}
		for _, op := range []string{"Start", "Stop", "Loop", "Phi", "Add", "Return"} {
			if p.Ops[op] == 0 {
				t.Errorf("%s: no %s in %v", p.Name, op, p.Ops)
			}
		}
	}
	// The peephole folds 1*2.
	if len(report.Passes) >= 2 && (report.Passes[0].Ops["Mul"] != 1 || report.Passes[1].Ops["Mul"] != 0) {
		t.Errorf("Mul counts %d, %d; want 1, 0", report.Passes[0].Ops["Mul"], report.Passes[1].Ops["Mul"])
	}

	code, stdout, _ = runSon("", "ir", "-stats", "-after", "build", "loop.smp")
	if code != 0 || strings.Count(stdout, `"name"`) != 1 {
		t.Errorf("-after build: exit %d, want one pass:\n%s", code, stdout)
	}
}

func TestNodes(t *testing.T) {
	inDir(t)
	code, stdout, stderr := runSon("", "ir", "-nodes", "add.smp")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{" Start ", " Stop ", " CProj 0 ", " Proj 1 arg ", " Constant ", " Add ", " Return "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("listing lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "\n"); n != 7 {
		t.Errorf("%d lines, want 7:\n%s", n, stdout)
	}
}

func TestCheck(t *testing.T) {
	inDir(t)
	u, err := compile.Compile("loop.smp", []byte(programs["loop.smp"]), compile.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, st := range u.Stats {
		fmt.Fprintf(&want, "%s: verified (%d nodes)\n", st.Name, st.Nodes)
	}
	p, err := amd64.Compile(u.Func, u.Name, u.Src, amd64.CheckAll)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&want, "regalloc: checked (%d moves left, %d registers spilled)\n", p.Alloc.Moves, p.Alloc.Spilled)
	want.WriteString("OK\n")
	code, stdout, stderr := runSon("", "check", "loop.smp")
	if code != 0 || stdout != want.String() || stderr != "" {
		t.Errorf("got exit %d, stdout %q, stderr %q; want stdout %q", code, stdout, stderr, want.String())
	}
	if !strings.HasPrefix(stdout, "build: verified (") {
		t.Errorf("no build line: %q", stdout)
	}
}

// TestCompileError reports the failure of a verifier as an internal error.
func TestCompileError(t *testing.T) {
	var stderr strings.Builder
	s := &session{stderr: &stderr}
	code := s.compileError(&compile.CheckError{Pass: "build", Err: errors.New("Phi#9 has 2 inputs, its Region 3")})
	if want := "son: internal error: after pass build: Phi#9 has 2 inputs, its Region 3\n"; code != 3 || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want 3, %q", code, stderr.String(), want)
	}
}

// TestGraphCFG: after gcm, graph draws the basic blocks (the default
// there), each block a box of its printed lines, branches labeled, the
// back edge dashed; -level son draws the graph instead. After outssa (the
// last pass) it draws the RTL blocks, moves and no Phis.
func TestGraphCFG(t *testing.T) {
	inDir(t)
	want := strings.Join([]string{
		`digraph "loop.smp" {`,
		`	label="loop.smp after gcm";`,
		`	labelloc=t;`,
		`	node [shape=box, fontname="Courier", fontsize=10];`,
		`	edge [fontname="Helvetica", fontsize=9];`,
		`	n0 [label="b1:  ; entry, depth 0\l    v4 = Arg\l    v6 = Const 1\l    v7 = Const 0\l    v21 = Const 2\l    jump b2\l", style=bold];`,
		`	n1 [label="b2:  ; preds b1 b3, depth 1\l    v10 = Phi v7 v23         ; line 4\l    v11 = Phi v7 v24         ; line 4\l    v12 = Lt v11 v4          ; line 4\l    branch v12 b3 b4         ; line 4\l"];`,
		`	n2 [label="b3:  ; preds b2, depth 1\l    v23 = Add v10 v21        ; line 5\l    v24 = Add v11 v6         ; line 7\l    jump b2\l"];`,
		`	n3 [label="b4:  ; preds b2, depth 0\l    return v10               ; line 9\l"];`,
		`	n0 -> n1;`,
		`	n1 -> n2 [label="T"];`,
		`	n1 -> n3 [label="F"];`,
		`	n2 -> n1 [style=dashed];`,
		`}`,
	}, "\n") + "\n"
	for _, args := range [][]string{{"graph", "-after", "gcm", "loop.smp"}, {"graph", "-after", "gcm", "-level", "cfg", "loop.smp"}} {
		code, stdout, stderr := runSon("", args...)
		if code != 0 || stderr != "" || stdout != want {
			t.Errorf("son %s: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", strings.Join(args, " "), code, stderr, stdout, want)
		}
	}
	for _, args := range [][]string{{"graph", "loop.smp"}, {"graph", "-after", "outssa", "-level", "rtl", "loop.smp"}} {
		code, stdout, stderr := runSon("", args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, `label="loop.smp after outssa";`) ||
			!strings.Contains(stdout, `v7 = Add v7 v21`) || !strings.Contains(stdout, `v11 = Const 0\l    jump b2`) || strings.Contains(stdout, "Phi") {
			t.Errorf("son %s: exit %d, stderr %q, want the RTL blocks, stdout:\n%s", strings.Join(args, " "), code, stderr, stdout)
		}
	}
	code, stdout, _ := runSon("", "graph", "-after", "gcm", "-level", "son", "loop.smp")
	if code != 0 || !strings.Contains(stdout, `label="loop.smp after gcm";`) || !strings.Contains(stdout, "Phi") || strings.Contains(stdout, "b1:") {
		t.Errorf("-level son: exit %d, want the Sea of Nodes, got:\n%s", code, stdout)
	}
}

func TestGraph(t *testing.T) {
	dir := inDir(t)
	code, stdout, stderr := runSon("", "graph", "add.smp")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "digraph ") || !strings.HasSuffix(stdout, "}\n") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	passes := compile.PassNames()
	if !strings.Contains(stdout, `label="add.smp after `+passes[len(passes)-1]+`";`) {
		t.Errorf("no title:\n%s", stdout)
	}
	_, after, _ := runSon("", "graph", "-after", "build", "add.smp")
	if !strings.Contains(after, `label="add.smp after build";`) {
		t.Errorf("-after build: no title:\n%s", after)
	}

	code, out, stderr := runSon("", "graph", "-o", "x.dot", "add.smp")
	if code != 0 || out != "" || stderr != "" {
		t.Fatalf("-o x.dot: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "x.dot")); err != nil || string(b) != stdout {
		t.Errorf("x.dot holds %q (%v), want what graph writes to stdout", b, err)
	}
}

func TestGraphNoDot(t *testing.T) {
	dir := inDir(t)
	t.Setenv("PATH", t.TempDir())
	code, stdout, stderr := runSon("", "graph", "-o", "x.svg", "add.smp")
	want := "son graph: cannot write x.svg: the Graphviz 'dot' program is not installed (install graphviz, or use -o x.dot)\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("got exit %d, stdout %q, stderr %q; want exit 2, stderr %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.svg")); err == nil {
		t.Errorf("x.svg written")
	}
}

// TestGraphFakeDot renders through a stand-in for dot that copies its
// input to its -o file and notes its arguments.
func TestGraphFakeDot(t *testing.T) {
	dir := inDir(t)
	bin := t.TempDir()
	argsFile := filepath.Join(bin, "args")
	script := `#!/bin/sh
out=
prev=
for a in "$@"; do
	if [ "$prev" = "-o" ]; then out=$a; fi
	prev=$a
done
printf '%s\n' "$*" > '` + argsFile + `'
while IFS= read -r line; do printf '%s\n' "$line"; done > "$out"
`
	if err := os.WriteFile(filepath.Join(bin, "dot"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	_, dotText, _ := runSon("", "graph", "add.smp")
	for _, format := range []string{"svg", "png", "pdf"} {
		name := "x." + format
		code, stdout, stderr := runSon("", "graph", "-o", name, "add.smp")
		if code != 0 || stdout != "" || stderr != "" {
			t.Errorf("-o %s: exit %d, stdout %q, stderr %q", name, code, stdout, stderr)
			continue
		}
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != dotText {
			t.Errorf("%s holds %q (%v), want the DOT text", name, b, err)
		}
		if b, err := os.ReadFile(argsFile); err != nil || string(b) != "-T"+format+" -o "+name+"\n" {
			t.Errorf("dot called with %q (%v)", b, err)
		}
	}

	// A dot that fails.
	if err := os.WriteFile(filepath.Join(bin, "dot"), []byte("#!/bin/sh\necho 'Error: syntax error in line 1' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runSon("", "graph", "-o", "y.svg", "add.smp")
	if want := "son graph: cannot write y.svg: dot -Tsvg failed: Error: syntax error in line 1\n"; code != 3 || stderr != want {
		t.Errorf("failing dot: exit %d, stderr %q; want 3, %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "y.svg")); err == nil {
		t.Errorf("y.svg left behind")
	}
}

func TestShowGraph(t *testing.T) {
	inDir(t)
	code, stdout, stderr := runSon("", "run", "show.smp", "3")
	if code != 0 || stdout != "1\n" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	graphs := strings.SplitAfter(stderr, "\n}\n")
	if len(graphs) != 3 || graphs[2] != "" {
		t.Fatalf("want two DOT graphs on stderr, got:\n%s", stderr)
	}
	for i, line := range []int{3, 6} {
		g := graphs[i]
		if !strings.HasPrefix(g, `digraph "show.smp" {`) {
			t.Errorf("graph %d does not start as a digraph:\n%s", i, g)
		}
		if want := fmt.Sprintf("label=\"#showGraph at line %d\";", line); !strings.Contains(g, want) {
			t.Errorf("graph %d lacks %s:\n%s", i, want, g)
		}
		if !strings.Contains(g, "shape=record") || !strings.Contains(g, "<p0> $ctrl") || !strings.Contains(g, "<p2> x") {
			t.Errorf("graph %d has no scope record:\n%s", i, g)
		}
	}
}

// TestDocListsCommands: the package doc (go doc son/cmd/son) lists the
// commands as son help does, word for word.
func TestDocListsCommands(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var help strings.Builder
	(&session{}).usage(&help)
	list := func(text string) string {
		_, after, ok := strings.Cut(text, "The commands are:\n\n")
		before, _, ok2 := strings.Cut(after, "\n\n")
		if !ok || !ok2 {
			t.Fatalf("no list of commands in:\n%s", text)
		}
		return before
	}
	if got, want := list(string(doc)), list(help.String()); got != want {
		t.Errorf("doc.go lists the commands as\n%s\nson help as\n%s", got, want)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "help"}} {
		code, stdout, stderr := runSon("", args...)
		if code != 0 || stderr != "" {
			t.Errorf("son %v: exit %d, stderr %q", args, code, stderr)
		}
		names := []string{"help"}
		for _, c := range commands {
			names = append(names, c.name)
		}
		_, list, _ := strings.Cut(stdout, "The commands are:\n")
		list, _, _ = strings.Cut(list, "\n\n")
		for _, want := range names {
			if !strings.Contains(list, "\n\t"+want+" ") {
				t.Errorf("son %v: no command %q in:\n%s", args, want, stdout)
			}
		}
		passes := compile.PassNames()
		for _, p := range compile.GSAPasses {
			passes = append(passes, p.Name)
		}
		for _, p := range passes {
			if !strings.Contains(stdout, "\n\t"+p+" ") {
				t.Errorf("son %v: no pass %q in:\n%s", args, p, stdout)
			}
		}
		for _, want := range []string{"0  success", "1  runtime error", "2  bad source", "3  internal error"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("son %v: no exit status %q", args, want)
			}
		}
	}

	code, stdout, stderr := runSon("")
	_, help, _ := runSon("", "help")
	if code != 2 || stdout != "" || stderr != help {
		t.Errorf("son with no arguments: exit %d, stdout %q, stderr %q; want 2 and the help on stderr", code, stdout, stderr)
	}

	for _, c := range commands {
		for _, args := range [][]string{{c.name, "-h"}, {"help", c.name}} {
			code, stdout, stderr := runSon("", args...)
			if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: son "+c.name+" [flags] ") ||
				!strings.Contains(stdout, "\nFlags:\n") || !strings.Contains(stdout, "-seed N") {
				t.Errorf("son %v: exit %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
			}
		}
	}
	_, stdout, _ = runSon("", "run", "-h")
	for _, f := range []string{"-after PASS", "-steps N", "-check", "-seed N", "-level son", "ast (the syntax tree, before any pass)", "-level ast"} {
		if !strings.Contains(stdout, f) {
			t.Errorf("son run -h lacks %s", f)
		}
	}
	// What each command says it prints at each level (the outputs
	// themselves are tested above and in TestGraphCFG).
	for cmd, wants := range map[string][]string{
		"ir": {"from pass gcm on (so by default), the basic blocks",
			"after outssa (the last pass) at the RTL level",
			"before gcm, or with -level son, the Sea of Nodes read back",
			"-level cfg before gcm, or -level rtl before outssa, is an error", "every live node of the Sea of Nodes instead (after\ngcm too)",
			"nanoseconds (time_ns", "sccp there is nothing to trace, and -trace is an error."},
		"graph": {"from pass gcm on (so by default), the control flow graph",
			"before gcm, or with -level son, the Sea of Nodes"},
		"check": {"through every pass, or up to -after PASS", "-after PASS\n"},
	} {
		_, stdout, _ := runSon("", "help", cmd)
		for _, want := range wants {
			if !strings.Contains(stdout, want) {
				t.Errorf("son help %s lacks %q:\n%s", cmd, want, stdout)
			}
		}
	}
}

func TestSCCPFlags(t *testing.T) {
	inDir(t)
	const unproved = "return Phi(Loop,1,Phi(Region,2,Phi_x));\n"
	for _, c := range []struct {
		args   []string
		stdout string
	}{
		{[]string{"ir", "-level", "son", "paper001.smp"}, "return 1;\n"},
		{[]string{"ir", "-level", "son", "-sccp", "combined", "paper001.smp"}, "return 1;\n"},
		{[]string{"ir", "-level", "son", "-sccp", "const", "paper001.smp"}, unproved},
		{[]string{"ir", "-level", "son", "-sccp", "reach", "paper001.smp"}, unproved},
		{[]string{"ir", "-level", "son", "-sccp", "iterated", "paper001.smp"}, unproved},
		{[]string{"ir", "-after", "peephole", "paper001.smp"}, unproved},
		{[]string{"run", "-sccp", "const", "paper001.smp", "4"}, "1\n"},
	} {
		code, stdout, stderr := runSon("", c.args...)
		if code != 0 || stdout != c.stdout || stderr != "" {
			t.Errorf("son %s: exit %d, stdout %q, stderr %q; want %q", strings.Join(c.args, " "), code, stdout, stderr, c.stdout)
		}
	}

	// -trace prints the analysis step by step, then the graph.
	code, stdout, stderr := runSon("", "ir", "-trace", "-level", "son", "paper001.smp")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "step  node") || !strings.HasSuffix(stdout, "return 1;\n") ||
		!strings.Contains(stdout, "Phi x          Top -> 1") {
		t.Errorf("-trace: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	// Without the sccp pass there is nothing to trace: an error, where
	// the trace used to be left out without a word.
	code, stdout, stderr = runSon("", "ir", "-trace", "-after", "peephole", "paper001.smp")
	if want := "son: ir: -trace: the trace is of pass sccp, which does not run with -after peephole\n" + hint("ir"); code != 2 || stdout != "" || stderr != want {
		t.Errorf("-trace -after peephole: exit %d, stdout %q, stderr %q; want 2, stderr %q", code, stdout, stderr, want)
	}
	// Stopping at sccp, or after it, keeps the trace.
	for _, after := range []string{"sccp", "gcm", "loops", "gsa"} {
		code, stdout, stderr = runSon("", "ir", "-trace", "-level", "son", "-after", after, "paper001.smp")
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "step  node") || !strings.HasSuffix(stdout, "return 1;\n") {
			t.Errorf("-trace -after %s: exit %d, stderr %q, stdout:\n%s", after, code, stderr, stdout)
		}
	}

	code, _, stderr = runSon("", "ir", "-sccp", "best", "paper001.smp")
	if want := "son: ir: -sccp: unknown analysis \"best\" (want combined, const, reach or iterated)\n" + hint("ir"); code != 2 || stderr != want {
		t.Errorf("bad -sccp: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestSCCPModesIssue12: issue 12's program, with every analysis, checked
// or not: 0, where the const and iterated modes used to exit 3 with a
// check of the combined equations.
func TestSCCPModesIssue12(t *testing.T) {
	dir := inDir(t)
	if err := os.WriteFile(filepath.Join(dir, "issue12.smp"), []byte("int x; while (arg) x = -x; if (x) return 1;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"combined", "const", "reach", "iterated"} {
		for _, args := range [][]string{
			{"run", "-sccp", mode, "issue12.smp"},
			{"run", "-check", "-sccp", mode, "issue12.smp"},
			{"run", "-check", "-level", "son", "-sccp", mode, "issue12.smp"},
			{"ir", "-check", "-level", "son", "-sccp", mode, "issue12.smp"},
		} {
			want := "0\n"
			switch {
			case args[0] == "ir" && mode == "reach": // x is not known without constants
				want = "Stop[ return 1; return 0; ]\n"
			case args[0] == "ir":
				want = "return 0;\n"
			}
			code, stdout, stderr := runSon("", args...)
			if code != 0 || stdout != want || stderr != "" {
				t.Errorf("son %s: exit %d, stdout %q, stderr %q; want %q", strings.Join(args, " "), code, stdout, stderr, want)
			}
		}
	}
}

// TestSourceLimit: a program over maxSource bytes, from a file, standard
// input or an endless device, is refused with a message and exit 2 after
// reading one byte past the limit; one of exactly maxSource bytes is read.
func TestSourceLimit(t *testing.T) {
	dir := inDir(t)
	defer func(old int64) { maxSource = old }(maxSource)
	maxSource = 16
	prog := "return arg+1;  " // 15 bytes
	os.WriteFile(filepath.Join(dir, "fits.smp"), []byte(prog+" "), 0o644)
	os.WriteFile(filepath.Join(dir, "big.smp"), []byte(prog+"  "), 0o644)
	tests := []struct {
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{args: []string{"run", "fits.smp", "4"}, stdout: "5\n"},
		{args: []string{"run", "big.smp"}, code: 2,
			stderr: "son: run: cannot read big.smp: program too large: over 16 bytes\n" + hint("run")},
		{stdin: prog + "  ", args: []string{"check", "-"}, code: 2,
			stderr: "son: check: cannot read standard input: program too large: over 16 bytes\n" + hint("check")},
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		tests = append(tests, struct {
			stdin  string
			args   []string
			code   int
			stdout string
			stderr string
		}{args: []string{"build", "-o", "z", "/dev/zero"}, code: 2,
			stderr: "son: build: cannot read /dev/zero: program too large: over 16 bytes\n" + hint("build")})
	}
	for _, tt := range tests {
		code, stdout, stderr := runSon(tt.stdin, tt.args...)
		if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
			t.Errorf("son %v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
}

// TestBackendChecks: the commands that make machine code (son build,
// asm, run -level native, ir -after machine) check the register
// allocation always and the instruction selection only with -check;
// son check always checks both (TestCheck).
func TestBackendChecks(t *testing.T) {
	s := &session{stdout: io.Discard, stderr: io.Discard}
	for _, name := range []string{"build", "asm", "run", "ir"} {
		for _, check := range []bool{false, true} {
			args := []string{"p.smp"}
			if check {
				args = append([]string{"-check"}, args...)
			}
			f, _, _, ok := s.parseFlags(lookup(name), args)
			if !ok {
				t.Fatalf("son %s %v: the flags do not parse", name, args)
			}
			got := backendChecks(f)
			if got&amd64.CheckAllocation == 0 {
				t.Errorf("son %s %v: the allocation is not checked", name, args)
			}
			if sel := got&amd64.CheckSelected != 0; sel != check {
				t.Errorf("son %s %v: the selection checked %v, want %v", name, args, sel, check)
			}
		}
	}
}
