package syntax

import (
	"errors"
	"strings"
	"testing"
)

// errorTests pairs sources with the exact errors Parse reports for them.
var errorTests = []struct {
	name string
	src  string
	want []string
}{
	// ---- Scanner ----
	{"invalid char", "int x = 1 @ 2;", []string{"t:1:11: invalid character '@'"}},
	{"control char", "int x = \x01;", []string{`t:1:9: invalid character '\x01'`}},
	{"nul byte", "x\x00", []string{`t:1:2: invalid character '\x00'`}},
	{"non-ascii", "x = é;", []string{"t:1:5: invalid character 'é'"}},
	{"invalid utf8", "x = \xff;", []string{`t:1:5: invalid character '\xff'`}},
	{"unterminated comment", "int x = 1;\n/* never\nclosed", []string{"t:2:1: unterminated comment"}},
	{"unterminated comment mid statement", "int x = /* 1;", []string{
		"t:1:9: unterminated comment",
		"t:1:14: syntax error: unexpected end of file, expected expression",
	}},
	{"unknown directive", "#foo;", []string{"t:1:1: unknown directive '#foo'"}},
	{"unknown directive suffix", "#showGraphs;", []string{"t:1:1: unknown directive '#showGraphs'"}},
	{"lone hash", "#;", []string{"t:1:1: invalid character '#'"}},
	{"hash space", "  # showGraph;", []string{"t:1:3: invalid character '#'"}},
	{"leading zero", "return 012;", []string{"t:1:8: integer literal cannot start with 0"}},
	{"double zero", "return 00;", []string{"t:1:8: integer literal cannot start with 0"}},
	{"empty hex", "return 0x;", []string{"t:1:8: hex literal has no digits"}},
	{"empty hex letter", "return 0Xg;", []string{"t:1:8: hex literal has no digits"}},
	{"letters after decimal", "return 12ab;", []string{"t:1:10: invalid character 'a' in integer literal"}},
	{"letters after hex", "return 0x1g;", []string{"t:1:11: invalid character 'g' in integer literal"}},
	{"underscore in literal", "return 1_000;", []string{"t:1:9: invalid character '_' in integer literal"}},
	{"min int alone", "return 9223372036854775808;", []string{
		"t:1:8: integer literal out of range: 9223372036854775808",
	}},
	{"min int after binary minus", "return 1-9223372036854775808;", []string{
		"t:1:10: integer literal out of range: 9223372036854775808",
	}},
	{"min int in parentheses", "return -(9223372036854775808);", []string{
		"t:1:10: integer literal out of range: 9223372036854775808",
	}},
	{"below min int", "return -9223372036854775809;", []string{
		"t:1:9: integer literal out of range: 9223372036854775809",
	}},
	{"hex too long", "return 0x10000000000000000;", []string{
		"t:1:8: integer literal out of range: 0x10000000000000000",
	}},
	{"huge literal", "return " + strings.Repeat("9", 5000) + ";", []string{
		"t:1:8: integer literal out of range: " + strings.Repeat("9", 5000),
	}},
	{"range error does not abandon the statement", "return 9223372036854775808 + ;", []string{
		"t:1:8: integer literal out of range: 9223372036854775808",
		"t:1:30: syntax error: unexpected ';', expected expression",
	}},

	// ---- Syntax ----
	{"missing semicolon at eof", "x = 1", []string{"t:1:6: syntax error: unexpected end of file, expected ';'"}},
	{"brace for semicolon", "x = 1 }", []string{"t:1:7: syntax error: unexpected '}', expected ';'"}},
	{"stray brace", "}", []string{"t:1:1: syntax error: unexpected '}', expected statement"}},
	{"stray brace then good code", "} x = ;", []string{
		"t:1:1: syntax error: unexpected '}', expected statement",
		"t:1:7: syntax error: unexpected ';', expected expression",
	}},
	{"name for semicolon", "x = 1 foo;", []string{"t:1:7: syntax error: unexpected name 'foo', expected ';'"}},
	{"literal for semicolon", "x = 1 12;", []string{"t:1:7: syntax error: unexpected integer literal 12, expected ';'"}},
	{"hex literal text", "x = 1 0x1F;", []string{"t:1:7: syntax error: unexpected integer literal 0x1F, expected ';'"}},
	{"keyword for semicolon", "x = true false;", []string{"t:1:10: syntax error: unexpected keyword 'false', expected ';'"}},
	{"directive for semicolon", "x = 1 #showGraph;", []string{"t:1:7: syntax error: unexpected '#showGraph', expected ';'"}},
	{"else without if", "else x = 1;", []string{"t:1:1: syntax error: unexpected keyword 'else', expected statement"}},
	{"missing operand", "x = ;", []string{"t:1:5: syntax error: unexpected ';', expected expression"}},
	{"missing right operand", "x = 1 + + 2;", []string{"t:1:9: syntax error: unexpected '+', expected expression"}},
	{"decrement in expression", "x = --y;", []string{"t:1:5: syntax error: unexpected '--', expected expression"}},
	{"missing rparen", "x = (1;", []string{"t:1:7: syntax error: unexpected ';', expected ')'"}},
	{"missing lparen", "if x) y;", []string{"t:1:4: syntax error: unexpected name 'x', expected '('"}},
	{"missing name", "int = 1;", []string{"t:1:5: syntax error: unexpected '=', expected name"}},
	{"missing name after comma", "int a, ;", []string{"t:1:8: syntax error: unexpected ';', expected name"}},
	{"increment of literal", "++1;", []string{"t:1:3: syntax error: unexpected integer literal 1, expected name"}},
	{"unclosed block", "{ x = 1;", []string{"t:1:9: syntax error: unexpected end of file, expected '}'"}},
	{"unclosed blocks report once", "{ { x = 1;", []string{"t:1:11: syntax error: unexpected end of file, expected '}'"}},
	{"missing colon", "return a ? b;", []string{"t:1:13: syntax error: unexpected ';', expected ':'"}},
	{"else as then", "if (a) else b;", []string{"t:1:8: syntax error: unexpected keyword 'else', expected statement"}},
	{"missing body", "while (a)", []string{"t:1:10: syntax error: unexpected end of file, expected statement"}},
	{"for missing semicolon", "for (int i = 0; i < 3) {}", []string{"t:1:22: syntax error: unexpected ')', expected ';'"}},
	{"for missing rparen", "for (;; i++ {}", []string{"t:1:13: syntax error: unexpected '{', expected ')'"}},
	{"break with operand", "break x;", []string{"t:1:7: syntax error: unexpected name 'x', expected ';'"}},
	{"showGraph with operand", "#showGraph x;", []string{"t:1:12: syntax error: unexpected name 'x', expected ';'"}},
	{"return without value", "return;", []string{"t:1:7: syntax error: unexpected ';', expected expression"}},
	{"postfix in expression", "x++ + 1;", []string{"t:1:5: syntax error: unexpected '+', expected ';'"}},
	{"assign to literal", "1 = 2;", []string{"t:1:3: syntax error: unexpected '=', expected ';'"}},
	{"compound assign in decl", "int x += 1;", []string{"t:1:7: syntax error: unexpected '+=', expected ';'"}},
	{"one error per statement", "x = 1 2 3 4;", []string{"t:1:7: syntax error: unexpected integer literal 2, expected ';'"}},
	{"illegal token is not reported twice", "int @x = 1;", []string{"t:1:5: invalid character '@'"}},

	// ---- Reserved words ----
	{"reserved type", "i32 x = 1;", []string{"t:1:1: 'i32' is reserved in Simple but not supported by son"}},
	{"reserved name", "int struct = 1;", []string{"t:1:5: 'struct' is reserved in Simple but not supported by son"}},
	{"reserved operand", "return new;", []string{"t:1:8: 'new' is reserved in Simple but not supported by son"}},
	{"reserved in for", "for (flt f = 0; f < 1; f++) {}", []string{"t:1:6: 'flt' is reserved in Simple but not supported by son"}},
	// An error in a for header skips to its ')': the body is parsed next.
	{"error in for header", "for (flt f = 0;;) { x = ; }\nfor (i = ; (i); i++) {} y = ;\nfor (;; (i++) { ) }", []string{
		"t:1:6: 'flt' is reserved in Simple but not supported by son",
		"t:1:25: syntax error: unexpected ';', expected expression",
		"t:2:10: syntax error: unexpected ';', expected expression",
		"t:2:29: syntax error: unexpected ';', expected expression",
		"t:3:11: syntax error: unexpected '++', expected ')'",
		"t:3:17: syntax error: unexpected ')', expected statement",
	}},
	{"reserved after increment", "++u8;", []string{"t:1:3: 'u8' is reserved in Simple but not supported by son"}},
	{"reserved elsewhere", "x = 1 null;", []string{"t:1:7: 'null' is reserved in Simple but not supported by son"}},

	// ---- Recovery ----
	{"recovery", "int x = ;\nx = 1 +;\n{ y = ); z = 2; }\nif (x { w; } v = 3;\nx = @;\nreturn 1 1;", []string{
		"t:1:9: syntax error: unexpected ';', expected expression",
		"t:2:8: syntax error: unexpected ';', expected expression",
		"t:3:7: syntax error: unexpected ')', expected expression",
		"t:4:7: syntax error: unexpected '{', expected ')'",
		"t:5:5: invalid character '@'",
		"t:6:10: syntax error: unexpected integer literal 1, expected ';'",
	}},
	{"recovery stops at closing brace", "{ x = } y = ;", []string{
		"t:1:7: syntax error: unexpected '}', expected expression",
		"t:1:13: syntax error: unexpected ';', expected expression",
	}},
	{"recovery in nested statements", "while (a) {\n  if (b) x = ;\n  y = );\n}\nz = 1 1;", []string{
		"t:2:14: syntax error: unexpected ';', expected expression",
		"t:3:7: syntax error: unexpected ')', expected expression",
		"t:5:7: syntax error: unexpected integer literal 1, expected ';'",
	}},
	{"syntax errors prevent resolving", "x = ;\ny = 1;", []string{
		"t:1:5: syntax error: unexpected ';', expected expression",
	}},
	{"too many errors", strings.Repeat("x = ;\n", 12), []string{
		"t:1:5: syntax error: unexpected ';', expected expression",
		"t:2:5: syntax error: unexpected ';', expected expression",
		"t:3:5: syntax error: unexpected ';', expected expression",
		"t:4:5: syntax error: unexpected ';', expected expression",
		"t:5:5: syntax error: unexpected ';', expected expression",
		"t:6:5: syntax error: unexpected ';', expected expression",
		"t:7:5: syntax error: unexpected ';', expected expression",
		"t:8:5: syntax error: unexpected ';', expected expression",
		"t:9:5: syntax error: unexpected ';', expected expression",
		"t:10:5: syntax error: unexpected ';', expected expression",
		"t:11:5: too many errors",
	}},
	{"exactly ten errors", strings.Repeat("x = ;\n", 10), []string{
		"t:1:5: syntax error: unexpected ';', expected expression",
		"t:2:5: syntax error: unexpected ';', expected expression",
		"t:3:5: syntax error: unexpected ';', expected expression",
		"t:4:5: syntax error: unexpected ';', expected expression",
		"t:5:5: syntax error: unexpected ';', expected expression",
		"t:6:5: syntax error: unexpected ';', expected expression",
		"t:7:5: syntax error: unexpected ';', expected expression",
		"t:8:5: syntax error: unexpected ';', expected expression",
		"t:9:5: syntax error: unexpected ';', expected expression",
		"t:10:5: syntax error: unexpected ';', expected expression",
	}},
	{"too many scanner errors", "@@@@@@@@@@@@", []string{
		"t:1:1: invalid character '@'",
		"t:1:2: invalid character '@'",
		"t:1:3: invalid character '@'",
		"t:1:4: invalid character '@'",
		"t:1:5: invalid character '@'",
		"t:1:6: invalid character '@'",
		"t:1:7: invalid character '@'",
		"t:1:8: invalid character '@'",
		"t:1:9: invalid character '@'",
		"t:1:10: invalid character '@'",
		"t:1:11: too many errors",
	}},
	{"too many errors stays last", "@;@;@;@;@;@;@;@;@;\nx = 1 0A;", []string{
		"t:1:1: invalid character '@'",
		"t:1:3: invalid character '@'",
		"t:1:5: invalid character '@'",
		"t:1:7: invalid character '@'",
		"t:1:9: invalid character '@'",
		"t:1:11: invalid character '@'",
		"t:1:13: invalid character '@'",
		"t:1:15: invalid character '@'",
		"t:1:17: invalid character '@'",
		"t:2:8: invalid character 'A' in integer literal",
		"t:2:8: too many errors",
	}},

	// ---- Nesting ----
	{"nested parentheses", "return " + strings.Repeat("(", maxNesting+1) + "1" + strings.Repeat(")", maxNesting+1) + ";", []string{
		"t:1:10008: nesting too deep (limit 10000)",
	}},
	{"nested blocks", strings.Repeat("{", maxNesting+5), []string{
		"t:1:10001: nesting too deep (limit 10000)",
	}},
	{"nested unary", "return " + strings.Repeat("- ", maxNesting+1) + "1;", []string{
		"t:1:20008: nesting too deep (limit 10000)",
	}},
	{"nested loops", strings.Repeat("while (arg) ", maxNesting+1) + ";", []string{
		"t:1:120001: nesting too deep (limit 10000)",
	}},
	{"nested conditionals", "return " + strings.Repeat("a ? ", maxNesting+1) + "b" + strings.Repeat(" : c", maxNesting+1) + ";", []string{
		"t:1:40010: nesting too deep (limit 10000)",
	}},
	{"blocks and parentheses add up", strings.Repeat("{", 5000) + "return " + strings.Repeat("(", 5001) + "1", []string{
		"t:1:10008: nesting too deep (limit 10000)",
	}},
	{"nesting error after others", "x = ;\n" + strings.Repeat("!", maxNesting+1), []string{
		"t:1:5: syntax error: unexpected ';', expected expression",
		"t:2:10001: nesting too deep (limit 10000)",
	}},

	// ---- Resolver ----
	{"redefinition", "int x = 1;\nint x = 2;", []string{"t:2:5: redefining name 'x' (declared at 1:5)"}},
	{"redefinition in one declaration", "int a, a;", []string{"t:1:8: redefining name 'a' (declared at 1:5)"}},
	{"redefinition in a block", "{ bool b; var b = 1; }", []string{"t:1:15: redefining name 'b' (declared at 1:8)"}},
	{"redefinition in a for", "for (int i = 0, i = 1;;) {}", []string{"t:1:17: redefining name 'i' (declared at 1:10)"}},
	{"undefined assign", "x = 1;", []string{"t:1:1: undefined name 'x'"}},
	{"undefined use", "return y + 1;", []string{"t:1:8: undefined name 'y'"}},
	{"self reference", "int x = x + 1;", []string{"t:1:9: undefined name 'x'"}},
	{"out of scope", "{ int z = 1; }\nreturn z;", []string{"t:2:8: undefined name 'z'"}},
	{"for variable out of scope", "for (int i = 0; i < 3; i++) {}\nreturn i;", []string{"t:2:8: undefined name 'i'"}},
	{"final", "val v = 1; v = 2; v += 1; v++; --v;", []string{
		"t:1:12: cannot reassign final 'v'",
		"t:1:19: cannot reassign final 'v'",
		"t:1:27: cannot reassign final 'v'",
		"t:1:34: cannot reassign final 'v'",
	}},
	{"break outside loop", "break;", []string{"t:1:1: break outside a loop"}},
	{"continue outside loop", "if (arg) continue;", []string{"t:1:10: continue outside a loop"}},
	{"var without initializer", "var x;", []string{"t:1:5: 'var' declaration of 'x' needs an initializer"}},
	{"val without initializer", "val a = 1, b;", []string{"t:1:12: 'val' declaration of 'b' needs an initializer"}},
	{"declaration as then", "if (arg) int x = 1;", []string{"t:1:10: declaration not allowed here; put it in a block"}},
	{"declaration as else", "if (arg) {} else val y = 1;", []string{"t:1:18: declaration not allowed here; put it in a block"}},
	{"declaration as while body", "while (arg) int x;", []string{"t:1:13: declaration not allowed here; put it in a block"}},
	{"declaration as for body", "for (;;) bool b;", []string{"t:1:10: declaration not allowed here; put it in a block"}},
	{"unreachable after return", "int x; return 1; x = 2; x = 3;", []string{"t:1:18: unreachable code after return"}},
	{"unreachable after break", "while (arg) { break; ; arg = 1; }", []string{"t:1:24: unreachable code after break"}},
	{"unreachable after continue", "while (arg) { continue; ++arg; }", []string{"t:1:25: unreachable code after continue"}},
	{"unreachable once per list", "return 1; { return 2; return 3; } return 4;", []string{
		"t:1:11: unreachable code after return",
		"t:1:23: unreachable code after return",
	}},
	{"several resolver errors", "x = 1;\nbreak;\nint a = 1, a = 2;\nval v = 1; v = 2;\nreturn q;", []string{
		"t:1:1: undefined name 'x'",
		"t:2:1: break outside a loop",
		"t:3:1: unreachable code after break",
		"t:3:12: redefining name 'a' (declared at 3:5)",
		"t:4:12: cannot reassign final 'v'",
		"t:5:8: undefined name 'q'",
	}},
	{"resolver errors are all reported", strings.Repeat("u = 1;\n", 12), func() []string {
		var want []string
		for i := 1; i <= 12; i++ {
			want = append(want, "t:"+itoa(i)+":1: undefined name 'u'")
		}
		return want
	}()},
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		f, err := Parse("t", []byte(tt.src))
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if f != nil {
			t.Errorf("%s: got a File and an error", tt.name)
		}
		var list ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%s: error is %T, not ErrorList", tt.name, err)
			continue
		}
		var got []string
		for _, e := range list {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s", tt.name, strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
		}
	}
}

// TestValid lists programs that must parse and resolve without error,
// including the edge cases next to the errors above.
func TestValid(t *testing.T) {
	srcs := []string{
		"",
		"return 0;",
		"return -9223372036854775808;",
		"return 0xFFFFFFFFFFFFFFFF;",
		"return 0x0000000000000000000000ff;",
		"int arg = 1; return arg;",
		"int x = 1; { int x = x + 1; }",
		"for (int i = 0; i < 3; i++) { int i = 1; }",
		"int i; bool b;",
		"int a = 1, b = a;",
		"while (arg) { break; }",
		"while (arg) { if (arg) continue; arg = 1; }",
		"return 1; ;",
		"if (arg) { int x = 1; } else { int x = 2; }",
		"#showGraph;",
		"x: ;"[2:],
	}
	for _, src := range srcs {
		if _, err := Parse("t", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
