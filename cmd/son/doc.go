/*
Son compiles programs in Cliff Click's Simple language to a Sea of Nodes
graph, and runs, prints or draws that graph after any pass of the compiler.

Usage:

	son <command> [flags] prog.smp

The commands are:

	run     compile a program and run it, printing the value it returns
	ir      print the graph as text: expressions, a node listing, or statistics
	graph   write the graph in Graphviz DOT form, or rendered by dot
	check   compile with every verifier and checker on
	help    print the usage of son or of one command

A program file of - is read from standard input, and is called <stdin> in
messages.

Run compiles prog.smp and runs the graph in the reference interpreter with
an integer argument (decimal, may be negative, default 0):

	son run [-after PASS] [-level son|cfg|rtl] [-steps N] [-check] [-sccp MODE] [-seed N] prog.smp [arg]

It prints the returned value. -level cfg runs the basic blocks of pass gcm
in their own interpreter instead of the Sea of Nodes, -level rtl those of
pass outssa. A division by zero, or running out of steps,
is reported as "prog.smp:line:col: runtime error: ..." with exit status 1.

Ir prints the graph after the last pass, or after -after PASS, in the
expression style of the Simple tutorial, such as "return (arg+1);":

	son ir [-after PASS] [-level son|cfg|rtl] [-nodes | -stats] [-trace] [-check] [-sccp MODE] [-seed N] prog.smp

From pass gcm on, the program is also in basic blocks, and ir prints those
(-level son prints the Sea of Nodes still); before gcm there are none.
After outssa they are at the RTL level, with moves for phis (-level cfg
prints the SSA ones).
-nodes prints every node instead, one a line: ID, op, type and inputs.
-stats prints, as JSON, the number of nodes of each op after each pass.
-trace first prints the steps of the sccp pass's analysis, one line for
each change of a node's value.

Graph writes the graph in the DOT language of Graphviz, to standard output
or to the file named by -o; a name ending in .svg, .png or .pdf is rendered
by Graphviz's dot program, which must be installed:

	son graph [-after PASS] [-level son|cfg|rtl] [-o file] [-check] [-sccp MODE] [-seed N] prog.smp

Check compiles with the verifier of each level and the checker of each pass
run after every pass, and reports each pass that passed:

	son check [-sccp MODE] [-seed N] prog.smp

The flags shared by the commands are:

	-after PASS
		stop after the named pass (see son help for the list)
	-check
		run the verifiers and checkers between passes
	-level son|cfg|rtl
		the IR to run, print or draw: the Sea of Nodes, the basic blocks
		in SSA form that pass gcm makes, or the RTL ones of pass outssa (ir
		and graph take the last pass's by default, run the Sea of Nodes)
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
*/
package main
