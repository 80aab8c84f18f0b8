package son

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Drawing the graph with Graphviz, as the Simple tutorial's
// GraphVisualizer and the figures of Demange et al. do. Edges run from
// definition to use, so the picture reads from Start down to Stop:
// control edges red and bold, data edges black, the edge from a Region
// to its Phi dotted, and the inputs of Regions, Loops and Phis numbered,
// so that the k-th input of a Phi is seen to go with the k-th input of
// its Region. Each Region or Loop is boxed with its Phis. The builder's
// Scopes, when given, are drawn as records of variable names, each name
// with a dashed gray edge to its current value. The output depends only
// on the graph: nodes and edges come in order of node ID.

// DOTOptions configures DOT.
type DOTOptions struct {
	// Title labels the whole drawing; "" for none.
	Title string
	// Scopes are the builder's Scope nodes, as handed to
	// BuildOptions.ShowGraph; they and every node they reference are
	// drawn along with the live graph. Scopes die when the build ends, so
	// draw them inside the ShowGraph call.
	Scopes []*Node
	// ScopeNames[k][i] names the variable held in input 1+i of Scopes[k].
	ScopeNames [][]string
}

// DOT returns g in the Graphviz DOT language: node n<ID> for each node of
// g.Live() and of opt.Scopes, in order of ID, so a graph always gives the
// same text.
func DOT(g *Graph, opt DOTOptions) string {
	nodes := dotNodes(g, opt.Scopes)

	// Each region's Phis go in the region's cluster.
	phis := map[*Node][]*Node{}
	inCluster := map[*Node]bool{}
	for _, n := range nodes {
		if n.Op == OpPhi && n.Ctrl() != nil && n.Ctrl().Op.IsRegion() {
			phis[n.Ctrl()] = append(phis[n.Ctrl()], n)
			inCluster[n] = true
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(g.Name))
	b.WriteString("\trankdir=TB;\n")
	if opt.Title != "" {
		fmt.Fprintf(&b, "\tlabel=%s;\n\tlabelloc=t;\n\tfontname=\"Helvetica\";\n", dotQuote(opt.Title))
	}
	b.WriteString("\tnode [fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("\tedge [fontname=\"Helvetica\", fontsize=8];\n")

	for _, n := range nodes {
		switch {
		case n.Op.IsRegion():
			fmt.Fprintf(&b, "\tsubgraph cluster_%d {\n", n.ID)
			b.WriteString("\t\tlabel=\"\";\n\t\tstyle=rounded;\n\t\tcolor=gray;\n")
			fmt.Fprintf(&b, "\t\t%s\n", dotNode(g, n))
			for _, phi := range phis[n] {
				fmt.Fprintf(&b, "\t\t%s\n", dotNode(g, phi))
			}
			b.WriteString("\t}\n")
		case inCluster[n]:
			// drawn with its region
		case n.Op == OpScope:
			var names []string
			for k, sc := range opt.Scopes {
				if sc == n && k < len(opt.ScopeNames) {
					names = opt.ScopeNames[k]
				}
			}
			fmt.Fprintf(&b, "\t%s\n", dotScope(n, names))
		default:
			fmt.Fprintf(&b, "\t%s\n", dotNode(g, n))
		}
	}

	for _, n := range nodes {
		for i, x := range n.In {
			if x == nil {
				continue
			}
			if n.Op == OpScope {
				fmt.Fprintf(&b, "\tn%d:p%d -> n%d [style=dashed, color=gray, constraint=false];\n", n.ID, i, x.ID)
				continue
			}
			var attrs []string
			switch {
			case n.Op == OpPhi && i == 0:
				attrs = append(attrs, "style=dotted", "color=red")
			case x.IsControl():
				attrs = append(attrs, "style=bold", "color=red")
			}
			if i > 0 && (n.Op.IsRegion() || n.Op == OpPhi) {
				attrs = append(attrs, "label="+dotQuote(strconv.Itoa(i)))
			}
			if isBackEdge(n, i) {
				attrs = append(attrs, "constraint=false")
			}
			fmt.Fprintf(&b, "\tn%d -> n%d", x.ID, n.ID)
			if len(attrs) > 0 {
				fmt.Fprintf(&b, " [%s]", strings.Join(attrs, ", "))
			}
			b.WriteString(";\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// isBackEdge reports whether input i of n comes round a loop: the back
// edge of a Loop or of one of its Phis. Such an edge does not rank its
// source above the loop head, so the body is drawn below it.
func isBackEdge(n *Node, i int) bool {
	switch n.Op {
	case OpLoop:
		return i == 2
	case OpPhi:
		return i == 2 && n.Ctrl() != nil && n.Ctrl().Op == OpLoop
	}
	return false
}

// dotNodes is the live graph, the scopes and whatever the scopes
// reference, by ID.
func dotNodes(g *Graph, scopes []*Node) []*Node {
	seen := map[*Node]bool{}
	var nodes []*Node
	var stack []*Node
	visit := func(n *Node) {
		if n != nil && !seen[n] {
			seen[n] = true
			nodes = append(nodes, n)
			stack = append(stack, n)
		}
	}
	for _, n := range g.Live() {
		seen[n] = true
		nodes = append(nodes, n)
	}
	for _, s := range scopes {
		visit(s)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range n.In {
			visit(x)
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	return nodes
}

// dotNode declares one node other than a scope.
func dotNode(g *Graph, n *Node) string {
	var label, attrs string
	switch {
	case n.Op == OpConstant:
		v := strconv.FormatInt(n.Aux, 10)
		if n.Type().IsTop() {
			v = "Top"
		}
		label = fmt.Sprintf("%s #%d", v, n.ID)
		attrs = "shape=plaintext, fontsize=9, height=0.2"
	case n.Op == OpProj:
		name := g.Label(n)
		if name == "" {
			name = fmt.Sprintf("Proj [%d]", n.Aux)
		}
		label = fmt.Sprintf("%s #%d", name, n.ID)
		attrs = "shape=ellipse"
	case n.Op == OpPhi:
		name := "Phi"
		if l := g.Label(n); l != "" {
			name = "Phi_" + l
		}
		label = fmt.Sprintf("%s #%d", name, n.ID)
		attrs = "shape=ellipse"
	case n.Op == OpCProj:
		label = fmt.Sprintf("CProj #%d [%d]", n.ID, n.Aux)
		attrs = "shape=box, style=filled, fillcolor=yellow"
	case n.IsControl():
		label = fmt.Sprintf("%s #%d", n.Op, n.ID)
		attrs = "shape=box, style=filled, fillcolor=yellow"
	default:
		label = fmt.Sprintf("%s #%d", n.Op, n.ID)
		attrs = "shape=ellipse"
	}
	return fmt.Sprintf("n%d [label=%s, %s];", n.ID, dotQuote(label), attrs)
}

// dotScope declares a scope as a record: a title over one field per
// slot, port p0 the control, port p<i> input i.
func dotScope(n *Node, names []string) string {
	fields := make([]string, len(n.In))
	for i := range n.In {
		name := "$ctrl"
		if i > 0 {
			if i-1 < len(names) {
				name = names[i-1]
			} else {
				name = fmt.Sprintf("#%d", i)
			}
		}
		fields[i] = fmt.Sprintf("<p%d> %s", i, recordEscape(name))
	}
	label := fmt.Sprintf("{%s|{%s}}", recordEscape(fmt.Sprintf("Scope #%d", n.ID)), strings.Join(fields, "|"))
	return fmt.Sprintf("n%d [label=\"%s\", shape=record, color=gray];", n.ID, label)
}

// dotQuote makes s a DOT quoted string. A backslash is doubled, since
// Graphviz reads \n, \l and the like in labels as escapes.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	return `"` + r.Replace(s) + `"`
}

// recordEscape makes s the text of a record field, ready to go between
// the quotes of a DOT string: the characters that structure a record
// label are escaped with one backslash, which the record parser takes
// off, and a backslash itself is doubled, as in any label.
func recordEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch c {
		case '{', '}', '|', '<', '>', '"', '\\':
			b.WriteByte('\\')
		case '\n', '\r':
			c = ' '
		}
		b.WriteRune(c)
	}
	return b.String()
}
