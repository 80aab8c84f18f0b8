package cfg

import "testing"

// liveDiamond begins the functions of the tests below: v1 and v2 on both
// sides of a branch, v2 and v3 joined by a Phi in b4.
const liveDiamond = `func t level SSA
b1:  ; entry
	v1 = Arg
	v2 = Const 5
	branch v1 b2 b3
b2:  ; preds b1
	jump b4
b3:  ; preds b1
	v3 = Add v1 v2
	jump b4
b4:  ; preds b2 b3
	v4 = Phi v2 v3
`

// TestLiveIn counts the live-in sets of a diamond with a loop below it:
// v2 is live into b2 (a Phi argument, used at its end) and b3; v1, read
// in b3 and by the loop's compare, into both arms, the join and the loop;
// v5 into the loop body and the exit; v4 and v7, Phi arguments from
// their own blocks, nowhere.
func TestLiveIn(t *testing.T) {
	f := mustParse(t, liveDiamond+`	jump b5
b5:  ; preds b4 b6
	v5 = Phi v4 v7
	v6 = Lt v5 v1
	branch v6 b6 b7
b6:  ; preds b5
	v7 = Add v5 v5
	jump b5
b7:  ; preds b5
	return v5
`)
	// b2 {v1 v2}, b3 {v1 v2}, b4 {v1}, b5 {v1}, b6 {v1 v5}, b7 {v5}.
	if got := LiveIn(f); got != 9 {
		t.Errorf("LiveIn = %d, want 9", got)
	}
}

// TestLiveInBroken: a nil block, Phi or instruction is skipped, not a
// panic, and what remains is counted.
func TestLiveInBroken(t *testing.T) {
	f := mustParse(t, liveDiamond+`	v5 = Lt v4 v1
	return v5
`)
	// b2 {v1 v2}, b3 {v1 v2}, b4 {v1}.
	if got := LiveIn(f); got != 5 {
		t.Fatalf("LiveIn = %d, want 5", got)
	}
	// b3's Add gone, v2 is read only at the end of b2 (v3, the Phi's
	// other argument, is never defined): b2 {v1 v2}, b3 {v1}, b4 {v1}.
	f.Blocks[2].Instrs[0] = nil
	if got := LiveIn(f); got != 4 {
		t.Errorf("with a nil instruction: LiveIn = %d, want 4", got)
	}
	// The Phi gone too, only v1 is read: b2 {v1}, b3 {v1}, b4 {v1}.
	f.Blocks[3].Phis[0] = nil
	if got := LiveIn(f); got != 3 {
		t.Errorf("with a nil Phi too: LiveIn = %d, want 3", got)
	}
	// A nil block in the list, and as a predecessor of b4: skipped, the
	// walk back from b4 still reaches b2 and b3.
	f.Blocks = append(f.Blocks, nil)
	f.Blocks[3].Preds = append(f.Blocks[3].Preds, nil)
	if got := LiveIn(f); got != 3 {
		t.Errorf("with a nil block too: LiveIn = %d, want 3", got)
	}
}
