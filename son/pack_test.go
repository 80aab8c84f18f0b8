package son

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"son/syntax"
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

// packedExactly1 reports whether every node of a chunk of the node table
// has its lists at their lengths, as packing leaves them (and as the
// builder, leaving room to grow, does not).
func packedExactly1(chunk []*Node) bool {
	for _, n := range chunk {
		if n != nil && (cap(n.In) != len(n.In) || cap(n.Out) != len(n.Out)) {
			return false
		}
	}
	return true
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

// TestPackEdgesByTableChunk: Build packs the lists of each chunk of the
// node table into arrays of their own, every list right after the one
// before it (a node's inputs, then its users), with no room between; the
// arena and its free lists are gone before the first chunk is packed,
// while the chunks after it are not packed yet. So a chunk of the arena is
// garbage once the lists in it are packed, before the rest are
// (packEdges).
func TestPackEdgesByTableChunk(t *testing.T) {
	var src strings.Builder
	src.WriteString("int x = arg;\n")
	for i := range 3000 {
		fmt.Fprintf(&src, "if (x %% %d == 1) x = x * 3 + %d; else x = x / 2;\n", i%7+2, i)
	}
	src.WriteString("return x;\n")
	f, err := syntax.Parse("t.smp", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	var packed []int
	packedChunk = func(g *Graph, c int) {
		packed = append(packed, c)
		if g.edges.in != nil || g.edges.pos != nil || len(g.edges.freeIn[2]) > 0 {
			t.Errorf("chunk %d packed with the arena still held", c)
		}
		if c+1 < len(g.nodes.chunks) && packedExactly1(g.nodes.chunks[c+1]) {
			t.Errorf("chunk %d packed, and chunk %d already too: not chunk by chunk", c, c+1)
		}
	}
	defer func() { packedChunk = nil }()
	g := Build(f, BuildOptions{})
	if want := len(g.nodes.chunks); len(packed) != want {
		t.Fatalf("chunks packed one by one: %v, want %d", packed, want)
	}
	if len(g.nodes.chunks) < 3 {
		t.Fatalf("%d chunks of IDs, want at least 3 for the test to mean anything", len(g.nodes.chunks))
	}
	if n := packedExactly(g); n != nil {
		t.Fatalf("%v has In %d of %d, Out %d of %d", n, len(n.In), cap(n.In), len(n.Out), cap(n.Out))
	}
	for c := range g.edges.freeIn {
		if len(g.edges.freeIn[c]) > 0 || len(g.edges.freePos[c]) > 0 {
			t.Fatalf("after Build, the arena keeps free lists of capacity %d", c)
		}
	}
	edgeSize, posSize := unsafe.Sizeof((*Node)(nil)), unsafe.Sizeof(int32(0))
	for c, chunk := range g.nodes.chunks {
		var nextIn, nextPos uintptr // where the next list starts in this chunk's arrays
		for _, n := range chunk {
			if n == nil || len(n.In)+len(n.Out) == 0 {
				continue
			}
			in := uintptr(unsafe.Pointer(unsafe.SliceData(n.In)))
			if len(n.In) == 0 {
				in = uintptr(unsafe.Pointer(unsafe.SliceData(n.Out)))
			}
			pos := uintptr(unsafe.Pointer(n.pos))
			if nextIn != 0 && (in != nextIn || pos != nextPos) {
				t.Fatalf("chunk %d: %v's lists do not follow the lists before it", c, n)
			}
			if len(n.In) > 0 && len(n.Out) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(n.Out))) != in+uintptr(len(n.In))*edgeSize {
				t.Fatalf("chunk %d: %v's users do not follow its inputs", c, n)
			}
			k := uintptr(len(n.In) + len(n.Out))
			nextIn, nextPos = in+k*edgeSize, pos+k*posSize
		}
	}
	if err := Verify(g); err != nil {
		t.Fatal(err)
	}
}
