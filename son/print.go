package son

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Printing in the Simple tutorial's expression style: the graph read back
// from Stop as expressions, e.g. return Phi(Region,(arg+2),(arg-3));. A
// shared node is printed in full at each use (capped: see maxPrint); a Phi
// reached again inside its own inputs — a loop — prints as Phi_name.

// maxPrint bounds the text of one print, so that sharing cannot make it
// exponential.
const maxPrint = 1 << 16

// Print formats the graph as its returns: "return e;" for one, and
// "Stop[ return a; return b; ]" for several.
func Print(g *Graph) string {
	p := &printer{g: g, onStack: map[*Node]bool{}}
	rets := g.Stop.In
	if len(rets) == 1 {
		p.ret(rets[0])
		return p.String()
	}
	p.WriteString("Stop[ ")
	for _, r := range rets {
		p.ret(r)
		p.WriteString(" ")
	}
	p.WriteString("]")
	return p.String()
}

// PrintExpr formats one node of g as an expression.
func PrintExpr(g *Graph, n *Node) string {
	p := &printer{g: g, onStack: map[*Node]bool{}}
	p.expr(n)
	return p.String()
}

type printer struct {
	strings.Builder
	g       *Graph
	onStack map[*Node]bool
}

func (p *printer) ret(r *Node) {
	if r.Op != OpReturn {
		p.expr(r)
		return
	}
	p.WriteString("return ")
	p.expr(r.In[1])
	p.WriteString(";")
}

func (p *printer) expr(n *Node) {
	if p.Len() > maxPrint {
		if !strings.HasSuffix(p.String(), "...") {
			p.WriteString("...")
		}
		return
	}
	if n == nil {
		p.WriteString("___")
		return
	}
	switch {
	case n.Op == OpConstant:
		if n.Type().IsTop() {
			p.WriteString("Top")
		} else {
			p.WriteString(strconv.FormatInt(n.Aux, 10))
		}
	case n.Op == OpProj:
		if l := p.g.Label(n); l != "" {
			p.WriteString(l)
		} else {
			fmt.Fprintf(p, "Proj%d", n.Aux)
		}
	case n.Op == OpPhi:
		if p.onStack[n] {
			p.WriteString(phiName(p.g, n))
			return
		}
		p.onStack[n] = true
		p.WriteString("Phi(")
		p.WriteString(n.In[0].Op.String())
		for _, x := range n.In[1:] {
			p.WriteString(",")
			p.expr(x)
		}
		p.WriteString(")")
		delete(p.onStack, n)
	case n.Op == OpRefine:
		p.WriteString("Refine(")
		p.expr(n.In[1])
		p.WriteString(")")
	case n.Op.IsBinary():
		p.WriteString("(")
		p.expr(n.In[1])
		p.WriteString(n.Op.Symbol())
		p.expr(n.In[2])
		p.WriteString(")")
	case n.Op.IsUnary():
		p.WriteString("(")
		p.WriteString(n.Op.Symbol())
		p.expr(n.In[1])
		p.WriteString(")")
	default:
		p.WriteString(n.Op.String())
	}
}

// phiName is how a Phi prints inside its own cycle.
func phiName(g *Graph, n *Node) string {
	if l := g.Label(n); l != "" {
		return "Phi_" + l
	}
	return fmt.Sprintf("Phi_%d", n.ID)
}

// Listing prints every live node, one per line by ID: ID, op (with its
// projection index, variable or value), type and inputs ("_" for none).
func Listing(g *Graph) string {
	nodes := g.Live()
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(g.ListNode(n))
		b.WriteByte('\n')
	}
	return b.String()
}

// ListNode is one line of Listing.
func (g *Graph) ListNode(n *Node) string {
	op := n.Op.String()
	label := g.Label(n)
	switch n.Op {
	case OpCProj, OpProj:
		op = fmt.Sprintf("%s %d", op, n.Aux)
		if label != "" {
			op += " " + label
		}
	case OpPhi:
		if label != "" {
			op += " " + label
		}
	}
	ins := make([]string, len(n.In))
	for i, x := range n.In {
		if x == nil {
			ins[i] = "_"
		} else {
			ins[i] = strconv.Itoa(x.ID)
		}
	}
	line := fmt.Sprintf("%4d %-12s %-12s %s", n.ID, op, n.Type(), strings.Join(ins, " "))
	return strings.TrimRight(line, " ")
}
