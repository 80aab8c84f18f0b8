package main

import "testing"

// TestVia: son run and son ir -via rtl, the second way in.
func TestVia(t *testing.T) {
	inDir(t)
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
		{name: "ir", args: []string{"ir", "-via", "rtl", "add.smp"},
			stdout: "func add.smp level SSA\nb1:  ; entry, depth 0\n\tv1 = Arg\n\tv2 = Const 1\n\tv3 = Add v1 v2           ; line 1\n\treturn v3                ; line 1\n"},
		{name: "ir rtl", args: []string{"ir", "-via", "rtl", "-level", "rtl", "add.smp"},
			stdout: "func add.smp level RTL\nb1:  ; entry, depth 0\n\tv1 = Arg\n\tv2 = Const 1\n\tv3 = Add v1 v2           ; line 1\n\treturn v3                ; line 1\n"},
		{name: "source error", args: []string{"run", "-via", "rtl", "undef.smp"}, code: 2,
			stderr: "undef.smp:2:8: undefined name 'y'\nundef.smp:3:4: undefined name 'z'\n"},
		{name: "bad via", args: []string{"run", "-via", "stack", "add.smp"}, code: 2,
			stderr: "son: run: -via: want rtl, not \"stack\"\n" + hint("run")},
		{name: "bad flavour", args: []string{"ir", "-via", "rtl", "-ssa", "maximal", "add.smp"}, code: 2,
			stderr: "son: ir: -ssa: want minimal, semi-pruned or pruned, not \"maximal\"\n" + hint("ir")},
		{name: "after", args: []string{"ir", "-via", "rtl", "-after", "gcm", "add.smp"}, code: 2,
			stderr: "son: ir: -after gcm cannot go with -via rtl, which runs no pass of the graph pipeline\n" + hint("ir")},
		{name: "stats", args: []string{"ir", "-via", "rtl", "-stats", "add.smp"}, code: 2,
			stderr: "son: ir: -nodes, -stats and -trace are about the graph pipeline: they cannot go with -via rtl\n" + hint("ir")},
		{name: "level ast", args: []string{"run", "-via", "rtl", "-level", "ast", "add.smp"}, code: 2,
			stderr: "son: run: -level ast cannot go with -via rtl, which runs basic blocks\n" + hint("run")},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runSon("", c.args...)
			if code != c.code || stdout != c.stdout || stderr != c.stderr {
				t.Errorf("son %v:\ngot  %d %q %q\nwant %d %q %q", c.args, code, stdout, stderr, c.code, c.stdout, c.stderr)
			}
		})
	}
}
