package syntax

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error has a real
// position inside the file, and that a program that parses survives a trip
// through Format unchanged.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		"return arg;",
		"int x = 1;\nwhile (x < 10) { x = x + 1; if (x == 3) break; }\nreturn x;",
		"int s = 0; for (int i = 0; i < arg; i++) { s += i * i >>> 1; } #showGraph; return s;",
		"bool b = arg < 3 <= 4 > 1; val v = b ? 0x7f : -9223372036854775808; return v ^ 0xFFFFFFFFFFFFFFFF;",
		"if (arg) if (arg) arg = 1; else arg = 2; else_ = 3;",
		"int a, b = a; { var c = b; c++; --c; } return !(a == b) ? a | b & 1 : a << 2;",
		"x = ; y = ) ; { z = } 1 2 3;",
		"/* unterminated",
		"#foo; # ; @ \x01 \xff 012 0x 12ab 0x1g 9223372036854775808;",
		"i32 x = new; int struct; return null;",
		"val v; var w; v = 1; break; continue; return 1; x;",
		"for (int i = 0, i = 1; ; ) int k; while (arg) { continue; arg++; }",
		"((((((((((((1))))))))))))); - - - - ! ! 1; a ? b ? c : d : e ? f : g;",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz", src)
		if err != nil {
			if file != nil {
				t.Fatalf("got a File with error %v", err)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			lines := int32(bytes.Count(src, []byte("\n")) + 1)
			for i, e := range list {
				if e.Pos.Line < 1 || e.Pos.Line > lines+1 || e.Pos.Col < 1 {
					t.Fatalf("error at bad position: %v", e)
				}
				if i > 0 && e.Pos.Before(list[i-1].Pos) {
					t.Fatalf("errors not sorted: %v", err)
				}
			}
			return
		}
		out := Format(file)
		again, err := Parse("fuzz", []byte(out))
		if err != nil {
			t.Fatalf("formatted program does not parse: %v\n%s", err, out)
		}
		if out2 := Format(again); out2 != out {
			t.Fatalf("format not stable:\n%s\nthen\n%s", out, out2)
		}
		if d1, d2 := sstmts(file.Body.List), sstmts(again.Body.List); d1 != d2 {
			t.Fatalf("tree changed by Format:\n%s\n%s", d1, d2)
		}
		if file.NumVars != again.NumVars {
			t.Fatalf("NumVars %d then %d", file.NumVars, again.NumVars)
		}
	})
}
