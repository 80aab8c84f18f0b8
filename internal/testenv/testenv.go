// Package testenv reads the environment knobs of the project's long test
// campaigns (SON_RANDOM, SON_SPILL, ...), for the tests of every package.
package testenv

import (
	"os"
	"strconv"
	"testing"
)

// Int reads the integer environment variable name, or returns def if it
// is unset; a value that is not an integer fails t, saying what it should
// be (what: "a number of programs", "a seed", ...).
func Int(t testing.TB, name string, def int64, what string) int64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: want %s", name, s, what)
	}
	return v
}
