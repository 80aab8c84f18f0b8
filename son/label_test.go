package son

import (
	"fmt"
	"testing"
)

// TestLabels names nodes in and out of the order of their IDs, renames,
// unnames and kills them, and checks every name against a map kept
// alongside, and Clone's copy, that no killed node keeps a name, and that
// the table holds no more names.
func TestLabels(t *testing.T) {
	g := NewGraph("labels")
	want := map[*Node]string{}
	var nodes []*Node
	for i := range 2000 {
		n := g.NewNode(OpConstant, int64(i))
		g.Keep(n)
		nodes = append(nodes, n)
		if i%3 != 0 {
			name := fmt.Sprintf("v%d", i)
			g.SetLabel(n, name)
			want[n] = name
		}
		if old := nodes[i/2]; i%7 == 6 && !old.IsDead() { // an older live node, renamed or named for the first time
			g.SetLabel(old, "r"+want[old])
			want[old] = "r" + want[old]
		}
		if i%4 != 0 { // most nodes killed, and their names with them
			x := nodes[i-1]
			if !x.IsDead() {
				g.Unkeep(x)
				g.Kill(x)
				delete(want, x)
			}
		}
		if i%11 == 10 { // a name taken away
			x := nodes[i-2]
			g.SetLabel(x, "")
			delete(want, x)
		}
	}
	check := func(what string, g *Graph) {
		t.Helper()
		for _, n := range nodes {
			if n.IsDead() {
				if name, ok := g.labels[int32(n.ID)]; ok {
					t.Errorf("%s: killed node %d keeps its name %q", what, n.ID, name)
				}
				continue
			}
			m := g.Node(n.ID)
			if got := g.Label(m); got != want[n] {
				t.Errorf("%s: Label(%v) = %q, want %q", what, m, got, want[n])
			}
		}
	}
	check("graph", g)
	check("clone", g.Clone())
	if n := len(g.labels); n != len(want) {
		t.Errorf("the table holds %d names, want %d: those of killed nodes stay", n, len(want))
	}
}
