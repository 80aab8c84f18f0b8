package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"

	"son/cfg"
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
the reference interpreter with the integer argument arg (decimal, may be
negative; 0 when omitted) and prints the value the program returns.

A division by zero, or running out of steps, is a runtime error of the
program: it is reported as "prog.smp:line:col: runtime error: ..." and the
exit status is 1. A step is one operation performed, at every level: a move
of control or a data node evaluated in the graph, a phi assigned or an
instruction or terminator executed in basic blocks, a statement executed or
an expression node evaluated in the syntax tree. The default, 100000000,
stops any program within a few seconds.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		fs.Int64Var(&f.steps, "steps", son.DefaultSteps, "stop with a runtime error after `N` steps, one per operation performed (see son help run)")
		checkFlag(fs, f)
		levelFlag(fs, f, "son")
		sccpFlag(fs, f)
		seedFlag(fs, f)
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
		if arg, err = strconv.ParseInt(args[1], 10, 64); err != nil {
			return s.usageError(cmd.name, "bad argument %q: want a decimal integer that fits in 64 bits", args[1])
		}
	}
	u, code, ok := s.compile(cmd, args[0], f, f.check)
	if !ok {
		return code
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
	if err != nil {
		var re *son.RuntimeError
		var cre *cfg.RuntimeError
		var pos syntax.Pos
		switch {
		case errors.As(err, &re):
			pos = re.Pos
		case errors.As(err, &cre):
			pos = cre.Pos
		default:
			// The interpreter found the program malformed.
			fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
			return exitInternal
		}
		if pos.IsKnown() {
			fmt.Fprintf(s.stderr, "%s:%d:%d: %v\n", u.Name, pos.Line, pos.Col, err)
		} else {
			fmt.Fprintf(s.stderr, "%s: %v\n", u.Name, err)
		}
		return exitRuntime
	}
	fmt.Fprintln(s.stdout, v)
	return exitOK
}
