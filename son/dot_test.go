package son

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"son/syntax"
)

// buildForDOT parses and builds src, with showGraph called at each
// #showGraph, and runs the peepholes to a fixpoint.
func buildForDOT(t *testing.T, src string, showGraph func(*Graph, []*Node, [][]string, syntax.Pos)) *Graph {
	t.Helper()
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	g := Build(f, BuildOptions{ShowGraph: showGraph})
	g.PushAll()
	g.Iterate()
	return g
}

func TestDOTGolden(t *testing.T) {
	g := buildForDOT(t, "return arg+1;", nil)
	got := DOT(g, DOTOptions{Title: "return arg+1;"})
	want := `digraph "t.smp" {
	rankdir=TB;
	label="return arg+1;";
	labelloc=t;
	fontname="Helvetica";
	node [fontname="Helvetica", fontsize=10];
	edge [fontname="Helvetica", fontsize=8];
	n1 [label="Start #1", shape=box, style=filled, fillcolor=yellow];
	n2 [label="Stop #2", shape=box, style=filled, fillcolor=yellow];
	n3 [label="CProj #3 [0]", shape=box, style=filled, fillcolor=yellow];
	n4 [label="arg #4", shape=ellipse];
	n6 [label="1 #6", shape=plaintext, fontsize=9, height=0.2];
	n7 [label="Add #7", shape=ellipse];
	n8 [label="Return #8", shape=box, style=filled, fillcolor=yellow];
	n8 -> n2 [style=bold, color=red];
	n1 -> n3 [style=bold, color=red];
	n1 -> n4 [style=bold, color=red];
	n4 -> n7;
	n6 -> n7;
	n3 -> n8 [style=bold, color=red];
	n7 -> n8;
}
`
	if got != want {
		t.Errorf("DOT of return arg+1;:\n%s\nwant:\n%s", got, want)
	}
}

// loopProgram has an if inside a loop: a Loop and a Region, each with Phis.
const loopProgram = `
int x = 0;
int i = 0;
while (i < arg) {
	if (i % 2 == 0) x = x + i; else x = x - 1;
	i = i + 1;
}
return x;
`

// dotGraph is the part of a DOT text that the tests look at.
type dotGraph struct {
	nodes    map[int]string         // node ID -> attributes
	edges    []dotEdge              // in order
	clusters map[int]map[int]bool   // cluster ID -> IDs of the nodes declared in it
	ports    map[int]map[int]string // scope ID -> port -> field text
}

type dotEdge struct {
	from, port, to int // port -1 when none
	attrs          string
}

var (
	dotNodeRE    = regexp.MustCompile(`^\t+n(\d+) \[(.*)\];$`)
	dotEdgeRE    = regexp.MustCompile(`^\tn(\d+)(?::p(\d+))? -> n(\d+)(?: \[(.*)\])?;$`)
	dotClusterRE = regexp.MustCompile(`^\tsubgraph cluster_(\d+) \{$`)
	dotFieldRE   = regexp.MustCompile(`<p(\d+)> ([^|}]*)`)
)

// parseDOT reads back the lines DOT writes, and fails on any other line
// inside the graph.
func parseDOT(t *testing.T, text string) *dotGraph {
	t.Helper()
	d := &dotGraph{nodes: map[int]string{}, clusters: map[int]map[int]bool{}, ports: map[int]map[int]string{}}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "digraph ") || lines[len(lines)-1] != "}" {
		t.Fatalf("not a digraph:\n%s", text)
	}
	cluster := -1
	for _, l := range lines[1 : len(lines)-1] {
		if m := dotClusterRE.FindStringSubmatch(l); m != nil {
			cluster = atoi(t, m[1])
			d.clusters[cluster] = map[int]bool{}
			continue
		}
		if l == "\t}" {
			cluster = -1
			continue
		}
		if m := dotNodeRE.FindStringSubmatch(l); m != nil {
			id := atoi(t, m[1])
			if _, dup := d.nodes[id]; dup {
				t.Errorf("n%d declared twice", id)
			}
			d.nodes[id] = m[2]
			if cluster >= 0 {
				if !strings.HasPrefix(l, "\t\t") {
					t.Errorf("node outside its cluster's indentation: %q", l)
				}
				d.clusters[cluster][id] = true
			}
			if strings.Contains(m[2], "shape=record") {
				d.ports[id] = map[int]string{}
				for _, f := range dotFieldRE.FindAllStringSubmatch(m[2], -1) {
					d.ports[id][atoi(t, f[1])] = f[2]
				}
			}
			continue
		}
		if m := dotEdgeRE.FindStringSubmatch(l); m != nil {
			e := dotEdge{from: atoi(t, m[1]), port: -1, to: atoi(t, m[3]), attrs: m[4]}
			if m[2] != "" {
				e.port = atoi(t, m[2])
			}
			d.edges = append(d.edges, e)
			continue
		}
		if cluster < 0 && regexp.MustCompile(`^\t(rankdir|label|labelloc|fontname|node|edge)\b`).MatchString(l) {
			continue
		}
		if cluster >= 0 && regexp.MustCompile(`^\t\t(label|style|color)=`).MatchString(l) {
			continue
		}
		t.Errorf("unexpected line %q", l)
	}
	return d
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDOTStructure(t *testing.T) {
	g := buildForDOT(t, loopProgram, nil)
	text := DOT(g, DOTOptions{Title: "loop"})
	d := parseDOT(t, text)

	live := g.Live()
	if len(d.nodes) != len(live) {
		t.Errorf("%d nodes declared, %d live", len(d.nodes), len(live))
	}
	for _, n := range live {
		if _, ok := d.nodes[n.ID]; !ok {
			t.Errorf("live %v not declared", n)
		}
	}
	for _, e := range d.edges {
		if _, ok := d.nodes[e.from]; !ok {
			t.Errorf("edge n%d -> n%d from an undeclared node", e.from, e.to)
		}
		if _, ok := d.nodes[e.to]; !ok {
			t.Errorf("edge n%d -> n%d to an undeclared node", e.from, e.to)
		}
	}

	// One cluster per region, holding the region and exactly its Phis.
	regions := 0
	var sawLoop, sawRegion bool
	for _, n := range live {
		if !n.Op.IsRegion() {
			continue
		}
		regions++
		sawLoop = sawLoop || n.Op == OpLoop
		sawRegion = sawRegion || n.Op == OpRegion
		c, ok := d.clusters[n.ID]
		if !ok {
			t.Errorf("no cluster_%d for %v", n.ID, n)
			continue
		}
		want := map[int]bool{n.ID: true}
		for _, u := range n.Out {
			if u.Op == OpPhi && u.In[0] == n {
				want[u.ID] = true
			}
		}
		if len(want) < 2 {
			t.Errorf("%v has no Phi: the program does not test clusters", n)
		}
		if !equalSets(c, want) {
			t.Errorf("cluster_%d holds %v, want %v", n.ID, c, want)
		}
	}
	if !sawLoop || !sawRegion || len(d.clusters) != regions {
		t.Errorf("%d clusters for %d regions (loop %v, region %v)", len(d.clusters), regions, sawLoop, sawRegion)
	}

	// Edges: def -> use, one per input; control red, Phi's region
	// dotted, Region/Loop/Phi inputs numbered.
	type key struct{ from, to int }
	attrs := map[key][]string{}
	for _, e := range d.edges {
		attrs[key{e.from, e.to}] = append(attrs[key{e.from, e.to}], e.attrs)
	}
	edges := 0
	for _, n := range live {
		for i, x := range n.In {
			if x == nil {
				continue
			}
			edges++
			as := attrs[key{x.ID, n.ID}]
			if len(as) == 0 {
				t.Errorf("no edge for input %d of %v (%v)", i, n, x)
				continue
			}
			a := as[0]
			attrs[key{x.ID, n.ID}] = as[1:]
			switch {
			case n.Op == OpPhi && i == 0:
				if !strings.Contains(a, "style=dotted") {
					t.Errorf("edge %v -> %v [%s]: want dotted", x, n, a)
				}
			case x.IsControl():
				if !strings.Contains(a, "color=red") || !strings.Contains(a, "style=bold") {
					t.Errorf("control edge %v -> %v [%s]: want red and bold", x, n, a)
				}
			default:
				if strings.Contains(a, "red") {
					t.Errorf("data edge %v -> %v [%s]: want black", x, n, a)
				}
			}
			wantLabel := i > 0 && (n.Op.IsRegion() || n.Op == OpPhi)
			if got := strings.Contains(a, `label="`+strconv.Itoa(i)+`"`); got != wantLabel {
				t.Errorf("edge %v -> %v [%s]: labeled %v, want %v", x, n, a, got, wantLabel)
			}
		}
	}
	if edges != len(d.edges) {
		t.Errorf("%d edges drawn, graph has %d", len(d.edges), edges)
	}

	// Labels.
	for _, n := range live {
		a := d.nodes[n.ID]
		var want string
		switch n.Op {
		case OpPhi:
			want = `label="Phi_` + g.Label(n) + ` #` + strconv.Itoa(n.ID) + `"`
		case OpCProj:
			want = `label="CProj #` + strconv.Itoa(n.ID) + ` [` + strconv.FormatInt(n.Aux, 10) + `]"`
		case OpConstant:
			want = `label="` + strconv.FormatInt(n.Aux, 10) + ` #` + strconv.Itoa(n.ID) + `"`
		case OpProj:
			want = `label="arg #`
		default:
			want = `label="` + n.Op.String() + ` #` + strconv.Itoa(n.ID) + `"`
		}
		if !strings.Contains(a, want) {
			t.Errorf("%v: [%s], want %s", n, a, want)
		}
		if ctl := strings.Contains(a, "fillcolor=yellow") && strings.Contains(a, "shape=box"); ctl != n.IsControl() {
			t.Errorf("%v: [%s]: yellow box %v, want %v", n, a, ctl, n.IsControl())
		}
	}
}

func equalSets(a, b map[int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestDOTScopes draws the graph at #showGraph, halfway through a loop:
// the scopes hold nodes that nothing else uses yet.
func TestDOTScopes(t *testing.T) {
	src := strings.Replace(loopProgram, "i = i + 1;", "i = i + 1;\n\t#showGraph;", 1)
	// The scopes die when the build ends: look at them in the callback.
	var texts []string
	var scopes [][]*Node
	var ins [][][]*Node
	var allNames [][]string
	buildForDOT(t, src, func(g *Graph, ss []*Node, names [][]string, _ syntax.Pos) {
		texts = append(texts, DOT(g, DOTOptions{Title: "#showGraph", Scopes: ss, ScopeNames: names}))
		scopes = append(scopes, ss)
		var in [][]*Node
		for _, s := range ss {
			in = append(in, append([]*Node(nil), s.In...))
		}
		ins = append(ins, in)
		if n := names[0]; len(n) < 3 || n[0] != "arg" || n[1] != "x" || n[2] != "i" {
			t.Errorf("names of the current scope %v, want [arg x i]", n)
		}
		allNames = names
	})
	if len(texts) != 1 {
		t.Fatalf("%d calls of ShowGraph, want 1", len(texts))
	}
	d := parseDOT(t, texts[0])
	if len(scopes[0]) == 0 {
		t.Fatal("no scopes")
	}
	for k, s := range scopes[0] {
		in := ins[0][k]
		names := append([]string{"$ctrl"}, allNames[k]...)
		fields, ok := d.ports[s.ID]
		if !ok {
			t.Errorf("%v not drawn as a record", s)
			continue
		}
		for i := range in {
			if fields[i] != names[i] {
				t.Errorf("%v port p%d is %q, want %q", s, i, fields[i], names[i])
			}
		}
		n := 0
		for _, e := range d.edges {
			if e.from != s.ID {
				continue
			}
			n++
			if e.port < 0 || e.port >= len(in) || in[e.port] == nil || in[e.port].ID != e.to {
				t.Errorf("scope edge n%d:p%d -> n%d does not match %v", e.from, e.port, e.to, in)
			}
			if !strings.Contains(e.attrs, "style=dashed") || !strings.Contains(e.attrs, "color=gray") {
				t.Errorf("scope edge [%s]: want dashed gray", e.attrs)
			}
		}
		if n != len(in) {
			t.Errorf("%v: %d edges, want %d", s, n, len(in))
		}
	}
	for _, e := range d.edges {
		if _, ok := d.nodes[e.to]; !ok {
			t.Errorf("edge to undeclared n%d", e.to)
		}
	}
}

func TestDOTDeterministic(t *testing.T) {
	a := buildForDOT(t, loopProgram, nil)
	b := buildForDOT(t, loopProgram, nil)
	da, db := DOT(a, DOTOptions{}), DOT(b, DOTOptions{})
	if da != db {
		t.Errorf("two builds draw differently:\n%s\n----\n%s", da, db)
	}
	if again := DOT(a, DOTOptions{}); again != da {
		t.Errorf("two drawings of one graph differ")
	}
	if strings.Contains(da, "label=\"\";\n\tlabelloc") {
		t.Errorf("empty title drawn")
	}
}

func TestDOTQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`plain`, `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`a\b`, `"a\\b"`},
		{"two\nlines", `"two\nlines"`},
	} {
		if got := dotQuote(c.in); got != c.want {
			t.Errorf("dotQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got, want := recordEscape(`a{b}|<c> "d" \`), `a\{b\}\|\<c\> \"d\" \\`; got != want {
		t.Errorf("recordEscape = %s, want %s", got, want)
	}
}

// TestDOTRender has Graphviz read what DOT writes, when it is installed.
func TestDOTRender(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz 'dot' is not installed, so the DOT text cannot be rendered here: " + err.Error())
	}
	src := strings.Replace(loopProgram, "i = i + 1;", "i = i + 1;\n\t#showGraph;", 1)
	var texts []string
	g := buildForDOT(t, src, func(g *Graph, ss []*Node, names [][]string, _ syntax.Pos) {
		names = append([][]string(nil), names...)
		names[0] = append([]string(nil), names[0]...)
		names[0][1] = `odd{name}|<x> "q" \`
		texts = append(texts, DOT(g, DOTOptions{Title: `#showGraph "title" \`, Scopes: ss, ScopeNames: names}))
	})
	texts = append(texts, DOT(g, DOTOptions{Title: "after"}))
	for _, text := range texts {
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(text)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Errorf("dot -Tsvg: %v\n%s\ninput:\n%s", err, stderr.String(), text)
			continue
		}
		if !strings.Contains(string(out), "<svg") {
			t.Errorf("dot -Tsvg wrote no SVG")
		}
	}
}
