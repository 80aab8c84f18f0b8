package gsa_test

import (
	"path/filepath"
	"slices"
	"testing"

	"son/gsa"
	"son/loops"
)

// The validator's control-flow facts and package loops' (the
// construction's), computed by different code (Lengauer–Tarjan against
// Cooper–Harvey–Kennedy, two loop finders), agree on every prepared
// program of testdata/, examples/ and bench/.
func TestFactsAgree(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata", "../examples", "../bench"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.smp"))
		files = append(files, fs...)
	}
	loopsSeen := 0
	for _, file := range files {
		f, _ := build(t, file)
		a, err := loops.Analyze(f)
		if err != nil {
			t.Fatal(err)
		}
		idom, loop, parent, err := gsa.ValidatorFacts(f)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var wantIdom, wantLoop []int
		wantParent := slices.Repeat([]int{-1}, len(f.Blocks))
		for i := range f.Blocks {
			wantIdom = append(wantIdom, a.Tree.Idom(i))
			h := -1
			if l := a.Of[i]; l != nil {
				h = a.Pos[l.Header]
			}
			wantLoop = append(wantLoop, h)
		}
		for _, l := range a.Loops {
			if l.Parent != nil {
				wantParent[a.Pos[l.Header]] = a.Pos[l.Parent.Header]
			}
		}
		loopsSeen += len(a.Loops)
		if !slices.Equal(idom, wantIdom) || !slices.Equal(loop, wantLoop) || !slices.Equal(parent, wantParent) {
			t.Errorf("%s: the validator's facts differ from loops.Analyze:\nidom %v\nwant %v\nloop %v\nwant %v\nparent %v\nwant %v",
				file, idom, wantIdom, loop, wantLoop, parent, wantParent)
		}
	}
	if loopsSeen == 0 {
		t.Fatal("no loop in the programs")
	}
}
