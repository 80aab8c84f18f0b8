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
	p := &printer{onStack: map[*Node]bool{}}
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

// PrintExpr formats one node as an expression.
func PrintExpr(n *Node) string {
	p := &printer{onStack: map[*Node]bool{}}
	p.expr(n)
	return p.String()
}

type printer struct {
	strings.Builder
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
		if n.Type.IsTop() {
			p.WriteString("Top")
		} else {
			p.WriteString(strconv.FormatInt(n.Aux, 10))
		}
	case n.Op == OpProj:
		if n.Label != "" {
			p.WriteString(n.Label)
		} else {
			fmt.Fprintf(p, "Proj%d", n.Aux)
		}
	case n.Op == OpPhi:
		if p.onStack[n] {
			p.WriteString(phiName(n))
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
func phiName(n *Node) string {
	if n.Label != "" {
		return "Phi_" + n.Label
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
		b.WriteString(ListNode(n))
		b.WriteByte('\n')
	}
	return b.String()
}

// ListNode is one line of Listing.
func ListNode(n *Node) string {
	op := n.Op.String()
	switch n.Op {
	case OpCProj, OpProj:
		op = fmt.Sprintf("%s %d", op, n.Aux)
		if n.Label != "" {
			op += " " + n.Label
		}
	case OpPhi:
		if n.Label != "" {
			op += " " + n.Label
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
	line := fmt.Sprintf("%4d %-12s %-12s %s", n.ID, op, n.Type, strings.Join(ins, " "))
	return strings.TrimRight(line, " ")
}
