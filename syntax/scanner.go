package syntax

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Integer literal range classes, set by the scanner for each INT token. The
// scanner cannot judge 9223372036854775808 alone: it is valid only as the
// operand of unary minus, which the parser knows.
const (
	litInRange  = iota // the value fits in int64
	litMinInt          // exactly 9223372036854775808 (valid only after unary minus)
	litTooLarge        // beyond any int64
)

// scanner turns source bytes into tokens. It reports lexical errors through
// errh and keeps going; a token it cannot make sense of comes out as ILLEGAL
// so that the parser can skip it without a second message.
type scanner struct {
	src  []byte
	errh func(pos Pos, msg string)

	// Every distinct word seen so far (identifier, keyword or reserved
	// word) is interned once, so that a word costs one probe of a hash
	// table, without allocation, however often it occurs. Identifier ids,
	// 1 up, let the resolver keep its scopes in slices indexed by name.
	words interner

	off     int   // offset of the next unread byte
	line    int32 // line of src[off]
	lineOff int   // offset of the first byte of that line

	// The current token.
	tok Token
	pos Pos // position of its first byte
	// The token's text is not stored, which would cost a write barrier per
	// token while the collector runs: a word's is lit(), an INT's intText().
	id  int32 // interned id of an IDENT, keyword or RESERVED word; 0 otherwise
	beg int   // offset of the token's first byte
	end int   // offset past the last byte of an INT
	val int64 // value of an INT in range
	rng int   // range class of an INT: litInRange, litMinInt or litTooLarge
}

func (s *scanner) init(src []byte, errh func(pos Pos, msg string)) {
	*s = scanner{src: src, errh: errh, line: 1}
	s.words.init()
	s.next()
}

// posAt returns the position of byte offset off, which must be on the
// current line.
func (s *scanner) posAt(off int) Pos {
	return Pos{Line: s.line, Col: int32(off - s.lineOff + 1)}
}

func (s *scanner) errorAt(pos Pos, format string, args ...any) {
	s.errh(pos, fmt.Sprintf(format, args...))
}

// next scans the next token into s.tok, s.pos, s.id, s.val and s.rng.
func (s *scanner) next() {
	s.skipSpace()
	s.pos = s.posAt(s.off)
	s.beg = s.off
	s.id = 0
	s.val = 0
	s.rng = litInRange
	if s.off >= len(s.src) {
		s.tok = EOF
		return
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		s.ident()
		return
	case isDigit(c):
		s.number()
		return
	}
	s.off++
	switch c {
	case '+':
		s.tok = s.pick2('+', INC, '=', ADD_ASSIGN, ADD)
	case '-':
		s.tok = s.pick2('-', DEC, '=', SUB_ASSIGN, SUB)
	case '*':
		s.tok = s.pick1('=', MUL_ASSIGN, MUL)
	case '/':
		s.tok = s.pick1('=', QUO_ASSIGN, QUO)
	case '%':
		s.tok = s.pick1('=', REM_ASSIGN, REM)
	case '&':
		s.tok = s.pick2('&', LAND, '=', AND_ASSIGN, AND)
	case '|':
		s.tok = s.pick2('|', LOR, '=', OR_ASSIGN, OR)
	case '^':
		s.tok = s.pick1('=', XOR_ASSIGN, XOR)
	case '=':
		s.tok = s.pick1('=', EQL, ASSIGN)
	case '!':
		s.tok = s.pick1('=', NEQ, NOT)
	case '<':
		if s.peek() == '<' {
			s.off++
			s.tok = s.pick1('=', SHL_ASSIGN, SHL)
		} else {
			s.tok = s.pick1('=', LEQ, LSS)
		}
	case '>':
		switch s.peek() {
		case '>':
			s.off++
			if s.peek() == '>' {
				s.off++
				s.tok = s.pick1('=', USHR_ASSIGN, USHR)
			} else {
				s.tok = s.pick1('=', SHR_ASSIGN, SHR)
			}
		default:
			s.tok = s.pick1('=', GEQ, GTR)
		}
	case '?':
		s.tok = QUEST
	case ':':
		s.tok = COLON
	case '(':
		s.tok = LPAREN
	case ')':
		s.tok = RPAREN
	case '{':
		s.tok = LBRACE
	case '}':
		s.tok = RBRACE
	case ';':
		s.tok = SEMI
	case ',':
		s.tok = COMMA
	case '#':
		s.directive()
	default:
		s.off--
		s.invalidChar()
	}
}

// peek returns the next unread byte, or 0 at the end of the source.
func (s *scanner) peek() byte {
	if s.off < len(s.src) {
		return s.src[s.off]
	}
	return 0
}

// pick1 consumes c and returns yes if c comes next, or returns no.
func (s *scanner) pick1(c byte, yes, no Token) Token {
	if s.peek() == c {
		s.off++
		return yes
	}
	return no
}

// pick2 is pick1 with two alternatives tried in order.
func (s *scanner) pick2(c1 byte, t1 Token, c2 byte, t2 Token, no Token) Token {
	switch s.peek() {
	case c1:
		s.off++
		return t1
	case c2:
		s.off++
		return t2
	}
	return no
}

// skipSpace skips white space, // line comments and /* */ block comments
// (which do not nest). A space, the commonest byte it sees, and a byte
// that starts a token are told apart before the switch, and the offset is
// kept in a local while it runs: a space costs a load, a compare and an
// add, and the indentation after a newline a compare per eight.
func (s *scanner) skipSpace() {
	src, off := s.src, s.off
	for off < len(src) {
		c := src[off]
		if c == ' ' {
			off++
			continue
		}
		if c > ' ' && c != '/' {
			break
		}
		switch c {
		case '\t', '\r':
			off++
			continue
		case '\n':
			off++
			s.line++
			s.lineOff = off
			// The indentation of the next line eight spaces at a time (a
			// line of the generated programs starts with 24 on average).
			for off+8 <= len(src) && binary.LittleEndian.Uint64(src[off:]) == eightSpaces {
				off += 8
			}
			continue
		case '/':
			if off+1 < len(src) && src[off+1] == '/' {
				for off < len(src) && src[off] != '\n' {
					off++
				}
				continue
			}
			if off+1 < len(src) && src[off+1] == '*' {
				s.off = off
				s.blockComment()
				off = s.off
				continue
			}
		}
		break
	}
	s.off = off
}

// eightSpaces is eight ' ' bytes read as one little-endian word.
const eightSpaces = 0x2020202020202020

// peekAt returns the byte k past the next unread one, or 0.
func (s *scanner) peekAt(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

// blockComment skips a /* */ comment starting at s.off.
func (s *scanner) blockComment() {
	start := s.posAt(s.off)
	s.off += 2
	for s.off < len(s.src) {
		switch s.src[s.off] {
		case '*':
			if s.peekAt(1) == '/' {
				s.off += 2
				return
			}
			s.off++
		case '\n':
			s.off++
			s.line++
			s.lineOff = s.off
		default:
			s.off++
		}
	}
	s.errorAt(start, "unterminated comment")
}

// ident scans an identifier, keyword or reserved word, its offset in a
// local as in skipSpace.
func (s *scanner) ident() {
	src, start, h := s.src, s.off, uint32(hashInit)
	off := start
	for off < len(src) && isIdentChar(src[off]) {
		h = hashStep(h, src[off])
		off++
	}
	s.off = off
	id := s.words.intern(src[start:off], h)
	s.id = id
	s.tok = s.words.toks[id]
}

// lit returns the text of the current IDENT, keyword or RESERVED word.
func (s *scanner) lit() string { return s.words.words[s.id] }

// directive scans a # directive; only #showGraph exists.
func (s *scanner) directive() {
	if s.off >= len(s.src) || !isLetter(s.src[s.off]) {
		s.errorAt(s.pos, "invalid character '#'")
		s.tok = ILLEGAL
		return
	}
	start := s.off
	for s.off < len(s.src) && isIdentChar(s.src[s.off]) {
		s.off++
	}
	if word := string(s.src[start:s.off]); word != "showGraph" {
		s.errorAt(s.pos, "unknown directive '#%s'", word)
		s.tok = ILLEGAL
		return
	}
	s.tok = SHOWGRAPH
}

// invalidChar reports the character at s.off, which starts no token, and
// skips it (a whole UTF-8 sequence when it is one).
func (s *scanner) invalidChar() {
	r, size := utf8.DecodeRune(s.src[s.off:])
	var q string
	if r == utf8.RuneError && size <= 1 {
		size = 1
		q = fmt.Sprintf(`'\x%02x'`, s.src[s.off])
	} else {
		q = strconv.QuoteRune(r)
	}
	s.errorAt(s.pos, "invalid character %s", q)
	s.off += size
	s.tok = ILLEGAL
}

// number scans a decimal or 0x hex integer literal. The literal extends over
// every following letter, digit and underscore, so that 12ab is one bad
// literal rather than a literal and a name. At most one error is reported
// per literal; an erroneous literal has value 0.
func (s *scanner) number() {
	hex := s.src[s.off] == '0' && (s.peekAt(1) == 'x' || s.peekAt(1) == 'X')
	if hex {
		s.off += 2
	}
	digStart := s.off
	src, off := s.src, s.off
	for off < len(src) && (isDigit(src[off]) || hex && isHexLetter(src[off])) {
		off++
	}
	s.off = off
	digits := s.src[digStart:s.off]
	bad := -1 // offset of the first character that does not belong
	if s.off < len(s.src) && isIdentChar(s.src[s.off]) {
		bad = s.off
		for s.off < len(s.src) && isIdentChar(s.src[s.off]) {
			s.off++
		}
	}
	s.tok = INT
	s.end = s.off // the text is made only for an error message: intText
	switch {
	case hex && len(digits) == 0:
		s.errorAt(s.pos, "hex literal has no digits")
	case !hex && len(digits) > 1 && digits[0] == '0':
		s.errorAt(s.pos, "integer literal cannot start with 0")
	case bad >= 0:
		s.errorAt(s.posAt(bad), "invalid character '%c' in integer literal", s.src[bad])
	case hex:
		s.val, s.rng = hexValue(digits)
	default:
		s.val, s.rng = decimalValue(digits)
	}
}

// intText returns the source text of the current INT token.
func (s *scanner) intText() string { return string(s.src[s.beg:s.end]) }

// decimalValue converts decimal digits, never overflowing however many
// there are.
func decimalValue(digits []byte) (int64, int) {
	const limit = uint64(1) << 63
	var v uint64
	for _, c := range digits {
		d := uint64(c - '0')
		if v > (limit-d)/10 {
			return 0, litTooLarge
		}
		v = v*10 + d
	}
	if v == limit {
		return 0, litMinInt
	}
	return int64(v), litInRange
}

// hexValue converts hex digits: up to 16 significant digits, taken as the
// bits of a two's-complement int64.
func hexValue(digits []byte) (int64, int) {
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
	}
	if len(digits) > 16 {
		return 0, litTooLarge
	}
	var v uint64
	for _, c := range digits {
		v = v<<4 | uint64(hexDigit(c))
	}
	return int64(v), litInRange
}

func hexDigit(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

func isLetter(c byte) bool    { return charClass[c]&classLetter != 0 }
func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isIdentChar(c byte) bool { return charClass[c] != 0 }
func isHexLetter(c byte) bool { return 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// charClass says, by byte, whether it is a letter (or _) or a digit: one
// load and a test where the ranges took up to five compares, for every
// byte of every word the scanner reads.
var charClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_':
			t[c] = classLetter
		case '0' <= c && c <= '9':
			t[c] = classDigit
		}
	}
	return t
}()

const (
	classLetter = 1 << iota
	classDigit
)
