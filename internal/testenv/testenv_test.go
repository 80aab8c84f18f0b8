package testenv

import (
	"fmt"
	"strings"
	"testing"
)

func TestInt(t *testing.T) {
	t.Setenv("SON_TESTENV_N", "")
	if got := Int(t, "SON_TESTENV_N", 7, "a number"); got != 7 {
		t.Errorf("unset: got %d, want the default 7", got)
	}
	t.Setenv("SON_TESTENV_N", "-12")
	if got := Int(t, "SON_TESTENV_N", 7, "a number"); got != -12 {
		t.Errorf("-12: got %d", got)
	}
	t.Setenv("SON_TESTENV_N", "12x")
	r := &recorder{TB: t}
	func() {
		defer func() { recover() }() // Fatalf's stand-in panics to stop Int
		Int(r, "SON_TESTENV_N", 7, "a number")
	}()
	if want := `SON_TESTENV_N="12x": want a number`; !strings.Contains(r.msg, want) {
		t.Errorf("bad value: message %q, want %q", r.msg, want)
	}
}

// recorder keeps the message of Fatalf instead of failing the test.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}
