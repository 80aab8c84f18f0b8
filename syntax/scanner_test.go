package syntax

import "testing"

// TestCharClass checks the scanner's table of letters and digits against
// the ranges it stands for, byte by byte.
func TestCharClass(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		letter := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b == '_'
		digit := '0' <= b && b <= '9'
		if isLetter(b) != letter || isDigit(b) != digit || isIdentChar(b) != (letter || digit) {
			t.Errorf("byte %#x: letter %v digit %v ident %v", b, isLetter(b), isDigit(b), isIdentChar(b))
		}
	}
}

// TestScannerSpace checks the tokens and positions skipSpace leaves
// between: runs of spaces, tabs, carriage returns, newlines, comments of
// both kinds, and a / after spaces that starts an operator, not a
// comment; indentation of 19 and 8 spaces, and 16 at the end.
func TestScannerSpace(t *testing.T) {
	src := "  a \t\r b\n    /* x\n y */  c // d\n\t\t  e  /  f /= g\n\n   h//\n" +
		"                   i\n        j\n                "
	want := []struct {
		tok Token
		pos Pos
	}{
		{IDENT, Pos{1, 3}}, {IDENT, Pos{1, 8}}, {IDENT, Pos{3, 8}}, {IDENT, Pos{4, 5}},
		{QUO, Pos{4, 8}}, {IDENT, Pos{4, 11}}, {QUO_ASSIGN, Pos{4, 13}}, {IDENT, Pos{4, 16}},
		{IDENT, Pos{6, 4}}, {IDENT, Pos{7, 20}}, {IDENT, Pos{8, 9}}, {EOF, Pos{9, 17}},
	}
	var s scanner
	s.init([]byte(src), func(pos Pos, msg string) { t.Errorf("%v: %s", pos, msg) })
	for i, w := range want {
		if s.tok != w.tok || s.pos != w.pos {
			t.Errorf("token %d: got %v at %v, want %v at %v", i, s.tok, s.pos, w.tok, w.pos)
		}
		s.next()
	}
}
