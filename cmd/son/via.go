package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

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
	case f.via != "rtl":
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
	file, err := syntax.Parse(name, src)
	if err != nil {
		return nil, nil, "", s.compileError(err), false
	}
	internal := func(err error) (*cfg.Func, *cfg.Func, string, int, bool) {
		fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
		return nil, nil, "", exitInternal, false
	}
	rtl, err = lower.Func(file, filepath.Base(name))
	if err == nil {
		err = cfg.Verify(rtl)
	}
	if err != nil {
		return internal(err)
	}
	res, err := ssagen.Build(rtl, fl)
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
