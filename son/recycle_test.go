package son

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"son/internal/gen"
	"son/syntax"
)

// recyclePrograms are the programs of testdata and examples that parse,
// and generated ones, parsed.
func recyclePrograms(t *testing.T) map[string]*syntax.File {
	t.Helper()
	files := map[string]*syntax.File{}
	var paths []string
	for _, dir := range []string{"../testdata/*.smp", "../examples/*.smp"} {
		m, err := filepath.Glob(dir)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := syntax.Parse(p, src); err == nil {
			files[p] = f
		}
	}
	for seed := int64(1); seed <= 12; seed++ {
		src := gen.Program(gen.Config{Seed: seed, Size: 300, KeepLive: seed%2 == 0})
		f, err := syntax.Parse("gen.smp", []byte(src))
		if err != nil {
			t.Fatalf("generated program, seed %d: %v", seed, err)
		}
		files[fmt.Sprintf("generated, seed %d", seed)] = f
	}
	if len(files) < 100 {
		t.Fatalf("only %d programs", len(files))
	}
	return files
}

// TestRecycleChangesNothing: the graph Build and the peepholes leave is
// the same, node for node and ID for ID, whether NewNode reuses the memory
// of killed nodes or not (a ShowGraph callback turns recycling off), and
// the builder does reuse it, for about half the nodes it makes (those
// foldAtOnce leaves out are not made).
func TestRecycleChangesNothing(t *testing.T) {
	made, recycled := 0, 0
	for name, f := range recyclePrograms(t) {
		on := Build(f, BuildOptions{})
		off := Build(f, BuildOptions{ShowGraph: func(*Graph, []*Node, [][]string, syntax.Pos) {}})
		if off.Stats.Recycled != 0 {
			t.Fatalf("%s: %d nodes recycled with a ShowGraph callback", name, off.Stats.Recycled)
		}
		made += on.MaxID() - on.Stats.Folded // IDs of nodes never made do not count
		recycled += on.Stats.Recycled
		if a, b := Listing(on), Listing(off); a != b {
			t.Fatalf("%s: the graph after Build differs with recycling:\n%s\nwithout:\n%s", name, a, b)
		}
		errOn, errOff := optimize(on), optimize(off)
		if (errOn == nil) != (errOff == nil) {
			t.Fatalf("%s: Iterate: %v with recycling, %v without", name, errOn, errOff)
		}
		if a, b := Listing(on), Listing(off); a != b {
			t.Fatalf("%s: the graph after the peepholes differs with recycling:\n%s\nwithout:\n%s", name, a, b)
		}
		if err := Verify(on); err != nil {
			t.Fatalf("%s: Verify: %v", name, err)
		}
	}
	if 3*recycled < made {
		t.Errorf("%d of %d nodes made recycled, want a third or more", recycled, made)
	}
}

// TestWorklistSkipsKilled: the worklist drops killed nodes as it grows,
// pops the others last in, first out as if it had not, and an entry whose
// node was killed and its memory given to a new node does not pop the new
// node.
func TestWorklistSkipsKilled(t *testing.T) {
	g := NewGraph("t")
	var nodes []*Node
	for i := range 3 * minCompact {
		nodes = append(nodes, g.NewNode(OpConstant, int64(i)))
	}
	var want []int
	for i, n := range nodes {
		g.push(n)
		if i%3 != 0 {
			want = append(want, n.ID)
		}
	}
	for i, n := range nodes {
		if i%3 == 0 {
			g.Kill(n)
		}
	}
	// The memory of a killed node serves a new node, pushed too: the
	// killed node's entry must not pop it a second time.
	g.recycle(nodes[0])
	fresh := g.NewNode(OpConstant, -1)
	if fresh != nodes[0] {
		t.Fatal("NewNode did not reuse the recycled node")
	}
	g.push(fresh)
	want = append(want, fresh.ID)
	g.compactWork()
	if len(g.work.list) != len(want) {
		t.Errorf("after compaction the list has %d entries, want the %d live ones", len(g.work.list), len(want))
	}
	for i := len(want) - 1; i >= 0; i-- {
		n := g.pop()
		if n == nil || n.ID != want[i] {
			t.Fatalf("pop %d: got %v, want ID %d", len(want)-i, n, want[i])
		}
	}
	if n := g.pop(); n != nil {
		t.Fatalf("pop after the last: got %v", n)
	}
}

// TestDropFreeKeepsArrays: dropFree empties the arena's free lists, so
// that they hold no list (nor its chunk) from the fixpoint before, but
// keeps their arrays: the next fixpoint's Kills fill them again without
// allocating, where growing them from nothing was most of what SCCP's
// fixpoints allocated.
func TestDropFreeKeepsArrays(t *testing.T) {
	var a edgeArena
	ins, poss := make([][]*Node, maxFree), make([][]int32, maxFree)
	for i := range ins {
		ins[i], poss[i] = a.nodes(3), a.positions(3)
	}
	for i := range ins {
		a.free(ins[i], poss[i])
	}
	in0 := a.nodes(3) // a list from the free lists
	a.free(in0, nil)
	a.dropFree()
	if len(a.freeIn[3]) != 0 || len(a.freePos[3]) != 0 {
		t.Fatalf("after dropFree: %d and %d free lists of 3", len(a.freeIn[3]), len(a.freePos[3]))
	}
	if cap(a.freeIn[3]) < maxFree || cap(a.freePos[3]) < maxFree {
		t.Fatalf("dropFree let the arrays go (capacities %d, %d)", cap(a.freeIn[3]), cap(a.freePos[3]))
	}
	if got := a.freeIn[3][:1][0]; got != nil {
		t.Fatalf("the emptied array still holds a list of %d", len(got))
	}
	lists := make([][]*Node, maxFree)
	for i := range lists {
		lists[i] = make([]*Node, 3)
	}
	if n := testing.AllocsPerRun(5, func() {
		for _, l := range lists {
			a.free(l, nil)
		}
		a.dropFree()
	}); n != 0 {
		t.Errorf("refilling the free lists after dropFree: %v allocations, want 0", n)
	}
}
