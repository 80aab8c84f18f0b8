package syntax

import (
	"math"
	"testing"
)

// TestParseInt: the argument of son run follows the literal rules, and
// its errors are the scanner's.
func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int64
		err  string
	}{
		{"0", 0, ""},
		{"-0", 0, ""},
		{"42", 42, ""},
		{"-7", -7, ""},
		{"0x2A", 42, ""},
		{"0XfF", 255, ""},
		{"-0x10", -16, ""},
		{"0xFFFFFFFFFFFFFFFF", -1, ""},
		{"0x8000000000000000", math.MinInt64, ""},
		{"-0x8000000000000000", math.MinInt64, ""},
		{"9223372036854775807", math.MaxInt64, ""},
		{"-9223372036854775808", math.MinInt64, ""},
		{"9223372036854775808", 0, "integer literal out of range: 9223372036854775808"},
		{"-9223372036854775809", 0, "integer literal out of range: 9223372036854775809"},
		{"0x10000000000000000", 0, "integer literal out of range: 0x10000000000000000"},
		{"007", 0, "integer literal cannot start with 0"},
		{"-00", 0, "integer literal cannot start with 0"},
		{"0x", 0, "hex literal has no digits"},
		{"12ab", 0, "invalid character 'a' in integer literal"},
		{"1_000", 0, "invalid character '_' in integer literal"},
		{"+5", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{"--5", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{"", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{"-", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{" 5", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{"5 ", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{"5/**/", 0, "want an integer literal such as 42, -7 or 0x2A"},
		{"abc", 0, "want an integer literal such as 42, -7 or 0x2A"},
	} {
		v, err := ParseInt(tc.text)
		switch {
		case tc.err == "" && (err != nil || v != tc.want):
			t.Errorf("ParseInt(%q) = %d, %v; want %d", tc.text, v, err, tc.want)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseInt(%q) = %d, %v; want the error %q", tc.text, v, err, tc.err)
		}
	}
}
