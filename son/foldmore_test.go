package son

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"son/internal/gen"
	"son/syntax"
)

// buildFoldMore builds f with foldBranch's live side and deadRegion on or
// off (noFoldMore).
func buildFoldMore(f *syntax.File, opt BuildOptions, fold bool) *Graph {
	noFoldMore = !fold
	defer func() { noFoldMore = false }()
	return Build(f, opt)
}

// foldMorePair builds src with foldBranch's live side and deadRegion on
// and off, and fails t unless the graphs are the same, ID for ID, with
// the same users and dependences, worklist and peepholes.
func foldMorePair(t *testing.T, src string) (on, off *Graph) {
	t.Helper()
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	on, off = buildFoldMore(f, BuildOptions{}, true), buildFoldMore(f, BuildOptions{}, false)
	if msg := foldMoreDiff(on, off); msg != "" {
		t.Fatalf("%q: %s", src, msg)
	}
	return on, off
}

// foldMoreDiff is what differs between graphs built with foldBranch's
// live side and deadRegion (on) and without (off), or "".
func foldMoreDiff(on, off *Graph) string {
	if a, b := Listing(on), Listing(off); a != b {
		return fmt.Sprintf("the graph differs with foldBranch and deadRegion:\n%s\nwithout:\n%s", a, b)
	}
	if a, b := usersAndDeps(on), usersAndDeps(off); a != b {
		return fmt.Sprintf("the users or dependences differ with foldBranch and deadRegion:\n%s\nwithout:\n%s", a, b)
	}
	if !slices.Equal(on.work.list, off.work.list) {
		return fmt.Sprintf("the worklist differs with foldBranch and deadRegion:\n%v\nwithout:\n%v", on.work.list, off.work.list)
	}
	if a, b := on.Stats, off.Stats; a.Peepholes != b.Peepholes || a.Rewrites != b.Rewrites || on.MaxID() != off.MaxID() ||
		a.Made+a.Folded != b.Made+b.Folded {
		return fmt.Sprintf("the counts differ: %+v with foldBranch and deadRegion, %+v without", a, b)
	}
	return ""
}

// usersAndDeps lists, for every live node by ID, its users in their
// order and the nodes its dependence list names: what Listing leaves out
// and the docs of foldBranch and deadRegion say they keep.
func usersAndDeps(g *Graph) string {
	nodes := g.Live()
	slices.SortFunc(nodes, func(a, b *Node) int { return a.ID - b.ID })
	var b strings.Builder
	for _, n := range nodes {
		fmt.Fprintf(&b, "%d %v:", n.ID, n.Op)
		for _, u := range n.Out {
			fmt.Fprintf(&b, " %d", u.ID)
		}
		if n.flags&hasDeps != 0 {
			fmt.Fprintf(&b, " deps %v", *g.depsOf.at(n.ID))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// foldMorePrograms are programs whose branches and joins the builder
// decides: nested ifs on constants, if (0) in loops, && || ?: on
// constants, dead code after a return in a branch, loops on constants.
var foldMorePrograms = []string{
	"int x = arg;\nif (1) { if (0) { x = x + 1; } else { if (2) x = x * 3; } }\nif (0) { if (1) x = 7; }\nreturn x;\n",
	"int s = 0;\nint i = 0;\nwhile (i < arg) {\n if (0) { s = s + 100; }\n if (1) s = s + i;\n if (0) break;\n if (0) continue;\n i = i + 1;\n}\nreturn s;\n",
	"int x = arg;\nint a = 1 && x;\nint b = 0 && x;\nint c = 0 || x;\nint d = 1 || x;\nint e = 1 ? x : 5;\nint f = 0 ? x : 5;\nint g = (0 && x) ? 3 : (1 || x);\nreturn a + b + c + d + e + f + g;\n",
	"int x = arg;\nif (x < 3) {\n if (1) { return 1; }\n x = x + 1;\n if (x) return 2;\n if (1) x = 5;\n} else {\n if (0) return 9;\n if (0) { return 8; } else { x = x + 2; }\n}\nreturn x;\n",
	"int s = 0;\nwhile (1) { s = s + 1; if (s > arg) break; }\nwhile (0) { s = s + 10; }\nint i = 0;\nwhile (i < 3) { if (1) { i = i + 1; } else { i = i + 2; } }\nreturn s + i;\n",
	"int x = arg;\nint y = 0;\nif (x < 2) { y = 1; }\nif (1) { x = x + y; }\nif (0) { x = x + y; y = 2; }\nif (arg > 4) { x = 3; y = 3; }\nif (7) { if (1) { y = y + x; } }\nreturn x + y;\n",
	"int s = 0;\nfor (int i = 0; i < arg; i = i + 1) {\n for (int j = 0; j < 3; j = j + 1) {\n  if (0) { s = s - 1; continue; }\n  if (0 || 0) break;\n  if (1 && 1) s = s + j;\n  if (0 ? 1 : 0) return 5;\n }\n}\nreturn s;\n",
	"int x = arg;\nif (0) { return 1; }\nif (0) { if (x) { return 2; } else { return 3; } }\nif (0) { int y = x && (x || 0); x = y ? y : 1; }\nif (1) { return x + 1; }\nreturn 4;\n",
	"int x = arg;\nint y = 1;\nint z = 2;\nif (x < 5) { y = 3; z = 4; }\nif (1) { y = y + z; }\nwhile (x < 10) { if (0) { z = 1; } x = x + y; if (1) { } }\nreturn x + y + z;\n",
	"int x = arg;\nint r = 0;\nwhile (1) {\n if (0) { r = 1; }\n if (x > 3) { return r + x; }\n x = x + 1;\n if (1) { continue; }\n r = 99;\n}\nreturn r;\n",
}

// TestFoldMoreKeepsOrder: with foldBranch folding a branch with a side
// reached and deadRegion standing in for Regions of dead paths, Build
// leaves the same graph as when it makes them, ID for ID, with the same
// users in the same order, the same dependences, the same worklist and
// the same counts; with value numbering off too. On the programs above,
// the corpus, and generated programs of every shape.
func TestFoldMoreKeepsOrder(t *testing.T) {
	files := recyclePrograms(t)
	for i, src := range foldMorePrograms {
		f, err := syntax.Parse("t.smp", []byte(src))
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		files[fmt.Sprintf("program %d", i)] = f
	}
	for seed := int64(1); seed <= 40; seed++ {
		src := gen.Program(gen.Config{Seed: seed, Size: 60, Shape: gen.Shape(seed % 4)})
		f, err := syntax.Parse("gen.smp", []byte(src))
		if err != nil {
			t.Fatalf("generated program, seed %d: %v", seed, err)
		}
		files[fmt.Sprintf("generated, seed %d, size 60", seed)] = f
	}
	saved := 0
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		f := files[name]
		for _, opt := range []BuildOptions{{}, {NoGVN: true}} {
			on, off := buildFoldMore(f, opt, true), buildFoldMore(f, opt, false)
			if msg := foldMoreDiff(on, off); msg != "" {
				t.Fatalf("%s %+v, after Build: %s", name, opt, msg)
			}
			saved += off.Stats.Made - on.Stats.Made
			if errOn, errOff := optimize(on), optimize(off); (errOn == nil) != (errOff == nil) {
				t.Fatalf("%s %+v: Iterate: %v with, %v without", name, opt, errOn, errOff)
			}
			if a, b := Listing(on), Listing(off); a != b {
				t.Fatalf("%s %+v: the graph after the peepholes differs:\n%s\nwithout:\n%s", name, opt, a, b)
			}
			if a, b := usersAndDeps(on), usersAndDeps(off); a != b {
				t.Fatalf("%s %+v: the users after the peepholes differ:\n%s\nwithout:\n%s", name, opt, a, b)
			}
		}
	}
	if saved == 0 {
		t.Fatal("no node left out: the test shows nothing")
	}
	t.Logf("%d nodes left out over %d programs", saved, len(files))
}
