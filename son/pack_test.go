package son

import (
	"slices"
	"testing"
	"unsafe"
)

// edgeRecord is a node's edges as a reader sees them: the IDs of its
// inputs and users, in order, and which input of each user it is.
type edgeRecord struct {
	in, out, use []int
}

func recordEdges(g *Graph) map[int]edgeRecord {
	r := map[int]edgeRecord{}
	for id, n := range g.nodes.all() {
		if n == nil {
			continue
		}
		var e edgeRecord
		for _, x := range n.In {
			if x == nil {
				e.in = append(e.in, -1)
			} else {
				e.in = append(e.in, x.ID)
			}
		}
		for k, u := range n.Out {
			e.out = append(e.out, u.ID)
			e.use = append(e.use, n.UseIndex(k))
		}
		r[id] = e
	}
	return r
}

// packedExactly reports the first node of g whose edge lists are not at
// their lengths or whose positions disagree with them, or nil.
func packedExactly(g *Graph) *Node {
	for _, n := range g.nodes.all() {
		if n != nil && (cap(n.In) != len(n.In) || cap(n.Out) != len(n.Out) || !n.edgesOK()) {
			return n
		}
	}
	return nil
}

// TestBuildPacksEdges: the graph Build returns has every node's lists at
// their lengths and the arena empty (packEdges); packing changes no edge,
// no order of users and no printed graph, also after a fixpoint has grown
// lists again; and the packed graph takes edits (the peephole fixpoint)
// and verifies.
func TestBuildPacksEdges(t *testing.T) {
	for name, f := range recyclePrograms(t) {
		g := Build(f, BuildOptions{})
		if n := packedExactly(g); n != nil {
			t.Fatalf("%s: after Build, %v has In %d of %d, Out %d of %d", name, n, len(n.In), cap(n.In), len(n.Out), cap(n.Out))
		}
		if g.edges.in != nil || g.edges.pos != nil {
			t.Fatalf("%s: after Build, the arena still holds a chunk", name)
		}
		if err := g.Iterate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Verify(g); err != nil {
			t.Fatalf("%s: the packed graph after the peepholes: %v", name, err)
		}
		before, printed := recordEdges(g), Print(g)
		g.packEdges()
		if n := packedExactly(g); n != nil {
			t.Fatalf("%s: packed again, %v has In %d of %d, Out %d of %d", name, n, len(n.In), cap(n.In), len(n.Out), cap(n.Out))
		}
		after := recordEdges(g)
		for id, b := range before {
			a := after[id]
			if !slices.Equal(a.in, b.in) || !slices.Equal(a.out, b.out) || !slices.Equal(a.use, b.use) {
				t.Fatalf("%s: node %d's edges were %v, packed %v", name, id, b, a)
			}
		}
		if p := Print(g); p != printed {
			t.Fatalf("%s: packing changed the printed graph:\n%s\nwant\n%s", name, p, printed)
		}
		if err := Verify(g); err != nil {
			t.Fatalf("%s: packed again: %v", name, err)
		}
	}
}

// TestPosAtBounds: a position read past n's lists panics, as a slice's
// index would, rather than reading a neighbour's memory.
func TestPosAtBounds(t *testing.T) {
	g := NewGraph("t")
	a := g.NewNode(OpConstant, 1)
	n := g.NewNode(OpAdd, 0, nil, a, a)
	if got, want := len(n.posList()), cap(n.In)+cap(n.Out); got != want {
		t.Fatalf("posList has %d entries, want %d", got, want)
	}
	if got, want := *n.posAt(cap(n.In) + cap(n.Out) - 1), int32(0); got != want {
		t.Errorf("the last position reads %d, want %d", got, want)
	}
	if *a.posAt(cap(a.In) + 1) != 2 {
		t.Errorf("a's second user slot reads %d, want 2 (input 2 of the Add)", *a.posAt(cap(a.In) + 1))
	}
	defer func() {
		if recover() == nil {
			t.Errorf("posAt(%d) of a node with %d positions did not panic", cap(n.In)+cap(n.Out), cap(n.In)+cap(n.Out))
		}
	}()
	_ = n.posAt(cap(n.In) + cap(n.Out))
}

// TestNodePosIsOneWord: the positions cost a Node one pointer.
func TestNodePosIsOneWord(t *testing.T) {
	var n Node
	if s := unsafe.Sizeof(n.pos); s != unsafe.Sizeof(uintptr(0)) {
		t.Errorf("Node.pos is %d bytes, want one word", s)
	}
}
