package compile

import (
	"fmt"

	"son/cfg"
	"son/gsa"
	"son/loops"
	"son/pred"
)

// The passes of Options.GSA (GSAPasses): the SSA function prepared for
// gated SSA (package loops), translated to GSA, checked, and back.

func prepareLoops(u *Unit) error {
	if u.Func == nil {
		return &CheckError{Pass: "loops", Guard: GuardPass, Err: fmt.Errorf("loops: no function at the cfg level")}
	}
	if err := loops.Prepare(u.Func); err != nil {
		return &CheckError{Pass: "loops", Guard: GuardPass, Err: err}
	}
	u.SSA = u.Func
	return nil
}

// toGSA builds the GSA function of u.Func (u.GSA) and makes u.Func the
// SSA function translated back from it.
func toGSA(u *Unit) error {
	fail := func(err error) error { return &CheckError{Pass: "gsa", Guard: GuardPass, Err: err} }
	if u.Func == nil {
		return fail(fmt.Errorf("gsa: no function at the cfg level"))
	}
	g, err := gsa.Build(u.Func)
	if err != nil {
		return fail(err)
	}
	back, err := gsa.ToSSA(g)
	if err != nil {
		return fail(err)
	}
	u.GSA, u.Func, u.SSA = g, back, back
	return nil
}

// checkGSAByTesting runs the GSA interpreter on the reference's
// arguments, as checkByTesting runs the latest cfg function.
func checkGSAByTesting(u *Unit) error {
	for _, r := range u.testRuns {
		v, err := gsa.Run(u.GSA, r.arg, cfg.Limits{Steps: testFactor * testSteps})
		if err := compareRun(r, "gsa.Run", v, err); err != nil {
			return err
		}
	}
	return nil
}

// checkGSA validates the GSA function of the gsa pass against the
// function recorded before it (gsa.Validate): structurally (gsa.Check,
// Definitions 5.6 and 5.7), then semantically (gsa.CheckPredicates:
// coherence and well-exclusivity) with gsa.Certified, whose every answer
// is checked — a certificate by pred.CheckRUP, a model by evaluation — so
// the SAT solver is not trusted.
func checkGSA(u *Unit) error {
	return gsa.Validate(u.InputFunc, u.GSA, gsa.Certified{Prover: pred.NewProver()})
}

// predStats sums the predicate sizes of g (gsa.Sizes).
func predStats(g *gsa.Func) *PredStats {
	sizes := gsa.Sizes(g)
	st := &PredStats{}
	for _, n := range sizes {
		st.Total += n
	}
	if len(sizes) > 0 {
		st.PerBlock = float64(st.Total) / float64(len(sizes))
	}
	return st
}
