package main

import (
	"slices"
	"strings"

	"son/ssagen"
)

// levels are the values of -level that each command takes ("" for none
// given, where the default is ""); nil for a command without -level.
func levels(c *command) []string {
	switch c.name {
	case "run":
		return []string{"son", "cfg", "rtl", "gsa", "native", "ast"}
	case "ir":
		return []string{"son", "cfg", "rtl", "gsa", "via-rtl", "via-ssa"}
	case "graph":
		return []string{"son", "cfg", "rtl", "gsa"}
	}
	return nil
}

// checkFlags reports a flag whose value its command does not take, or
// that cannot go with another, before the program at path is read: a bad
// command line is the error, whatever the file holds (or if it is
// missing). It checks -via, -ssa, -level, and -level against -after and
// -via; parseFlags has checked -sccp and -after. ok false means the
// command is over with exit status code.
func (s *session) checkFlags(c *command, f *flags, path string) (code int, ok bool) {
	if f.via != "" && f.via != "rtl" && f.via != "gsa" {
		return s.usageError(c.name, "-via: want rtl or gsa, not %q", f.via), false
	}
	if _, known := ssagen.ParseFlavour(f.ssa); f.ssa != "" && !known {
		return s.usageError(c.name, "-ssa: want minimal, semi-pruned or pruned, not %q", f.ssa), false
	}
	ls := levels(c)
	if f.level == "" || ls == nil {
		return exitOK, true
	}
	if !slices.Contains(ls, f.level) {
		return s.usageError(c.name, "-level: want %s or %s, not %q",
			strings.Join(ls[:len(ls)-1], ", "), ls[len(ls)-1], f.level), false
	}
	if c.name == "ir" && f.after == machineLevel {
		return exitOK, true // irMachine refuses -level
	}
	stopped := f.after // the last pass run, when it is before the level
	switch {
	case f.level == "cfg" && passIndex(f.after) < passIndex("gcm"):
		return s.usageError(c.name, "-level cfg: there are no basic blocks before pass gcm (stopped after %s)", stopped), false
	case f.level == "rtl" && passIndex(f.after) < passIndex("outssa"):
		return s.usageError(c.name, "-level rtl: there is no RTL before pass outssa (stopped after %s)", stopped), false
	case f.level == "gsa" && f.after != "gsa" && passIndex(f.after) <= passIndex("gvn"):
		return s.usageError(c.name, "-level gsa: there is no gated SSA before pass gsa (stopped after %s)", stopped), false
	case (f.level == "via-rtl" || f.level == "via-ssa") && f.via != "rtl" && !isRTLFile(path):
		return s.usageError(c.name, "-level %s: the program did not take the second way in (give -via rtl, or an .rtl file)", f.level), false
	}
	return exitOK, true
}
