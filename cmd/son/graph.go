package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"son/cfg"
	"son/gsa"
	"son/son"
)

var cmdGraph = &command{
	name:    "graph",
	maxArgs: 1,
	want:    "one program file",
	args:    "prog.smp",
	short:   "write the graph in Graphviz DOT form, or rendered by dot",
	long: `Graph compiles prog.smp (all passes, or up to -after PASS) and writes, in
the DOT language of Graphviz, what the last pass run left:

  - from pass gcm on (so by default), the control flow graph: each basic
    block a box of its printed lines, as son ir prints them (after outssa,
    the last pass, the RTL blocks; with -level cfg the SSA blocks of gcm),
    the branches labeled T and F, the back edges dashed;
  - before gcm, or with -level son, the Sea of Nodes: control nodes as
    yellow boxes with red edges, data nodes as ellipses, each Region or
    Loop boxed with its Phis, edges from each definition to its uses.

The DOT text goes to standard output, or to the file named by -o. A file
name ending in .svg, .png or .pdf is rendered by Graphviz's dot program,
which must be installed; .dot and .gv files are written as text.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		afterFlag(fs, f)
		fs.StringVar(&f.out, "o", "", "write to `file` (.dot, .gv, or .svg, .png, .pdf through dot) instead of standard output")
		checkFlag(fs, f)
		levelFlag(fs, f, "")
		sccpFlag(fs, f)
		seedFlag(fs, f)
		viaFlags(fs, f)
	},
	run: runGraph,
}

// renderFormats are the output formats handed to dot, by file extension.
var renderFormats = map[string]string{".svg": "svg", ".png": "png", ".pdf": "pdf"}

func runGraph(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	ext := strings.ToLower(filepath.Ext(f.out))
	format, render := renderFormats[ext]
	if f.out != "" && !render && ext != ".dot" && ext != ".gv" {
		return s.usageError(cmd.name, "cannot write %s: want a file name ending in .dot, .gv, .svg, .png or .pdf", f.out)
	}
	u, code, ok := s.compile(cmd, args[0], f, f.check)
	if !ok {
		return code
	}
	title := u.Name + " after " + u.Stats[len(u.Stats)-1].Name
	g, code, ok := s.gsaLevel(cmd, f, u)
	if !ok {
		return code
	}
	level := "gsa"
	if g == nil {
		if level, code, ok = s.level(cmd, f, u); !ok {
			return code
		}
	}
	var text string
	if g != nil {
		text = gsa.DOT(g, title)
	} else if fn := levelFunc(u, level); fn != nil {
		text = cfg.DOT(fn, title)
	} else {
		text = son.DOT(u.Graph, son.DOTOptions{Title: title})
	}

	switch {
	case f.out == "":
		io.WriteString(s.stdout, text)
	case render:
		return s.render(text, f.out, format)
	default:
		if err := os.WriteFile(f.out, []byte(text), 0o666); err != nil {
			fmt.Fprintf(s.stderr, "son graph: cannot write %s: %v\n", f.out, pathErr(err))
			return exitUsage
		}
	}
	return exitOK
}

// render has Graphviz's dot draw the DOT text into the file out.
func (s *session) render(text, out, format string) int {
	dot, err := exec.LookPath("dot")
	if err != nil {
		fmt.Fprintf(s.stderr, "son graph: cannot write %s: the Graphviz 'dot' program is not installed (install graphviz, or use -o %s)\n",
			out, strings.TrimSuffix(out, filepath.Ext(out))+".dot")
		return exitUsage
	}
	// Make sure out can be written, so that a failure of dot is dot's.
	if err := os.WriteFile(out, nil, 0o666); err != nil {
		fmt.Fprintf(s.stderr, "son graph: cannot write %s: %v\n", out, pathErr(err))
		return exitUsage
	}
	c := exec.Command(dot, "-T"+format, "-o", out)
	c.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	c.Stdout, c.Stderr = io.Discard, &stderr
	if err := c.Run(); err != nil {
		os.Remove(out)
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		fmt.Fprintf(s.stderr, "son graph: cannot write %s: dot -T%s failed: %s\n", out, format, firstLine(msg))
		return exitInternal
	}
	return exitOK
}

// pathErr is the cause of a file error, without the operation and path
// that the message already says.
func pathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
