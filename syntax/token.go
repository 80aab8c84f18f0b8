package syntax

// Token is a lexical token kind.
type Token uint8

const (
	ILLEGAL Token = iota
	EOF
	IDENT // x
	INT   // 123, 0x7f

	// Operators and punctuation.
	ADD       // +
	SUB       // -
	MUL       // *
	QUO       // /
	REM       // %
	AND       // &
	OR        // |
	XOR       // ^
	SHL       // <<
	SHR       // >>  (arithmetic)
	USHR      // >>> (logical)
	LAND      // &&
	LOR       // ||
	NOT       // !
	EQL       // ==
	NEQ       // !=
	LSS       // <
	LEQ       // <=
	GTR       // >
	GEQ       // >=
	ASSIGN    // =
	INC       // ++
	DEC       // --
	QUEST     // ?
	COLON     // :
	LPAREN    // (
	RPAREN    // )
	LBRACE    // {
	RBRACE    // }
	SEMI      // ;
	COMMA     // ,
	SHOWGRAPH // #showGraph

	ADD_ASSIGN  // +=
	SUB_ASSIGN  // -=
	MUL_ASSIGN  // *=
	QUO_ASSIGN  // /=
	REM_ASSIGN  // %=
	AND_ASSIGN  // &=
	OR_ASSIGN   // |=
	XOR_ASSIGN  // ^=
	SHL_ASSIGN  // <<=
	SHR_ASSIGN  // >>=
	USHR_ASSIGN // >>>=

	// Keywords.
	keywordBeg
	INTTYPE  // int
	BOOLTYPE // bool
	VAR      // var
	VAL      // val
	IF       // if
	ELSE     // else
	WHILE    // while
	FOR      // for
	BREAK    // break
	CONTINUE // continue
	RETURN   // return
	TRUE     // true
	FALSE    // false
	// RESERVED is any word Simple reserves for a feature son does not
	// have yet (struct, new, null, i32, flt, ...): a clear error, not a name.
	RESERVED
	keywordEnd
)

var tokenText = [...]string{
	ILLEGAL: "ILLEGAL", EOF: "end of file", IDENT: "name", INT: "integer literal",
	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%", AND: "&", OR: "|", XOR: "^",
	SHL: "<<", SHR: ">>", USHR: ">>>", LAND: "&&", LOR: "||", NOT: "!",
	EQL: "==", NEQ: "!=", LSS: "<", LEQ: "<=", GTR: ">", GEQ: ">=",
	ASSIGN: "=", INC: "++", DEC: "--", QUEST: "?", COLON: ":",
	LPAREN: "(", RPAREN: ")", LBRACE: "{", RBRACE: "}", SEMI: ";", COMMA: ",",
	SHOWGRAPH:  "#showGraph",
	ADD_ASSIGN: "+=", SUB_ASSIGN: "-=", MUL_ASSIGN: "*=", QUO_ASSIGN: "/=", REM_ASSIGN: "%=",
	AND_ASSIGN: "&=", OR_ASSIGN: "|=", XOR_ASSIGN: "^=", SHL_ASSIGN: "<<=", SHR_ASSIGN: ">>=",
	USHR_ASSIGN: ">>>=",
	INTTYPE:     "int", BOOLTYPE: "bool", VAR: "var", VAL: "val", IF: "if", ELSE: "else",
	WHILE: "while", FOR: "for", BREAK: "break", CONTINUE: "continue", RETURN: "return",
	TRUE: "true", FALSE: "false", RESERVED: "reserved word",
}

// String returns the token's text as written in source, or a description
// for classes of tokens ("name", "integer literal").
func (t Token) String() string {
	if int(t) < len(tokenText) && tokenText[t] != "" {
		return tokenText[t]
	}
	return "token?"
}

// IsKeyword reports whether t is a keyword.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

// AssignOp returns the binary operator of a compound assignment token
// (ADD for ADD_ASSIGN ...), ADD for INC, SUB for DEC, and ILLEGAL otherwise.
func (t Token) AssignOp() Token {
	switch t {
	case ADD_ASSIGN, INC:
		return ADD
	case SUB_ASSIGN, DEC:
		return SUB
	case MUL_ASSIGN:
		return MUL
	case QUO_ASSIGN:
		return QUO
	case REM_ASSIGN:
		return REM
	case AND_ASSIGN:
		return AND
	case OR_ASSIGN:
		return OR
	case XOR_ASSIGN:
		return XOR
	case SHL_ASSIGN:
		return SHL
	case SHR_ASSIGN:
		return SHR
	case USHR_ASSIGN:
		return USHR
	}
	return ILLEGAL
}

var keywords = map[string]Token{
	"int": INTTYPE, "bool": BOOLTYPE, "var": VAR, "val": VAL, "if": IF, "else": ELSE,
	"while": WHILE, "for": FOR, "break": BREAK, "continue": CONTINUE, "return": RETURN,
	"true": TRUE, "false": FALSE,
}

// reserved are the words Simple's later chapters use for features son does
// not implement; using one is an error that names the word.
var reserved = map[string]bool{
	"struct": true, "new": true, "null": true, "byte": true,
	"i8": true, "i16": true, "i32": true, "i64": true,
	"u1": true, "u8": true, "u16": true, "u32": true,
	"flt": true, "f32": true, "f64": true,
}

// Lookup maps an identifier to its keyword token, RESERVED, or IDENT.
func Lookup(ident string) Token {
	if t, ok := keywords[ident]; ok {
		return t
	}
	if reserved[ident] {
		return RESERVED
	}
	return IDENT
}
