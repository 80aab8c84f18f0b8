package lower

import (
	"strings"
	"testing"

	"son/cfg"
	"son/syntax"
)

func lowerText(t *testing.T, src string) *cfg.Func {
	t.Helper()
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fn, err := Func(f, "t")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Verify(fn); err != nil {
		t.Fatalf("%v\n%s", err, cfg.Print(fn))
	}
	return fn
}

// The exact RTL of small programs: each construct's shape.
var lowerCases = []struct{ name, src, want string }{
	{"fall-off", "int x = arg;", `
func t level RTL
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Copy v1             ; line 1
	v3 = Const 0
	return v3
`},
	{"division check at the operator, none by a literal", "int x = 7 / arg; x %= 2; x /= 0; return x;", `
func t level RTL
b1:  ; entry, depth 0
	v1 = Arg
	v3 = Const 7
	check v1                 ; line 1
	v4 = Div v3 v1           ; line 1
	v2 = Copy v4             ; line 1
	v5 = Const 2
	v2 = Mod v2 v5           ; line 1
	v6 = Const 0
	check v6                 ; line 1
	v2 = Div v2 v6           ; line 1
	return v2                ; line 1
`},
	{"while, break (edges split), bool mask", "bool b = arg; while (1) { if (b) break; b += 3; } return b;", `
func t level RTL
b1:  ; entry, depth 0
	v1 = Arg
	v3 = Const 1
	v2 = And v1 v3           ; line 1
	jump b2
b2:  ; preds b1 b6, depth 1
	v4 = Const 1
	branch v4 b4 b3          ; line 1
b3:  ; preds b2, depth 0
	jump b8
b4:  ; preds b2, depth 1
	branch v2 b7 b5          ; line 1
b5:  ; preds b4, depth 1
	jump b6
b6:  ; preds b5, depth 1
	v5 = Const 3
	v6 = Add v2 v5           ; line 1
	v7 = Const 1
	v2 = And v6 v7           ; line 1
	jump b2
b7:  ; preds b4, depth 1
	jump b8
b8:  ; preds b3 b7, depth 0
	return v2                ; line 1
`},
}

func TestLowerCases(t *testing.T) {
	for _, c := range lowerCases {
		t.Run(c.name, func(t *testing.T) {
			got := cfg.Print(lowerText(t, c.src))
			if want := strings.TrimPrefix(c.want, "\n"); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
