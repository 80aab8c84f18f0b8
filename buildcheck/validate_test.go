package buildcheck

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"son/ref"
	"son/son"
	"son/syntax"
)

// raw parses src and builds its raw graph.
func raw(t *testing.T, src string) (*syntax.File, *son.Graph) {
	t.Helper()
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f, son.Build(f, son.BuildOptions{Raw: true})
}

// node is the first node of g, in ID order, with op for which ok holds.
func node(t *testing.T, g *son.Graph, op son.Op, ok func(*son.Node) bool) *son.Node {
	t.Helper()
	for id := 1; id < g.MaxID(); id++ {
		if n := g.Node(id); n != nil && n.Op == op && (ok == nil || ok(n)) {
			return n
		}
	}
	t.Fatalf("no %v", op)
	return nil
}

// TestValidateAccepts: the raw graph of every program of testdata/ and
// examples/ is accepted. (The random programs are validated by the
// compile tests, which check every build.)
func TestValidateAccepts(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/*.smp", "../examples/*.smp"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d programs", len(files))
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := syntax.Parse(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err) // the compile errors are in testdata/errors
		}
		if err := Validate(f, son.Build(f, son.BuildOptions{Raw: true})); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestValidateShapes: programs whose graphs take the builder's less
// common shapes — runs of && cut into several joins, long comparison
// chains, wide merges of breaks (a tree of Regions), code the types rule
// out — are accepted.
func TestValidateShapes(t *testing.T) {
	var and, chain, breaks strings.Builder
	and.WriteString("return arg")
	chain.WriteString("return 0")
	breaks.WriteString("int x = 0; while (x < arg) { x++;")
	for i := 0; i < 70; i++ {
		and.WriteString(" && arg - 1")
		if i%3 == 0 {
			and.WriteString(" || arg")
		}
		chain.WriteString(" < arg")
		breaks.WriteString(" if (x == " + string(rune('0'+i%10)) + ") { x = x + 2; break; }")
	}
	breaks.WriteString(" } return x;")
	for _, src := range []string{
		and.String() + ";",
		chain.String() + ";",
		breaks.String(),
		"if (0 && arg) return 1; return 1 < 0 < arg / 0;",
		"int x = 1; while (1) { x = x * 2; if (x > arg) break; } return x;",
		"while (1) {} ",
		"int k = arg; while (k) { k = k - 1; if (k == 3) continue; if (k == 7) continue; k = k / 1; } return k;",
		"bool b = arg; bool c = arg < 3; bool d = b + c; return b * 100 + c * 10 + d;",
		"return 1 ? arg : 0 ? 1 : arg / 0;",
	} {
		f, g := raw(t, src)
		if err := Validate(f, g); err != nil {
			t.Errorf("%s\n%v", src, err)
		}
	}
}

// TestValidateRejects: each graph broken by hand as a builder bug would
// break it is rejected, naming the construct's position, the rule and the
// node.
func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		break_ func(t *testing.T, g *son.Graph)
		want   string
	}{
		{
			"if arms swapped", // build-branch-sides-swapped
			"int x = 0;\nif (arg < 5) x = 1; else x = 2;\nreturn x;",
			func(t *testing.T, g *son.Graph) {
				phi := node(t, g, son.OpPhi, nil)
				a, b := phi.In[1], phi.In[2]
				g.SetIn(phi, 1, b)
				g.SetIn(phi, 2, a)
			},
			"buildcheck: t.smp:2:1: if: no Phi of x at Region#17: want Phi(Region#17, Constant#13=1, Constant#15=2)",
		},
		{
			">= not swapped", // build-geq-not-swapped
			"return arg >= 3;",
			func(t *testing.T, g *son.Graph) {
				le := node(t, g, son.OpLe, nil)
				a, b := le.In[1], le.In[2]
				g.SetIn(le, 1, b)
				g.SetIn(le, 2, a)
			},
			"buildcheck: t.smp:1:12: >=: no Le(nil, Constant#6=3, Proj#4)",
		},
		{
			"loop Phi takes the entry value on the back edge", // build-loop-phi-entry-twice
			"int i = 0;\nwhile (i < arg) i = i + 1;\nreturn i;",
			func(t *testing.T, g *son.Graph) {
				phi := node(t, g, son.OpPhi, func(n *son.Node) bool { return n.In[0].Op == son.OpLoop })
				g.SetIn(phi, 2, phi.In[1])
			},
			"buildcheck: t.smp:2:1: loop: Phi#8 of i takes Constant#6=0 on the back edge, not Add#15, its value at the end of the body",
		},
		{
			"&& is 1 when its left operand is false", // build-land-short-one
			"return arg && arg - 1;",
			func(t *testing.T, g *son.Graph) {
				phi := node(t, g, son.OpPhi, nil)
				g.SetIn(phi, 2, g.Con(1))
			},
			"buildcheck: t.smp:1:12: &&: no Phi of the value of && at Region#14: want Phi(Region#14, Ne#12, Constant#11=0)",
		},
		{
			"ZeroCheck of the dividend", // build-check-dividend
			"return 100 / arg;",
			func(t *testing.T, g *son.Graph) {
				zc := node(t, g, son.OpZeroCheck, nil)
				g.SetIn(zc, 1, node(t, g, son.OpConstant, func(n *son.Node) bool { return n.Aux == 100 }))
			},
			"buildcheck: t.smp:1:12: /: no ZeroCheck(CProj#3, Proj#4) before the division: its divisor may be 0",
		},
		{
			"division not pinned", // build-div-unpinned
			"return 100 / arg;",
			func(t *testing.T, g *son.Graph) {
				g.SetIn(node(t, g, son.OpDiv, nil), 0, nil)
			},
			"buildcheck: t.smp:1:12: /: no Div(ZeroCheck#7, Constant#6=100, Proj#4)",
		},
		{
			"bool unmasked", // build-bool-unmasked
			"bool b = arg;\nreturn b;",
			func(t *testing.T, g *son.Graph) {
				r := node(t, g, son.OpReturn, nil)
				g.SetIn(r, 1, r.In[1].In[1])
			},
			"buildcheck: t.smp:2:1: return: no Return(CProj#3, And#7)",
		},
		{
			"the else arm sees the then arm's variables", // build-else-sees-then
			"int x = 1;\nif (arg) x = 2; else x = x + 1;\nreturn x;",
			func(t *testing.T, g *son.Graph) {
				add := node(t, g, son.OpAdd, nil)
				g.SetIn(add, 1, node(t, g, son.OpConstant, func(n *son.Node) bool { return n.Aux == 2 }))
			},
			"buildcheck: t.smp:2:28: +: no Add(nil, Constant#6=1, Constant#6=1)",
		},
		{
			"a break leaves from the wrong place",
			"int x = 0;\nwhile (x < 10) { x++; if (x == arg) break; }\nreturn x;",
			func(t *testing.T, g *son.Graph) {
				// The exit takes the loop test's false side twice, not the break.
				exit := node(t, g, son.OpRegion, func(n *son.Node) bool {
					return len(n.In) == 3 && n.In[1].Op == son.OpCProj && n.In[1].In[0].In[0].Op == son.OpLoop
				})
				g.SetIn(exit, 2, exit.In[1])
			},
			"buildcheck: t.smp: at the end: control: CProj#13 passes control to both Region#27 and Region#27",
		},
		{
			"a Return no return makes",
			"if (arg) return 1;\nreturn 2;",
			func(t *testing.T, g *son.Graph) {
				r := node(t, g, son.OpReturn, nil)
				g.AddReturn(g.NewNode(son.OpReturn, 0, r.In[0], g.Con(3)))
			},
			"buildcheck: t.smp: at the end: control: CProj#7 passes control to both Return#11 and Return#20",
		},
		{
			"the final return 0 left out of Stop",
			"if (arg) return 1;",
			func(t *testing.T, g *son.Graph) {
				g.DelIn(g.Stop, len(g.Stop.In)-1)
			},
			"buildcheck: t.smp: at the end: return: Return#17 is not an input of Stop",
		},
		{
			"a loop that never comes back",
			"int i = 0;\nwhile (i < arg) i++;\nreturn i;",
			func(t *testing.T, g *son.Graph) {
				loop := node(t, g, son.OpLoop, nil)
				g.SetIn(loop, 2, node(t, g, son.OpXCtrl, nil))
			},
			"buildcheck: t.smp:2:1: loop: the back edge of Loop#7 is XCtrl#17, not CProj#11 where the body ends",
		},
	}
	for _, tt := range tests {
		f, g := raw(t, tt.src)
		if err := Validate(f, g); err != nil {
			t.Fatalf("%s: the unbroken graph is rejected: %v", tt.name, err)
		}
		tt.break_(t, g)
		err := Validate(f, g)
		switch {
		case err == nil:
			t.Errorf("%s: broken graph accepted:\n%s", tt.name, son.Listing(g))
		case !strings.HasPrefix(err.Error(), tt.want):
			t.Errorf("%s: got\n\t%v\nwant\n\t%s", tt.name, err, tt.want)
		}
	}
}

// TestValidateAssignedUnmerged: an if whose Assigned list (the
// resolver's) leaves out a variable an arm assigns is not trusted: the
// builder does not merge the variable, and the validator says so.
func TestValidateAssignedUnmerged(t *testing.T) {
	f, err := syntax.Parse("t.smp", []byte("int x = 1;\nif (arg) x = 2;\nreturn x;"))
	if err != nil {
		t.Fatal(err)
	}
	f.Body.List[1].(*syntax.IfStmt).Assigned = nil
	err = Validate(f, son.Build(f, son.BuildOptions{Raw: true}))
	want := "buildcheck: t.smp:2:10: assigned: x is assigned in the if at 2:1, which does not merge it"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestRawBuild: a raw build folds nothing and kills nothing: 1 + 2 stays
// an Add of two constants even once x is assigned again, and the graph
// still passes the validator.
func TestRawBuild(t *testing.T) {
	f, g := raw(t, "int x = 1 + 2;\nx = 3;\nreturn x;")
	add := node(t, g, son.OpAdd, nil)
	if a, b := add.In[1], add.In[2]; add.IsDead() || !a.IsConst() || a.Aux != 1 || !b.IsConst() || b.Aux != 2 {
		t.Errorf("raw build: %s, want Add(nil, 1, 2)", describe(add.Op, 0, add.In))
	}
	if err := Validate(f, g); err != nil {
		t.Error(err)
	}
}

// TestValidateGarbage: raw graphs with inputs rewired at random are
// rejected or accepted, never with an internal error (a panic of the
// validator); and a mutant accepted computes what the program does, by
// son.Run against the reference semantics on a few arguments, unless it
// reads a Phi where control has not passed the Phi's Region (a Phi whose
// live values are one node is taken for that node, and the validator does
// not check where it is used: see Validate).
func TestValidateGarbage(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.smp")
	if len(files) > 40 {
		files = files[:40]
	}
	rng := rand.New(rand.NewSource(1))
	rejected := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := syntax.Parse(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k := 0; k < 20; k++ {
			g := son.Build(f, son.BuildOptions{Raw: true})
			var muts []string
			for m := 0; m < 1+k%3; m++ {
				n := g.Node(1 + rng.Intn(g.MaxID()-1))
				if n == nil || len(n.In) == 0 || n.Op == son.OpScope {
					continue
				}
				var to *son.Node
				if rng.Intn(4) > 0 {
					to = g.Node(1 + rng.Intn(g.MaxID()-1))
				}
				i := rng.Intn(len(n.In))
				muts = append(muts, fmt.Sprintf("%v.In[%d]: %v -> %v", n, i, n.In[i], to))
				g.SetIn(n, i, to)
			}
			err := Validate(f, g)
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%s: %v", name, err)
			}
			if err != nil {
				rejected++
				continue
			}
			for _, a := range []int64{0, 1, 2, -1, 10} {
				want, werr := ref.Run(f, a, ref.Limits{Steps: 100_000})
				if werr != nil {
					continue
				}
				got, gerr := son.Run(g, a, son.Limits{Steps: 10_000_000})
				if gerr != nil && strings.Contains(gerr.Error(), "used before control reached its region") {
					break
				}
				if gerr != nil || got != want {
					t.Errorf("%s: a mutant accepted gives %d, %v for arg %d, want %d: %v\n%s", name, got, gerr, a, want, muts, son.Listing(g))
					break
				}
			}
		}
	}
	if rejected == 0 {
		t.Error("no mutant rejected")
	}
}

// TestValidateOddNodes: nodes the builder never makes (a Region or a Phi
// left with no inputs) are rejected or ignored by the index that Validate
// builds first, with an error, never a panic.
func TestValidateOddNodes(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(g *son.Graph)
	}{
		{"Region without inputs", func(g *son.Graph) { emptied(g, g.NewNode(son.OpRegion, 0, nil, g.Start)) }},
		{"Phi without inputs", func(g *son.Graph) {
			r := g.NewNode(son.OpRegion, 0, nil, g.Start)
			emptied(g, g.NewNode(son.OpPhi, 0, r, g.Con(1)))
		}},
	} {
		f, g := raw(t, "return arg + 1;")
		c.make(g)
		err := Validate(f, g)
		if err == nil {
			continue // the odd node is not one the program needs
		}
		if !strings.HasPrefix(err.Error(), "buildcheck: t.smp: ") || strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v, want a buildcheck error of t.smp, not an internal one", c.name, err)
		}
	}
}

// emptied removes every input of n.
func emptied(g *son.Graph, n *son.Node) {
	for len(n.In) > 0 {
		g.DelIn(n, len(n.In)-1)
	}
}
