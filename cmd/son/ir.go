package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"son/cfg"
	"son/compile"
	"son/gsa"
	"son/son"
)

var cmdIR = &command{
	name:    "ir",
	maxArgs: 1,
	want:    "one program file",
	args:    "prog.smp",
	short:   "print the program after a pass: basic blocks, expressions, nodes or statistics",
	long: `Ir compiles prog.smp (all passes, or up to -after PASS) and prints the
program as the last pass run left it:

  - from pass gcm on (so by default), the basic blocks: each block's
    header, such as "b2:  ; preds b1 b3, depth 1", then its phis, its
    instructions, such as "v12 = Lt v11 v4          ; line 4", and its
    terminator; after outssa (the last pass) at the RTL level, with moves
    in place of phis, and with -level cfg the SSA blocks of gcm;
  - before gcm, or with -level son, the Sea of Nodes read back from its
    returns as expressions, in the style of the Simple tutorial:
    "return Phi(Region,(arg+2),(arg-3));".

-level cfg before gcm, or -level rtl before outssa, is an error: there
are no such blocks yet.

With -nodes it lists every live node of the Sea of Nodes instead (after
gcm too), one a line by ID: the op (with its projection index or
variable), the type and the input IDs.

With -stats it prints a JSON document with an entry for each pass run: the
number of live nodes, in all and by op; how long the pass itself took, in
nanoseconds (time_ns: it varies from run to run, and leaves out the checks
of -check); and, from gcm on, each block with its loop depth and its ops:
{"passes": [{"name": "build", "nodes": 7, "time_ns": 52000, "ops": {"Add": 1,
...}}, ..., {"name": "gcm", ..., "blocks": [{"id": 1, "loop_depth": 0,
"ops": ["Arg", "Const", "Add"]}]}]}

From gcm on each pass also lists its blocks, and outssa its moves:
"moves": {"naive": 4, "copies": 1, "cycles": 0}, the moves the naive
scheme would make (one per phi and predecessor), those left after
coalescing, and the cycles broken by a temporary; with -via gsa, pass gsa
its predicates' size: "predicates": {"total": 16, "per_block": 1.6}.

With -trace it first prints the steps of the sccp pass's analysis, one line
for each change of a node's value. With an -after PASS that stops before
sccp there is nothing to trace, and -trace is an error.

-via rtl builds the graph the second way in: the program lowered straight
to RTL, put in SSA form in the flavour of -ssa (minimal, semi-pruned or
pruned, the default), validated, and translated into the Sea of Nodes;
the other passes run as usual. Then -level via-rtl prints that RTL and
-level via-ssa its SSA form. A file named *.rtl holds an RTL function in cfg's text
form and takes that way from SSA generation on.

-after amd64 goes past the passes to the machine level: the x86-64 code
after instruction selection and register allocation, as son asm prints it.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		fs.BoolVar(&f.nodes, "nodes", false, "list every node of the Sea of Nodes instead")
		fs.BoolVar(&f.stats, "stats", false, "print, as JSON, node counts and time of each pass run, and the blocks from gcm on")
		fs.BoolVar(&f.trace, "trace", false, "first print the steps of the sccp pass's analysis (sccp must run)")
		checkFlag(fs, f)
		levelFlag(fs, f, "")
		sccpFlag(fs, f)
		seedFlag(fs, f)
		viaFlags(fs, f)
	},
	run: runIR,
}

func runIR(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	if f.after == machineLevel {
		return s.irMachine(cmd, args[0], f)
	}
	switch {
	case f.nodes && f.stats:
		return s.usageError(cmd.name, "-nodes and -stats cannot be used together")
	case f.trace && f.stats:
		return s.usageError(cmd.name, "-trace and -stats cannot be used together: the trace would break the JSON")
	case f.stats && f.level != "":
		return s.usageError(cmd.name, "-stats reports every pass at every level: it takes no -level")
	case f.nodes && f.level != "" && f.level != "son":
		return s.usageError(cmd.name, "-nodes lists the Sea of Nodes: it cannot be used with -level %s", f.level)
	case f.trace && passIndex(f.after) < passIndex("sccp"):
		return s.usageError(cmd.name, "-trace: the trace is of pass sccp, which does not run with -after %s", f.after)
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
		if code, ok := s.viaLevel(cmd, f, u); ok {
			return code
		}
		if g, code, ok := s.gsaLevel(cmd, f, u); g != nil || !ok {
			if ok {
				io.WriteString(s.stdout, gsa.Print(g))
			}
			return code
		}
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

// machineLevel is the -after of ir that prints the machine code.
const machineLevel = "amd64"

// irMachine prints the machine code of the program at path, as son asm
// does: ir's other flags are about the levels before it.
func (s *session) irMachine(cmd *command, path string, f *flags) int {
	switch {
	case f.nodes, f.stats, f.trace, f.level != "", f.via != "":
		return s.usageError(cmd.name, "-after %s prints the machine code: it takes no -nodes, -stats, -trace, -level or -via", machineLevel)
	}
	f.after = ""
	p, code, ok := s.native(cmd, path, f, true)
	if !ok {
		return code
	}
	io.WriteString(s.stdout, p.Listing())
	return exitOK
}
