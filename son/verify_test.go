package son

import (
	"fmt"
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
		{"a clone's node as an input", func(h *handGraph) *Node {
			// The constant 1 of a clone, with the ID of this graph's: the
			// table holds the original there (the review of the
			// fifteenth session's by-ID checkers).
			h.g.SetIn(h.phi, 1, h.g.Clone().Node(h.one.ID))
			return h.phi
		}, "edges"},
		{"division pinned to a check with no inputs", func(h *handGraph) *Node {
			// Raw edges, as a broken pass might leave them: the check has
			// lost its inputs and the division still names it (Verify
			// read the check's divisor without looking: a panic).
			h.zc.In = h.zc.In[:0]
			return h.zc
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
			h.g.SetType(h.add, types.Const(5)) // arg+Phi is not always 5
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

// loopPhi returns the Phi of the variable named label on a Loop of g.
func loopPhi(t *testing.T, g *Graph, label string) *Node {
	t.Helper()
	for _, n := range g.Live() {
		if n.Op == OpPhi && g.Label(n) == label && n.In[0].Op == OpLoop {
			return n
		}
	}
	t.Fatalf("no loop Phi %q in\n%s", label, Listing(g))
	return nil
}

// onlyReturn returns the one Return of g.
func onlyReturn(t *testing.T, g *Graph) *Node {
	t.Helper()
	if len(g.Stop.In) != 1 {
		t.Fatalf("%d Returns, want 1:\n%s", len(g.Stop.In), Listing(g))
	}
	return g.Stop.In[0]
}

// TestVerifyStrict breaks strictness (paper 000, Definition 3.5) and the
// dominance of divisions by their ZeroChecks, one way per row, and
// requires Verify to name the node and the rule, with the whole message.
func TestVerifyStrict(t *testing.T) {
	for _, c := range []struct {
		name    string
		src     string // "" for the hand-made graph
		breakIt func(t *testing.T, g *Graph, h *handGraph) (at *Node, msg string)
	}{
		{"return of a loop Phi inside one arm", `int x = 0; if (arg) { while (x < arg) x++; } return x;`,
			func(t *testing.T, g *Graph, _ *handGraph) (*Node, string) {
				// The Return read the merge of the loop's x and 0; now it
				// reads the loop's x, which the else side never sets.
				phi, ret := loopPhi(t, g, "x"), onlyReturn(t, g)
				g.SetIn(ret, 1, phi)
				return ret, fmt.Sprintf("strict: uses %v of %v, which does not dominate its use at %v", phi, phi.In[0], ret.In[0])
			}},
		{"loop entry value from the loop", `int i = 0; while (i < arg) i++; return i;`,
			func(t *testing.T, g *Graph, _ *handGraph) (*Node, string) {
				phi := loopPhi(t, g, "i")
				inc := phi.In[2] // i+1, computed from the loop's i
				g.SetIn(phi, 1, inc)
				return phi, fmt.Sprintf("strict: has as value 1 %v, which depends on %v of %v, which does not dominate its use at the end of predecessor 1, %v",
					inc, phi, phi.In[0], phi.In[0].In[1])
			}},
		{"phis of loops in both arms", `int a = 0; int b = 0; if (arg) { while (a < arg) a++; } else { while (b < 5) b++; } return a + b;`,
			func(t *testing.T, g *Graph, _ *handGraph) (*Node, string) {
				a, b, ret := loopPhi(t, g, "a"), loopPhi(t, g, "b"), onlyReturn(t, g)
				sum := g.NewNode(OpAdd, 0, nil, a, b)
				g.SetIn(ret, 1, sum)
				return sum, fmt.Sprintf("strict: depends on %v of %v and on %v of %v, and neither region dominates the other: no point can use it",
					a, a.In[0], b, b.In[0])
			}},
		{"division checked in one arm, used after the merge", "",
			func(t *testing.T, g *Graph, h *handGraph) (*Node, string) {
				zcT := g.NewNode(OpZeroCheck, 0, h.t, h.arg)
				g.SetIn(h.r, 1, zcT)
				g.SetIn(h.dv, 0, zcT)
				return h.ret, fmt.Sprintf("zerocheck-dom: uses %v, pinned under %v, which does not dominate its use at %v", h.dv, zcT, h.zc)
			}},
		{"division used by a Phi above its check", "",
			func(t *testing.T, g *Graph, h *handGraph) (*Node, string) {
				// The true side's value of the Phi is a division whose
				// check only comes after the merge.
				neg := g.NewNode(OpMinus, 0, nil, h.dv)
				g.SetIn(h.phi, 1, neg)
				return h.phi, fmt.Sprintf("zerocheck-dom: has as value 1 %v, which depends on %v pinned under %v, which does not dominate its use at the end of predecessor 1, %v",
					neg, h.dv, h.zc, h.t)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var g *Graph
			var h *handGraph
			if c.src == "" {
				h = newHandGraph()
				g = h.g
			} else {
				g = buildSrc(t, c.src)
			}
			if err := Verify(g); err != nil {
				t.Fatalf("before the break: %v", err)
			}
			n, msg := c.breakIt(t, g, h)
			err := Verify(g)
			if err == nil {
				t.Fatalf("Verify accepted the broken graph:\n%s", Listing(g))
			}
			want := n.String() + ": " + msg
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error does not say\n\t%s\n%v", want, err)
			}
		})
	}
}

// TestStrictnessMatters runs the non-strict graph: the run reads
// the loop's Phi where control never reached the loop.
func TestStrictnessMatters(t *testing.T) {
	g := buildSrc(t, `int x = 0; if (arg) { while (x < arg) x++; } return x;`)
	phi, ret := loopPhi(t, g, "x"), onlyReturn(t, g)
	g.SetIn(ret, 1, phi)
	want := fmt.Sprintf("son.Run: %v used before control reached its region", phi)
	if _, err := Run(g, 0, Limits{}); err == nil || err.Error() != want {
		t.Errorf("Run = %v, want %s", err, want)
	}
}

// TestVerifyWorkIsLinear counts the verifier's work (nodes settled, edges
// followed, uses checked by the strictness rules) and its allocations on
// shapes that would make a naive strictness check quadratic, at two sizes
// ten times apart: per live node, they must not grow.
func TestVerifyWorkIsLinear(t *testing.T) {
	shapes := []struct {
		name string
		src  func(n int) string
	}{
		// n nested ifs, each setting x: a chain of n regions, and a Phi
		// per level that depends on the Phi above.
		{"nested ifs", func(n int) string {
			var b strings.Builder
			b.WriteString("int x = 0;\n")
			for i := range n {
				fmt.Fprintf(&b, "if (arg > %d) { x = x + %d;\n", i, i)
			}
			b.WriteString(strings.Repeat("}", n))
			b.WriteString("\nreturn x;\n")
			return b.String()
		}},
		// n loops one after the other, each with its Phi, all summed and
		// divided at the end: long dominator chains, a sum that depends
		// on every Phi, and a division under each loop's check.
		{"loops in a row", func(n int) string {
			var b strings.Builder
			b.WriteString("int s = 0;\n")
			for i := range n {
				fmt.Fprintf(&b, "int v%d = 0; while (v%d < arg) v%d++; s = s + 100 / (v%d + arg);\n", i, i, i, i)
			}
			b.WriteString("return s;\n")
			return b.String()
		}},
	}
	for _, sh := range shapes {
		type work struct{ work, allocs float64 }
		measure := func(n int) work {
			g := buildSrc(t, sh.src(n))
			live := float64(len(g.Live()))
			var v *verifier
			allocs := testing.AllocsPerRun(1, func() { v = verify(g) })
			if len(v.probs) > 0 {
				t.Fatalf("%s %d: %v", sh.name, n, VerifyError(v.probs))
			}
			return work{float64(v.work) / live, allocs / live}
		}
		small, large := measure(200), measure(2000)
		t.Logf("%s: work per node %.2f, %.2f; allocations per node %.3f, %.3f", sh.name, small.work, large.work, small.allocs, large.allocs)
		if large.work > 1.33*small.work || large.allocs > 1.33*small.allocs+0.01 {
			t.Errorf("%s: work per node from %.2f to %.2f, allocations from %.3f to %.3f: not linear",
				sh.name, small.work, large.work, small.allocs, large.allocs)
		}
	}
}

// TestVerifyBranchFacts: a division left without its ZeroCheck by a
// branch's fact is accepted where the branches above its control prove
// its divisor is not 0 (its own side, or an outer one through an inner,
// the Refines kept or stripped), and rejected, with the whole message,
// once pinned to the other side of the branch, or left floating.
func TestVerifyBranchFacts(t *testing.T) {
	for _, c := range []struct {
		name, src string
	}{
		{"d != 0", `int d = arg - 3; int q = 0; if (d != 0) { q = 10 / d; } return q;`},
		{"d > 0", `int d = arg - 3; int q = 0; if (0 < d) { q = 10 % d; } return q;`},
		{"if (!d) else", `int d = arg - 3; int q = 0; if (!d) {} else { q = 10 / d; } return q;`},
		// The If tests d itself (if (x != 0) branches on x), the division
		// is by the comparison: NonZeroKey looks through it.
		{"b = d != 0", `int d = arg - 3; int q = 0; bool b = d != 0; if (b) { q = 10 / b; } return q;`},
		{"outer d != 0 through inner d < 100", `int d = arg - 3; int q = 0; if (d != 0) { if (d < 100) { q = 10 / d; } } return q;`},
	} {
		for _, strip := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strip=%v", c.name, strip), func(t *testing.T) {
				g := buildSrc(t, c.src)
				if strip {
					if err := optimize(g); err != nil {
						t.Fatal(err)
					}
				}
				var div, outer *Node
				for _, n := range g.Live() {
					switch {
					case n.Op == OpDiv || n.Op == OpMod:
						div = n
					case n.Op == OpIf && (outer == nil || n.ID < outer.ID):
						outer = n
					}
				}
				if !strip && div != nil && div.In[2].Op == OpRefine && div.In[2].Type().ExcludesZero() {
					t.Skip("the Refine's type excludes 0 (d > 0): the type is the reason")
				}
				if div == nil || outer == nil || div.In[0] == nil || div.In[0].Op == OpZeroCheck || div.In[2].Type().ExcludesZero() {
					t.Fatalf("want a division by a value that may be 0 without its ZeroCheck:\n%s", Listing(g))
				}
				if err := Verify(g); err != nil {
					t.Fatalf("a division below a branch that proves its divisor is not 0: %v", err)
				}
				// The side of the outer If that the division is not below.
				var other *Node
				for _, p := range outer.Out {
					if p.Op == OpCProj && !newCtrlTree(g).dominates(p, div.In[0]) {
						other = p
					}
				}
				for _, to := range []*Node{other, nil} {
					g.SetIn(div, 0, to)
					err := Verify(g)
					want := fmt.Sprintf("%v: zerocheck: divisor %v may be 0 but the division is under %v, neither its ZeroCheck nor below a branch that proves it is not 0", div, div.In[2], to)
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("pinned to %v: error does not say\n\t%s\n%v", to, want, err)
					}
				}
			})
		}
	}
}
