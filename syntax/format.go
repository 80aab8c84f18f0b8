package syntax

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Format prints f as canonical Simple source: one statement per line,
// four-space indentation, '{' on the line of its statement, and only the
// parentheses precedence requires. Parsing the result gives the same tree
// (up to positions), so formatting it again gives the same text.
func Format(f *File) string {
	if f == nil || f.Body == nil {
		return ""
	}
	var p printer
	for _, s := range f.Body.List {
		p.line(s)
	}
	return p.b.String()
}

// printer accumulates formatted source.
type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) str(s string) { p.b.WriteString(s) }

// writeIndent writes four spaces per level of indentation.
func (p *printer) writeIndent() {
	const spaces = "                                                                "
	for n := 4 * p.indent; n > 0; n -= len(spaces) {
		p.b.WriteString(spaces[:min(n, len(spaces))])
	}
}

func (p *printer) newline() {
	p.b.WriteByte('\n')
	p.writeIndent()
}

// line prints s on a line of its own at the current indentation.
func (p *printer) line(s Stmt) {
	p.writeIndent()
	p.stmt(s)
	p.b.WriteByte('\n')
}

// stmt prints s from the current column; a statement of several lines ends
// without a newline, like one of a single line.
func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *BlockStmt:
		p.block(s.List)
	case *DeclStmt, *AssignStmt, *ExprStmt:
		p.simple(s)
		p.str(";")
	case *IfStmt:
		p.str("if (")
		p.expr(s.Cond, precLowest-1)
		p.str(")")
		if s.Else == nil {
			p.body(s.Then)
			return
		}
		if endsInOpenIf(s.Then) {
			// Without braces the else would attach to the inner if.
			p.str(" ")
			p.block([]Stmt{s.Then})
		} else {
			p.body(s.Then)
		}
		if _, ok := s.Then.(*BlockStmt); ok || endsInOpenIf(s.Then) {
			p.str(" else")
		} else {
			p.newline()
			p.str("else")
		}
		if elif, ok := s.Else.(*IfStmt); ok {
			p.str(" ")
			p.stmt(elif)
		} else {
			p.body(s.Else)
		}
	case *WhileStmt:
		p.str("while (")
		p.expr(s.Cond, precLowest-1)
		p.str(")")
		p.body(s.Body)
	case *ForStmt:
		p.str("for (")
		if s.Init != nil {
			p.simple(s.Init)
		}
		p.str(";")
		if s.Cond != nil {
			p.str(" ")
			p.expr(s.Cond, precLowest-1)
		}
		p.str(";")
		if s.Next != nil {
			p.str(" ")
			p.simple(s.Next)
		}
		p.str(")")
		p.body(s.Body)
	case *BreakStmt:
		p.str("break;")
	case *ContinueStmt:
		p.str("continue;")
	case *ReturnStmt:
		p.str("return ")
		p.expr(s.Value, precLowest-1)
		p.str(";")
	case *ShowGraphStmt:
		p.str("#showGraph;")
	case *EmptyStmt:
		p.str(";")
	default:
		panic(fmt.Sprintf("syntax: cannot format statement %T", s))
	}
}

// block prints { list } with list indented; an empty block is {}.
func (p *printer) block(list []Stmt) {
	if len(list) == 0 {
		p.str("{}")
		return
	}
	p.str("{\n")
	p.indent++
	for _, s := range list {
		p.line(s)
	}
	p.indent--
	p.writeIndent()
	p.str("}")
}

// body prints the body of if, else, while or for: a block on the same
// line, any other statement indented on the next.
func (p *printer) body(s Stmt) {
	if b, ok := s.(*BlockStmt); ok {
		p.str(" ")
		p.block(b.List)
		return
	}
	p.indent++
	p.newline()
	p.stmt(s)
	p.indent--
}

// endsInOpenIf reports whether s, printed without braces, ends with an if
// that has no else, which would capture an else that follows s.
func endsInOpenIf(s Stmt) bool {
	for {
		switch t := s.(type) {
		case *IfStmt:
			if t.Else == nil {
				return true
			}
			s = t.Else
		case *WhileStmt:
			s = t.Body
		case *ForStmt:
			s = t.Body
		default:
			return false
		}
	}
}

// simple prints a declaration, assignment or expression statement without
// its ';', as in a for header.
func (p *printer) simple(s Stmt) {
	switch s := s.(type) {
	case *DeclStmt:
		p.str(s.Kind.String())
		for i, spec := range s.Specs {
			if i > 0 {
				p.str(",")
			}
			p.str(" ")
			p.str(spec.Name)
			if spec.Init != nil {
				p.str(" = ")
				p.expr(spec.Init, precLowest-1)
			}
		}
	case *AssignStmt:
		switch {
		case s.Op != INC && s.Op != DEC:
			p.str(s.Name)
			p.str(" ")
			p.str(s.Op.String())
			p.str(" ")
			p.expr(s.Value, precLowest-1)
		case s.OpPos.Before(s.NamePos):
			p.str(s.Op.String())
			p.str(s.Name)
		default:
			p.str(s.Name)
			p.str(s.Op.String())
		}
	case *ExprStmt:
		p.expr(s.X, precLowest-1)
	default:
		panic(fmt.Sprintf("syntax: cannot format %T in a for header", s))
	}
}

// exprPrec is the precedence of x's outermost operator: 0 for ?:, the
// binary precedences, precUnary for - and !, more for operands.
func exprPrec(x Expr) int {
	switch x := x.(type) {
	case *CondExpr:
		return 0
	case *BinaryExpr:
		return precedence(x.Op)
	case *ChainExpr:
		return precRel
	case *UnaryExpr:
		return precUnary
	case *IntLit:
		if x.Value == math.MinInt64 {
			return precUnary // printed as -9223372036854775808
		}
	}
	return precUnary + 1
}

// leftPrec and rightPrec are the least precedences an operand of op may
// have without parentheses: operators are left associative, and a
// relational operand of a relational operator would make a chain.
func leftPrec(op Token) int {
	if prec := precedence(op); prec != precRel {
		return prec
	}
	return precRel + 1
}

func rightPrec(op Token) int { return precedence(op) + 1 }

// expr prints x, in parentheses if its precedence is below min.
func (p *printer) expr(x Expr, min int) {
	if exprPrec(x) < min {
		p.str("(")
		p.expr(x, precLowest-1)
		p.str(")")
		return
	}
	switch x := x.(type) {
	case *IntLit:
		switch {
		case x.Value == math.MinInt64:
			p.str("-9223372036854775808")
		case x.Value < 0:
			// Only a hex literal has such a value; keep it one literal.
			p.str(fmt.Sprintf("0x%X", uint64(x.Value)))
		default:
			p.str(strconv.FormatInt(x.Value, 10))
		}
	case *BoolLit:
		p.str(strconv.FormatBool(x.Value))
	case *Name:
		p.str(x.Name)
	case *UnaryExpr:
		p.str(x.Op.String())
		if x.Op == SUB && startsWithMinus(x.X) {
			p.str(" ") // not --, which is a different token
		}
		p.expr(x.X, precUnary)
	case *BinaryExpr:
		p.binary(x)
	case *ChainExpr:
		for i, y := range x.X {
			if i > 0 {
				p.str(" ")
				p.str(x.Ops[i-1].String())
				p.str(" ")
			}
			p.expr(y, precRel+1)
		}
	case *CondExpr:
		// A chain of conditionals in the else position is walked with a
		// loop: the parser does not bound its length.
		for {
			p.expr(x.Cond, precLowest)
			p.str(" ? ")
			p.expr(x.Then, precLowest-1)
			p.str(" : ")
			next, ok := x.Else.(*CondExpr)
			if !ok {
				break
			}
			x = next
		}
		p.expr(x.Else, precLowest-1)
	default:
		panic(fmt.Sprintf("syntax: cannot format expression %T", x))
	}
}

// binary prints a binary expression, walking its chain of left operands
// with a loop so that a long sum needs no deep recursion.
func (p *printer) binary(x *BinaryExpr) {
	spine := []*BinaryExpr{x}
	for {
		left, ok := x.X.(*BinaryExpr)
		if !ok || precedence(left.Op) < leftPrec(x.Op) {
			break
		}
		spine = append(spine, left)
		x = left
	}
	p.expr(x.X, leftPrec(x.Op))
	for i := len(spine) - 1; i >= 0; i-- {
		b := spine[i]
		p.str(" ")
		p.str(b.Op.String())
		p.str(" ")
		p.expr(b.Y, rightPrec(b.Op))
	}
}

// startsWithMinus reports whether x, printed as a unary operand, begins
// with '-'.
func startsWithMinus(x Expr) bool {
	switch x := x.(type) {
	case *UnaryExpr:
		return x.Op == SUB
	case *IntLit:
		return x.Value == math.MinInt64
	}
	return false
}
