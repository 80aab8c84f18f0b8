package gsa

import (
	"testing"

	"son/cfg"
)

// ValidatorFacts exposes the validator's own control-flow facts to the
// external tests, which compare them with package loops': the immediate
// dominator of each position, the header of its innermost loop (-1 for
// none) and, at a header, the header of the loop around its loop.
func ValidatorFacts(f *cfg.Func) (idom, loop, parent []int, err error) {
	x, err := newFacts(f)
	if err != nil {
		return nil, nil, nil, err
	}
	for i := range f.Blocks {
		idom = append(idom, x.tree.Idom(i))
	}
	return idom, x.loop, x.parent, nil
}

// A cycle entered at two blocks has no back edge: Check refuses it with
// the validator's own message, not package loops'.
func TestFactsIrreducible(t *testing.T) {
	f, err := cfg.Parse(`func irr level SSA
b1:
	v1 = Arg
	branch v1 b2 b3
b2:
	jump b3
b3:
	branch v1 b2 b4
b4:
	return v1
`)
	if err != nil {
		t.Fatal(err)
	}
	g := &Func{Code: f}
	const want = "gsa: b2: irreducible control flow (a cycle without a back edge reaches it)"
	if err := Check(f, g); err == nil || err.Error() != want {
		t.Errorf("Check: got %v, want %s", err, want)
	}
	if err := CheckPredicates(f, g, brute{}); err == nil || err.Error() != want {
		t.Errorf("CheckPredicates: got %v, want %s", err, want)
	}
}

// Nested loops, one with two latches, and a block no edge reaches: the
// facts name each block's innermost loop and each loop's parent.
func TestFactsLoops(t *testing.T) {
	f, err := cfg.Parse(`func nest level SSA
b1:
	v1 = Arg
	jump b2
b2:
	branch v1 b3 b7
b3:
	branch v1 b4 b5
b4:
	branch v1 b3 b6
b5:
	jump b3
b6:
	jump b2
b7:
	return v1
b8:
	jump b7
`)
	if err != nil {
		t.Fatal(err)
	}
	idom, loop, parent, err := ValidatorFacts(f)
	if err != nil {
		t.Fatal(err)
	}
	// Positions 0..7 are b1..b8. Loop of b2 (1): b2 b3 b4 b5 b6; loop of
	// b3 (2), inside it: b3 b4 b5 (latches b4 and b5).
	wantIdom := []int{0, 0, 1, 2, 2, 3, 1, -1}
	wantLoop := []int{-1, 1, 2, 2, 2, 1, -1, -1}
	wantParent := []int{-1, -1, 1, -1, -1, -1, -1, -1}
	for i := range f.Blocks {
		if idom[i] != wantIdom[i] || loop[i] != wantLoop[i] || parent[i] != wantParent[i] {
			t.Errorf("%v: idom %d, loop %d, parent %d; want %d, %d, %d", f.Blocks[i], idom[i], loop[i], parent[i], wantIdom[i], wantLoop[i], wantParent[i])
		}
	}
}
