package main

import (
	"errors"
	"flag"
	"fmt"

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
the reference interpreter with the integer argument arg (0 when omitted)
and prints the value the program returns. arg is written as in a program:
an integer literal, decimal or hexadecimal, optionally preceded by a minus
sign (42, -7, 0x2A, -9223372036854775808); no '+' and no leading zero
(007 is an error, as it is in a program).

A division by zero, or running out of steps, is a runtime error of the
program: it is reported as "prog.smp:line:col: runtime error: ..." and the
exit status is 1.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		fs.Int64Var(&f.steps, "steps", son.DefaultSteps, "stop with a runtime error after `N` control steps")
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
		if arg, err = syntax.ParseInt(args[1]); err != nil {
			return s.usageError(cmd.name, "bad argument %q: %v", args[1], err)
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
	if level == "cfg" {
		v, err = cfg.Run(u.Func, arg, cfg.Limits{Steps: f.steps})
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
