package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"son/cfg"
	"son/compile"
	"son/fromcfg"
	"son/ssagen"
)

// The second way in, -via rtl: the build pass lowers the program straight
// to RTL (package lower), puts it in SSA form (package ssagen) and
// validates it (package ssacheck), then translates it into the Sea of
// Nodes (package fromcfg); every other pass runs as usual. A file named
// *.rtl is an RTL function that takes that way from ssagen on.

// defaultFlavour is the SSA flavour of the second way in when -ssa is not
// given.
const defaultFlavour = "pruned"

// viaFlags adds -via and -ssa to a command's flags.
func viaFlags(fs *flag.FlagSet, f *flags) {
	fs.StringVar(&f.via, "via", "", "`rtl`: build the graph the second way in, through RTL and SSA basic blocks (validated); gsa: take the SSA blocks through gated SSA and back")
	fs.StringVar(&f.ssa, "ssa", defaultFlavour, "with -via rtl, the SSA `flavour`: minimal, semi-pruned or pruned")
}

// viaOptions sets the options of the second way in for the program name,
// whose text is src: the flavour, and for an .rtl file the RTL function,
// parsed and checked. It reports any failure itself: ok false means the
// command is over with exit status code.
func (s *session) viaOptions(cmd *command, f *flags, name string, src []byte, o *compile.Options) (code int, ok bool) {
	flavour := f.ssa
	if flavour == "" { // build and asm, which take .rtl files but no -ssa flag
		flavour = defaultFlavour
	}
	fl, _ := ssagen.ParseFlavour(flavour) // checked with the flags (checkFlags)
	o.Via, o.ViaSSA = "rtl", fl
	if !isRTLFile(name) {
		return exitOK, true
	}
	rtl, lines, code, ok := s.readRTL(name, src)
	if !ok {
		return code, false
	}
	// A register read where it may be unassigned is an error of the
	// input, at its line.
	var ue *ssagen.UnassignedError
	ssa, err := ssagen.Build(rtl, fl)
	if errors.As(err, &ue) {
		fmt.Fprintf(s.stderr, "%s:%d: %s\n", name, lineOf(lines, ue.Block.ID, ue.Instr, ue.Block), strings.TrimPrefix(err.Error(), "ssagen: "))
		return exitUsage, false
	}
	// So are irreducible control flow and a division by a register that
	// no Check of its block tested, which fromcfg refuses.
	if err == nil {
		if _, err := fromcfg.Graph(ssa.Func); err != nil {
			fmt.Fprintf(s.stderr, "%s: %s\n", name, strings.TrimPrefix(err.Error(), "fromcfg: "))
			return exitUsage, false
		}
	}
	o.RTL = rtl
	return exitOK, true
}

// viaLevel prints, for son ir -level via-rtl or via-ssa, the function the build
// pass of the second way went through, and reports an error when the
// program did not take that way; ok false means the level is another one.
func (s *session) viaLevel(cmd *command, f *flags, u *compile.Unit) (code int, ok bool) {
	if f.level != "via-rtl" && f.level != "via-ssa" {
		return 0, false
	}
	if u.InRTL == nil {
		return s.usageError(cmd.name, "-level %s: the program did not take the second way in (give -via rtl, or an .rtl file)", f.level), true
	}
	out := u.InRTL
	if f.level == "via-ssa" {
		out = u.InSSA
	}
	io.WriteString(s.stdout, cfg.Print(out))
	return exitOK, true
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
