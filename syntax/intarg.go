package syntax

import (
	"errors"
	"math"
)

// ParseInt reads an integer written as a program writes one: an integer
// literal, decimal or hexadecimal, under the rules of the language (no
// leading zero on a decimal, no '+', at most 9223372036854775807 in
// decimal), optionally preceded by one minus sign, which negates it as
// unary minus does: -9223372036854775808 is the smallest int, and
// -0x8000000000000000 wraps to it too. son run reads its argument so,
// so that the argument and the literal follow one rule. A bad literal
// gives the scanner's message; anything else, a message saying what is
// wanted.
func ParseInt(text string) (int64, error) {
	lit := text
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if lit == "" || !isDigit(lit[0]) {
		return 0, errors.New("want an integer literal such as 42, -7 or 0x2A")
	}
	for i := 0; i < len(lit); i++ {
		if !isIdentChar(lit[i]) {
			return 0, errors.New("want an integer literal such as 42, -7 or 0x2A")
		}
	}
	var msg string
	var s scanner
	s.init([]byte(lit), func(_ Pos, m string) {
		if msg == "" {
			msg = m
		}
	})
	switch {
	case msg != "":
		return 0, errors.New(msg)
	case s.rng == litTooLarge, s.rng == litMinInt && !neg:
		return 0, errors.New("integer literal out of range: " + lit)
	case s.rng == litMinInt:
		return math.MinInt64, nil
	case neg:
		return -s.val, nil // wraps for 0x8000000000000000, as unary minus does
	}
	return s.val, nil
}
