package son

import (
	"testing"

	"son/internal/gen"
	"son/syntax"
	"son/types"
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

// TestTypingInterns: a Typing of a graph holds its values as slots of the
// graph's table of types: a value that is a node's type takes the node's
// slot (SetNode, IsTypeOf) and adds none; tuples equal to Compute's, made
// anew each time, take one slot between them, not one each; every value
// reads back equal to what was set.
func TestTypingInterns(t *testing.T) {
	f, err := syntax.Parse("t.smp", []byte("int x = 0; while (x < arg) { if (x == 3) x = x + 2; x++; } return x;"))
	if err != nil {
		t.Fatal(err)
	}
	g := Build(f, BuildOptions{})
	live := g.Live()
	slot := make([]int32, g.MaxID())
	for i, n := range live {
		slot[n.ID] = int32(i) + 1
	}
	tp := g.NewTyping(len(live), slot)
	for i, n := range live {
		if !tp.At(i).IsTop() || !tp.Of(n).IsTop() {
			t.Fatalf("%v starts at %v", n, tp.Of(n))
		}
	}
	before := g.types.count
	for i, n := range live {
		tp.SetNode(i, n, n.Type())
		if !tp.IsTypeOf(i, n) || !tp.Of(n).Equal(n.Type()) {
			t.Fatalf("%v: its own type %v is not its slot (%v)", n, n.Type(), tp.Of(n))
		}
	}
	if g.types.count != before {
		t.Fatalf("the nodes' own types took %d new slots", g.types.count-before)
	}
	// Fresh tuples, Equal to tupleCX but made anew, one per value.
	for i := range live {
		tp.Set(i, types.Tuple(types.Ctrl, types.XCtrl))
		if !tp.At(i).Equal(tupleCX) {
			t.Fatalf("value %d reads %v, set %v", i, tp.At(i), tupleCX)
		}
	}
	if added := g.types.count - before; added > 1 {
		t.Fatalf("%d equal tuples took %d slots", len(live), added)
	}
	// Integers: one slot each, read back equal; SetLike shares a slot.
	for i := range live {
		tp.Set(i, types.Range(int64(-i), int64(i)))
	}
	tp.SetLike(0, 1)
	for i := range live {
		want := types.Range(int64(-i), int64(i))
		if i == 0 {
			want = types.Range(-1, 1)
		}
		if got := tp.At(i); !got.Equal(want) {
			t.Fatalf("value %d reads %v, set %v", i, got, want)
		}
	}
	// A typing made by hand interns in a table of its own.
	var own Typing
	if k := own.Add(types.Const(7)); own.Len() != 1 || !own.At(k).Equal(types.Const(7)) || own.table == &g.types {
		t.Fatal("a Typing of its own does not hold its value")
	}
}

// TestLiveIDs: LiveIDs marks exactly the nodes of Live, on generated
// programs and after a rewrite left garbage.
func TestLiveIDs(t *testing.T) {
	garbage := 0
	for seed := int64(1); seed <= 6; seed++ {
		f, err := syntax.Parse("gen.smp", []byte(gen.Program(gen.Config{Seed: seed, Size: 300, KeepLive: true})))
		if err != nil {
			t.Fatal(err)
		}
		g := Build(f, BuildOptions{})
		g.NewNode(OpConstant, 987654321) // a node nothing uses
		want := map[int]bool{}
		for _, n := range g.Live() {
			want[n.ID] = true
		}
		got := g.LiveIDs()
		if len(got) != g.MaxID() {
			t.Fatalf("seed %d: %d marks for %d IDs", seed, len(got), g.MaxID())
		}
		marked := 0
		for id, ok := range got {
			if ok != want[id] {
				t.Fatalf("seed %d: #%d marked %v, in Live %v", seed, id, ok, want[id])
			}
			if ok {
				marked++
			}
		}
		if marked != len(want) {
			t.Fatalf("seed %d: %d marked, %d live", seed, marked, len(want))
		}
		garbage += g.nodes.count() - marked
	}
	if garbage == 0 {
		t.Fatal("no node but the live ones: the test shows nothing")
	}
}
