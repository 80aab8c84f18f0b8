package main

import (
	"os"
	"strings"
	"testing"
)

// rtlFiles are RTL functions for son run and ir, good and bad.
var rtlFiles = map[string]string{
	"loop.rtl": "func f level RTL\nb1:\n\tv1 = Arg\n\tv2 = Const 0\n\tjump b2\nb2:\n\tv3 = Lt v2 v1\n\tbranch v3 b3 b4\n" +
		"b3:\n\tv4 = Const 1\n\tv2 = Add v2 v4\n\tjump b2\nb4:\n\treturn v2\n",
	"unassigned.rtl":  "func f level RTL\nb1:\n\tv1 = Arg\n\tbranch v1 b2 b3\nb2:\n\tv2 = Const 1\n\tjump b4\nb3:\n\tjump b4\n; a comment\nb4:\n\treturn v2\n",
	"unreachable.rtl": "func f level RTL\nb1:\n\tv1 = Arg\n\treturn v1\nb2:\n\treturn v1\n",
	"malformed.rtl":   "func f level RTL\nb1:\n\tv1 = Arg\n\tv2 = Frob v1\n\treturn v2\n",
	"ssa.rtl":         "func f level SSA\nb1:\n\tv1 = Arg\n\treturn v1\n",
	"unchecked.rtl":   "func f level RTL\nb1:\n\tv1 = Arg\n\tv2 = Const 0\n\tv3 = Div v1 v2\n\treturn v3\n",
}

// TestVia: son run, ir and check -via rtl, the second way in, and .rtl
// files.
func TestVia(t *testing.T) {
	inDir(t)
	for name, src := range rtlFiles {
		if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{name: "run", args: []string{"run", "-via", "rtl", "loop.smp", "3"}, stdout: "6\n"},
		{name: "run minimal", args: []string{"run", "-via", "rtl", "-ssa", "minimal", "paper001.smp", "4"}, stdout: "1\n"},
		{name: "run division by zero", args: []string{"run", "-via", "rtl", "div.smp"}, code: 1,
			stderr: "div.smp:2:11: runtime error: division by zero\n"},
		{name: "run step limit", args: []string{"run", "-via", "rtl", "-steps", "100", "inf.smp"}, code: 1,
			stderr: "inf.smp: runtime error: step limit exceeded (100 steps)\n"},
		{name: "ir", args: []string{"ir", "-via", "rtl", "-level", "son", "loop.smp"}, stdout: "return Phi(Loop,0,(Phi_9+2));\n"},
		{name: "ir ssa", args: []string{"ir", "-via", "rtl", "-level", "via-ssa", "add.smp"},
			stdout: "func add.smp level SSA\nb1:  ; entry, depth 0\n\tv1 = Arg\n\tv2 = Const 1\n\tv3 = Add v1 v2           ; line 1\n\treturn v3                ; line 1\n"},
		{name: "ir rtl", args: []string{"ir", "-via", "rtl", "-level", "via-rtl", "add.smp"},
			stdout: "func add.smp level RTL\nb1:  ; entry, depth 0\n\tv1 = Arg\n\tv2 = Const 1\n\tv3 = Add v1 v2           ; line 1\n\treturn v3                ; line 1\n"},
		{name: "ir via-rtl without via", args: []string{"ir", "-level", "via-rtl", "add.smp"}, code: 2,
			stderr: "son: ir: -level via-rtl: the program did not take the second way in (give -via rtl, or an .rtl file)\n" + hint("ir")},
		{name: "ir via-ssa with via gsa", args: []string{"ir", "-via", "gsa", "-level", "via-ssa", "add.smp"}, code: 2,
			stderr: "son: ir: -level via-ssa: the program did not take the second way in (give -via rtl, or an .rtl file)\n" + hint("ir")},
		{name: "run after build", args: []string{"run", "-via", "rtl", "-after", "build", "loop.smp", "3"}, stdout: "6\n"},
		{name: "check", args: []string{"check", "-via", "rtl", "-ssa", "semi-pruned", "add.smp"},
			stdout: "build: verified (7 nodes)\npeephole: verified (7 nodes)\nsccp: verified (7 nodes)\nzerocheck: verified (7 nodes)\ncleanup: verified (7 nodes)\ngcm: verified (7 nodes)\ngvn: verified (7 nodes)\noutssa: verified (7 nodes)\nregalloc: checked (0 moves left, 0 registers spilled)\nOK\n"},
		{name: "source error", args: []string{"run", "-via", "rtl", "undef.smp"}, code: 2,
			stderr: "undef.smp:2:8: undefined name 'y'\nundef.smp:3:4: undefined name 'z'\n"},
		{name: "bad via", args: []string{"run", "-via", "stack", "add.smp"}, code: 2,
			stderr: "son: run: -via: want rtl or gsa, not \"stack\"\n" + hint("run")},
		{name: "bad flavour", args: []string{"ir", "-via", "rtl", "-ssa", "maximal", "add.smp"}, code: 2,
			stderr: "son: ir: -ssa: want minimal, semi-pruned or pruned, not \"maximal\"\n" + hint("ir")},
		{name: "rtl file", args: []string{"run", "loop.rtl", "5"}, stdout: "5\n"},
		{name: "rtl file minimal", args: []string{"run", "-ssa", "minimal", "loop.rtl", "7"}, stdout: "7\n"},
		{name: "rtl file ir", args: []string{"ir", "-level", "via-ssa", "loop.rtl"},
			stdout: "func f level SSA\nb1:  ; entry, depth 0\n\tv1 = Arg\n\tv2 = Const 0\n\tjump b2\nb2:  ; preds b1 b3, depth 0\n\tv3 = Phi v2 v6\n\tv4 = Lt v3 v1\n\tbranch v4 b3 b4\n" +
				"b3:  ; preds b2, depth 0\n\tv5 = Const 1\n\tv6 = Add v3 v5\n\tjump b2\nb4:  ; preds b2, depth 0\n\treturn v3\n"},
		{name: "rtl division no Check tests", args: []string{"run", "unchecked.rtl"}, code: 2,
			stderr: "unchecked.rtl: b1: v3 = Div v1 v2 divides by v2, which no Check of the block tests\n"},
		{name: "rtl unassigned on a path", args: []string{"run", "unassigned.rtl"}, code: 2,
			stderr: "unassigned.rtl:12: b4: term (return v2): v2 may be used before it is assigned\n"},
		{name: "rtl unreachable block", args: []string{"ir", "unreachable.rtl"}, code: 2,
			stderr: "unreachable.rtl:5: b2: reachable: the block is not reachable from the entry\n"},
		{name: "rtl malformed line", args: []string{"run", "malformed.rtl"}, code: 2,
			stderr: "malformed.rtl:4: unknown op \"Frob\"\n"},
		{name: "rtl file at the SSA level", args: []string{"run", "ssa.rtl"}, code: 2,
			stderr: "ssa.rtl:1: want a function at level RTL, not SSA\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runSon("", c.args...)
			if code != c.code || stdout != c.stdout || stderr != c.stderr {
				t.Errorf("son %v:\ngot  %d %q %q\nwant %d %q %q", c.args, code, stdout, stderr, c.code, c.stdout, c.stderr)
			}
		})
	}
}

// TestRTLFileAsm: son asm, which has no -ssa flag, takes an .rtl file the
// second way in with the default flavour (it once asked for a flavour "").
func TestRTLFileAsm(t *testing.T) {
	inDir(t)
	if err := os.WriteFile("loop.rtl", []byte(rtlFiles["loop.rtl"]), 0o666); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSon("", "asm", "loop.rtl")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, %q", code, errs)
	}
	for _, want := range []string{"\tcmp ", "\tret\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
