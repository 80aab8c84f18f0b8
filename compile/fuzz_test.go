package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"son/cfg"
	"son/son"
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
		if f := levelsFailure(src, []int64{arg}, 10_000); f != nil {
			t.Fatalf("%s\n%s", f.Msg, src)
		}
	})
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
