package main

import "testing"

// TestFlagsBeforeFile: a bad flag is reported before the program file is
// read, for every command: here the file does not exist, and the error
// is still the flag's.
func TestFlagsBeforeFile(t *testing.T) {
	inDir(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-via", "bogus", "x.smp"}, `-via: want rtl or gsa, not "bogus"`},
		{[]string{"run", "-ssa", "maximal", "-via", "rtl", "x.smp", "3"}, `-ssa: want minimal, semi-pruned or pruned, not "maximal"`},
		{[]string{"run", "-level", "asm", "x.smp"}, `-level: want son, cfg, rtl, gsa, native or ast, not "asm"`},
		{[]string{"run", "-level", "gsa", "-after", "loops", "x.smp"}, "-level gsa: there is no gated SSA before pass gsa (stopped after loops)"},
		{[]string{"run", "-sccp", "all", "x.smp"}, `-sccp: unknown analysis "all" (want combined, const, reach or iterated)`},
		{[]string{"ir", "-via", "stack", "x.smp"}, `-via: want rtl or gsa, not "stack"`},
		{[]string{"ir", "-ssa", "maximal", "x.smp"}, `-ssa: want minimal, semi-pruned or pruned, not "maximal"`},
		{[]string{"ir", "-level", "cfg", "-after", "sccp", "x.smp"}, "-level cfg: there are no basic blocks before pass gcm (stopped after sccp)"},
		{[]string{"ir", "-level", "rtl", "-after", "gsa", "x.smp"}, "-level rtl: there is no RTL before pass outssa (stopped after gsa)"},
		{[]string{"ir", "-level", "via-ssa", "-via", "gsa", "x.smp"}, "-level via-ssa: the program did not take the second way in (give -via rtl, or an .rtl file)"},
		{[]string{"ir", "-after", "nope", "x.smp"}, `unknown pass "nope" for -after (passes: build, peephole, sccp, zerocheck, cleanup, gcm, gvn, outssa, amd64; with -via gsa, after gvn: loops, gsa)`},
		{[]string{"graph", "-level", "via-rtl", "x.smp"}, `-level: want son, cfg, rtl or gsa, not "via-rtl"`},
		{[]string{"graph", "-via", "bogus", "x.smp"}, `-via: want rtl or gsa, not "bogus"`},
		{[]string{"check", "-via", "bogus", "x.smp"}, `-via: want rtl or gsa, not "bogus"`},
		{[]string{"check", "-ssa", "maximal", "-via", "rtl", "x.smp"}, `-ssa: want minimal, semi-pruned or pruned, not "maximal"`},
		{[]string{"build", "-sccp", "all", "x.smp"}, `-sccp: unknown analysis "all" (want combined, const, reach or iterated)`},
		{[]string{"asm", "-sccp", "all", "x.smp"}, `-sccp: unknown analysis "all" (want combined, const, reach or iterated)`},
	} {
		want := "son: " + c.args[0] + ": " + c.want + "\n" + hint(c.args[0])
		code, out, errs := runSon("", c.args...)
		if code != 2 || out != "" || errs != want {
			t.Errorf("son %v:\ngot  %d %q %q\nwant 2 \"\" %q", c.args, code, out, errs, want)
		}
	}
	// Good flags: the missing file is the error.
	code, _, errs := runSon("", "run", "-via", "gsa", "-level", "gsa", "x.smp")
	if want := "son: run: cannot read x.smp: no such file or directory\n" + hint("run"); code != 2 || errs != want {
		t.Errorf("good flags: exit %d, stderr %q; want 2, %q", code, errs, want)
	}
}
