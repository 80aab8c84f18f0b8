package main

import (
	"fmt"
	"io"
	"os"

	"son/internal/gcpolicy"
)

// Exit statuses.
const (
	exitOK       = 0 // success
	exitRuntime  = 1 // runtime error of the program
	exitUsage    = 2 // bad source or bad usage
	exitInternal = 3 // internal error of son: a failed verifier or checker
)

func main() {
	gcpolicy.Start()
	stop := startProfiles(os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// session is one invocation of son: where it reads and writes.
type session struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// run is son with the given arguments; it returns the exit status. It is
// main without the process, so that tests can call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	s := &session{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		// A panic is a bug in son: report it as one, without a stack.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "son: internal error: %v\n", r)
			code = exitInternal
		}
	}()

	if len(args) == 0 {
		s.usage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return s.help(rest)
	}
	if cmd := lookup(name); cmd != nil {
		return cmd.run(s, cmd, rest)
	}
	if len(name) > 1 && name[0] == '-' {
		return s.usageError("", "flag provided but not defined: %s", name)
	}
	return s.usageError("", "unknown command %q", name)
}
