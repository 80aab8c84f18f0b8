package dom

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

var algorithms = []struct {
	name string
	f    func([][]int) []int
}{
	{"LengauerTarjan", LengauerTarjan},
	{"CooperHarveyKennedy", CooperHarveyKennedy},
}

// edges makes successor lists for n vertices from a list of edges.
func edges(n int, es ...[2]int) [][]int {
	succ := make([][]int, n)
	for _, e := range es {
		succ[e[0]] = append(succ[e[0]], e[1])
	}
	return succ
}

func TestHandGraphs(t *testing.T) {
	// Lengauer and Tarjan's figure 1: R A B C D E F G H I J K L.
	const (
		R = iota
		A
		B
		C
		D
		E
		F
		G
		H
		I
		J
		K
		L
	)
	lt := edges(13,
		[2]int{R, A}, [2]int{R, B}, [2]int{R, C},
		[2]int{A, D},
		[2]int{B, A}, [2]int{B, D}, [2]int{B, E},
		[2]int{C, F}, [2]int{C, G},
		[2]int{D, L},
		[2]int{E, H},
		[2]int{F, I},
		[2]int{G, I}, [2]int{G, J},
		[2]int{H, E}, [2]int{H, K},
		[2]int{I, K},
		[2]int{J, I},
		[2]int{K, I}, [2]int{K, R},
		[2]int{L, H},
	)
	ltIdom := make([]int, 13)
	ltIdom[F], ltIdom[G], ltIdom[J], ltIdom[L] = C, C, G, D

	tests := []struct {
		name string
		succ [][]int
		want []int
	}{
		{"empty", nil, []int{}},
		{"single", [][]int{{}}, []int{0}},
		{"single self-loop", [][]int{{0, 0}}, []int{0}},
		{"chain", edges(4, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}), []int{0, 0, 1, 2}},
		{"chain backwards numbered", edges(4, [2]int{0, 3}, [2]int{3, 2}, [2]int{2, 1}), []int{0, 2, 3, 0}},
		{"diamond",
			edges(4, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}),
			[]int{0, 0, 0, 0}},
		{"loop with back edge",
			// 0 -> 1 (header) -> 2 (body) -> 1, 1 -> 3 (exit)
			edges(4, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 1}, [2]int{1, 3}),
			[]int{0, 0, 1, 1}},
		{"loop exit from body",
			// 0 -> 1 -> 2 -> 3 -> 1, 2 -> 4
			edges(5, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 1}, [2]int{2, 4}),
			[]int{0, 0, 1, 2, 2}},
		{"nested loops",
			// outer header 1, inner header 2, inner body 3 with an if
			// (3 -> 4, 3 -> 5, both -> 6), 6 -> 2 inner back edge,
			// 2 -> 7 inner exit, 7 -> 1 outer back edge, 1 -> 8 exit.
			edges(9,
				[2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{3, 5},
				[2]int{4, 6}, [2]int{5, 6}, [2]int{6, 2}, [2]int{2, 7}, [2]int{7, 1},
				[2]int{1, 8}),
			[]int{0, 0, 1, 2, 3, 3, 3, 2, 1}},
		{"irreducible",
			// Two entries, 1 and 2, into the cycle 1 <-> 2; 2 -> 3.
			edges(4, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}, [2]int{2, 1}, [2]int{2, 3}),
			[]int{0, 0, 0, 2}},
		{"unreachable",
			// 2 and 3 form an unreachable cycle into 1; 4 is isolated.
			edges(5, [2]int{0, 1}, [2]int{2, 3}, [2]int{3, 2}, [2]int{3, 1}),
			[]int{0, 0, -1, -1, -1}},
		{"entry unreachable from others",
			edges(3, [2]int{1, 0}, [2]int{1, 2}),
			[]int{0, -1, -1}},
		{"self-loops",
			edges(3, [2]int{0, 0}, [2]int{0, 1}, [2]int{1, 1}, [2]int{1, 2}, [2]int{2, 2}),
			[]int{0, 0, 1}},
		{"duplicate edges",
			edges(4, [2]int{0, 1}, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3},
				[2]int{1, 3}, [2]int{2, 3}, [2]int{2, 3}, [2]int{3, 3}),
			[]int{0, 0, 0, 0}},
		{"back edge to entry",
			edges(3, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0}),
			[]int{0, 0, 1}},
		{"CHK figure 2",
			// Paper's postorder numbers 5..1 renumbered 5-k:
			// 5->4, 5->3, 4->1, 3->2, 1->2, 2->1.
			edges(5, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 4}, [2]int{2, 3},
				[2]int{4, 3}, [2]int{3, 4}),
			[]int{0, 0, 0, 0, 0}},
		{"CHK figure 4",
			// The irreducible graph: 6->5, 6->4, 5->1, 4->2, 4->3,
			// 1->2, 2->1, 2->3, 3->2; renumbered 6-k.
			edges(6, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 5}, [2]int{2, 4},
				[2]int{2, 3}, [2]int{5, 4}, [2]int{4, 5}, [2]int{4, 3}, [2]int{3, 4}),
			[]int{0, 0, 0, 0, 0, 0}},
		{"Lengauer-Tarjan figure 1", lt, ltIdom},
	}
	for _, tt := range tests {
		for _, alg := range algorithms {
			t.Run(tt.name+"/"+alg.name, func(t *testing.T) {
				got := alg.f(tt.succ)
				if !slices.Equal(got, tt.want) {
					t.Errorf("idom = %v, want %v", got, tt.want)
				}
				if brute := bruteIdom(tt.succ); !slices.Equal(brute, tt.want) {
					t.Errorf("test table wrong: brute force idom = %v, want %v", brute, tt.want)
				}
				checkTree(t, tt.succ, got)
			})
		}
	}
}

// bruteDom returns dom[a][b]: whether a dominates b, by the definition: b
// is reachable from 0, and a == b or b is unreachable from 0 once a is
// removed.
func bruteDom(succ [][]int) [][]bool {
	n := len(succ)
	reach := func(removed int) []bool {
		seen := make([]bool, n)
		if n == 0 || removed == 0 {
			return seen
		}
		seen[0] = true
		work := []int{0}
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			for _, w := range succ[v] {
				if w != removed && !seen[w] {
					seen[w] = true
					work = append(work, w)
				}
			}
		}
		return seen
	}
	all := reach(-1)
	dom := make([][]bool, n)
	for a := range n {
		without := reach(a)
		dom[a] = make([]bool, n)
		for b := range n {
			dom[a][b] = all[a] && all[b] && (a == b || !without[b])
		}
	}
	return dom
}

// bruteIdom returns the immediate dominators by bruteDom: the strict
// dominator of b that has the most dominators itself.
func bruteIdom(succ [][]int) []int {
	n := len(succ)
	dom := bruteDom(succ)
	count := make([]int, n) // number of dominators of b
	for a := range n {
		for b := range n {
			if dom[a][b] {
				count[b]++
			}
		}
	}
	idom := make([]int, n)
	for b := range n {
		idom[b] = -1
		if count[b] == 0 {
			continue
		}
		if b == 0 {
			idom[b] = 0
			continue
		}
		for a := range n {
			if a != b && dom[a][b] && (idom[b] < 0 || count[a] > count[idom[b]]) {
				idom[b] = a
			}
		}
	}
	return idom
}

// checkTree checks NewTree(idom) against walking up idom and, for small
// graphs, against bruteDom.
func checkTree(t *testing.T, succ [][]int, idom []int) {
	t.Helper()
	n := len(idom)
	tr := NewTree(idom)
	if tr.Len() != n {
		t.Fatalf("Len = %d, want %d", tr.Len(), n)
	}

	// Walk up idom: dominators of b, with depths.
	up := func(b int) []int {
		if idom[b] < 0 {
			return nil
		}
		chain := []int{b}
		for b != 0 {
			b = idom[b]
			chain = append(chain, b)
		}
		return chain
	}
	var brute [][]bool
	if n <= 60 {
		brute = bruteDom(succ)
	}
	reachable := 0
	for b := range n {
		chain := up(b)
		if tr.Reachable(b) != (chain != nil) {
			t.Fatalf("Reachable(%d) = %v", b, tr.Reachable(b))
		}
		if chain != nil {
			reachable++
		}
		if tr.Idom(b) != idom[b] {
			t.Fatalf("Idom(%d) = %d, want %d", b, tr.Idom(b), idom[b])
		}
		if d := len(chain) - 1; tr.Depth(b) != d {
			t.Fatalf("Depth(%d) = %d, want %d", b, tr.Depth(b), d)
		}
		for a := range n {
			want := slices.Contains(chain, a)
			if got := tr.Dominates(a, b); got != want {
				t.Fatalf("Dominates(%d, %d) = %v, want %v", a, b, got, want)
			}
			if got := tr.StrictlyDominates(a, b); got != (want && a != b) {
				t.Fatalf("StrictlyDominates(%d, %d) = %v", a, b, got)
			}
			if brute != nil && brute[a][b] != want {
				t.Fatalf("Dominates(%d, %d) = %v, but by definition %v", a, b, want, brute[a][b])
			}
		}
	}
	checkShape(t, tr, idom, reachable)
}

// checkShape checks Children and Preorder; O(n), for large graphs too.
func checkShape(t *testing.T, tr *Tree, idom []int, reachable int) {
	t.Helper()
	n := len(idom)
	pre := tr.Preorder()
	if len(pre) != reachable {
		t.Fatalf("len(Preorder()) = %d, want %d reachable", len(pre), reachable)
	}
	seen := make([]bool, n)
	for i, v := range pre {
		if seen[v] {
			t.Fatalf("Preorder visits %d twice", v)
		}
		if idom[v] < 0 {
			t.Fatalf("Preorder visits unreachable %d", v)
		}
		if (i == 0) != (v == 0) {
			t.Fatalf("Preorder()[%d] = %d; the entry must come first", i, v)
		}
		if v != 0 && !seen[idom[v]] {
			t.Fatalf("Preorder visits %d before its idom %d", v, idom[v])
		}
		if i > 0 && v != 0 && idom[v] == idom[pre[i-1]] && pre[i-1] > v {
			t.Fatalf("Preorder: sibling %d before %d", pre[i-1], v)
		}
		seen[v] = true
	}
	pos := make([]int, n)
	for i, v := range pre {
		pos[v] = i
	}
	nchild := 0
	for v := range n {
		kids := tr.Children(v)
		nchild += len(kids)
		if !slices.IsSorted(kids) {
			t.Fatalf("Children(%d) = %v, not sorted", v, kids)
		}
		for i := 1; i < len(kids); i++ {
			if pos[kids[i-1]] > pos[kids[i]] {
				t.Fatalf("Preorder visits child %d of %d before %d", kids[i], v, kids[i-1])
			}
		}
		for _, c := range kids {
			if idom[c] != v || c == v {
				t.Fatalf("Children(%d) has %d, whose idom is %d", v, c, idom[c])
			}
		}
	}
	if reachable > 0 && nchild != reachable-1 {
		t.Fatalf("%d children in all, want %d", nchild, reachable-1)
	}
}

// randomGraph returns a graph of n vertices with about m random edges,
// biased towards nearby vertices sometimes so there are long paths.
func randomGraph(r *rand.Rand, n, m int) [][]int {
	succ := make([][]int, n)
	for range m {
		v := r.Intn(n)
		var w int
		if r.Intn(2) == 0 {
			w = min(n-1, v+1+r.Intn(3))
		} else {
			w = r.Intn(n)
		}
		succ[v] = append(succ[v], w)
	}
	return succ
}

func TestRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	count := 3000
	if testing.Short() {
		count = 300
	}
	for i := range count {
		n := 1 + r.Intn(60)
		m := r.Intn(3*n + 1)
		succ := randomGraph(r, n, m)
		lt := LengauerTarjan(succ)
		chk := CooperHarveyKennedy(succ)
		brute := bruteIdom(succ)
		if !slices.Equal(lt, brute) || !slices.Equal(chk, brute) {
			t.Fatalf("graph %d %v:\nLengauerTarjan      %v\nCooperHarveyKennedy %v\nbrute force         %v",
				i, succ, lt, chk, brute)
		}
		start, flat := []int32{0}, []int32{}
		for _, ws := range succ {
			for _, w := range ws {
				flat = append(flat, int32(w))
			}
			start = append(start, int32(len(flat)))
		}
		if got := CooperHarveyKennedyFlat(start, flat); !slices.Equal(got, brute) {
			t.Fatalf("graph %d %v: CooperHarveyKennedyFlat %v, want %v", i, succ, got, brute)
		}
		if got := LengauerTarjanFlat(start, flat); !slices.Equal(got, brute) {
			t.Fatalf("graph %d %v: LengauerTarjanFlat %v, want %v", i, succ, got, brute)
		}
		if got := widen(CooperHarveyKennedyFlat32(start, flat)); !slices.Equal(got, brute) {
			t.Fatalf("graph %d %v: CooperHarveyKennedyFlat32 %v, want %v", i, succ, got, brute)
		}
		if got := widen(LengauerTarjanFlat32(start, flat)); !slices.Equal(got, brute) {
			t.Fatalf("graph %d %v: LengauerTarjanFlat32 %v, want %v", i, succ, got, brute)
		}
		if i%10 == 0 {
			checkTree(t, succ, lt)
		}
	}
}

func TestLarge(t *testing.T) {
	const chain = 1_000_000
	succ := make([][]int, chain)
	for v := range chain - 1 {
		succ[v] = []int{v + 1}
	}
	succ[chain-1] = []int{0} // a back edge, for good measure
	for _, alg := range algorithms {
		t.Run("chain/"+alg.name, func(t *testing.T) {
			idom := alg.f(succ)
			for v := 1; v < chain; v++ {
				if idom[v] != v-1 {
					t.Fatalf("idom[%d] = %d", v, idom[v])
				}
			}
			tr := NewTree(idom)
			checkShape(t, tr, idom, chain)
			if d := tr.Depth(chain - 1); d != chain-1 {
				t.Fatalf("Depth = %d", d)
			}
			if !tr.Dominates(1, chain-1) || tr.Dominates(chain-1, 1) {
				t.Fatal("Dominates wrong on the chain")
			}
		})
	}

	const n = 200_000
	succ = randomGraph(rand.New(rand.NewSource(2)), n, 3*n)
	var want []int
	for _, alg := range algorithms {
		t.Run(fmt.Sprintf("random%d/%s", n, alg.name), func(t *testing.T) {
			idom := alg.f(succ)
			if want == nil {
				want = idom
			} else if !slices.Equal(idom, want) {
				t.Fatal("the algorithms disagree")
			}
			reachable := 0
			for _, d := range idom {
				if d >= 0 {
					reachable++
				}
			}
			checkShape(t, NewTree(idom), idom, reachable)
		})
	}
}

// TestLengauerTarjanFlatAllocs: the search needs no stack of its own, so
// a chain as deep as it is long (the shape `and` of son's hostile
// programs) costs the algorithm's arrays only, allocated once each: no
// array growing with the depth (a stack of frames grew to 38 allocations
// on this chain).
func TestLengauerTarjanFlatAllocs(t *testing.T) {
	const n = 100_000
	start, succ := make([]int32, n+1), make([]int32, n-1)
	for v := range n - 1 {
		succ[v] = int32(v + 1)
		start[v+1] = int32(v + 1)
	}
	start[n] = n - 1
	var idom []int
	if a := testing.AllocsPerRun(2, func() { idom = LengauerTarjanFlat(start, succ) }); a > 11 {
		t.Errorf("LengauerTarjanFlat on a chain of %d: %v allocations, want at most 11 (its arrays)", n, a)
	}
	for v := 1; v < n; v++ {
		if idom[v] != v-1 {
			t.Fatalf("idom[%d] = %d, want %d", v, idom[v], v-1)
		}
	}
}

func TestPreorder(t *testing.T) {
	// The dominator tree of Lengauer and Tarjan's figure 1, R=0 ... L=12.
	idom := []int{0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 7, 0, 4}
	tr := NewTree(idom)
	want := []int{0, 1, 2, 3, 6, 7, 10, 4, 12, 5, 8, 9, 11}
	if got := tr.Preorder(); !slices.Equal(got, want) {
		t.Errorf("Preorder() = %v, want %v", got, want)
	}
	if got := tr.Children(3); !slices.Equal(got, []int{6, 7}) {
		t.Errorf("Children(3) = %v, want [6 7]", got)
	}
	if got := tr.Depth(10); got != 3 {
		t.Errorf("Depth(10) = %d, want 3", got)
	}
	if !tr.StrictlyDominates(3, 10) || tr.StrictlyDominates(10, 10) || !tr.Dominates(10, 10) {
		t.Error("dominance of 10 wrong")
	}
}

func TestNewTreePanics(t *testing.T) {
	for _, idom := range [][]int{
		{1, 0},     // entry not its own idom
		{-1},       // entry unreachable
		{0, 2, 1},  // cycle not through 0
		{0, 1},     // self-dominating vertex
		{0, 5},     // out of range
		{0, -1, 1}, // idom unreachable
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewTree(%v) did not panic", idom)
				}
			}()
			NewTree(idom)
		}()
	}
}

// benchGraph is a random graph of n vertices, each with about 3 edges, all
// reachable: an edge from a random earlier vertex, and two random ones.
func benchGraph(n int) [][]int {
	r := rand.New(rand.NewSource(3))
	succ := make([][]int, n)
	for v := 1; v < n; v++ {
		u := r.Intn(v)
		succ[u] = append(succ[u], v)
	}
	for v := range n {
		succ[v] = append(succ[v], r.Intn(n), r.Intn(n))
	}
	return succ
}

func benchmark(b *testing.B, f func([][]int) []int) {
	succ := benchGraph(100_000)
	for b.Loop() {
		f(succ)
	}
}

func BenchmarkLengauerTarjan(b *testing.B)      { benchmark(b, LengauerTarjan) }
func BenchmarkCooperHarveyKennedy(b *testing.B) { benchmark(b, CooperHarveyKennedy) }

func BenchmarkNewTree(b *testing.B) {
	idom := LengauerTarjan(benchGraph(100_000))
	for b.Loop() {
		NewTree(idom)
	}
}

// naiveLCA climbs from a and b by depth, one parent at a time.
func naiveLCA(t *Tree, a, b int) int {
	for a != b {
		if t.Depth(a) >= t.Depth(b) {
			a = t.Idom(a)
		} else {
			b = t.Idom(b)
		}
	}
	return a
}

func TestLCA(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := range 500 {
		n := 1 + r.Intn(80)
		idom := LengauerTarjan(randomGraph(r, n, r.Intn(3*n+1)))
		tr := NewTree(idom)
		for _, a := range tr.Preorder() {
			if j := tr.Jump(a); !tr.Dominates(j, a) || (a != 0 && j == a) {
				t.Fatalf("tree %d %v: Jump(%d) = %d is not a proper ancestor", i, idom, a, j)
			}
			for _, b := range tr.Preorder() {
				if got, want := tr.LCA(a, b), naiveLCA(tr, a, b); got != want {
					t.Fatalf("tree %d %v: LCA(%d, %d) = %d, want %d", i, idom, a, b, got, want)
				}
			}
		}
	}
}

// TestLCASteps checks that LCA climbs in O(log n) steps on a chain of a
// million vertices, where a walk by parents takes a million.
func TestLCASteps(t *testing.T) {
	const n = 1 << 20
	idom := make([]int, n)
	for v := 1; v < n; v++ {
		idom[v] = v - 1
	}
	tr := NewTree(idom)
	for _, c := range []struct{ a, b, want int }{{n - 1, 5, 5}, {n - 1, n / 2, n / 2}, {1000, n - 1, 1000}, {n - 1, n - 1, n - 1}} {
		if got := tr.LCA(c.a, c.b); got != c.want {
			t.Errorf("LCA(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// The climb from the bottom to any depth: at most 3 log2(n) steps.
	for target := 0; target < n; target += 997 {
		steps := 0
		for v := n - 1; v != target; steps++ {
			if j := tr.Jump(v); j >= target {
				v = j
			} else {
				v = tr.Idom(v)
			}
		}
		if steps > 3*20 {
			t.Fatalf("climbing from %d to %d takes %d steps", n-1, target, steps)
		}
	}
}

// TestOutOfRange: both algorithms refuse a successor that is not a
// vertex, in either form of the lists.
func TestOutOfRange(t *testing.T) {
	for name, f := range map[string]func(){
		"LengauerTarjan":          func() { LengauerTarjan([][]int{{1}, {2}}) },
		"CooperHarveyKennedy":     func() { CooperHarveyKennedy([][]int{{1}, {-1}}) },
		"LengauerTarjanFlat":      func() { LengauerTarjanFlat([]int32{0, 1, 2}, []int32{1, 2}) },
		"CooperHarveyKennedyFlat": func() { CooperHarveyKennedyFlat([]int32{0, 1, 2}, []int32{1, 2}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// widen is idom with int entries.
func widen(idom []int32) []int {
	w := make([]int, len(idom))
	for i, d := range idom {
		w[i] = int(d)
	}
	return w
}
