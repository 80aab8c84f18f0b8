package cfg

import (
	"fmt"
	"strings"
)

// Drawing a function with Graphviz: each block a box holding its printed
// lines, left-aligned in a monospace font so that the "; line N" comments
// line up; the entry drawn bold; a branch's edges labeled T and F; back
// edges (to a block that dominates the source, closing a loop) dashed.
// Vertices are named n<position>, so that even a function with duplicate
// block IDs draws; the output depends only on f.

// DOT returns f in the Graphviz DOT language, titled title ("" for none).
func DOT(f *Func, title string) string {
	pos := positions(f)
	tree := dominance(f, pos)
	var s strings.Builder
	fmt.Fprintf(&s, "digraph %s {\n", DotQuote(f.Name))
	if title != "" {
		fmt.Fprintf(&s, "\tlabel=%s;\n\tlabelloc=t;\n", DotQuote(title))
	}
	s.WriteString("\tnode [shape=box, fontname=\"Courier\", fontsize=10];\n")
	s.WriteString("\tedge [fontname=\"Helvetica\", fontsize=9];\n")
	for i, b := range f.Blocks {
		if b == nil || pos.at(b) != i {
			continue
		}
		fmt.Fprintf(&s, "\tn%d [label=%s", i, DotLabel(blockText(b, i, pos)))
		if i == 0 {
			s.WriteString(", style=bold")
		}
		s.WriteString("];\n")
	}
	for i, b := range f.Blocks {
		if b == nil || pos.at(b) != i {
			continue
		}
		for j, t := range b.Succs() {
			k, ok := pos.of(t)
			if !ok {
				continue
			}
			var attrs []string
			if b.Term.Kind == TermBranch && len(b.Succs()) == 2 {
				attrs = append(attrs, `label="`+[]string{"T", "F"}[j]+`"`)
			}
			if tree.Dominates(k, i) {
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

// blockText is the text of block b at position i as Print writes it.
func blockText(b *Block, i int, pos *blockIndex) string {
	var w printer
	w.block(b, i, pos)
	return w.String()
}

// DotLabel makes a left-aligned DOT label of lines of text (gsa draws
// its blocks with it too).
func DotLabel(text string) string {
	var s strings.Builder
	s.WriteByte('"')
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		l = strings.Replace(l, "\t", "    ", 1)
		s.WriteString(dotEscape(l))
		s.WriteString(`\l`)
	}
	s.WriteByte('"')
	return s.String()
}

// DotQuote quotes a string for DOT.
func DotQuote(t string) string { return `"` + dotEscape(t) + `"` }

// dotEscape escapes what a quoted DOT string cannot hold as is: quotes,
// backslashes (which would start an escape such as \l), and line breaks.
func dotEscape(t string) string {
	var s strings.Builder
	for _, r := range t {
		switch r {
		case '"', '\\':
			s.WriteByte('\\')
			s.WriteRune(r)
		case '\n':
			s.WriteString(`\n`)
		case '\r', '\t':
			s.WriteByte(' ')
		default:
			s.WriteRune(r)
		}
	}
	return s.String()
}
