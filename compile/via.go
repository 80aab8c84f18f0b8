package compile

import (
	"fmt"
	"path/filepath"

	"son/cfg"
	"son/fromcfg"
	"son/lower"
	"son/ssacheck"
	"son/ssagen"
)

// buildVia is the build pass of the second way in (Options.Via "rtl"):
// the program lowered straight to RTL (package lower), put in SSA form
// (package ssagen) and validated (package ssacheck), then translated into
// the Sea of Nodes (package fromcfg) for the rest of the pipeline; or
// from Options.RTL, an RTL function given as such. A failure of any step
// is a bug of son: a *CheckError of pass build, the validator's rejection
// from GuardChecker.
func buildVia(u *Unit) error {
	fail := func(g Guard, err error) error { return &CheckError{Pass: "build", Guard: g, Err: err} }
	if u.Opt.Via != "rtl" {
		return fmt.Errorf("unknown way in %q (want rtl)", u.Opt.Via)
	}
	rtl := u.Opt.RTL
	if rtl == nil {
		var err error
		if rtl, err = lower.Func(u.File, filepath.Base(u.Name)); err != nil {
			return fail(GuardPass, err)
		}
	}
	if err := cfg.Verify(rtl); err != nil {
		return fail(GuardCfg, err)
	}
	res, err := ssagen.Build(rtl, u.Opt.ViaSSA)
	if err != nil {
		return fail(GuardPass, err)
	}
	if err := cfg.Verify(res.Func); err != nil {
		return fail(GuardCfg, err)
	}
	if err := ssacheck.Validate(rtl, res.Func, res.Hint); err != nil {
		return fail(GuardChecker, err)
	}
	g, err := fromcfg.Graph(res.Func)
	if err != nil {
		return fail(GuardPass, err)
	}
	g.Seed = u.Opt.Seed
	if u.Opt.Check {
		g.CheckRewrites() // the peepholes of the passes after build
	}
	u.InRTL, u.InSSA, u.Graph = rtl, res.Func, g
	return nil
}
