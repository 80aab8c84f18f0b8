package main

import (
	"flag"
	"fmt"

	"son/amd64"
	"son/compile"
)

var cmdCheck = &command{
	name:    "check",
	maxArgs: 1,
	want:    "one program file",
	args:    "prog.smp",
	short:   "compile with every verifier and checker on",
	long: `Check compiles prog.smp through every pass, or up to -after PASS, with
checking on: after each pass, the pass's own checker where it has one
(sccp's rewrite, zerocheck, gcm, gvn's rewrite and outssa; sccp's analysis
and gvn's numbering are checked within the pass, always), then the verifier of the graph, son.Verify, and from gcm on the
verifier of the basic blocks, cfg.Verify. With -via gsa the passes loops
and gsa run after gvn, and gsa's checker is the GSA validator: the code
correspondence and the renaming map structurally (paper 004, Definitions
5.6 and 5.7), then coherence and well-exclusivity of the predicates with
every answer proved (a structural derivation, a truth table, or the SAT
solver's certificate checked by pred.CheckRUP). After the last pass it also
selects x86-64 instructions, checks the selection with its own checker,
independent of the selector (amd64.CheckSelection: each block and its code
run symbolically over the same inputs), allocates their registers, and
checks the allocation with its own checker, independent of the allocator
(regalloc.Check). It prints one line per pass checked, with the live nodes
of the graph after it ("sccp: verified (20 nodes)"), a line for the
allocation ("regalloc: checked (2 moves left, 0 registers spilled)"), then
OK.

A failed check is a bug in son, not in the program: it is reported as an
internal error naming the pass, with exit status 3.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		sccpFlag(fs, f)
		seedFlag(fs, f)
		viaFlags(fs, f)
	},
	run: runCheck,
}

func runCheck(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	u, code, ok := s.compile(cmd, args[0], f, true)
	if !ok {
		return code
	}
	for _, st := range u.Stats {
		fmt.Fprintf(s.stdout, "%s: verified (%d nodes)\n", st.Name, st.Nodes)
	}
	if f.after == "" || passIndex(f.after) == len(compile.Passes)-1 {
		p, err := amd64.Code(u.Func, u.Name, amd64.CheckAll)
		if err != nil {
			fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
			return exitInternal
		}
		fmt.Fprintf(s.stdout, "regalloc: checked (%d moves left, %d registers spilled)\n", p.Alloc.Moves, p.Alloc.Spilled)
	}
	fmt.Fprintln(s.stdout, "OK")
	return exitOK
}
