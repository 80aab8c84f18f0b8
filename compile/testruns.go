package compile

import (
	"errors"
	"fmt"

	"son/cfg"
	"son/ref"
	"son/son"
)

// Validation by testing: with checking on, the program's result in the
// reference semantics (ref.Run on the syntax tree, which shares no code
// with the passes) is computed once on a few fixed arguments, and after
// every pass the level it left is run on the same arguments and must give
// the same result — the value, or the runtime error at the same position.
// It is the guard of the passes whose bugs leave a well-formed result of
// another program (the builder, the peepholes and the transfer functions
// they use, which son.Verify and the SCCP checker take from the same
// son.Compute): translation validation by testing, weaker than a proof,
// since it sees only what these arguments make the program do.

// testArgs are the arguments every program is run on.
var testArgs = []int64{0, 1, 2, 3, -1, 10, 100, -100}

// testSteps is ref.Run's budget per argument; an argument whose reference
// run does not end within it is not compared. A level gets testFactor
// times that, since its steps are not ref's (the tests' programs, run at
// every level, stay well under that factor), and one that does not end
// within it where the reference did is a difference: a loop that no
// longer ends.
const (
	testSteps  = 100_000
	testFactor = 10
)

// testRun is the reference's result on one of testArgs.
type testRun struct {
	arg   int64
	value int64
	err   *ref.RuntimeError // a division by zero, or nil
}

func (r testRun) String() string {
	if r.err != nil {
		return fmt.Sprintf("%s at %v", r.err.Msg, r.err.Pos)
	}
	return fmt.Sprint(r.value)
}

// testReference runs the reference on testArgs, keeping the runs that end
// within testSteps.
func testReference(u *Unit) []testRun {
	if u.File == nil {
		return nil
	}
	runs := []testRun{} // not nil: computed
	for _, a := range testArgs {
		v, err := ref.Run(u.File, a, ref.Limits{Steps: testSteps})
		var rt *ref.RuntimeError
		switch {
		case err == nil:
			runs = append(runs, testRun{arg: a, value: v})
		case errors.As(err, &rt) && rt.Msg == "division by zero":
			runs = append(runs, testRun{arg: a, err: rt})
		}
	}
	return runs
}

// checkByTesting runs the latest level of u — the function at the cfg
// level once there is one, else the graph — on the reference's arguments
// and returns the first difference, naming the argument, the level and
// both results.
func checkByTesting(u *Unit) error {
	for _, r := range u.testRuns {
		var v int64
		var err error
		level := "son.Run"
		if u.Func != nil {
			level = "cfg.Run"
			v, err = cfg.Run(u.Func, r.arg, cfg.Limits{Steps: testFactor * testSteps})
		} else {
			v, err = son.Run(u.Graph, r.arg, son.Limits{Steps: testFactor * testSteps})
		}
		if err := compareRun(r, level, v, err); err != nil {
			return err
		}
	}
	return nil
}

// compareRun compares the result of one level's run with the
// reference's, r: the value, or the division by zero at its position.
func compareRun(r testRun, level string, v int64, err error) error {
	got := fmt.Sprint(v)
	var se *son.RuntimeError
	var ce *cfg.RuntimeError
	switch {
	case errors.As(err, &se) && se.Msg == "division by zero":
		got = fmt.Sprintf("%s at %v", se.Msg, se.Pos)
	case errors.As(err, &ce) && ce.Msg == "division by zero":
		got = fmt.Sprintf("%s at %v", ce.Msg, ce.Pos)
	case errors.As(err, &se) || errors.As(err, &ce):
		got = fmt.Sprintf("no result within %d times the reference's steps", testFactor)
	case err != nil:
		got = "internal error: " + err.Error()
	}
	if want := r.String(); got != want {
		return fmt.Errorf("validation by testing: arg %d: %s gives %s, the reference semantics %s", r.arg, level, got, want)
	}
	return nil
}
