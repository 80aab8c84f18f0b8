package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"son/cfg"
	"son/compile"
	"son/opt"
)

// A command is one subcommand of son, as cmd/go's base.Command.
type command struct {
	name string
	args string // what follows the name and flags in the usage line
	// maxArgs is how many arguments may follow the flags (the program
	// file first), and want says what they are, for the error.
	maxArgs int
	want    string
	short   string // one line for the list of commands
	long    string // the paragraphs of its help
	// flags declares the command's flags on fs, storing into f.
	flags func(fs *flag.FlagSet, f *flags)
	// run does the command, given the arguments after its name.
	run func(s *session, cmd *command, args []string) int
}

// flags holds the values of every command's flags; each command declares
// the ones it takes.
type flags struct {
	after string
	check bool
	seed  int64
	steps int64
	nodes bool
	stats bool
	out   string
	sccp  string
	trace bool
	level string
	via   string // -via rtl: see via.go
	ssa   string // the SSA flavour of -via rtl
}

// commands lists the subcommands in the order help shows them.
var commands []*command

func init() {
	commands = []*command{cmdRun, cmdBuild, cmdAsm, cmdIR, cmdGraph, cmdCheck}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usage writes son's help: the commands, the passes and the exit codes.
func (s *session) usage(w io.Writer) {
	var b strings.Builder
	b.WriteString(`Son compiles programs in Cliff Click's Simple language to a Sea of Nodes
graph, then to basic blocks, and runs, prints or draws the program after
any pass.

Usage:

	son <command> [flags] prog.smp

The commands are:

`)
	for _, c := range commands {
		fmt.Fprintf(&b, "\t%-7s %s\n", c.name, c.short)
	}
	fmt.Fprintf(&b, "\t%-7s %s\n", "help", "print this help, or a command's: son help <command>")
	b.WriteString(`
A program file of - is read from standard input (called <stdin> in messages).

The passes, in order, as named by -after PASS:

`)
	width := 0
	for _, name := range compile.PassNames() {
		width = max(width, len(name))
	}
	for _, p := range compile.Passes {
		fmt.Fprintf(&b, "\t%-*s  %s\n", width, p.Name, p.Doc)
	}
	for _, p := range compile.GSAPasses {
		fmt.Fprintf(&b, "\t%-*s  %s\n", width, p.Name, p.Doc)
	}
	b.WriteString(`
Exit status:

	0  success
	1  runtime error of the program (division by zero, step limit)
	2  bad source or bad usage
	3  internal error of son (a failed verifier or checker)

Run 'son help <command>' for more about a command.
`)
	io.WriteString(w, b.String())
}

// commandUsage writes the usage line, help and flags of one command.
func (s *session) commandUsage(w io.Writer, c *command) {
	fs := newFlagSet(c, new(flags))
	fmt.Fprintf(w, "usage: son %s [flags] %s\n\n%s\n", c.name, c.args, c.long)
	fmt.Fprintf(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nExit status: 0 success, 1 runtime error of the program, 2 bad source or\nusage, 3 internal error of son.\n")
}

// help is son help [command].
func (s *session) help(args []string) int {
	switch len(args) {
	case 0:
		s.usage(s.stdout)
		return exitOK
	case 1:
		if c := lookup(args[0]); c != nil {
			s.commandUsage(s.stdout, c)
			return exitOK
		}
		if args[0] == "help" {
			s.usage(s.stdout)
			return exitOK
		}
		return s.usageError("help", "unknown command %q", args[0])
	}
	return s.usageError("help", "too many arguments")
}

// usageError reports bad usage of son or of command cmd ("" for son
// itself) on one line, with a hint where to read more, and returns the
// exit status for it.
func (s *session) usageError(cmd, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	hint := "son help"
	if cmd != "" && cmd != "help" {
		msg = cmd + ": " + msg
		hint = "son help " + cmd
	}
	fmt.Fprintf(s.stderr, "son: %s\nRun '%s' for usage.\n", msg, hint)
	return exitUsage
}

func newFlagSet(c *command, f *flags) *flag.FlagSet {
	fs := flag.NewFlagSet("son "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.flags(fs, f)
	return fs
}

// parseFlags parses the flags of command c and checks the number of
// arguments after them; ok false means the command is over with exit
// status code.
func (s *session) parseFlags(c *command, args []string) (f *flags, rest []string, code int, ok bool) {
	f = new(flags)
	fs := newFlagSet(c, f)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			s.commandUsage(s.stdout, c)
			return nil, nil, exitOK, false
		}
		return nil, nil, s.usageError(c.name, "%v", err), false
	}
	if _, err := opt.ParseMode(f.sccp); f.sccp != "" && err != nil {
		return nil, nil, s.usageError(c.name, "-sccp: %v", err), false
	}
	if f.after != "" && !isPass(f.after) && !(c.name == "ir" && f.after == machineLevel) {
		names := compile.PassNames()
		if c.name == "ir" {
			names = append(names, machineLevel)
		}
		var gsa []string
		for _, p := range compile.GSAPasses {
			gsa = append(gsa, p.Name)
		}
		return nil, nil, s.usageError(c.name, "unknown pass %q for -after (passes: %s; with -via gsa, after gvn: %s)",
			f.after, strings.Join(names, ", "), strings.Join(gsa, ", ")), false
	}
	switch rest := fs.Args(); {
	case len(rest) == 0:
		return nil, nil, s.usageError(c.name, "no program file given"), false
	case len(rest) > c.maxArgs:
		for _, a := range rest[1:] {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && fs.Lookup(name) != nil {
				return nil, nil, s.usageError(c.name, "flag %s after the program file: flags go before it", a), false
			}
		}
		return nil, nil, s.usageError(c.name, "too many arguments: want %s", c.want), false
	}
	if code, ok := s.checkFlags(c, f, fs.Arg(0)); !ok {
		return nil, nil, code, false
	}
	return f, fs.Args(), exitOK, true
}

func isPass(name string) bool {
	for _, p := range compile.PassNames() {
		if p == name {
			return true
		}
	}
	for _, p := range compile.GSAPasses {
		if p.Name == name {
			return true
		}
	}
	return false
}

// passIndex is the position of pass name in the pipeline; "" (no -after:
// every pass runs) is the last. A pass of -via gsa (compile.GSAPasses)
// counts as gvn, which it follows: the passes up to gvn have run.
func passIndex(name string) int {
	names := compile.PassNames()
	if name == "" {
		return len(names) - 1
	}
	for _, p := range compile.GSAPasses {
		if p.Name == name {
			name = "gvn"
		}
	}
	for i, p := range names {
		if p == name {
			return i
		}
	}
	return -1
}

// The flags that several commands share.

func afterFlag(fs *flag.FlagSet, f *flags) {
	fs.StringVar(&f.after, "after", "", "stop after the pass named `PASS` (default: the last pass; see son help)")
}

func checkFlag(fs *flag.FlagSet, f *flags) {
	fs.BoolVar(&f.check, "check", false, "run the verifiers and checkers between passes")
}

func levelFlag(fs *flag.FlagSet, f *flags, def string) {
	fs.StringVar(&f.level, "level", def, "the IR to use: `son` (the Sea of Nodes), cfg (SSA basic blocks, from pass gcm on), rtl (after outssa) or gsa (gated SSA, with -via gsa)")
}

// level returns the IR a command works on: the one asked for, or, when
// none was, the one the last pass produced. ok false means the command is
// over with exit status code.
func (s *session) level(c *command, f *flags, u *compile.Unit) (level string, code int, ok bool) {
	switch f.level {
	case "":
		if u.Func != nil && u.Func.Level == cfg.RTL {
			return "rtl", exitOK, true
		}
		if u.Func != nil {
			return "cfg", exitOK, true
		}
		return "son", exitOK, true
	case "son":
		return "son", exitOK, true
	case "cfg":
		if u.Func == nil {
			return "", s.usageError(c.name, "-level cfg: there are no basic blocks before pass gcm (stopped after %s)", u.Stats[len(u.Stats)-1].Name), false
		}
		return "cfg", exitOK, true
	case "rtl":
		if u.Func == nil || u.Func.Level != cfg.RTL {
			return "", s.usageError(c.name, "-level rtl: there is no RTL before pass outssa (stopped after %s)", u.Stats[len(u.Stats)-1].Name), false
		}
		return "rtl", exitOK, true
	}
	return "", s.usageError(c.name, "-level: want son, cfg, rtl or gsa, not %q", f.level), false
}

// levelFunc is the function of level cfg (the SSA blocks) or rtl, or nil
// for the Sea of Nodes.
func levelFunc(u *compile.Unit, level string) *cfg.Func {
	switch level {
	case "cfg":
		if u.SSA != nil {
			return u.SSA
		}
		return u.Func
	case "rtl":
		return u.Func
	}
	return nil
}

func sccpFlag(fs *flag.FlagSet, f *flags) {
	fs.StringVar(&f.sccp, "sccp", "combined", "the analysis of the sccp pass: `combined`, const, reach or iterated (the halves alone, or alternated)")
}

func seedFlag(fs *flag.FlagSet, f *flags) {
	fs.Int64Var(&f.seed, "seed", 0, "visit the peephole worklist in a pseudo-random order from seed `N` (0: last in, first out)")
}
