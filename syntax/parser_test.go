package syntax

import (
	"math"
	"strings"
	"testing"
)

// TestExprShape checks precedence and associativity: each expression is
// parsed as "return EXPR;" and its tree printed as an S-expression.
func TestExprShape(t *testing.T) {
	tests := []struct{ src, want string }{
		// Arithmetic.
		{"a+b*c", "(a + (b * c))"},
		{"a*b+c", "((a * b) + c)"},
		{"a-b-c", "((a - b) - c)"},
		{"a-(b-c)", "(a - (b - c))"},
		{"a%b/c*d", "(((a % b) / c) * d)"},
		{"((a+b))*c", "((a + b) * c)"},
		{"(a)", "a"},
		// Shifts.
		{"x>>>2", "(x >>> 2)"},
		{"x>>2<<1", "((x >> 2) << 1)"},
		{"a+b<<c", "((a + b) << c)"},
		{"a<<b+c", "(a << (b + c))"},
		{"a<<b<c", "((a << b) < c)"},
		// Relations and equality.
		{"a<b", "(a < b)"},
		{"a<b<=c", "(chain a < b <= c)"},
		{"a<b>c>=d", "(chain a < b > c >= d)"},
		{"a<b+1<c", "(chain a < (b + 1) < c)"},
		{"(a<b)<c", "((a < b) < c)"},
		{"a<(b<c)", "(a < (b < c))"},
		{"a==b==c", "((a == b) == c)"},
		{"a!=b", "(a != b)"},
		{"a<b==c<d", "((a < b) == (c < d))"},
		{"a<b<c==d", "((chain a < b < c) == d)"},
		// Bitwise and logical.
		{"a|b^c&d", "(a | (b ^ (c & d)))"},
		{"a&b^c|d", "(((a & b) ^ c) | d)"},
		{"a&b==c", "(a & (b == c))"},
		{"a||b&&c", "(a || (b && c))"},
		{"a&&b||c", "((a && b) || c)"},
		{"a||b||c", "((a || b) || c)"},
		{"a|b&&c|d", "((a | b) && (c | d))"},
		// Unary.
		{"!a==b", "((!a) == b)"},
		{"-a*b", "((-a) * b)"},
		{"!!a", "(!(!a))"},
		{"- -a", "(-(-a))"},
		{"-(a+b)", "(-(a + b))"},
		{"-1", "(-1)"},
		// Conditional.
		{"a?b:c", "(a ? b : c)"},
		{"a?b:c?d:e", "(a ? b : (c ? d : e))"},
		{"a?b?c:d:e", "(a ? (b ? c : d) : e)"},
		{"a||b?c:d", "((a || b) ? c : d)"},
		{"a?b:c||d", "(a ? b : (c || d))"},
		{"(a?b:c)?d:e", "((a ? b : c) ? d : e)"},
		{"a+(b?c:d)", "(a + (b ? c : d))"},
		// Literals.
		{"true", "true"},
		{"false", "false"},
		{"0", "0"},
		{"0x7f", "127"},
		{"0X7F", "127"},
		{"0xFFFFFFFFFFFFFFFF", "-1"},
		{"0x8000000000000000", "-9223372036854775808"},
		{"0x7fffffffffffffff", "9223372036854775807"},
		{"0x000000000000000000001", "1"},
		{"9223372036854775807", "9223372036854775807"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"- /* c */ 9223372036854775808", "-9223372036854775808"},
		{"- -9223372036854775808", "(--9223372036854775808)"},
		{"!-9223372036854775808", "(!-9223372036854775808)"},
		{"1 - -9223372036854775808", "(1 - -9223372036854775808)"},
		{"-9223372036854775808*2", "(-9223372036854775808 * 2)"},
	}
	for _, tt := range tests {
		body, err := parseOnly("return " + tt.src + ";")
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if len(body.List) != 1 {
			t.Errorf("%s: got %d statements", tt.src, len(body.List))
			continue
		}
		ret, ok := body.List[0].(*ReturnStmt)
		if !ok {
			t.Errorf("%s: got %T", tt.src, body.List[0])
			continue
		}
		if got := sexpr(ret.Value); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestStmtShape checks the statement forms.
func TestStmtShape(t *testing.T) {
	tests := []struct{ src, want string }{
		{"int a = 1, b;", "(int a=1 b)"},
		{"bool b = true;", "(bool b=true)"},
		{"var v = 1; val w = v;", "(var v=1) (val w=v)"},
		{"x = 1;", "(x = 1)"},
		{"x += 1; x -= 1; x *= 1; x /= 1; x %= 1; x &= 1;",
			"(x += 1) (x -= 1) (x *= 1) (x /= 1) (x %= 1) (x &= 1)"},
		{"x |= 1; x ^= 1; x <<= 1; x >>= 1; x >>>= 1;",
			"(x |= 1) (x ^= 1) (x <<= 1) (x >>= 1) (x >>>= 1)"},
		{"x++; ++x; x--; --x;", "(x++) (++x) (x--) (--x)"},
		{"x;", "(expr x)"},
		{"x + 1;", "(expr (x + 1))"},
		{"x < y < z;", "(expr (chain x < y < z))"},
		{"x ? 1 : 2;", "(expr (x ? 1 : 2))"},
		{"-x;", "(expr (-x))"},
		{"(x);", "(expr x)"},
		{"1 / 0;", "(expr (1 / 0))"},
		{"if (a) b = 1;", "(if a (b = 1))"},
		{"if (a) b = 1; else b = 2;", "(if a (b = 1) else (b = 2))"},
		{"if (a) if (b) c = 1; else d = 2;", "(if a (if b (c = 1) else (d = 2)))"},
		{"if (a) { if (b) c = 1; } else d = 2;", "(if a {(if b (c = 1))} else (d = 2))"},
		{"if (a) x; else if (b) y; else z;", "(if a (expr x) else (if b (expr y) else (expr z)))"},
		{"while (i < 10) i++;", "(while (i < 10) (i++))"},
		{"for (;;) ;", "(for _ _ _ ;)"},
		{"for (int i = 0; i < 10; i++) {}", "(for (int i=0) (i < 10) (i++) {})"},
		{"for (i = 0; i; i = i + 1) x;", "(for (i = 0) i (i = (i + 1)) (expr x))"},
		{"for (x; ; x + 1) {}", "(for (expr x) _ (expr (x + 1)) {})"},
		{"for (int i, j = 1; ; --j) break;", "(for (int i j=1) _ (--j) break)"},
		{"while (true) { break; continue; }", "(while true {break continue})"},
		{"return 1;", "(return 1)"},
		{"#showGraph;", "#showGraph"},
		{";", ";"},
		{"{}", "{}"},
		{"{ { x; } ; }", "{{(expr x)} ;}"},
		{"", ""},
		{"// only a comment\n/* and another */", ""},
	}
	for _, tt := range tests {
		body, err := parseOnly(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := sstmts(body.List); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestPositions checks node positions, including the folded MinInt64
// literal (at its minus) and a prefix increment (at its operator).
func TestPositions(t *testing.T) {
	src := "int x = 1;\n  x = -9223372036854775808;\n++x;\nx--;\nif (x < 1 < 2) #showGraph;"
	f, err := Parse("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	list := f.Body.List
	decl := list[0].(*DeclStmt)
	asg := list[1].(*AssignStmt)
	lit := asg.Value.(*IntLit)
	pre := list[2].(*AssignStmt)
	post := list[3].(*AssignStmt)
	ifs := list[4].(*IfStmt)
	chain := ifs.Cond.(*ChainExpr)
	got := []struct {
		what string
		pos  Pos
	}{
		{"decl", decl.Pos()},
		{"spec name", decl.Specs[0].NamePos},
		{"assign", asg.Pos()},
		{"assign op", asg.OpPos},
		{"minint", lit.Pos()},
		{"prefix ++", pre.Pos()},
		{"prefix name", pre.NamePos},
		{"postfix --", post.Pos()},
		{"chain", chain.Pos()},
		{"chain op 2", chain.OpPos[1]},
		{"showGraph", ifs.Then.Pos()},
		{"var x", decl.Specs[0].Var.Pos},
	}
	want := []Pos{{1, 1}, {1, 5}, {2, 3}, {2, 5}, {2, 7}, {3, 1}, {3, 3}, {4, 1}, {5, 5}, {5, 11}, {5, 16}, {1, 5}}
	for i, g := range got {
		if g.pos != want[i] {
			t.Errorf("%s: got %v, want %v", g.what, g.pos, want[i])
		}
	}
	if lit.Value != math.MinInt64 {
		t.Errorf("minint value %d", lit.Value)
	}
}

// TestScannerTokens checks longest-match operator scanning.
func TestScannerTokens(t *testing.T) {
	src := ">>>= >>> >>= >> >= > <<= << <= < ++ += + -- -= - ** *= / /= % %= && &= & || |= | ^= ^ == = != ! ? : ( ) { } ; , #showGraph " +
		"abc _x1 int bool var val if else while for break continue return true false i32 struct 0 12 0x1F\n/* c\n */ // x\nz"
	want := []Token{USHR_ASSIGN, USHR, SHR_ASSIGN, SHR, GEQ, GTR, SHL_ASSIGN, SHL, LEQ, LSS, INC, ADD_ASSIGN, ADD,
		DEC, SUB_ASSIGN, SUB, MUL, MUL, MUL_ASSIGN, QUO, QUO_ASSIGN, REM, REM_ASSIGN, LAND, AND_ASSIGN, AND,
		LOR, OR_ASSIGN, OR, XOR_ASSIGN, XOR, EQL, ASSIGN, NEQ, NOT, QUEST, COLON, LPAREN, RPAREN, LBRACE, RBRACE,
		SEMI, COMMA, SHOWGRAPH,
		IDENT, IDENT, INTTYPE, BOOLTYPE, VAR, VAL, IF, ELSE, WHILE, FOR, BREAK, CONTINUE, RETURN, TRUE, FALSE,
		RESERVED, RESERVED, INT, INT, INT, IDENT, EOF}
	var s scanner
	s.init([]byte(src), func(pos Pos, msg string) { t.Errorf("%v: %s", pos, msg) })
	var got []Token
	var last Pos
	for {
		got = append(got, s.tok)
		last = s.pos
		if s.tok == EOF {
			break
		}
		s.next()
	}
	if len(got) != len(want) {
		t.Fatalf("got %d tokens %v, want %d", len(got), got, len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("token %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if last != (Pos{4, 2}) {
		t.Errorf("EOF at %v, want 4:2", last)
	}
	// ">>>=x" and friends: the longest operator first.
	s.init([]byte("a>>>=b>>>c>>d>=e"), func(pos Pos, msg string) { t.Errorf("%v: %s", pos, msg) })
	var ops []string
	for ; s.tok != EOF; s.next() {
		if s.tok != IDENT {
			ops = append(ops, s.tok.String())
		}
	}
	if got := strings.Join(ops, " "); got != ">>>= >>> >> >=" {
		t.Errorf("operators: %s", got)
	}
}

// TestLongSum parses, resolves and formats a million-term sum; the parser
// must not recurse per operator.
func TestLongSum(t *testing.T) {
	const n = 1000000
	var b strings.Builder
	b.WriteString("return arg")
	for i := 1; i < n; i++ {
		b.WriteString("+1")
	}
	b.WriteString(";")
	f, err := Parse("t", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	out := Format(f)
	if want := "return arg" + strings.Repeat(" + 1", n-1) + ";\n"; out != want {
		t.Errorf("Format: got %d bytes, want %d", len(out), len(want))
	}
}

// TestLongLogicalChains parses, resolves and formats million-term chains
// of &&, || and ?: (in the else position, which is not nesting): the
// parser (which resolves names as it goes) and the formatter walk them
// with loops.
func TestLongLogicalChains(t *testing.T) {
	const n = 1000000
	for _, tc := range []struct{ src, want string }{
		{"return arg" + strings.Repeat("&&arg", n-1) + ";", "return arg" + strings.Repeat(" && arg", n-1) + ";\n"},
		{"return arg" + strings.Repeat("||arg&&1", n-1) + ";", "return arg" + strings.Repeat(" || arg && 1", n-1) + ";\n"},
		{"return " + strings.Repeat("arg?1:", n) + "2;", "return " + strings.Repeat("arg ? 1 : ", n) + "2;\n"},
	} {
		f, err := Parse("t", []byte(tc.src))
		if err != nil {
			t.Fatalf("%.20s...: %v", tc.src, err)
		}
		if out := Format(f); out != tc.want {
			t.Errorf("%.20s...: Format gives %.40q... (%d bytes), want %.40q... (%d bytes)", tc.src, out, len(out), tc.want, len(tc.want))
		}
	}
}

// TestDeepNestingOK checks that exactly the nesting limit is accepted.
func TestDeepNestingOK(t *testing.T) {
	const n = maxNesting
	srcs := []string{
		"return " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";",
		strings.Repeat("{", n) + strings.Repeat("}", n),
		"return " + strings.Repeat("- ", n) + "1;",
		"return " + strings.Repeat("!", n) + "true;",
		strings.Repeat("while (arg) ", n) + "arg = 1;",
		"return " + strings.Repeat("arg ? ", n) + "1" + strings.Repeat(" : 2", n) + ";",
	}
	for _, src := range srcs {
		if _, err := Parse("t", []byte(src)); err != nil {
			t.Errorf("%.20s...: %v", src, err)
		}
	}
}

// benchProgram generates a program of about n statements: blocks of
// declarations, ifs and whiles with arithmetic.
func benchProgram(n int) []byte {
	var b strings.Builder
	b.WriteString("int acc = arg;\n")
	for i := 0; i < n/10; i++ {
		b.WriteString("{\n")
		b.WriteString("    int a = acc * 3 + 7, b = a - (acc >> 2);\n")
		b.WriteString("    bool c = a < b <= acc || !(a == b);\n")
		b.WriteString("    if (c) a = a + b * 2; else { b -= a % 5; }\n")
		b.WriteString("    while (a > 0 && b != 0) { a = a - 1 - (b & 3); b = b >>> 1; }\n")
		b.WriteString("    for (int i = 0; i < 4; i++) acc += i ^ a;\n")
		b.WriteString("    acc = c ? acc + a : acc - b;\n")
		b.WriteString("}\n")
	}
	b.WriteString("return acc;\n")
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	src := benchProgram(100000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("bench", src); err != nil {
			b.Fatal(err)
		}
	}
}
