package main

import (
	"fmt"

	"son/amd64"
	"son/compile"
	"son/regalloc"
)

// backend runs on u, compiled with checking on to its last pass, what son
// check runs after it (amd64.Code with amd64.CheckAll): instruction selection
// and its checker, amd64.CheckSelection, register allocation, the
// allocation's own checker, regalloc.Check, and lowering to machine code,
// step by step so that a failure names its step. It lowers by
// amd64.Lower, which resolves every instruction into an Inst, where
// amd64.Code emits the common forms directly (lowerFast): the same machine
// code (compile's TestLowerFastMatches), and an error or a panic of
// lowerFast alone would not show here. A failure is a *compile.CheckError,
// as the pipeline's are: CheckSelection's is the checker's of pass "isel",
// regalloc.Check's of pass "regalloc"; any other, and a panic in any step,
// is the error of the pass that failed ("isel", "regalloc" or "asm"). The
// probe runs no native code: it asks whether the checkers catch a fault
// of selection or of the allocator, not whether a run would see it.
func backend(u *compile.Unit) (err error) {
	stage := "isel"
	defer func() {
		if r := recover(); r != nil {
			err = &compile.CheckError{Pass: stage, Guard: compile.GuardPass, Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	vf, err := amd64.Select(u.Func, u.Name)
	if err != nil {
		return &compile.CheckError{Pass: stage, Guard: compile.GuardPass, Err: err}
	}
	if err := amd64.CheckSelection(u.Func, vf, u.Name); err != nil {
		return &compile.CheckError{Pass: stage, Guard: compile.GuardChecker, Err: err}
	}
	stage = "regalloc"
	rf := vf.RegallocFunc()
	res, err := regalloc.Allocate(rf)
	if err != nil {
		return &compile.CheckError{Pass: stage, Guard: compile.GuardPass, Err: err}
	}
	if err := regalloc.Check(rf, res); err != nil {
		return &compile.CheckError{Pass: stage, Guard: compile.GuardChecker, Err: err}
	}
	stage = "asm"
	if _, err := amd64.Lower(vf, res, nil); err != nil {
		return &compile.CheckError{Pass: stage, Guard: compile.GuardPass, Err: err}
	}
	return nil
}
