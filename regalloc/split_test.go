package regalloc

import (
	"strings"
	"testing"
)

// splitFunc is a function where four registers are live before a loop
// on a machine of three: v4, read in the loop and after it, is spilled.
// With extra, the loop itself needs all three registers for v8, v9 and
// v10 at one point, so that it has none to spare for a copy of v4 live
// through it.
func splitFunc(extra bool) *Func {
	entry := []ti{
		{Defs: []Reg{4}}, {Defs: []Reg{5}}, {Defs: []Reg{6}}, {Defs: []Reg{7}},
		{Uses: []Reg{5, 6, 7}},
	}
	loop := []ti{{Uses: []Reg{4}}, {Uses: []Reg{4}}, {Branch: true}}
	if extra {
		loop = append([]ti{{Defs: []Reg{8}}, {Defs: []Reg{9}}, {Defs: []Reg{10}}, {Uses: []Reg{8, 9, 10}}}, loop...)
	}
	entry = append(entry, ti{Branch: true})
	f := &Func{NumPhys: 4, Allocatable: []Reg{1, 2, 3}}
	f.Blocks = []Block{
		f.block([]int{1}, entry...),
		f.block([]int{1, 2}, loop...),
		f.block(nil, ti{Uses: []Reg{4}}),
	}
	return f
}

// TestSplitAroundLoop: the spilled v4 is reloaded once, before the jump
// into the loop, into a register the loop's two reads share: no reload
// inside the loop; the checker accepts it.
func TestSplitAroundLoop(t *testing.T) {
	f := splitFunc(false)
	res, err := Allocate(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(f, res); err != nil {
		t.Fatal(err)
	}
	if res.Spilled != 1 || res.Split != 1 {
		t.Fatalf("spilled %d, split %d; want 1 and 1", res.Spilled, res.Split)
	}
	for i := range res.Blocks[1] {
		if p := &res.Blocks[1][i]; len(res.Before(p))+len(res.After(p)) != 0 {
			t.Errorf("loop instruction %d has edits %v and %v; want none", i, res.Before(p), res.After(p))
		}
	}
	jump := &res.Blocks[0][len(res.Blocks[0])-1]
	loop0, loop1 := res.Uses(&res.Blocks[1][0]), res.Uses(&res.Blocks[1][1])
	if b := res.Before(jump); len(b) != 1 || !b[0].Src.IsSlot() || b[0].Dst != loop0[0] {
		t.Fatalf("entry's jump has edits %v; want one reload into %v, the loop's register", b, loop0[0])
	}
	if loop0[0] != loop1[0] {
		t.Errorf("the loop reads v4 from %v and %v; want one register", loop0[0], loop1[0])
	}
	// A missing reload of the copy is caught.
	dropBefore(jump)
	if err := Check(f, res); err == nil || !strings.Contains(err.Error(), "block 1, instruction 0") {
		t.Fatalf("check of the allocation without the loop's reload: %v; want an error at block 1, instruction 0", err)
	}
}

// TestSplitReverted: where the loop has no register for the copy, the
// next round spills it and the loop's reads reload from v4's slot each.
func TestSplitReverted(t *testing.T) {
	f := splitFunc(true)
	res, err := Allocate(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(f, res); err != nil {
		t.Fatal(err)
	}
	if res.Split != 0 {
		t.Fatalf("split %d; want 0", res.Split)
	}
	for i := range res.Blocks[1] {
		uses := f.Uses(&f.Blocks[1].Instrs[i])
		reads4 := len(uses) == 1 && uses[0] == 4
		if b := res.Before(&res.Blocks[1][i]); reads4 != (len(b) == 1) {
			t.Errorf("loop instruction %d has reloads %v; want one before each read of v4, none elsewhere", i, b)
		}
	}
}
