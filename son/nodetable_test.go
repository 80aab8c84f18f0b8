package son

import (
	"slices"
	"testing"
)

// TestNodeTableChunks: across the first chunk's doublings and the chunks
// after it, every ID finds its node, a killed one nil, all yields them in
// order, and a table made at a size (Clone's) holds that many IDs.
func TestNodeTableChunks(t *testing.T) {
	g := NewGraph("t")
	const n = 3*nodeChunk + 17
	for g.MaxID() < n {
		g.NewNode(OpConstant, int64(g.MaxID()))
	}
	killed := g.Node(nodeChunk) // the first ID of the second chunk
	g.nodes.set(killed.ID, nil)
	for id := 1; id < n; id++ {
		x := g.Node(id)
		if id == killed.ID {
			if x != nil {
				t.Fatalf("Node(%d) = %v after it left the table", id, x)
			}
			continue
		}
		if x == nil || x.ID != id {
			t.Fatalf("Node(%d) = %v", id, x)
		}
	}
	next := 0
	for id, x := range g.nodes.all() {
		if id != next {
			t.Fatalf("all yields ID %d after %d", id, next-1)
		}
		if x != g.nodes.at(id) {
			t.Fatalf("all yields %v for ID %d, at has %v", x, id, g.nodes.at(id))
		}
		next++
	}
	if next != n {
		t.Fatalf("all yields %d IDs, want %d", next, n)
	}
	if len(g.nodes.chunks[0]) != nodeChunk || cap(g.nodes.chunks[1]) != nodeChunk {
		t.Errorf("chunks of %d and %d (cap %d), want %d", len(g.nodes.chunks[0]), len(g.nodes.chunks[1]), cap(g.nodes.chunks[1]), nodeChunk)
	}
	c := makeNodeTable(n, 0)
	if c.len() != n || c.at(n-1) != nil || len(c.chunks) != 4 {
		t.Errorf("makeNodeTable(%d, 0): len %d, %d chunks", n, c.len(), len(c.chunks))
	}
}

// TestScratchHandedBackClean: a scratch set or array by ID that a walk
// gives back is handed out again, cleared, and never to two takers at
// once; one too short for the graph is not handed out.
func TestScratchHandedBackClean(t *testing.T) {
	g := NewGraph("t")
	for range 100 {
		g.NewNode(OpConstant, int64(g.MaxID()))
	}
	m := g.takeMarks()
	m2 := g.takeMarks()
	if &m[0] == &m2[0] {
		t.Fatal("takeMarks handed one set to two takers")
	}
	m[5], m[len(m)-1] = true, true
	g.giveMarks(m)
	again := g.takeMarks()
	if &again[0] != &m[0] || len(again) != g.MaxID() {
		t.Fatalf("takeMarks did not reuse the set given back (len %d, want %d)", len(again), g.MaxID())
	}
	for id, b := range again {
		if b {
			t.Fatalf("set handed out again with ID %d marked", id)
		}
	}
	a := g.TakeIDs()
	a[3], a[len(a)-1] = 7, -1
	g.GiveIDs(a)
	for g.MaxID() <= cap(a) {
		g.NewNode(OpConstant, int64(g.MaxID()))
	}
	b := g.TakeIDs()
	if len(b) != g.MaxID() || &b[0] == &a[0] {
		t.Fatalf("TakeIDs handed out an array of cap %d for %d IDs", cap(a), g.MaxID())
	}
	g.GiveIDs(b)
	c := g.TakeIDs()
	if &c[0] != &b[0] {
		t.Fatal("TakeIDs did not reuse the larger array given back")
	}
	for id, v := range c {
		if v != 0 {
			t.Fatalf("array handed out again with %d at ID %d", v, id)
		}
	}
}

// TestVerifyGivesScratchBack: Verify, with a division whose check a
// branch's fact replaced (so that its zerocheck rule walks the dominator
// tree, nonZeroBelow), gives back the array by ID and the set by ID it
// takes, so that the pass after it (with checking on, Verify runs
// between every two) reuses them rather than allocating its own.
func TestVerifyGivesScratchBack(t *testing.T) {
	g := buildSrc(t, `int d = arg - 3; int q = 0; if (d != 0) { q = 10 / d; } return q;`)
	if err := optimize(g); err != nil {
		t.Fatal(err)
	}
	ids, marks := g.TakeIDs(), g.takeMarks()
	g.GiveIDs(ids)
	g.giveMarks(marks)
	if err := Verify(g); err != nil {
		t.Fatal(err)
	}
	if a := g.TakeIDs(); &a[0] != &ids[0] {
		t.Error("Verify kept the graph's array by ID")
	}
	if m := g.takeMarks(); &m[0] != &marks[0] {
		t.Error("Verify kept the graph's set by ID")
	}
}

// TestHeldBits: the table's bit of each ID says whether it holds a node,
// through additions of nodes and of IDs with none, kills and Clone's
// table made at a size, and notIn finds, by those bits, the nodes a set
// does not mark, in the order of their IDs.
func TestHeldBits(t *testing.T) {
	g := NewGraph("t")
	const n = 2*nodeChunk + 70
	for g.MaxID() < n {
		x := g.NewNode(OpConstant, int64(g.MaxID()))
		if x.ID%7 == 3 {
			g.nodes.set(x.ID, nil)
		}
	}
	g.nodes.add(nil) // an ID for a node not made
	check := func(what string, tb *nodeTable) {
		for id := range tb.len() {
			if got, want := tb.heldBits[id/64]&(1<<(id%64)) != 0, tb.at(id) != nil; got != want {
				t.Fatalf("%s: bit of ID %d is %v, the table holds a node: %v", what, id, got, want)
			}
		}
		set := make([]bool, tb.len())
		var want []*Node
		for id := range tb.len() {
			set[id] = id%5 == 0
			if x := tb.at(id); x != nil && !set[id] {
				want = append(want, x)
			}
		}
		if got := tb.notIn(set); !slices.Equal(got, want) {
			t.Errorf("%s: notIn found %d nodes, want %d", what, len(got), len(want))
		}
	}
	check("graph", &g.nodes)
	check("clone", &g.Clone().nodes)
}

// TestNextDiv: nextDiv, which reads only the IDs whose bit says they hold
// a node, finds from any ID on the divisions and remainders a scan of
// every ID finds, in order, across words and chunks, past killed ones.
func TestNextDiv(t *testing.T) {
	g := NewGraph("t")
	x := g.NewNode(OpConstant, 7)
	const n = nodeChunk + 200
	for g.MaxID() < n {
		id := g.MaxID()
		switch {
		case id%61 == 0 || id == nodeChunk-1 || id == nodeChunk:
			g.NewNode(OpDiv, 0, nil, x, x)
		case id%67 == 0:
			g.NewNode(OpMod, 0, nil, x, x)
		case id%13 == 0:
			g.nodes.add(nil) // an ID for a node not made
		default:
			g.NewNode(OpConstant, int64(id))
		}
	}
	for id := 0; id < n; id += 97 { // a killed division: its ID holds nil
		if d := g.Node(id); d != nil && d.Op == OpDiv {
			g.nodes.set(id, nil)
		}
	}
	for _, from := range []int{0, 1, 63, 64, 65, 122, nodeChunk - 1, nodeChunk, n - 1, n} {
		var want, got []int
		for id := from; id < n; id++ {
			if d := g.nodes.at(id); d != nil && (d.Op == OpDiv || d.Op == OpMod) {
				want = append(want, id)
			}
		}
		for id, d := g.nodes.nextDiv(from); d != nil; id, d = g.nodes.nextDiv(id + 1) {
			if d.ID != id {
				t.Fatalf("nextDiv gives ID %d with node %v", id, d)
			}
			got = append(got, id)
		}
		if !slices.Equal(got, want) {
			t.Errorf("from %d: nextDiv finds %v, a scan %v", from, got, want)
		}
		if len(want) == 0 && from < n-1 {
			t.Errorf("from %d: no division to find", from)
		}
	}
}
