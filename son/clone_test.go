package son

import (
	"testing"

	"son/syntax"
)

// TestClone: the copy has the same nodes by ID and prints the same, and a
// change to the graph afterwards leaves the copy as it was.
func TestClone(t *testing.T) {
	f, err := syntax.Parse("t.smp", []byte("int s = 0; while (arg) { s = s + 100 / arg; arg--; } return s;"))
	if err != nil {
		t.Fatal(err)
	}
	g := Build(f, BuildOptions{})
	c := g.Clone()
	if err := Verify(c); err != nil {
		t.Fatal(err)
	}
	want := Print(g)
	if got := Print(c); got != want {
		t.Fatalf("the copy prints %s, want %s", got, want)
	}
	live := g.Live()
	if len(c.Live()) != len(live) {
		t.Fatalf("%d live nodes in the copy, want %d", len(c.Live()), len(live))
	}
	for _, n := range live {
		m := c.Node(n.ID)
		if m == nil || m == n || m.Op != n.Op || len(m.In) != len(n.In) || len(m.Out) != len(n.Out) {
			t.Fatalf("%v is copied as %v", n, m)
		}
		for i, x := range n.In {
			if (x == nil) != (m.In[i] == nil) || x != nil && m.In[i].ID != x.ID {
				t.Fatalf("%v: input %d is %v in the copy, want %v", n, i, m.In[i], x)
			}
		}
	}
	for _, n := range live {
		if n.Op == OpDiv {
			g.SetIn(n, 1, g.Con(7))
		}
	}
	if Print(g) == want {
		t.Fatal("the change did not change the graph")
	}
	if got := Print(c); got != want {
		t.Errorf("after a change to the graph the copy prints %s, want %s", got, want)
	}
}
