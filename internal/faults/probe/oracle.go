package main

import (
	"errors"
	"fmt"

	"son/ref"
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

// reference runs the oracle of the differential on the resolved program
// f: the reference semantics (son/ref), a tree-walking interpreter of the
// syntax tree that shares no code with the compiler, so that no fault of a
// pass can change it.
func reference(f *syntax.File, arg, steps int64) result {
	v, err := ref.Run(f, arg, ref.Limits{Steps: steps})
	var rt *ref.RuntimeError
	if errors.As(err, &rt) {
		return result{Err: rt.Msg, Pos: rt.Pos}
	}
	return result{Value: v, Internal: err}
}
