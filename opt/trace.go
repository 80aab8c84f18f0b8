package opt

import (
	"fmt"
	"io"

	"son/son"
	"son/types"
)

// tracer writes the steps of the analysis for people learning it, in the
// spirit of table VII of paper 001: one line each time a node's value
// changes, numbered, with the node, its old and its new value. Control is
// shown as reachable or unreachable; Top, for data, is the undefined value
// the analysis starts from (T in the paper), int the unknown one (B).
type tracer struct {
	w    io.Writer
	g    *son.Graph // for the Phis' variable names
	step int
}

func newTracer(w io.Writer, g *son.Graph) *tracer {
	if w == nil {
		return nil
	}
	fmt.Fprintf(w, "%4s  %-18s %s\n", "step", "node", "old -> new")
	return &tracer{w: w, g: g}
}

func (t *tracer) change(n *son.Node, old, v types.Type) {
	if t == nil {
		return
	}
	t.step++
	fmt.Fprintf(t.w, "%4d  %-18s %s -> %s\n", t.step, nodeName(t.g, n), describe(n, old), describe(n, v))
}

// nodeName is a node as the trace shows it: "#12 Phi x", "#9 CProj false".
func nodeName(g *son.Graph, n *son.Node) string {
	s := fmt.Sprintf("#%d %v", n.ID, n.Op)
	switch {
	case n.Op == son.OpCProj && len(n.In) > 0 && n.In[0] != nil && n.In[0].Op == son.OpStart:
	case n.Op == son.OpCProj && n.Aux == 0:
		s += " true"
	case n.Op == son.OpCProj:
		s += " false"
	case g.Label(n) != "":
		s += " " + g.Label(n)
	case n.Op == son.OpConstant && !n.Type().IsTop():
		s += fmt.Sprintf(" %d", n.Aux)
	}
	return s
}

// describe shows a value in the words of the paper.
func describe(n *son.Node, t types.Type) string {
	if n.IsControl() {
		if t.IsTuple() {
			if n.Op == son.OpStart {
				return "reachable"
			}
			return fmt.Sprintf("[true %s, false %s]", reach(t.Elem(0)), reach(t.Elem(1)))
		}
		return reach(t)
	}
	return t.String()
}

func reach(t types.Type) string {
	if t.IsCtrl() {
		return "reachable"
	}
	return "unreachable"
}
