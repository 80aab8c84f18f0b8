package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"son/cfg"
	"son/compile"
	"son/son"
)

var cmdIR = &command{
	name:    "ir",
	maxArgs: 1,
	want:    "one program file",
	args:    "prog.smp",
	short:   "print the graph as text: expressions, a node listing, or statistics",
	long: `Ir compiles prog.smp (all passes, or up to -after PASS) and prints the graph
read back from its returns as expressions, in the style of the Simple
tutorial: "return Phi(Region,(arg+2),(arg-3));".

With -nodes it prints every live node instead, one a line by ID: the op
(with its projection index or variable), the type and the input IDs.

With -stats it prints a JSON document of the number of live nodes, in all
and by op, after each pass run:
{"passes": [{"name": "build", "nodes": 12, "ops": {"Add": 1, ...}}, ...]}
From gcm on each pass also lists its blocks, and outssa its moves:
"moves": {"naive": 4, "copies": 1, "cycles": 0}, the moves the naive
scheme would make (one per phi and predecessor), those left after
coalescing, and the cycles broken by a temporary.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		fs.BoolVar(&f.nodes, "nodes", false, "list every node instead of printing expressions")
		fs.BoolVar(&f.stats, "stats", false, "print node counts after each pass as JSON")
		fs.BoolVar(&f.trace, "trace", false, "print the steps of the sccp pass's analysis first")
		checkFlag(fs, f)
		levelFlag(fs, f, "")
		sccpFlag(fs, f)
		seedFlag(fs, f)
	},
	run: runIR,
}

func runIR(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	if f.nodes && f.stats {
		return s.usageError(cmd.name, "-nodes and -stats cannot be used together")
	}
	u, code, ok := s.compile(cmd, args[0], f, f.check)
	if !ok {
		return code
	}
	switch {
	case f.stats:
		out, err := json.MarshalIndent(compile.StatsReport{Passes: u.Stats}, "", "  ")
		if err != nil {
			fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
			return exitInternal
		}
		fmt.Fprintf(s.stdout, "%s\n", out)
	case f.nodes:
		io.WriteString(s.stdout, son.Listing(u.Graph))
	default:
		level, code, ok := s.level(cmd, f, u)
		if !ok {
			return code
		}
		if fn := levelFunc(u, level); fn != nil {
			io.WriteString(s.stdout, cfg.Print(fn))
		} else {
			fmt.Fprintln(s.stdout, son.Print(u.Graph))
		}
	}
	return exitOK
}
