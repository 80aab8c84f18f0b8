package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"son/compile"
	"son/internal/gcpolicy"
	"son/opt"
	"son/son"
	"son/syntax"
)

// stdinName is what a program read from standard input is called.
const stdinName = "<stdin>"

// maxSource is the largest program son reads, in bytes: 64 MiB, over six
// times the 10 MB up to which docs/LANGUAGE.md promises linear time and
// memory. A larger input (or an endless one, such as /dev/zero) is refused
// after reading one byte past the limit, before it can exhaust memory.
var maxSource int64 = 64 << 20

// readProgram reads the program file path, or standard input for "-",
// and returns its name for messages.
func (s *session) readProgram(path string) (name string, src []byte, err error) {
	if path == "-" {
		src, err = readLimited(s.stdin)
		if err != nil {
			return stdinName, nil, fmt.Errorf("cannot read standard input: %v", err)
		}
		return stdinName, src, nil
	}
	f, err := os.Open(path)
	if err == nil {
		src, err = readLimited(f)
		f.Close()
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return path, nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return path, src, nil
}

// readLimited reads r to its end, or fails once it has read more than
// maxSource bytes.
func readLimited(r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxSource+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > maxSource {
		return nil, fmt.Errorf("program too large: over %d bytes", maxSource)
	}
	return src, nil
}

// compile reads and compiles the program at path for command cmd, with
// the passes and checks its flags ask for. It reports any failure itself:
// ok false means the command is over with exit status code.
func (s *session) compile(cmd *command, path string, f *flags, check bool) (u *compile.Unit, code int, ok bool) {
	name, src, err := s.readProgram(path)
	if err != nil {
		return nil, s.usageError(cmd.name, "%v", err), false
	}
	gcpolicy.SetSource(len(src))
	mode, _ := opt.ParseMode(f.sccp) // checked with the flags
	o := compile.Options{
		Check:      check,
		StopAfter:  f.after,
		Seed:       f.seed,
		SCCP:       mode,
		ShowGraph:  s.showGraph(),
		BlockStats: f.stats,
		DropGraph:  dropsLevels(cmd, f),
	}
	if f.trace {
		o.Trace = s.stdout
	}
	o.GSA = f.via == "gsa" || f.level == "gsa"
	if f.via != "" && f.via != "gsa" || isRTLFile(path) {
		if code, ok := s.viaOptions(cmd, f, name, src, &o); !ok {
			return nil, code, false
		}
	}
	u, err = compile.Compile(name, src, o)
	if err != nil {
		return nil, s.compileError(err), false
	}
	return u, exitOK, true
}

// dropsLevels says whether cmd reads only the last level of the pipeline,
// the function of outssa (son check, son build, son asm, son run -level
// native): then each level before it goes as soon as the passes after it
// are done with it (compile.Options.DropGraph).
func dropsLevels(cmd *command, f *flags) bool {
	switch cmd.name {
	case "check", "build", "asm":
		return true
	case "run":
		return f.level == "native"
	}
	return false
}

// compileError reports an error of compile.Compile and returns the exit
// status for it.
func (s *session) compileError(err error) int {
	var list syntax.ErrorList
	var check *compile.CheckError
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			fmt.Fprintln(s.stderr, e)
		}
		return exitUsage
	case errors.As(err, &check):
		fmt.Fprintf(s.stderr, "son: internal error: %v\n", check)
		return exitInternal
	}
	fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
	return exitInternal
}

// showGraph returns the hook that writes the graph at each #showGraph
// statement to standard error, titled with the statement's line.
func (s *session) showGraph() func(*son.Graph, []*son.Node, [][]string, syntax.Pos) {
	return func(g *son.Graph, scopes []*son.Node, names [][]string, pos syntax.Pos) {
		title := fmt.Sprintf("#showGraph at line %d", pos.Line)
		io.WriteString(s.stderr, son.DOT(g, son.DOTOptions{Title: title, Scopes: scopes, ScopeNames: names}))
	}
}
