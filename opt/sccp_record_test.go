package opt

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"son/internal/gen"
	"son/son"
	"son/types"
)

// TestSCCPRecordHoldsTheGraph: the record of a graph (numbered in ID
// order, by a rank over a bit set; constants in 32 bits or wide; a
// Constant's type by its value; labels interned) gives back, for every
// live node, its op, constant, type, inputs and label, and holds no
// other node; on generated programs and on one with constants that do
// not fit in 32 bits, and one that is the marker of a wide one.
func TestSCCPRecordHoldsTheGraph(t *testing.T) {
	srcs := []string{
		"int a = arg * 10000000000; int b = arg - 2147483648; int c = arg + 2147483647; return a + b + c + (arg < -2147483649);",
	}
	for seed := int64(1); seed <= 4; seed++ {
		srcs = append(srcs, gen.Program(gen.Config{Seed: seed, Size: 400, KeepLive: true}))
	}
	wide, labelled := 0, 0
	for k, src := range srcs {
		g := peepholed(t, src)
		r := RecordSCCP(g)
		live := map[int]bool{}
		for _, n := range g.Live() {
			live[n.ID] = true
			if !r.has(n.ID) {
				t.Fatalf("program %d: %v is live but not recorded", k, n)
			}
			i := r.number(n.ID)
			if typ := r.typeOf(i); r.op[n.ID] != n.Op || r.auxOf(i) != n.Aux || !typ.Same(ptr(n.Type())) || r.label(n.ID) != g.Label(n) {
				t.Fatalf("program %d: %v recorded as %v aux %d type %v label %q", k, n, r.op[n.ID], r.auxOf(i), typ, r.label(n.ID))
			}
			ins := r.inputs(n.ID)
			if len(ins) != len(n.In) {
				t.Fatalf("program %d: %v recorded with %d inputs", k, n, len(ins))
			}
			for j, x := range n.In {
				if want := int32(-1); x == nil && ins[j] != want || x != nil && ins[j] != int32(x.ID) {
					t.Fatalf("program %d: %v input %d recorded as %d", k, n, j, ins[j])
				}
			}
			if r.aux[i] == wideAux {
				wide++
			}
			if g.Label(n) != "" {
				labelled++
			}
		}
		count := 0
		for id := range r.ids {
			if !live[int(id)] {
				t.Fatalf("program %d: #%d recorded but not live", k, id)
			}
			if r.number(int(id)) != int32(count) {
				t.Fatalf("program %d: #%d numbered %d, the %dth recorded", k, id, r.number(int(id)), count)
			}
			count++
		}
		if count != len(live) || r.startID != int32(g.Start.ID) || r.stopID != int32(g.Stop.ID) {
			t.Fatalf("program %d: %d recorded of %d live, Start %d Stop %d", k, count, len(live), r.startID, r.stopID)
		}
	}
	if wide < 3 || labelled == 0 {
		t.Fatalf("%d wide constants (want the three of the first program), %d labels: the test shows nothing", wide, labelled)
	}
}

// ptr is a pointer to a copy of t.
func ptr(t types.Type) *types.Type { return &t }

// TestCheckRewriteByTable: CheckRewrite, which looks the recorded nodes up
// in the output's node table instead of walking it, rejects an output
// whose nodes the walk would have found changed: a node replaced by an
// equal one (the old one gone, its users' inputs not the recorded ones),
// an input that is not the table's node of its ID (a node of a clone), a
// Stop that is not the recorded one, a wide constant changed in place;
// and it refuses a trimmed record.
func TestCheckRewriteByTable(t *testing.T) {
	const src = "int x = arg * 10000000000; while (arg < 10) { x = x + 3; arg++; } return x;"
	annotated := func(t *testing.T) (*SCCPRecord, *Solution, *son.Graph) {
		r, s, g := recordedRewrite(t, src)
		if err := r.CheckRewrite(Combined, s, g); err != nil {
			t.Fatalf("the true rewrite is rejected: %v", err)
		}
		return r, s, g
	}
	find := func(g *son.Graph, pred func(*son.Node) bool) *son.Node {
		for _, n := range g.Live() {
			if pred(n) {
				return n
			}
		}
		t.Fatalf("no such node in %s", son.Listing(g))
		return nil
	}
	mul := func(n *son.Node) bool { return n.Op == son.OpMul }
	for _, c := range []struct {
		name    string
		corrupt func(g *son.Graph) string // returns a part of the message wanted
	}{
		{"a node replaced by an equal one", func(g *son.Graph) string {
			n := find(g, mul)
			m := g.NewNode(son.OpMul, 0, n.In...)
			g.SetType(m, n.Type())
			g.Subsume(n, m)
			return "Mul: rewrite: gone"
		}}, {"an input not the table's node", func(g *son.Graph) string {
			n := find(g, mul)
			clone := g.Clone().Node(n.In[1].ID) // the same ID, another node
			g.SetIn(n, 1, clone)
			return ": rewrite: input 1, Proj#4, is not the node the graph's table holds at its ID"
		}}, {"another Stop", func(g *son.Graph) string {
			g.Stop = find(g, func(n *son.Node) bool { return n.Op == son.OpReturn })
			return "Stop: rewrite: was Stop#"
		}}, {"a wide constant changed in place", func(g *son.Graph) string {
			n := find(g, func(n *son.Node) bool { return n.Op == son.OpConstant && n.Aux == 10000000000 })
			n.Aux = math.MaxInt64
			return ": rewrite: was Constant#" + fmt.Sprint(n.ID) + " (aux 10000000000, 0 inputs), now aux 9223372036854775807"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, s, g := annotated(t)
			want := c.corrupt(g)
			if err := r.CheckRewrite(Combined, s, g); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want an error saying %q", err, want)
			}
		})
	}
	t.Run("trimmed", func(t *testing.T) {
		r, s, g := annotated(t)
		r.Trim()
		if err := r.CheckRewrite(Combined, s, g); err == nil || !strings.Contains(err.Error(), "cannot be checked") {
			t.Errorf("a trimmed record: %v", err)
		}
	})
	// Trimmed, the record still serves CheckApplied: the If on y,
	// claimed to take only its false side, left by a rewrite with no
	// peepholes after it, is found.
	t.Run("trimmed, applied", func(t *testing.T) {
		r, s, g := recordedRewrite(t, "int y = 0; int d = 0; while (arg > 3) { if (y) { d = 10 / (arg - 5); y = 1; } arg--; } return d + arg;")
		r.Trim()
		if err := r.CheckApplied(Combined, s, g); err == nil || !strings.Contains(err.Error(), " If: dead: claimed [XCtrl, Ctrl], but left with both sides") {
			t.Errorf("got %v, want the If left with both sides", err)
		}
		g.PushAll()
		if err := g.Iterate(); err != nil {
			t.Fatal(err)
		}
		if err := r.CheckApplied(Combined, s, g); err != nil {
			t.Errorf("after the peepholes: %v", err)
		}
	})
}

// recordedRewrite is the pipeline's round of sccp on src up to the
// rewrite proper: the record, the solution checked on the graph, and the
// graph annotated.
func recordedRewrite(t *testing.T, src string) (*SCCPRecord, *Solution, *son.Graph) {
	t.Helper()
	g := peepholed(t, src)
	r := RecordSCCP(g)
	s, err := Analyze(g, Combined, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(g, Combined, s); err != nil {
		t.Fatal(err)
	}
	Annotate(g, s)
	return r, s, g
}
