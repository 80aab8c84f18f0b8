/*
Son compiles programs in Cliff Click's Simple language to a Sea of Nodes
graph, then to basic blocks, and runs, prints or draws the program after
any pass of the compiler.

Usage:

	son <command> [flags] prog.smp

The commands are:

	run     compile a program and run it, printing the value it returns
	build   compile a program to a standalone Linux x86-64 executable
	asm     print the x86-64 code of a program, with its source lines
	ir      print the program after a pass: basic blocks, expressions, nodes or statistics
	graph   write the graph in Graphviz DOT form, or rendered by dot
	check   compile with every verifier and checker on
	help    print this help, or a command's: son help <command>

A program file of - is read from standard input, and is called <stdin> in
messages.

Run compiles prog.smp and runs the graph in its interpreter (son.Run) with
an integer argument (default 0), written as in a program: an integer literal,
decimal or hexadecimal, optionally preceded by a minus sign:

	son run [-after PASS] [-level son|cfg|rtl|gsa|native|ast] [-steps N] [-check] [-sccp MODE] [-seed N] prog.smp [arg]

It prints the returned value. -level cfg runs the basic blocks of pass gcm
in their own interpreter instead of the Sea of Nodes, -level rtl those of
pass outssa, -level gsa their gated SSA form in its own interpreter
(see -via gsa below), -level native the executable of son build (Linux x86-64 only);
-level ast compiles nothing and runs the syntax tree in the
reference semantics (package ref). A division by zero, or running out of steps,
is reported as "prog.smp:line:col: runtime error: ..." with exit status 1.

The second way in: with -via rtl, run, ir, graph and check build the
graph another way: the program is lowered straight to RTL (package lower),
put in SSA form (package ssagen, in the flavour of -ssa
minimal|semi-pruned|pruned, default pruned), validated (package ssacheck)
and translated into the Sea of Nodes (package fromcfg); every other pass
then runs as usual. ir -level via-rtl and -level via-ssa print the two
functions that way went through:

	son run -via rtl [-ssa FLAVOUR] [flags] prog.smp [arg]
	son ir -via rtl [-ssa FLAVOUR] [-level son|cfg|rtl|via-rtl|via-ssa] [flags] prog.smp

With -via gsa, run, ir, graph and check add the passes loops and gsa
after gvn: the SSA blocks go through gated SSA and back before outssa.
-level gsa runs, prints or draws the gated SSA form (and implies -via
gsa), -after gsa stops there, and son check runs the GSA validator as the
checker of pass gsa.

A file named *.rtl is an RTL function in the text form of package cfg and
takes that way from ssagen on: a malformed line, a function cfg.Verify
rejects (an unreachable block, a critical edge, ...) or one that reads a
register on a path where it is unassigned is an error at its line, exit
status 2; so are irreducible control flow and a division by a register
no Check of its block tests (without a line).

Build writes a static ELF64 executable for Linux x86-64, needing no libc,
assembler or linker, to -o file (by default the program's name without
.smp); asm prints its code in Intel syntax with the source lines as
comments. The allocation of registers is checked by its own checker:

	son build [-o file] [-check] [-sccp MODE] [-seed N] prog.smp
	son asm [-check] [-sccp MODE] [-seed N] prog.smp

The executable takes its argument as son run does, prints the result and
exits 0; a division by zero prints its position and exits 1; a bad
argument, a message and exit 2.

Ir prints the program after the last pass, or after -after PASS:

	son ir [-after PASS] [-level son|cfg|rtl|gsa] [-nodes | -stats] [-trace] [-check] [-sccp MODE] [-seed N] prog.smp

From pass gcm on (and so by default) it prints the basic blocks, one
instruction a line, such as "v7 = Add v4 v6           ; line 1": after
outssa (the last pass) at the RTL level, with moves for phis; -level cfg
prints the SSA blocks of gcm instead. Before gcm, or with -level son, it
prints the Sea of Nodes as expressions in the style of the Simple
tutorial, such as "return (arg+1);". -level cfg or rtl before the pass
that makes those blocks is an error. -nodes lists every node of the Sea of
Nodes instead, one a line: ID, op, type and inputs. -stats prints, as
JSON, for each pass run the number of nodes of each op, the time the pass
took (time_ns, in nanoseconds), for gcm and later each block's loop depth
and ops, and for outssa its moves. -trace first prints the steps of the
sccp pass's analysis, one line for each change of a node's value; it is an
error when -after stops before sccp. -after amd64 goes past the passes to
the machine code, as son asm prints it.

Graph writes the graph in the DOT language of Graphviz, to standard output
or to the file named by -o; a name ending in .svg, .png or .pdf is rendered
by Graphviz's dot program, which must be installed. From pass gcm on (and so
by default) it draws the basic blocks and their edges; before gcm, or with
-level son, the Sea of Nodes:

	son graph [-after PASS] [-level son|cfg|rtl|gsa] [-o file] [-check] [-sccp MODE] [-seed N] prog.smp

Check compiles through every pass, or up to -after PASS, with the checker
of each pass that has one and the verifier of each level run after every
pass, and reports each pass that passed; after the last pass it also
checks the register allocation of the x86-64 code:

	son check [-after PASS] [-sccp MODE] [-seed N] prog.smp

The flags shared by the commands are:

	-after PASS
		stop after the named pass (see son help for the list)
	-check
		run the verifiers and checkers between passes
	-level son|cfg|rtl|gsa
		the IR to run, print or draw: the Sea of Nodes, the basic blocks
		in SSA form that pass gcm makes, the RTL ones of pass outssa, or
		the gated SSA form of pass gsa (ir and graph take the last pass's
		by default, run the Sea of Nodes)
	-via rtl|gsa
		build the graph the second way in, or take the SSA blocks through
		gated SSA and back (see above)
	-sccp MODE
		the analysis of the sccp pass: combined (the default), const or
		reach (one of its halves alone), or iterated (the halves alternated)
	-seed N
		visit the peephole worklist in a pseudo-random order from seed N
		(0, the default, is last in, first out); results must not depend on it

A #showGraph; statement in the program writes the graph being built, with
the builder's scopes, to standard error in DOT form.

Source errors are printed one a line as "file:line:col: message".

The exit status is 0 for success, 1 for a runtime error of the program,
2 for bad source or bad usage, and 3 for an internal error of son (a failed
verifier or checker).

Unless the environment sets GOGC or GOMEMLIMIT, son lets its heap grow
without garbage collection up to a budget of 64 MiB plus 100 bytes per
byte of source, less 16 MiB of slack, and collects only to stay under it;
while more than two thirds of that limit is live, it lifts the limit and
collects as GOGC=50 would, the heap growing to one and a half times the
live heap (package son/internal/gcpolicy): a compile is short-lived and
its heap mostly live.
For son's developers, SON_CPUPROFILE=file and SON_MEMPROFILE=file write
pprof profiles of the whole process.
*/
package main
