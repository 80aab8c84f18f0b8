package son

import (
	"testing"

	"son/internal/gen"
	"son/syntax"
)

// TestTypingAgrees: Compute reading a Typing that holds each live node's
// own type, by a dense numbering of its own, gives what it gives from the
// nodes' types (nil) on every live node of generated programs; a node the
// typing does not number reads as Top, so a node with such an input
// computes as with a Top input.
func TestTypingAgrees(t *testing.T) {
	checked, topped := 0, 0
	for seed := int64(1); seed <= 6; seed++ {
		f, err := syntax.Parse("gen.smp", []byte(gen.Program(gen.Config{Seed: seed, Size: 300, KeepLive: true})))
		if err != nil {
			t.Fatal(err)
		}
		g := Build(f, BuildOptions{})
		live := g.Live()
		tp := &Typing{Slot: make([]int32, g.MaxID())}
		// Numbered from the last, so that numbers and IDs differ.
		for i := len(live) - 1; i >= 0; i-- {
			tp.Slot[live[i].ID] = int32(tp.Add(live[i].Type())) + 1
		}
		for _, n := range live {
			if got, want := Compute(n, tp), Compute(n, nil); !got.Equal(want) {
				t.Fatalf("seed %d, %v: %v through the typing, %v from the nodes", seed, n, got, want)
			}
			checked++
		}
		// The binary nodes, with their left operand unnumbered: Top in,
		// Top out (binaryType's first rule).
		for _, n := range live {
			if !n.Op.IsBinary() || n.In[1] == n.In[2] || n.In[1].ID >= len(tp.Slot) {
				continue
			}
			if !tp.Of(n.In[1]).Equal(n.In[1].Type()) {
				t.Fatalf("seed %d: %v reads as %v, holds %v", seed, n.In[1], tp.Of(n.In[1]), n.In[1].Type())
			}
			slot := tp.Slot[n.In[1].ID]
			tp.Slot[n.In[1].ID] = 0
			if got := Compute(n, tp); !got.IsTop() {
				t.Fatalf("seed %d, %v with %v unnumbered: %v, want Top", seed, n, n.In[1], got)
			}
			tp.Slot[n.In[1].ID] = slot
			topped++
		}
	}
	if checked == 0 || topped == 0 {
		t.Fatalf("%d nodes checked, %d with an input unnumbered: the test shows nothing", checked, topped)
	}
	if tp := (*Typing)(nil); !tp.Of(&Node{Op: OpConstant}).IsTop() {
		t.Fatal("a nil typing does not read a node without a type as Top")
	}
}
