package syntax

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds test helpers that print trees as S-expressions, so that a
// test can state the exact shape it expects.

// sexpr prints an expression with every operator node in parentheses:
// (a + (b * c)), (-a), (chain a < b <= c), (a ? b : c).
func sexpr(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case nil:
		b.WriteString("_")
	case *IntLit:
		b.WriteString(strconv.FormatInt(x.Value, 10))
	case *BoolLit:
		b.WriteString(strconv.FormatBool(x.Value))
	case *Name:
		b.WriteString(x.Name)
	case *UnaryExpr:
		b.WriteString("(" + x.Op.String())
		writeExpr(b, x.X)
		b.WriteString(")")
	case *BinaryExpr:
		// Iterate down the left spine: tests build million-term sums.
		var spine []*BinaryExpr
		for e := x; ; {
			spine = append(spine, e)
			left, ok := e.X.(*BinaryExpr)
			if !ok {
				break
			}
			e = left
		}
		b.WriteString(strings.Repeat("(", len(spine)))
		writeExpr(b, spine[len(spine)-1].X)
		for i := len(spine) - 1; i >= 0; i-- {
			b.WriteString(" " + spine[i].Op.String() + " ")
			writeExpr(b, spine[i].Y)
			b.WriteString(")")
		}
	case *ChainExpr:
		b.WriteString("(chain")
		for i, y := range x.X {
			if i > 0 {
				b.WriteString(" " + x.Ops[i-1].String())
			}
			b.WriteString(" ")
			writeExpr(b, y)
		}
		b.WriteString(")")
	case *CondExpr:
		b.WriteString("(")
		writeExpr(b, x.Cond)
		b.WriteString(" ? ")
		writeExpr(b, x.Then)
		b.WriteString(" : ")
		writeExpr(b, x.Else)
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "?%T", x)
	}
}

// sstmts prints a statement list, one S-expression per statement,
// separated by spaces.
func sstmts(list []Stmt) string {
	var parts []string
	for _, s := range list {
		parts = append(parts, sstmt(s))
	}
	return strings.Join(parts, " ")
}

func sstmt(s Stmt) string {
	switch s := s.(type) {
	case nil:
		return "_"
	case *BlockStmt:
		return "{" + sstmts(s.List) + "}"
	case *DeclStmt:
		var b strings.Builder
		b.WriteString("(" + s.Kind.String())
		for _, spec := range s.Specs {
			b.WriteString(" " + spec.Name)
			if spec.Init != nil {
				b.WriteString("=" + sexpr(spec.Init))
			}
		}
		return b.String() + ")"
	case *AssignStmt:
		switch {
		case s.Value != nil:
			return "(" + s.Name + " " + s.Op.String() + " " + sexpr(s.Value) + ")"
		case s.OpPos.Before(s.NamePos):
			return "(" + s.Op.String() + s.Name + ")"
		default:
			return "(" + s.Name + s.Op.String() + ")"
		}
	case *ExprStmt:
		return "(expr " + sexpr(s.X) + ")"
	case *IfStmt:
		if s.Else == nil {
			return "(if " + sexpr(s.Cond) + " " + sstmt(s.Then) + ")"
		}
		return "(if " + sexpr(s.Cond) + " " + sstmt(s.Then) + " else " + sstmt(s.Else) + ")"
	case *WhileStmt:
		return "(while " + sexpr(s.Cond) + " " + sstmt(s.Body) + ")"
	case *ForStmt:
		return "(for " + sstmt(s.Init) + " " + sexpr(s.Cond) + " " + sstmt(s.Next) + " " + sstmt(s.Body) + ")"
	case *BreakStmt:
		return "break"
	case *ContinueStmt:
		return "continue"
	case *ReturnStmt:
		return "(return " + sexpr(s.Value) + ")"
	case *ShowGraphStmt:
		return "#showGraph"
	case *EmptyStmt:
		return ";"
	}
	return fmt.Sprintf("?%T", s)
}

// parseOnly parses src without resolving it, for tests of pure syntax.
func parseOnly(src string) (*BlockStmt, error) {
	p := &parser{file: "t", arena: new(arena)}
	body, errs := p.parse([]byte(src))
	if errs != nil {
		return nil, errs
	}
	return body, nil
}
