// Package hostile makes the programs of the compiler's resource promises
// (docs/LANGUAGE.md, "Limits"): one shape per class of input that has
// made a pass recurse, loop or allocate out of proportion — long chains
// of &&, || and ?:, loops and ifs nested to the documented limit, long
// straight-line code, many live variables — at any size in bytes. The
// tests of compile/hostile_test.go count the work each shape costs at two
// sizes; cmd/limits measures time and peak memory of son check on them.
package hostile

import (
	"fmt"
	"strings"
)

// MaxDepth is how deep the nested shapes nest: a little under the
// parser's limit of 10,000 (the if and loop statements of one level count
// once each, the block of their body once more).
const MaxDepth = 4990

// Shape is a kind of hostile program.
type Shape struct {
	Name string
	Desc string
	gen  func(b *strings.Builder, size int)
}

// Shapes lists every shape, in the order of the tables.
var Shapes = []Shape{
	{"and", "return arg && arg && ... && arg;", and},
	{"or", "return arg == 0 || arg == 1 || ...;", or},
	{"cond", "return arg == 0 ? 0 : arg == 1 ? 7 : ... : -1; (an else-if chain)", cond},
	{"cmp", "return arg < arg + 1 < arg + 2 < ...; (a comparison chain)", cmp},
	{"breaks", "one loop whose body is a run of if (x == k) break;", breaks},
	{"loops", "nests of 4,990 whiles, the innermost body a run of ifs as long as the nest", loops},
	{"ifs", "nests of 4,990 ifs, each level assigning a variable", ifs},
	{"straight", "straight-line assignments among five variables", straight},
	{"vars", "a new variable per statement, every tenth an if assigning an older one", vars},
	{"divs", "one block of s = s + 7 / (arg + k); each division checked", divs},
}

// Program returns the program of shape s, of about size bytes (at least
// a few dozen).
func (s Shape) Program(size int) string {
	var b strings.Builder
	b.Grow(size + 1024)
	s.gen(&b, size)
	return b.String()
}

// Lookup finds a shape by name.
func Lookup(name string) (Shape, bool) {
	for _, s := range Shapes {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

func and(b *strings.Builder, size int) {
	b.WriteString("return arg")
	for b.Len() < size {
		b.WriteString(" && arg")
	}
	b.WriteString(";\n")
}

func or(b *strings.Builder, size int) {
	b.WriteString("return arg == 0")
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(b, " || arg == %d", i)
	}
	b.WriteString(";\n")
}

func cond(b *strings.Builder, size int) {
	b.WriteString("return ")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "arg == %d ? %d : ", i, i*7)
	}
	b.WriteString("-1;\n")
}

func cmp(b *strings.Builder, size int) {
	b.WriteString("return arg")
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(b, " < arg + %d", i)
	}
	b.WriteString(";\n")
}

func breaks(b *strings.Builder, size int) {
	b.WriteString("int x = 0, y = 0;\nwhile (x < arg) {\nx++;\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "if (x == %d) break;\ny += x;\n", i)
	}
	b.WriteString("}\nreturn x + y;\n")
}

// divs is one block of divisions, each by a value that may be 0 and so
// checked: the selection checker follows a path through each check and
// keeps what it learns (arg + k != 0) as facts of the block's paths.
func divs(b *strings.Builder, size int) {
	b.WriteString("int s = 0;\n")
	for k := 1; b.Len() < size; k++ {
		fmt.Fprintf(b, "s = s + 7 / (arg + %d);\n", k)
	}
	b.WriteString("return s;\n")
}

// nests writes nests of at most MaxDepth levels one after the other until
// size is reached: open writes a level's header, body the innermost body
// (given the bytes the nest's headers took), close a level's end.
func nests(b *strings.Builder, size int, open func(i int), body func(headers int), close string) {
	b.WriteString("int x = 0, y = arg;\n")
	for b.Len() < size {
		start := b.Len()
		depth := 0
		for depth < MaxDepth && b.Len()-start < (size-start)/2 {
			open(depth)
			depth++
		}
		body(b.Len() - start)
		for range depth {
			b.WriteString(close)
		}
	}
	b.WriteString("return x + y;\n")
}

func loops(b *strings.Builder, size int) {
	nests(b, size,
		func(i int) { fmt.Fprintf(b, "while (x < y + %d) {\n", i) },
		func(headers int) {
			start := b.Len()
			for i := 0; b.Len()-start < headers; i++ {
				fmt.Fprintf(b, "if (x == %d) y++;\n", i)
			}
			b.WriteString("x++;\n")
		},
		"}\n")
}

func ifs(b *strings.Builder, size int) {
	nests(b, size,
		func(i int) { fmt.Fprintf(b, "if (y > %d) {\nx = x + y;\n", i) },
		func(int) { b.WriteString("y++;\n") },
		"}\n")
}

func straight(b *strings.Builder, size int) {
	b.WriteString("int a = arg, c = arg + 1, d = 3, e = arg * 7, f = -arg;\n")
	ops := []string{"a += c * 3;\n", "c ^= d + a;\n", "d -= e >> 2;\n", "e += f & a;\n", "f ^= a - c;\n", "a -= e | 5;\n", "c += d << 1;\n"}
	for i := 0; b.Len() < size; i++ {
		b.WriteString(ops[i%len(ops)])
	}
	b.WriteString("return a + c + d + e + f;\n")
}

func vars(b *strings.Builder, size int) {
	b.WriteString("int v0 = arg;\n")
	i := 1
	for ; b.Len() < size; i++ {
		if i%10 == 0 {
			fmt.Fprintf(b, "if (v%d > %d) v%d = v%d + 1;\n", i-1, i, i/2, i-1)
		}
		fmt.Fprintf(b, "int v%d = v%d ^ %d;\n", i, i-1, i)
	}
	fmt.Fprintf(b, "return v%d + v%d;\n", i-1, (i-1)/2)
}
