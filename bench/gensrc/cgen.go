package main

import (
	"fmt"
	"strings"

	"son/syntax"
)

// cPrelude holds the functions that give C Simple's division and shifts.
const cPrelude = `#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline int64_t sdiv(int64_t a, int64_t b) {
    if (b == 0) { fputs("division by zero\n", stderr); exit(1); }
    return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
}
static inline int64_t smod(int64_t a, int64_t b) {
    if (b == 0) { fputs("division by zero\n", stderr); exit(1); }
    return b == -1 ? 0 : a % b;
}
static inline int64_t sshl(int64_t a, int64_t n) { return (int64_t)((uint64_t)a << (n & 63)); }
static inline int64_t ssar(int64_t a, int64_t n) { return a >> (n & 63); }
static inline int64_t sshr(int64_t a, int64_t n) { return (int64_t)((uint64_t)a >> (n & 63)); }

`

// toC translates a Simple program to a C function f of arg and a main
// that prints f(argv[1]).
func toC(src string) (string, error) {
	f, err := syntax.Parse("gen.smp", []byte(src))
	if err != nil {
		return "", err
	}
	c := &cgen{}
	c.b.WriteString(cPrelude)
	c.b.WriteString("int64_t f(int64_t v_arg) {\n")
	c.indent = 1
	for _, s := range f.Body.List {
		c.stmt(s)
	}
	c.line("return 0;")
	if c.err != nil {
		return "", c.err
	}
	c.b.WriteString(`}

int main(int argc, char **argv) {
    printf("%lld\n", (long long)f(argc > 1 ? strtoll(argv[1], 0, 10) : 0));
    return 0;
}
`)
	return c.b.String(), nil
}

type cgen struct {
	b      strings.Builder
	indent int
	tmps   int // temporaries of comparison chains made so far
	err    error
}

// fail records the first construct the translation does not know.
func (c *cgen) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("gensrc: no C for "+format, args...)
	}
}

func (c *cgen) line(format string, args ...any) {
	c.b.WriteString(strings.Repeat("    ", c.indent))
	fmt.Fprintf(&c.b, format, args...)
	c.b.WriteByte('\n')
}

// name is a variable's C name: v_ and its Simple name, which C's shadowing
// in nested blocks resolves as Simple's does.
func name(n string) string { return "v_" + n }

func (c *cgen) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.BlockStmt:
		c.line("{")
		c.indent++
		for _, t := range s.List {
			c.stmt(t)
		}
		c.indent--
		c.line("}")
	case *syntax.DeclStmt:
		for _, sp := range s.Specs {
			init := "0"
			if sp.Init != nil {
				init = c.expr(sp.Init)
			}
			if sp.Var != nil && sp.Var.Bool {
				init = "(" + init + ") & 1"
			}
			c.line("int64_t %s = %s;", name(sp.Name), init)
		}
	case *syntax.AssignStmt:
		c.line("%s;", c.assign(s))
	case *syntax.ExprStmt:
		c.line("(void)(%s);", c.expr(s.X))
	case *syntax.IfStmt:
		c.line("if (%s)", c.expr(s.Cond))
		c.body(s.Then)
		if s.Else != nil {
			c.line("else")
			c.body(s.Else)
		}
	case *syntax.WhileStmt:
		c.line("while (%s)", c.expr(s.Cond))
		c.body(s.Body)
	case *syntax.ForStmt:
		// { init; while (cond) { body; next; } } would run next after a
		// continue only with a goto; C's for has Simple's meaning.
		c.line("{")
		c.indent++
		if s.Init != nil {
			c.stmt(s.Init)
		}
		cond, next := "1", ""
		if s.Cond != nil {
			cond = c.expr(s.Cond)
		}
		switch n := s.Next.(type) {
		case *syntax.AssignStmt:
			next = c.assign(n)
		case *syntax.ExprStmt:
			next = "(void)(" + c.expr(n.X) + ")"
		}
		c.line("for (; %s; %s)", cond, next)
		c.body(s.Body)
		c.indent--
		c.line("}")
	case *syntax.BreakStmt:
		c.line("break;")
	case *syntax.ContinueStmt:
		c.line("continue;")
	case *syntax.ReturnStmt:
		c.line("return %s;", c.expr(s.Value))
	case *syntax.EmptyStmt, *syntax.ShowGraphStmt:
		c.line(";")
	default:
		c.fail("statement %T", s)
	}
}

func (c *cgen) body(s syntax.Stmt) {
	if _, ok := s.(*syntax.BlockStmt); ok {
		c.stmt(s)
		return
	}
	c.line("{")
	c.indent++
	c.stmt(s)
	c.indent--
	c.line("}")
}

// assignOps maps x op= e to op.
var assignOps = map[syntax.Token]syntax.Token{
	syntax.ADD_ASSIGN: syntax.ADD, syntax.SUB_ASSIGN: syntax.SUB, syntax.MUL_ASSIGN: syntax.MUL,
	syntax.QUO_ASSIGN: syntax.QUO, syntax.REM_ASSIGN: syntax.REM, syntax.AND_ASSIGN: syntax.AND,
	syntax.OR_ASSIGN: syntax.OR, syntax.XOR_ASSIGN: syntax.XOR, syntax.SHL_ASSIGN: syntax.SHL,
	syntax.SHR_ASSIGN: syntax.SHR, syntax.USHR_ASSIGN: syntax.USHR,
}

func (c *cgen) assign(s *syntax.AssignStmt) string {
	x := name(s.Name)
	var v string
	switch s.Op {
	case syntax.INC:
		v = x + " + 1"
	case syntax.DEC:
		v = x + " - 1"
	case syntax.ASSIGN:
		v = c.expr(s.Value)
	default:
		v = binary(assignOps[s.Op], x, c.expr(s.Value))
	}
	if s.Var != nil && s.Var.Bool {
		v = "(" + v + ") & 1"
	}
	return x + " = " + v
}

var cOps = map[syntax.Token]string{
	syntax.ADD: "+", syntax.SUB: "-", syntax.MUL: "*", syntax.AND: "&", syntax.OR: "|", syntax.XOR: "^",
	syntax.LAND: "&&", syntax.LOR: "||", syntax.EQL: "==", syntax.NEQ: "!=",
	syntax.LSS: "<", syntax.LEQ: "<=", syntax.GTR: ">", syntax.GEQ: ">=",
}

var cFuncs = map[syntax.Token]string{
	syntax.QUO: "sdiv", syntax.REM: "smod", syntax.SHL: "sshl", syntax.SHR: "ssar", syntax.USHR: "sshr",
}

// binary is x op y in C, both already translated.
func binary(op syntax.Token, x, y string) string {
	if f, ok := cFuncs[op]; ok {
		return f + "(" + x + ", " + y + ")"
	}
	return "(" + x + " " + cOps[op] + " " + y + ")"
}

func (c *cgen) expr(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.IntLit:
		if e.Value == -1<<63 {
			return "INT64_MIN"
		}
		return fmt.Sprintf("INT64_C(%d)", e.Value)
	case *syntax.BoolLit:
		if e.Value {
			return "1"
		}
		return "0"
	case *syntax.Name:
		return name(e.Name)
	case *syntax.UnaryExpr:
		if e.Op == syntax.NOT {
			return "(!" + c.expr(e.X) + ")"
		}
		return "(-" + c.expr(e.X) + ")"
	case *syntax.BinaryExpr:
		return binary(e.Op, c.expr(e.X), c.expr(e.Y))
	case *syntax.ChainExpr:
		// ({ int64_t t0 = X0, t1; (t0 < (t1 = X1)) && (t1 <= (t2 = X2)) ...; })
		ts := make([]string, len(e.X))
		for k := range ts {
			c.tmps++
			ts[k] = fmt.Sprintf("t%d", c.tmps)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "({ int64_t %s = %s", ts[0], c.expr(e.X[0]))
		for _, t := range ts[1:] {
			fmt.Fprintf(&b, ", %s", t)
		}
		b.WriteString("; ")
		for k, op := range e.Ops {
			if k > 0 {
				b.WriteString(" && ")
			}
			fmt.Fprintf(&b, "(%s %s (%s = %s))", ts[k], cOps[op], ts[k+1], c.expr(e.X[k+1]))
		}
		b.WriteString("; })")
		return b.String()
	case *syntax.CondExpr:
		return "(" + c.expr(e.Cond) + " ? " + c.expr(e.Then) + " : " + c.expr(e.Else) + ")"
	}
	c.fail("expression %T", e)
	return "0"
}
