package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"son/cfg"
	"son/lower"
	"son/ssacheck"
	"son/ssagen"
	"son/syntax"
)

// The second way in, -via rtl: the program is lowered straight to RTL
// (package lower), put in SSA form (package ssagen) and validated
// (package ssacheck); run and ir then work on those basic blocks.

// viaFlags adds -via and -ssa to a command's flags.
func viaFlags(fs *flag.FlagSet, f *flags) {
	fs.StringVar(&f.via, "via", "", "`rtl`: lower the program straight to RTL and put it in SSA form, validated, instead of the graph pipeline")
	fs.StringVar(&f.ssa, "ssa", "pruned", "with -via rtl, the SSA `flavour`: minimal, semi-pruned or pruned")
}

// viaRTL lowers the program at path to RTL and builds its SSA form in the
// flavour of -ssa, checked by cfg.Verify and ssacheck.Validate. It
// reports any failure itself: ok false means the command is over with
// exit status code.
func (s *session) viaRTL(cmd *command, f *flags, path string) (rtl, ssa *cfg.Func, name string, code int, ok bool) {
	switch {
	case f.via != "rtl" && !(f.via == "" && isRTLFile(path)):
		return nil, nil, "", s.usageError(cmd.name, "-via: want rtl, not %q", f.via), false
	case f.after != "":
		return nil, nil, "", s.usageError(cmd.name, "-after %s cannot go with -via rtl, which runs no pass of the graph pipeline", f.after), false
	}
	fl, known := ssagen.ParseFlavour(f.ssa)
	if !known {
		return nil, nil, "", s.usageError(cmd.name, "-ssa: want minimal, semi-pruned or pruned, not %q", f.ssa), false
	}
	name, src, err := s.readProgram(path)
	if err != nil {
		return nil, nil, "", s.usageError(cmd.name, "%v", err), false
	}
	internal := func(err error) (*cfg.Func, *cfg.Func, string, int, bool) {
		fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
		return nil, nil, "", exitInternal, false
	}
	var lines map[int][]int
	if isRTLFile(path) {
		if rtl, lines, code, ok = s.readRTL(name, src); !ok {
			return nil, nil, "", code, false
		}
	} else {
		file, err := syntax.Parse(name, src)
		if err != nil {
			return nil, nil, "", s.compileError(err), false
		}
		rtl, err = lower.Func(file, filepath.Base(name))
		if err == nil {
			err = cfg.Verify(rtl)
		}
		if err != nil {
			return internal(err)
		}
	}
	res, err := ssagen.Build(rtl, fl)
	var ue *ssagen.UnassignedError
	if lines != nil && errors.As(err, &ue) {
		// The RTL file reads a register on a path where it is unassigned.
		fmt.Fprintf(s.stderr, "%s:%d: %v\n", name, lineOf(lines, ue.Block.ID, ue.Instr, ue.Block), strings.TrimPrefix(err.Error(), "ssagen: "))
		return nil, nil, "", exitUsage, false
	}
	if err != nil {
		return internal(err)
	}
	if err := cfg.Verify(res.Func); err != nil {
		return internal(err)
	}
	if err := ssacheck.Validate(rtl, res.Func, res.Hint); err != nil {
		return internal(err)
	}
	return rtl, res.Func, name, exitOK, true
}

// runVia is son run -via rtl: it runs the SSA form with cfg.Run (the
// default -level son of run is taken as cfg: there is no graph this way).
func (s *session) runVia(cmd *command, f *flags, path string, arg int64) int {
	if f.level == "ast" {
		return s.usageError(cmd.name, "-level ast cannot go with -via rtl, which runs basic blocks")
	}
	_, ssa, name, code, ok := s.viaRTL(cmd, f, path)
	if !ok {
		return code
	}
	v, err := cfg.Run(ssa, arg, cfg.Limits{Steps: f.steps})
	return s.runResult(name, v, err)
}

// irVia is son ir -via rtl: it prints the SSA form, or with -level rtl
// the RTL it comes from.
func (s *session) irVia(cmd *command, f *flags, path string) int {
	switch {
	case f.nodes || f.stats || f.trace:
		return s.usageError(cmd.name, "-nodes, -stats and -trace are about the graph pipeline: they cannot go with -via rtl")
	case f.level != "" && f.level != "cfg" && f.level != "rtl":
		return s.usageError(cmd.name, "-level with -via rtl: want cfg (the SSA form) or rtl, not %q", f.level)
	}
	rtl, ssa, _, code, ok := s.viaRTL(cmd, f, path)
	if !ok {
		return code
	}
	out := ssa
	if f.level == "rtl" {
		out = rtl
	}
	io.WriteString(s.stdout, cfg.Print(out))
	return exitOK
}

// isRTLFile reports whether path names an RTL function in the text form
// of package cfg, which run and ir take the second way in, from ssagen on.
func isRTLFile(path string) bool { return strings.HasSuffix(path, ".rtl") }

// readRTL parses and verifies an RTL file. A malformed line, a function
// that is not at the RTL level or that cfg.Verify rejects (an unreachable
// block, a register never assigned, a critical edge, ...) is an error of
// the input at its line, exit status 2. It returns the lines of each
// block's contents too (see rtlLines).
func (s *session) readRTL(name string, src []byte) (*cfg.Func, map[int][]int, int, bool) {
	f, err := cfg.Parse(string(src))
	var pe cfg.ParseErrors
	if errors.As(err, &pe) {
		for _, e := range pe {
			fmt.Fprintf(s.stderr, "%s:%d: %s\n", name, e.Line, e.Msg)
		}
		return nil, nil, exitUsage, false
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "%s: %v\n", name, err)
		return nil, nil, exitUsage, false
	}
	lines := rtlLines(string(src))
	if f.Level != cfg.RTL {
		fmt.Fprintf(s.stderr, "%s:1: want a function at level RTL, not %v\n", name, f.Level)
		return nil, nil, exitUsage, false
	}
	var ve *cfg.VerifyError
	if err := cfg.Verify(f); errors.As(err, &ve) {
		for _, p := range ve.Problems {
			line := 1
			if p.Block != nil {
				line = lineOf(lines, p.Block.ID, -2, p.Block)
			}
			fmt.Fprintf(s.stderr, "%s:%d: %v\n", name, line, p)
		}
		return nil, nil, exitUsage, false
	} else if err != nil {
		fmt.Fprintf(s.stderr, "%s: %v\n", name, err)
		return nil, nil, exitUsage, false
	}
	return f, lines, exitOK, true
}

// rtlLines maps each block ID of an RTL text to the line of its header
// followed by the lines of its contents (Phis, instructions, terminator),
// skipping blank and comment lines, as cfg.Parse reads them.
func rtlLines(text string) map[int][]int {
	lines := map[int][]int{}
	cur := -1
	for i, l := range strings.Split(text, "\n") {
		if c := strings.IndexByte(l, ';'); c >= 0 {
			l = l[:c]
		}
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "func "):
		case strings.HasPrefix(l, "b") && strings.HasSuffix(l, ":"):
			if id, err := strconv.Atoi(l[1 : len(l)-1]); err == nil {
				cur = id
				lines[id] = []int{i + 1}
			}
		case cur >= 0:
			lines[cur] = append(lines[cur], i+1)
		}
	}
	return lines
}

// lineOf is the line of instruction k of block b with the given ID (its
// terminator for k = -1, its header for k = -2).
func lineOf(lines map[int][]int, id, k int, b *cfg.Block) int {
	ls := lines[id]
	switch {
	case k == -1:
		k = len(b.Phis) + len(b.Instrs)
	case k >= 0:
		k += len(b.Phis)
	}
	if i := k + 1; i >= 0 && i < len(ls) {
		return ls[i]
	}
	if len(ls) > 0 {
		return ls[0]
	}
	return 1
}
