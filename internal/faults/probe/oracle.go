package main

import (
	"errors"
	"fmt"

	"son/son"
	"son/syntax"
)

// result is the outcome of one run of a program: a value, a runtime error
// of the program (Err, with its position), or an internal error of the
// interpreter (Internal: it refused the code it was given).
type result struct {
	Value    int64
	Err      string // "division by zero", "step limit exceeded (N steps)", or ""
	Pos      syntax.Pos
	Internal error
}

// String is the result as the differential compares it: the value, or
// the runtime error with its position.
func (r result) String() string {
	switch {
	case r.Internal != nil:
		return "internal error: " + r.Internal.Error()
	case r.Err != "":
		return fmt.Sprintf("error %q at %v", r.Err, r.Pos)
	}
	return fmt.Sprint(r.Value)
}

// stepLimited reports whether the run stopped at its step limit.
func (r result) stepLimited() bool {
	return r.Internal == nil && r.Err != "" && r.Err != "division by zero"
}

// reference runs the oracle of the differential on the resolved program f.
// Until the independent reference semantics (son/ref) is in the tree, it
// is son.Run on the graph the build pass makes — which a fault of the
// builder or of a peephole changes too, so that such faults can escape
// the differential. The switch is this function's body:
//
//	v, err := ref.Run(f, arg, ref.Limits{Steps: steps})
//	var rt *ref.RuntimeError
//	if errors.As(err, &rt) { return result{Err: rt.Msg, Pos: rt.Pos} }
func reference(f *syntax.File, arg, steps int64) result {
	v, err := son.Run(son.Build(f, son.BuildOptions{}), arg, son.Limits{Steps: steps})
	var rt *son.RuntimeError
	if errors.As(err, &rt) {
		return result{Err: rt.Msg, Pos: rt.Pos}
	}
	return result{Value: v, Internal: err}
}
