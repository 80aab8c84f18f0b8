package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"son/compile"
	"son/son"
	"son/syntax"
)

// stdinName is what a program read from standard input is called.
const stdinName = "<stdin>"

// readProgram reads the program file path, or standard input for "-",
// and returns its name for messages.
func (s *session) readProgram(path string) (name string, src []byte, err error) {
	if path == "-" {
		src, err = io.ReadAll(s.stdin)
		if err != nil {
			return stdinName, nil, fmt.Errorf("cannot read standard input: %v", err)
		}
		return stdinName, src, nil
	}
	src, err = os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return path, nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return path, src, nil
}

// compile reads and compiles the program at path for command cmd, with
// the passes and checks its flags ask for. It reports any failure itself:
// ok false means the command is over with exit status code.
func (s *session) compile(cmd *command, path string, f *flags, check bool) (u *compile.Unit, code int, ok bool) {
	name, src, err := s.readProgram(path)
	if err != nil {
		return nil, s.usageError(cmd.name, "%v", err), false
	}
	opt := compile.Options{
		Check:     check,
		StopAfter: f.after,
		Seed:      f.seed,
		ShowGraph: s.showGraph(name, src),
	}
	u, err = compile.Compile(name, src, opt)
	if err != nil {
		return nil, s.compileError(err), false
	}
	return u, exitOK, true
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
func (s *session) showGraph(name string, src []byte) func(*son.Graph, []*son.Node, []string) {
	if !bytes.Contains(src, []byte("#showGraph")) {
		return nil
	}
	// The hook is not told which statement called it, but the builder
	// meets them in the order showGraphLines lists them.
	var lines []int32
	if f, err := syntax.Parse(name, src); err == nil {
		lines = showGraphLines(f.Body.List, nil)
	}
	k := 0
	return func(g *son.Graph, scopes []*son.Node, names []string) {
		title := "#showGraph"
		if k < len(lines) {
			title = fmt.Sprintf("#showGraph at line %d", lines[k])
		}
		k++
		io.WriteString(s.stderr, son.DOT(g, son.DOTOptions{Title: title, Scopes: scopes, ScopeNames: names}))
	}
}

// showGraphLines appends the lines of the #showGraph statements in list,
// in the order son.Build walks them: the then branch before the else, a
// for loop's init, body and next in turn.
func showGraphLines(list []syntax.Stmt, lines []int32) []int32 {
	for _, st := range list {
		lines = showGraphStmt(st, lines)
	}
	return lines
}

func showGraphStmt(st syntax.Stmt, lines []int32) []int32 {
	switch st := st.(type) {
	case nil:
	case *syntax.ShowGraphStmt:
		lines = append(lines, st.Hash.Line)
	case *syntax.BlockStmt:
		lines = showGraphLines(st.List, lines)
	case *syntax.IfStmt:
		lines = showGraphStmt(st.Then, lines)
		lines = showGraphStmt(st.Else, lines)
	case *syntax.WhileStmt:
		lines = showGraphStmt(st.Body, lines)
	case *syntax.ForStmt:
		lines = showGraphStmt(st.Init, lines)
		lines = showGraphStmt(st.Body, lines)
		lines = showGraphStmt(st.Next, lines)
	}
	return lines
}
