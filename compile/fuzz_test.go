package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"son/cfg"
	"son/son"
	"son/syntax"
)

// FuzzCompile: any program that parses goes through the whole pipeline
// with every check on, and runs to the same value or the same runtime
// error after every pass. Seeded with testdata and the examples.
func FuzzCompile(f *testing.F) {
	for _, pat := range []string{"../testdata/*.smp", "../examples/*.smp"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src, int64(3))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, arg int64) {
		checkLevelsAgree(t, src, []int64{arg}, 10_000)
	})
}

// checkLevelsAgree compiles src stopping after each pass in turn, with the
// checks on, and requires every level to give the same result for each
// argument. Source errors are fine; anything else that fails is a bug.
func checkLevelsAgree(t *testing.T, src []byte, args []int64, steps int64) {
	t.Helper()
	first := make([]string, len(args))
	level := 0
	after := func(u *Unit, pass string) error {
		defer func() { level++ }()
		for k, arg := range args {
			if first[k] == "-" {
				continue // ran out of steps at some level
			}
			results := []func() (int64, error){func() (int64, error) { return son.Run(u.Graph, arg, son.Limits{Steps: steps}) }}
			if u.Func != nil {
				results = append(results, func() (int64, error) { return cfg.Run(u.Func, arg, cfg.Limits{Steps: steps}) })
			}
			for i, run := range results {
				v, err := run()
				msg, ok := runtimeMsg(err)
				if err != nil && !ok {
					return fmt.Errorf("after %s: %v", pass, err)
				}
				if err != nil && msg != "division by zero" {
					first[k] = "-" // the levels may stop at different points
					break
				}
				got := resultText(v, err)
				if level == 0 && i == 0 {
					first[k] = got
				} else if got != first[k] {
					return fmt.Errorf("arg %d: after build %s, after %s (level %d) %s", arg, first[k], pass, i, got)
				}
			}
		}
		return nil
	}
	_, err := Compile("fuzz.smp", src, Options{Check: true, AfterPass: after})
	var list syntax.ErrorList
	if err != nil && !errors.As(err, &list) {
		t.Fatalf("%v\n%s", err, src)
	}
}

// runtimeMsg is the message of a runtime error of the program at either
// level, and whether err is one.
func runtimeMsg(err error) (string, bool) {
	var rt *son.RuntimeError
	var crt *cfg.RuntimeError
	switch {
	case errors.As(err, &rt):
		return rt.Msg, true
	case errors.As(err, &crt):
		return crt.Msg, true
	}
	return "", false
}

func resultText(v int64, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(v)
}
