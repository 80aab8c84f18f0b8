package cfg

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var (
	dotNodeRE = regexp.MustCompile(`^\t(n\d+) \[label="(.*)"(, style=bold)?\];$`)
	dotEdgeRE = regexp.MustCompile(`^\t(n\d+) -> (n\d+)( \[(.*)\])?;$`)
)

// dotChecked is what checkDOT finds in a DOT text.
type dotChecked struct {
	nodes map[string]string    // name -> label
	edges map[[2]string]string // from, to -> attributes
}

// checkDOT checks that text is well formed as DOT writes it: brackets and
// braces balanced outside strings, strings closed, one statement a line,
// and every edge between declared nodes.
func checkDOT(t *testing.T, text string) dotChecked {
	t.Helper()
	depth, inString := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth < 0 {
				t.Fatalf("unbalanced %q at %d:\n%s", c, i, text)
			}
		}
	}
	if depth != 0 || inString {
		t.Fatalf("unbalanced DOT (depth %d, in a string %v):\n%s", depth, inString, text)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "digraph ") || lines[len(lines)-1] != "}" {
		t.Fatalf("not a digraph:\n%s", text)
	}
	d := dotChecked{nodes: map[string]string{}, edges: map[[2]string]string{}}
	for _, l := range lines[1 : len(lines)-1] {
		if m := dotNodeRE.FindStringSubmatch(l); m != nil {
			if _, dup := d.nodes[m[1]]; dup {
				t.Errorf("node %s declared twice", m[1])
			}
			d.nodes[m[1]] = m[2]
			continue
		}
		if m := dotEdgeRE.FindStringSubmatch(l); m != nil {
			d.edges[[2]string{m[1], m[2]}] = m[4]
			continue
		}
		if strings.HasPrefix(l, "\tnode [") || strings.HasPrefix(l, "\tedge [") || strings.HasPrefix(l, "\tlabel=") || l == "\tlabelloc=t;" {
			continue
		}
		t.Errorf("unexpected DOT line %q", l)
	}
	for e := range d.edges {
		if _, ok := d.nodes[e[0]]; !ok {
			t.Errorf("edge %v from an undeclared node", e)
		}
		if _, ok := d.nodes[e[1]]; !ok {
			t.Errorf("edge %v to an undeclared node", e)
		}
	}
	return d
}

func TestDOT(t *testing.T) {
	f := mustParse(t, caseText(t, "testdata/verify.txt", "ok: nested loops"))
	d := checkDOT(t, DOT(f, `triangle "numbers" \ n`))
	if len(d.nodes) != len(f.Blocks) {
		t.Errorf("%d nodes for %d blocks", len(d.nodes), len(f.Blocks))
	}
	// Positions: b1 0, b2 1, b3 2, b4 3, b5 4, b6 5, b7 6.
	want := map[[2]string]string{
		{"n0", "n1"}: "",
		{"n1", "n2"}: `label="T"`,
		{"n1", "n6"}: `label="F"`,
		{"n2", "n3"}: "",
		{"n3", "n4"}: `label="T"`,
		{"n3", "n5"}: `label="F"`,
		{"n4", "n3"}: "style=dashed", // the inner back edge
		{"n5", "n1"}: "style=dashed", // the outer one
	}
	if len(d.edges) != len(want) {
		t.Errorf("edges %v, want %v", d.edges, want)
	}
	for e, attrs := range want {
		if got, ok := d.edges[e]; !ok || got != attrs {
			t.Errorf("edge %v: [%s], want [%s]", e, got, attrs)
		}
	}
	if l := d.nodes["n3"]; l != `b4:  ; preds b3 b5, depth 2\l    v9 = Phi v4 v10\l    v7 = Phi v5 v11\l    v8 = Ne v7 v2\l    branch v8 b5 b6\l` {
		t.Errorf("label of b4: %s", l)
	}
}

// TestDOTEscapes draws a function whose name and lines need escaping, and
// broken functions.
func TestDOTEscapes(t *testing.T) {
	f := mustParse(t, "func \"a\\\"b\\\\c\\n\" level SSA\nb1:\n\treturn v1 ; line 2\n")
	text := DOT(f, "")
	checkDOT(t, text)
	if !strings.HasPrefix(text, `digraph "a\"b\\c\n" {`) {
		t.Errorf("DOT =\n%s", text)
	}
	// A successor outside the function, a nil block, a block twice.
	b1 := &Block{ID: 1, Term: Term{Kind: TermJump}}
	b1.SetSuccs(&Block{ID: 2})
	checkDOT(t, DOT(&Func{Blocks: []*Block{b1, nil, b1}}, "broken"))
	checkDOT(t, DOT(&Func{}, ""))
}

// TestDOTGraphviz runs Graphviz on the drawings when it is installed.
func TestDOTGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("no Graphviz")
	}
	for _, c := range allCases(t) {
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(DOT(mustParse(t, c.text), c.name))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: dot: %v\n%s", c.name, err, out)
		}
	}
}
