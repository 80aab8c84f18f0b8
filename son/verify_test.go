package son

import (
	"strings"
	"testing"

	"son/types"
)

// handGraph is a small well-formed graph built node by node:
//
//	if (arg) x = 1 else x = 2; return x + arg;
//
// with a division by arg (behind its ZeroCheck) on the way out.
type handGraph struct {
	g                          *Graph
	ctrl, arg, iff, t, f, r    *Node
	one, two, phi, add, zc, dv *Node
	ret                        *Node
}

func newHandGraph() *handGraph {
	h := &handGraph{g: NewGraph("hand")}
	g := h.g
	h.ctrl = g.NewNode(OpCProj, 0, g.Start)
	h.arg = g.NewNode(OpProj, 1, g.Start)
	h.iff = g.NewNode(OpIf, 0, h.ctrl, h.arg)
	h.t = g.NewNode(OpCProj, 0, h.iff)
	h.f = g.NewNode(OpCProj, 1, h.iff)
	h.r = g.NewNode(OpRegion, 0, nil, h.t, h.f)
	h.one = g.NewNode(OpConstant, 1)
	h.two = g.NewNode(OpConstant, 2)
	h.phi = g.NewNode(OpPhi, 0, h.r, h.one, h.two)
	h.add = g.NewNode(OpAdd, 0, nil, h.phi, h.arg)
	h.zc = g.NewNode(OpZeroCheck, 0, h.r, h.arg)
	h.dv = g.NewNode(OpDiv, 0, h.zc, h.add, h.arg)
	h.ret = g.NewNode(OpReturn, 0, h.zc, h.dv)
	g.AddReturn(h.ret)
	return h
}

func TestVerifyAcceptsHandGraph(t *testing.T) {
	h := newHandGraph()
	if err := Verify(h.g); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[int64]int64{1: 2, 2: 1, -3: 0} {
		if got, err := Run(h.g, arg, Limits{}); err != nil || got != want {
			t.Errorf("Run(%d) = %d, %v; want %d", arg, got, err, want)
		}
	}
	if _, err := Run(h.g, 0, Limits{}); err == nil || err.Error() != "runtime error: division by zero" {
		t.Errorf("Run(0): %v, want division by zero", err)
	}
}

// TestVerifyRejects breaks the hand-made graph in one way per row and
// requires Verify to name the rule and the node.
func TestVerifyRejects(t *testing.T) {
	for _, c := range []struct {
		name    string
		breakIt func(h *handGraph) *Node // returns the node to be named
		rule    string
	}{
		{"out edge missing", func(h *handGraph) *Node {
			h.arg.Out = h.arg.Out[:len(h.arg.Out)-1] // forget its last user, the Div
			h.arg.outSlot = h.arg.outSlot[:len(h.arg.outSlot)-1]
			return h.dv
		}, "edges"},
		{"dead node left attached", func(h *handGraph) *Node {
			h.g.NewNode(OpSub, 0, nil, h.arg, h.one) // nothing uses it, nothing kills it
			return h.arg
		}, "edges"},
		{"killed input", func(h *handGraph) *Node {
			x := h.g.NewNode(OpMul, 0, nil, h.arg, h.arg)
			h.g.SetIn(h.add, 2, x)
			x.dead = true
			return h.add
		}, "edges"},
		{"phi arity", func(h *handGraph) *Node {
			h.g.AddIn(h.phi, h.two)
			return h.phi
		}, "phi-arity"},
		{"phi of a non-region", func(h *handGraph) *Node {
			h.g.SetIn(h.phi, 0, h.t)
			return h.phi
		}, "shape"},
		{"floating op with control", func(h *handGraph) *Node {
			h.g.SetIn(h.add, 0, h.r)
			return h.add
		}, "shape"},
		{"region predecessor is data", func(h *handGraph) *Node {
			h.g.SetIn(h.r, 2, h.arg)
			return h.r
		}, "shape"},
		{"stop input not a return", func(h *handGraph) *Node {
			h.g.AddIn(h.g.Stop, h.r)
			return h.g.Stop
		}, "shape"},
		{"wrong arity", func(h *handGraph) *Node {
			h.g.AddIn(h.add, h.arg)
			return h.add
		}, "shape"},
		{"if with one projection", func(h *handGraph) *Node {
			h.g.SetIn(h.r, 2, h.g.Start.Proj(0)) // the false projection loses its only use...
			return h.iff
		}, "determinism"},
		{"two control successors", func(h *handGraph) *Node {
			zc2 := h.g.NewNode(OpZeroCheck, 0, h.r, h.arg)
			ret2 := h.g.NewNode(OpReturn, 0, zc2, h.one)
			h.g.AddReturn(ret2)
			return h.r
		}, "determinism"},
		{"data cycle without a phi", func(h *handGraph) *Node {
			h.g.SetIn(h.add, 1, h.dv) // add -> dv -> add
			return h.add
		}, "data-acyclic"},
		{"control cycle not through a loop", func(h *handGraph) *Node {
			// A region whose second predecessor comes from after it.
			r2 := h.g.NewNode(OpRegion, 0, nil, h.zc, nil)
			zc2 := h.g.NewNode(OpZeroCheck, 0, r2, h.arg)
			h.g.SetIn(r2, 2, zc2)
			h.g.SetIn(h.ret, 0, zc2)
			h.g.SetIn(h.dv, 0, zc2)
			return r2
		}, "ctrl-acyclic"},
		{"division without its check", func(h *handGraph) *Node {
			h.g.SetIn(h.dv, 0, nil)
			return h.dv
		}, "zerocheck"},
		{"type too precise", func(h *handGraph) *Node {
			h.add.Type = types.Const(5) // arg+Phi is not always 5
			return h.add
		}, "type"},
		{"control not reached from start", func(h *handGraph) *Node {
			loop := h.g.NewNode(OpLoop, 0, nil, h.t, nil) // steal t, leaving the region...
			h.g.SetIn(loop, 1, h.g.NewNode(OpXCtrl, 0))
			never := h.g.NewNode(OpNever, 0, loop)
			h.g.SetIn(loop, 2, h.g.NewNode(OpCProj, 0, never))
			h.g.AddReturn(h.g.NewNode(OpReturn, 0, h.g.NewNode(OpCProj, 1, never), h.one))
			return loop
		}, "reachable"},
		{"scope reachable", func(h *handGraph) *Node {
			s := h.g.NewNode(OpScope, 0, h.ctrl, h.arg)
			h.g.SetIn(h.add, 2, s)
			return s
		}, "shape"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHandGraph()
			n := c.breakIt(h)
			err := Verify(h.g)
			if err == nil {
				t.Fatalf("Verify accepted the broken graph:\n%s", Listing(h.g))
			}
			want := n.String() + ": " + c.rule + ":"
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error does not name %q:\n%v", want, err)
			}
		})
	}
}
