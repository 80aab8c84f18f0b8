package syntax

import (
	"math"
	"testing"
)

// TestFormatExact checks the canonical layout.
func TestFormatExact(t *testing.T) {
	tests := []struct{ src, want string }{
		{"int a=1,b;bool c;var d=a;val e=(d);", "int a = 1, b;\nbool c;\nvar d = a;\nval e = d;\n"},
		{"arg+=1;arg++;++arg;arg--;--arg;arg>>>=2;", "arg += 1;\narg++;\n++arg;\narg--;\n--arg;\narg >>>= 2;\n"},
		{"return (arg+1)*2-(3-arg)-(-arg)/(arg%2);", "return (arg + 1) * 2 - (3 - arg) - -arg / (arg % 2);\n"},
		{"return ((arg<1)<2)==(arg<1<2)&&!(arg>=3);", "return (arg < 1) < 2 == arg < 1 < 2 && !(arg >= 3);\n"},
		{"return arg<(1<2);", "return arg < (1 < 2);\n"},
		{"return (arg?1:2)?(3?4:5):6?7:8;", "return (arg ? 1 : 2) ? 3 ? 4 : 5 : 6 ? 7 : 8;\n"},
		{"return arg|(1^2)&3|4;", "return arg | (1 ^ 2) & 3 | 4;\n"},
		{"return (arg||1)&&2||3;", "return (arg || 1) && 2 || 3;\n"},
		{"return -(-arg);", "return - -arg;\n"},
		{"return - -9223372036854775808;", "return - -9223372036854775808;\n"},
		{"return -9223372036854775808;", "return -9223372036854775808;\n"},
		{"return 0x8000000000000000;", "return -9223372036854775808;\n"},
		{"return 0xffffffffffffffff+0x7f;", "return 0xFFFFFFFFFFFFFFFF + 127;\n"},
		{"return !-1;", "return !-1;\n"},
		{"{}{{}}", "{}\n{\n    {}\n}\n"},
		{";#showGraph;", ";\n#showGraph;\n"},
		{"while(arg){arg=arg-1;if(arg==3)break;else continue;}",
			"while (arg) {\n    arg = arg - 1;\n    if (arg == 3)\n        break;\n    else\n        continue;\n}\n"},
		{"if(arg)arg=1;else if(arg==2){arg=3;}else arg=4;",
			"if (arg)\n    arg = 1;\nelse if (arg == 2) {\n    arg = 3;\n} else\n    arg = 4;\n"},
		{"if(arg){}else{}", "if (arg) {} else {}\n"},
		{"for(;;);for(int i=0;i<3;i++){}for(arg=0;;arg+1)break;",
			"for (;;)\n    ;\nfor (int i = 0; i < 3; i++) {}\nfor (arg = 0;; arg + 1)\n    break;\n"},
		{"if(arg)if(arg)arg=1;else arg=2;", "if (arg)\n    if (arg)\n        arg = 1;\n    else\n        arg = 2;\n"},
	}
	for _, tt := range tests {
		f, err := Parse("t", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := Format(f); got != tt.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

// formatPrograms must all parse, and round-trip through Format.
var formatPrograms = []string{
	`int x = 1;
while (x < 10) { x = x + 1; if (x == 3) break; }
return x;`,
	`// Collatz steps.
int n = arg; int steps = 0;
while (n != 1) {
    if (n % 2 == 0) n = n / 2; else n = 3 * n + 1;
    steps++;
}
return steps;`,
	`int sum = 0;
for (int i = 0; i < arg; i++) {
    for (int j = i; j >= 0; --j) {
        if (i < j < 10) continue;
        sum += i * j - (i ^ j) >>> 1;
    }
}
#showGraph;
return sum > 100 ? sum : -sum;`,
	`bool b = arg > 0 && arg < 10 || !(arg == 5);
val v = b ? 0x7fffffffffffffff : -9223372036854775808;
var w = v;
w <<= 3; w >>= 1; w &= 0xff; w |= 1; w ^= 2; w %= 7; w /= 2; w *= 3; w -= 1;
{ ; { } }
if (b) if (w) w = 1; else w = 2;
return w + (v - (w - v)) * (-w);`,
	`int a = 1, b = a + 1, c;
if (a) { } else if (b) { c = 1; } else if (c) c = 2; else { }
while (a < b) a++;
for (;;) { break; }
return a <= b == (b <= c) != c < a < b;`,
}

func TestFormatRoundTrip(t *testing.T) {
	for _, src := range formatPrograms {
		f1, err := Parse("t", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		out1 := Format(f1)
		f2, err := Parse("t", []byte(out1))
		if err != nil {
			t.Errorf("reparse of\n%s: %v", out1, err)
			continue
		}
		if out2 := Format(f2); out2 != out1 {
			t.Errorf("format not stable:\n%s\nthen\n%s", out1, out2)
		}
		if d1, d2 := sstmts(f1.Body.List), sstmts(f2.Body.List); d1 != d2 {
			t.Errorf("tree changed:\n%s\n%s", d1, d2)
		}
	}
}

// TestFormatBuiltTrees formats trees no parse produces, as a shrinker may
// build: an if without else as the then-branch of an if with one, and
// negative literals.
func TestFormatBuiltTrees(t *testing.T) {
	name := func(s string) *Name { return &Name{Name: s} }
	asg := func(v int64) Stmt { return &AssignStmt{Name: "arg", Op: ASSIGN, Value: &IntLit{Value: v}} }
	f := &File{Body: &BlockStmt{List: []Stmt{
		&IfStmt{Cond: name("arg"), Then: &IfStmt{Cond: name("arg"), Then: asg(1)}, Else: asg(2)},
		&IfStmt{Cond: name("arg"),
			Then: &WhileStmt{Cond: name("arg"), Body: &IfStmt{Cond: name("arg"), Then: asg(1), Else: &IfStmt{Cond: name("arg"), Then: asg(3)}}},
			Else: asg(2)},
		&WhileStmt{Cond: name("arg"), Body: &ReturnStmt{Value: &UnaryExpr{Op: SUB, X: &IntLit{Value: -5}}}},
		&ReturnStmt{Value: &UnaryExpr{Op: SUB, X: &IntLit{Value: math.MinInt64}}},
	}}}
	want := `if (arg) {
    if (arg)
        arg = 1;
} else
    arg = 2;
if (arg) {
    while (arg)
        if (arg)
            arg = 1;
        else if (arg)
            arg = 3;
} else
    arg = 2;
while (arg)
    return -0xFFFFFFFFFFFFFFFB;
return - -9223372036854775808;
`
	got := Format(f)
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	g, err := Parse("t", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if Format(g) != got {
		t.Errorf("not stable:\n%s", Format(g))
	}
	if Format(nil) != "" {
		t.Errorf("Format(nil) not empty")
	}
}
