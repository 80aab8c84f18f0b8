package son

import (
	"slices"
	"testing"

	"son/syntax"
	"son/types"
)

// buildFolding builds f with foldAtOnce on or off.
func buildFolding(f *syntax.File, opt BuildOptions, fold bool) *Graph {
	noFoldAtOnce = !fold
	defer func() { noFoldAtOnce = false }()
	return Build(f, opt)
}

// TestFoldAtOnceChangesNothing: leaving out the nodes the peephole would
// replace at once leaves the graph Build makes the same, ID for ID, with
// the same worklist, the same counts of peepholes and rewrites, and the
// same checks of the rewrite checker; the fixpoint after it makes the
// same graph; so does Build without value numbering. And it leaves out
// at least a fifth of the nodes made.
func TestFoldAtOnceChangesNothing(t *testing.T) {
	made, folded := 0, 0
	for name, f := range recyclePrograms(t) {
		on := buildFolding(f, BuildOptions{}, true)
		off := buildFolding(f, BuildOptions{}, false)
		if a, b := Listing(on), Listing(off); a != b {
			t.Fatalf("%s: the graph after Build differs with folding at once:\n%s\nwithout:\n%s", name, a, b)
		}
		if on.MaxID() != off.MaxID() {
			t.Fatalf("%s: %d IDs given out with folding at once, %d without", name, on.MaxID(), off.MaxID())
		}
		if !slices.Equal(on.work.list, off.work.list) {
			t.Fatalf("%s: the worklist after Build differs with folding at once:\n%v\nwithout:\n%v", name, on.work.list, off.work.list)
		}
		if on.Stats.Peepholes != off.Stats.Peepholes || on.Stats.Rewrites != off.Stats.Rewrites {
			t.Fatalf("%s: %d peepholes and %d rewrites with folding at once, %d and %d without", name,
				on.Stats.Peepholes, on.Stats.Rewrites, off.Stats.Peepholes, off.Stats.Rewrites)
		}
		for _, g := range []*Graph{on, off} {
			if g.MaxID() != 1+g.Stats.Made+g.Stats.Folded {
				t.Fatalf("%s: %d IDs given out, but %d nodes made and %d folded", name, g.MaxID(), g.Stats.Made, g.Stats.Folded)
			}
		}
		made += on.MaxID()
		folded += on.Stats.Folded
		errOn, errOff := optimize(on), optimize(off)
		if (errOn == nil) != (errOff == nil) {
			t.Fatalf("%s: Iterate: %v with folding at once, %v without", name, errOn, errOff)
		}
		if a, b := Listing(on), Listing(off); a != b {
			t.Fatalf("%s: the graph after the peepholes differs with folding at once:\n%s\nwithout:\n%s", name, a, b)
		}
		non, noff := buildFolding(f, BuildOptions{NoGVN: true}, true), buildFolding(f, BuildOptions{NoGVN: true}, false)
		if a, b := Listing(non), Listing(noff); a != b || !slices.Equal(non.work.list, noff.work.list) {
			t.Fatalf("%s: with NoGVN, the graph or the worklist after Build differs with folding at once:\n%s\nwithout:\n%s", name, a, b)
		}
		con := buildFolding(f, BuildOptions{Check: true}, true)
		coff := buildFolding(f, BuildOptions{Check: true}, false)
		if a, b := con.RewriteStats(), coff.RewriteStats(); a != b {
			t.Fatalf("%s: the rewrite checker's counts are %+v with folding at once, %+v without", name, a, b)
		}
		if err := con.RewriteError(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if 5*folded < made {
		t.Errorf("%d of %d nodes left out, want a fifth or more", folded, made)
	}
	t.Logf("%d of %d nodes left out", folded, made)
}

// TestFoldBranchAndDeadRegion: a branch on a constant makes neither the
// If nor the projection of the side taken, and an && in dead code no
// Region: on a program with two such branches and one such &&, five
// nodes fewer are made, their IDs taken all the same, and the graph is
// the same, ID for ID, with the same users, worklist and peepholes, as
// when they are made (foldMorePair).
func TestFoldBranchAndDeadRegion(t *testing.T) {
	on, off := foldMorePair(t, "int x = arg;\nif (3) x = x + 1;\nint y = 0;\nif (0) { y = arg && x; }\nreturn x + y;\n")
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"IDs given out", on.MaxID(), 38},
		{"IDs given out when made", off.MaxID(), 38},
		{"nodes made", on.Stats.Made, 26},
		{"nodes made when made", off.Stats.Made, 31},
		{"nodes folded", on.Stats.Folded, 11},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}
}

// TestFoldBranchAfterPhis: a branch on a constant whose control is a
// Region with Phis makes its If (phisOver: the control's peephole, run
// again, might move a Phi among its users), and with none it does not:
// the If and the projection of the side taken are left out.
func TestFoldBranchAfterPhis(t *testing.T) {
	for _, c := range []struct {
		src           string
		madeOff, made int
	}{
		{"int x = arg;\nint y = arg + 1;\nif (arg < 3) { x = 1; y = 2; }\nif (5) x = x + y;\nreturn x;\n", 33, 33},
		{"int x = arg;\nint y = arg + 1;\nif (arg < 3) { x = 1; }\nif (5) x = x + y;\nreturn x;\n", 31, 31},
		{"int x = arg;\nint y = arg + 1;\nif (arg < 3) { x = 1; }\nx = 2;\nif (5) x = x + y;\nreturn x;\n", 33, 31},
	} {
		on, off := foldMorePair(t, c.src)
		if off.Stats.Made != c.madeOff || on.Stats.Made != c.made {
			t.Errorf("%q: %d nodes made, %d with every fold off; want %d and %d", c.src, on.Stats.Made, off.Stats.Made, c.made, c.madeOff)
		}
	}
}

// TestFoldAtOnceChecked: with the rewrite checker on, a fold that gives
// a wrong constant is reported, at the node never made, with its position.
func TestFoldAtOnceChecked(t *testing.T) {
	src := "int x = 6;\nreturn x * 7 + arg;\n"
	f, err := syntax.Parse("t.smp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g := Build(f, BuildOptions{Check: true})
	if err := g.RewriteError(); err != nil {
		t.Fatalf("the right fold is reported: %v", err)
	}
	foldHook = func(op Op, t types.Type) types.Type {
		if op == OpMul && t.IsConst() {
			return types.Const(t.Value() + 1)
		}
		return t
	}
	defer func() { foldHook = nil }()
	g = Build(f, BuildOptions{Check: true})
	err = g.RewriteError()
	if err == nil {
		t.Fatal("the wrong fold 6*7 → 43 is not reported")
	}
	// Reported as the made node was: its type when made and when
	// peepholed, then its replacement by the constant.
	want := "peephole check: t.smp:2:10: Mul#8: type-sound: typed 43, but 6 * 7 is 42 (Constant#6 within 6, Constant#7 within 7)\n" +
		"\tt.smp:2:10: Mul#8: type-sound: typed 43, but 6 * 7 is 42 (Constant#6 within 6, Constant#7 within 7)\n" +
		"\tt.smp:2:10: Mul#8: constant type: 6 * 7 rewritten to Constant#9 = 43: with no free values, the old gives 42 and the new 43"
	if err.Error() != want {
		t.Errorf("the wrong fold is reported as\n%v\nwant\n%s", err, want)
	}
}
