// Package ref is the reference semantics of Simple: a tree-walking
// interpreter of the resolved AST, written from docs/LANGUAGE.md.
//
// It shares no code with the compiler (packages son, opt, gcm and cfg): it
// imports only son/syntax and the standard library, and does its own
// arithmetic, so that a bug of a pass, a peephole or another interpreter
// cannot hide in it. The tests use it as the oracle every level is
// compared with (TestRandomPrograms, FuzzCompile, and every "// run:" line
// of testdata/ and examples/); "son run -level ast" runs it.
//
// The semantics, as docs/LANGUAGE.md says: 64-bit two's-complement ints
// that wrap; division truncating toward zero, MinInt/-1 = MinInt and
// MinInt%-1 = 0; shift counts taken mod 64, >> arithmetic and >>> logical;
// every value stored into a bool variable masked to its low bit (var and
// val never mask); comparisons, !, && and || give 0 or 1; &&, || and ?:
// evaluate only the operands that decide the result; a chain a < b <= c
// evaluates each operand at most once, left to right, and stops at the
// first false comparison; a program that ends without a return returns 0.
//
// Steps. Run counts one step per statement executed and one per expression
// node evaluated: a literal, a name and an operator each count one, and an
// operand that short-circuiting skips counts nothing. A loop statement
// counts one step when it starts; each iteration then counts the steps of
// its condition, body and next statement, and its body is a statement, so
// every iteration costs at least one step. A run that would take more
// steps than its limit stops with the runtime error "step limit exceeded
// (N steps)", N the limit.
//
// Runtime errors. A division or remainder by zero (also in /= and %=)
// stops the run with "division by zero" at the position of its operator:
// the '/' or '%' of the expression, the '/=' or '%=' of the statement,
// where the compiler's ZeroCheck reports it.
//
// Deep trees. The parser bounds the nesting of blocks, statements,
// parentheses and unary and conditional operators (10000 levels), but not
// the length of an operator chain: a+b+c+... is a left-leaning tree as
// deep as the chain is long. Run walks such left spines (the left operand
// of binary operators and the first operand of chains) with a loop, and
// recurses only where the parser recursed: into a right operand (of a
// strictly higher precedence, unless parenthesized), into the operand of
// a unary operator, and into the parts of a ?: (the condition of a ?: can
// only be another ?: through parentheses). Its Go stack is therefore as
// deep as the parser's was, and a run costs time linear in the steps it
// takes.
package ref
