package gsa

import (
	"fmt"
	"strconv"
	"strings"

	"son/cfg"
	"son/pred"
)

// Print returns g as text: cfg.Print's form of the code, each junction's
// merge block after its header and each pad's η block before its jump:
//
//	v8 = μ(v6, v38)
//	v38 = γ(v8 < 9: v22, ¬(v8 < 9): v35)
//	v40 = η(¬(v9 < v4): v8)
//
// An atom is written as the expression that defines its register ("v8 <
// 9" for the atom over v16 = Lt v8 v15, v15 = Const 9). A block with
// predicates says their size in its header ("predicate size 4", see
// Sizes), and the first line after the function's says the total. A g
// without the parts that takes (Shape) prints as one line saying why.
func Print(g *Func) string {
	if err := g.Shape(); err != nil {
		return fmt.Sprintf("; broken GSA function: %v\n", err)
	}
	var s strings.Builder
	sizes := Sizes(g)
	total := 0
	for _, n := range sizes {
		total += n
	}
	first, _, _ := strings.Cut(cfg.Print(&cfg.Func{Name: g.Code.Name, Level: g.Code.Level}), "\n")
	for i, text := range g.blockTexts(sizes) {
		if i == 0 {
			fmt.Fprintf(&s, "%s level GSA\n", strings.TrimSuffix(first, " level SSA"))
			fmt.Fprintf(&s, "; predicates: size %d over %d blocks, %.2f per block\n", total, len(sizes), float64(total)/float64(max(len(sizes), 1)))
		}
		s.WriteString(text)
	}
	return s.String()
}

// blockTexts returns the printed text of each block, by position.
func (g *Func) blockTexts(sizes []int) []string {
	lines := strings.Split(strings.TrimSuffix(cfg.Print(g.Code), "\n"), "\n")
	atom := g.AtomFormatter()
	var out []string
	i := -1
	var cur []string
	flush := func() {
		if i < 0 {
			return
		}
		b := g.Code.Blocks[i]
		var t strings.Builder
		header := cur[0]
		if sizes[i] > 0 {
			header += ", predicate size " + strconv.Itoa(sizes[i])
		}
		t.WriteString(header + "\n")
		for _, m := range g.Merges[i] {
			t.WriteString("\t" + m.Format(atom) + "\n")
		}
		body := cur[1:]
		var term string
		if b.Term.Kind != cfg.TermNone && len(body) > 0 {
			term = body[len(body)-1]
			body = body[:len(body)-1]
		}
		for _, l := range body {
			t.WriteString(l + "\n")
		}
		for _, e := range g.Etas[i] {
			t.WriteString("\t" + e.Format(atom) + "\n")
		}
		if term != "" {
			t.WriteString(term + "\n")
		}
		out = append(out, t.String())
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, " ") && strings.HasPrefix(l, "b") {
			flush()
			i++
			cur = []string{l}
			continue
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

// Format prints m with atoms as atom says.
func (m *Merge) Format(atom func(cfg.Reg) string) string {
	var s strings.Builder
	s.WriteString(m.Dst.String())
	if m.Kind == Mu {
		s.WriteString(" = μ(")
	} else {
		s.WriteString(" = γ(")
	}
	for i, a := range m.Args {
		if i > 0 {
			s.WriteString(", ")
		}
		if m.Kind == Gamma && i < len(m.Preds) {
			s.WriteString(formatPred(m.Preds[i], atom))
			s.WriteString(": ")
		}
		s.WriteString(a.String())
	}
	s.WriteString(")")
	return s.String()
}

// Format prints e with atoms as atom says.
func (e *Eta) Format(atom func(cfg.Reg) string) string {
	return fmt.Sprintf("%v = η(%s: %v)", e.Dst, formatPred(e.Pred, atom), e.Src)
}

// formatPred is pred.Format, with "<nil>" for a missing predicate.
func formatPred(p *pred.Pred, atom func(cfg.Reg) string) string {
	if p == nil {
		return "<nil>"
	}
	return pred.Format(p, atom)
}

// PrintMatrix lists the matrix entries the code uses, one a line:
// "P(b2, b11) = ¬(v9 < v4)", rows and columns named by their blocks.
func PrintMatrix(g *Func) string {
	var s strings.Builder
	atom := g.AtomFormatter()
	for _, e := range g.Matrix.Entries() {
		fmt.Fprintf(&s, "P(%v, %v) = %s\n", g.Code.Blocks[e.I], g.Code.Blocks[e.J], formatPred(e.P, atom))
	}
	return s.String()
}

// Sizes returns, for each block position, the size (pred.Size) of the
// predicates of its γ block, counted once for all its γs, which share
// them, plus those of its η block.
func Sizes(g *Func) []int {
	sizes := make([]int, len(g.Code.Blocks))
	for i := range sizes {
		for _, m := range g.Merges[i] {
			if m != nil && m.Kind == Gamma {
				for _, p := range m.Preds {
					if p != nil {
						sizes[i] += pred.Size(p)
					}
				}
				break
			}
		}
		for _, e := range g.Etas[i] {
			if e != nil && e.Pred != nil {
				sizes[i] += pred.Size(e.Pred)
			}
		}
	}
	return sizes
}

// opSymbols are the operators an atom's defining instruction is written with.
var opSymbols = map[cfg.Op]string{
	cfg.OpAdd: "+", cfg.OpSub: "-", cfg.OpMul: "*", cfg.OpDiv: "/", cfg.OpMod: "%",
	cfg.OpAnd: "&", cfg.OpOr: "|", cfg.OpXor: "^", cfg.OpShl: "<<", cfg.OpSar: ">>", cfg.OpShr: ">>>",
	cfg.OpEq: "==", cfg.OpNe: "!=", cfg.OpLt: "<", cfg.OpLe: "<=",
}

// AtomFormatter returns the printer of atoms: the atom "r ≠ 0" as the
// expression defining r, constants written as numbers: "v8 < 9" for a
// comparison ("v8 > 50" for Lt 50 v8: a constant goes right), "v3 == 0" for a Not, "v4 + v5 ≠ 0" for other operations,
// "v8 ≠ 0" for a register defined by a μ, γ, η or Arg.
func (g *Func) AtomFormatter() func(cfg.Reg) string {
	defs := map[cfg.Reg]*cfg.Instr{}
	for _, b := range g.Code.Blocks {
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				defs[in.Dst] = in
			}
		}
	}
	isConst := func(r cfg.Reg) bool { in := defs[r]; return in != nil && in.Op == cfg.OpConst }
	operand := func(r cfg.Reg) string {
		if in := defs[r]; in != nil && in.Op == cfg.OpConst {
			return strconv.FormatInt(in.Aux, 10)
		}
		return r.String()
	}
	return func(r cfg.Reg) string {
		in := defs[r]
		switch {
		case in == nil || in.Op == cfg.OpArg:
		case in.Op == cfg.OpConst:
			return strconv.FormatInt(in.Aux, 10) + " ≠ 0"
		case in.Op == cfg.OpNot && len(in.Args) == 1:
			return operand(in.Args[0]) + " == 0"
		case (in.Op == cfg.OpLt || in.Op == cfg.OpLe) && len(in.Args) == 2 && isConst(in.Args[0]) && !isConst(in.Args[1]):
			// The front end writes x > 50 as 50 < x: put the register first.
			return operand(in.Args[1]) + map[cfg.Op]string{cfg.OpLt: " > ", cfg.OpLe: " >= "}[in.Op] + operand(in.Args[0])
		case in.Op >= cfg.OpEq && in.Op <= cfg.OpLe && len(in.Args) == 2:
			return operand(in.Args[0]) + " " + opSymbols[in.Op] + " " + operand(in.Args[1])
		case in.Op.IsBinary() && len(in.Args) == 2:
			return operand(in.Args[0]) + " " + opSymbols[in.Op] + " " + operand(in.Args[1]) + " ≠ 0"
		case in.Op == cfg.OpNeg && len(in.Args) == 1:
			return "-" + operand(in.Args[0]) + " ≠ 0"
		case in.Op == cfg.OpCopy && len(in.Args) == 1:
			return operand(in.Args[0]) + " ≠ 0"
		}
		return r.String() + " ≠ 0"
	}
}

// DOT returns g in the Graphviz DOT language as cfg.DOT draws a function:
// each block a box of its printed lines (merges and ηs included), the
// entry bold, branch edges labeled T and F, back edges dashed. A g
// without the parts that takes (Shape) is drawn as one box saying why.
func DOT(g *Func, title string) string {
	if err := g.Shape(); err != nil {
		return fmt.Sprintf("digraph gsa {\n\tn0 [shape=box, label=%s];\n}\n", cfg.DotQuote("broken GSA function: "+err.Error()))
	}
	f := g.Code
	pos := make(map[*cfg.Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		pos[b] = i
	}
	var s strings.Builder
	fmt.Fprintf(&s, "digraph %s {\n", cfg.DotQuote(f.Name))
	if title != "" {
		fmt.Fprintf(&s, "\tlabel=%s;\n\tlabelloc=t;\n", cfg.DotQuote(title))
	}
	s.WriteString("\tnode [shape=box, fontname=\"Courier\", fontsize=10];\n")
	s.WriteString("\tedge [fontname=\"Helvetica\", fontsize=9];\n")
	for i, text := range g.blockTexts(Sizes(g)) {
		fmt.Fprintf(&s, "\tn%d [label=%s", i, cfg.DotLabel(text))
		if i == 0 {
			s.WriteString(", style=bold")
		}
		s.WriteString("];\n")
	}
	for i, b := range f.Blocks {
		for j, t := range b.Succs() {
			k, ok := pos[t]
			if !ok {
				continue
			}
			var attrs []string
			if b.Term.Kind == cfg.TermBranch && len(b.Succs()) == 2 {
				attrs = append(attrs, `label="`+[]string{"T", "F"}[j]+`"`)
			}
			if g.Header[k] && k <= i {
				attrs = append(attrs, "style=dashed")
			}
			fmt.Fprintf(&s, "\tn%d -> n%d", i, k)
			if len(attrs) > 0 {
				fmt.Fprintf(&s, " [%s]", strings.Join(attrs, ", "))
			}
			s.WriteString(";\n")
		}
	}
	s.WriteString("}\n")
	return s.String()
}
