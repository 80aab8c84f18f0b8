package main

import (
	"son/compile"
	"son/gsa"
)

// gsaLevel returns the GSA function a command works on: with -level gsa,
// or with no -level after pass gsa (-after gsa). It is nil for another
// level; ok false means the command is over with exit status code (-level
// gsa when pass gsa did not run, stopped by -after before it).
func (s *session) gsaLevel(c *command, f *flags, u *compile.Unit) (g *gsa.Func, code int, ok bool) {
	last := u.Stats[len(u.Stats)-1].Name
	switch {
	case f.level == "gsa" && u.GSA == nil:
		return nil, s.usageError(c.name, "-level gsa: there is no gated SSA before pass gsa (stopped after %s)", last), false
	case f.level == "gsa", f.level == "" && last == "gsa":
		return u.GSA, exitOK, true
	}
	return nil, exitOK, true
}
