package main

import (
	"errors"
	"flag"
	"fmt"

	"son/cfg"
	"son/gsa"
	"son/ref"
	"son/son"
	"son/syntax"
)

var cmdRun = &command{
	name:    "run",
	maxArgs: 2,
	want:    "a program file and at most one integer",
	args:    "prog.smp [arg]",
	short:   "compile a program and run it, printing the value it returns",
	long: `Run compiles prog.smp (all passes, or up to -after PASS), runs the graph in
its interpreter (son.Run) with the integer argument arg (0 when omitted)
and prints the value the program returns. arg is written as in a program:
an integer literal, decimal or hexadecimal, optionally preceded by a minus
sign (42, -7, 0x2A, -9223372036854775808); no '+' and no leading zero
(007 is an error, as it is in a program).

-level cfg runs the SSA basic blocks instead (from pass gcm on), -level gsa
their gated SSA form in its interpreter (gsa.Run: the passes loops and gsa
run after gvn, as with -via gsa), -level rtl
the RTL blocks of pass outssa (the last pass), -level native the x86-64
executable that son build writes (built to a temporary file; Linux x86-64
only). -level ast
compiles nothing: it parses prog.smp and runs its syntax tree in the
reference semantics of Simple (package ref, written from the language
reference, sharing no code with the compiler), the oracle the tests
compare every level with. No pass runs, so -after cannot go with it, and
-check, -sccp, -seed, -via, -ssa and #showGraph have nothing to act on.

A division by zero, or running out of steps, is a runtime error of the
program: it is reported as "prog.smp:line:col: runtime error: ..." and the
exit status is 1. A step is one operation performed, at every level: a move
of control or a data node evaluated in the graph, a phi assigned or an
instruction or terminator executed in basic blocks, a statement executed or
an expression node evaluated in the syntax tree. The default, 100000000,
stops any program within a few seconds.

-via rtl builds the graph the second way in: the program lowered straight
to RTL, put in SSA form in the flavour of -ssa (minimal, semi-pruned or
pruned, the default), validated, and translated into the Sea of Nodes;
the other passes run as usual. A file named *.rtl holds an RTL function in
cfg's text form and takes that way from SSA generation on; its errors (a
malformed line, an unreachable block, a register read where it may be
unassigned) are reported at their line, with exit status 2.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		fs.Int64Var(&f.steps, "steps", son.DefaultSteps, "stop with a runtime error after `N` steps, one per operation performed (see son help run)")
		checkFlag(fs, f)
		fs.StringVar(&f.level, "level", "son", "the level to run: `son` (the Sea of Nodes), cfg (SSA basic blocks, from pass gcm on), rtl (after outssa), gsa (gated SSA, in its interpreter), native (the x86-64 executable) or ast (the syntax tree, before any pass)")
		sccpFlag(fs, f)
		seedFlag(fs, f)
		viaFlags(fs, f)
	},
	run: runRun,
}

func runRun(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	if f.steps <= 0 {
		return s.usageError(cmd.name, "-steps must be positive, not %d", f.steps)
	}
	var arg int64
	if len(args) == 2 {
		var err error
		if arg, err = syntax.ParseInt(args[1]); err != nil {
			return s.usageError(cmd.name, "bad argument %q: %v", args[1], err)
		}
	}
	switch f.level {
	case "ast":
		if f.after != "" {
			return s.usageError(cmd.name, "-after %s cannot go with -level ast, which runs the syntax tree before any pass", f.after)
		}
		return s.runAST(cmd, args[0], arg, f.steps)
	case "native":
		if f.after != "" {
			return s.usageError(cmd.name, "-after %s cannot go with -level native, which runs every pass", f.after)
		}
		return s.runNative(cmd, args[0], f, arg)
	} // any other level was checked with the flags (checkFlags)
	u, code, ok := s.compile(cmd, args[0], f, f.check)
	if !ok {
		return code
	}
	if g, code, ok := s.gsaLevel(cmd, f, u); g != nil || !ok {
		if !ok {
			return code
		}
		v, err := gsa.Run(g, arg, cfg.Limits{Steps: f.steps})
		return s.runResult(u.Name, v, err)
	}
	level, code, ok := s.level(cmd, f, u)
	if !ok {
		return code
	}
	var v int64
	var err error
	if fn := levelFunc(u, level); fn != nil {
		v, err = cfg.Run(fn, arg, cfg.Limits{Steps: f.steps})
	} else {
		v, err = son.Run(u.Graph, arg, son.Limits{Steps: f.steps})
	}
	return s.runResult(u.Name, v, err)
}

// runAST is son run -level ast: it parses the program at path and runs
// its syntax tree in the reference semantics.
func (s *session) runAST(cmd *command, path string, arg, steps int64) int {
	name, src, err := s.readProgram(path)
	if err != nil {
		return s.usageError(cmd.name, "%v", err)
	}
	f, err := syntax.Parse(name, src)
	if err != nil {
		return s.compileError(err)
	}
	v, err := ref.Run(f, arg, ref.Limits{Steps: steps})
	return s.runResult(name, v, err)
}

// runResult prints the outcome of running the program name: its value,
// or its runtime error at its position (exit status 1), or an internal
// error of the interpreter (exit status 3).
func (s *session) runResult(name string, v int64, err error) int {
	if err != nil {
		var re *son.RuntimeError
		var cre *cfg.RuntimeError
		var rre *ref.RuntimeError
		var pos syntax.Pos
		switch {
		case errors.As(err, &re):
			pos = re.Pos
		case errors.As(err, &cre):
			pos = cre.Pos
		case errors.As(err, &rre):
			pos = rre.Pos
		default:
			// The interpreter found the program malformed.
			fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
			return exitInternal
		}
		if pos.IsKnown() {
			fmt.Fprintf(s.stderr, "%s:%d:%d: %v\n", name, pos.Line, pos.Col, err)
		} else {
			fmt.Fprintf(s.stderr, "%s: %v\n", name, err)
		}
		return exitRuntime
	}
	fmt.Fprintln(s.stdout, v)
	return exitOK
}
