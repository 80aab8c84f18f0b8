package regalloc

import (
	"fmt"
	"testing"
)

// hi is a hand-allocated instruction: its registers, the location of each
// (the uses' then the defs'), and its edits.
type hi struct {
	uses, defs    []Reg
	at            []Loc
	before, after []Edit
	jump          Jump
	dead          bool // dropped (and Pure)
}

// hb is a hand-allocated block.
type hb struct {
	succs []int
	ins   []hi
}

// handCase makes the function and the allocation blocks describe, on a
// machine of 3 registers (r1 and r2 allocatable) with slots stack slots.
func handCase(slots int, blocks []hb) (*Func, *Result) {
	f := &Func{NumPhys: 3, Allocatable: []Reg{1, 2},
		Describe: func(b, i int) string { return fmt.Sprintf("I%d", i) }}
	res := &Result{Slots: slots}
	for _, hb := range blocks {
		blk := Block{Succs: hb.succs}
		var ps []Placed
		for _, in := range hb.ins {
			blk.Instrs = append(blk.Instrs, f.instr(ti{Uses: in.uses, Defs: in.defs, Branch: in.jump != NoJump, Pure: in.dead}))
			blk.Instrs[len(blk.Instrs)-1].Jump = in.jump
			ps = append(ps, Placed{Dead: in.dead, nu: uint8(len(in.uses)), nd: uint8(len(in.defs)),
				loc: int32(len(res.locs)), edit: int32(len(res.edits)),
				nb: int32(len(in.before)), na: int32(len(in.after))})
			res.locs = append(res.locs, in.at...)
			res.edits = append(append(res.edits, in.before...), in.after...)
		}
		f.Blocks = append(f.Blocks, blk)
		res.Blocks = append(res.Blocks, ps)
	}
	return f, res
}

// TestCheckSlotsBound: Check rejects an allocation with more slots than
// the marks of checker.only leave locations for, or fewer than none,
// before making anything of that size; maxSlots itself passes the bound
// (NewChecker goes on to the instructions).
func TestCheckSlotsBound(t *testing.T) {
	for _, slots := range []int{maxSlots + 1, -1} {
		f, res := handCase(slots, []hb{{nil, []hi{{defs: []Reg{3}, at: []Loc{1}}}}})
		want := fmt.Sprintf("regalloc check: %d slots", slots)
		if err := Check(f, res); err == nil || err.Error() != want {
			t.Errorf("%d slots: got %v, want %q", slots, err, want)
		}
	}
	f, res := handCase(maxSlots, []hb{{nil, []hi{{defs: []Reg{3}, at: []Loc{SlotLoc(maxSlots - 1)}}}}})
	want := "regalloc check: block 0, instruction 0 (I0): v3 is in slot2147483645, not a register"
	if _, err := NewChecker(f, res); err == nil || err.Error() != want {
		t.Errorf("%d slots: got %v, want %q", maxSlots, err, want)
	}
}

// TestCheckHand: allocations made by hand, each correct one accepted and
// its broken twin rejected with the exact message. They reach the
// checker's paths one by one: a slot made stale when its register is
// written again, a register written again in the one location it has
// been in (no kill) and then in others (kills), the meet of registers
// and of slots where paths join, a loop's back edge, an edit naming a
// slot that does not exist, and the ways out of a block: a reload after
// a jump into a loop (it runs on the fall-through only), a reload after
// a jump away to a stub (it runs on the way on), a jump to a successor
// the block does not have; and a dropped instruction with moves, which
// lowering would not emit.
func TestCheckHand(t *testing.T) {
	v3, v4 := Reg(3), Reg(4)
	r1, r2, s0 := Loc(1), Loc(2), SlotLoc(0)
	def := func(r Reg, l Loc, after ...Edit) hi { return hi{defs: []Reg{r}, at: []Loc{l}, after: after} }
	use := func(r Reg, l Loc, before ...Edit) hi { return hi{uses: []Reg{r}, at: []Loc{l}, before: before} }
	jump := func(j Jump, before, after []Edit) hi { return hi{jump: j, before: before, after: after} }
	reload := []Edit{{r2, s0}}
	for _, tt := range []struct {
		name      string
		slots     int
		good, bad []hb
		want      string
	}{
		{"slot stale once its register is written again", 1,
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), def(v3, r2, Edit{s0, r2}), use(v3, r1, Edit{r1, s0})}}},
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), def(v3, r2), use(v3, r1, Edit{r1, s0})}}},
			"regalloc check: block 0, instruction 2 (I2): reads v3 from r1, which holds nothing known"},
		{"register stale once its register is written again", 1,
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), {defs: []Reg{v3}, at: []Loc{r1}, before: []Edit{{r2, s0}}}, use(v3, r1)}}},
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), {defs: []Reg{v3}, at: []Loc{r1}, before: []Edit{{r2, s0}}}, use(v3, r2)}}},
			"regalloc check: block 0, instruction 2 (I2): reads v3 from r2, which holds nothing known"},
		// A write of a register to the one location it has ever been
		// in forgets nothing (checker.only); a write to a second one
		// forgets the first, and from then on every write forgets.
		{"a register written again in its one location, then in a second", 0,
			[]hb{{nil, []hi{def(v3, r1), def(v3, r1), use(v3, r1), def(v3, r2), use(v3, r2)}}},
			[]hb{{nil, []hi{def(v3, r1), def(v3, r1), use(v3, r1), def(v3, r2), use(v3, r1)}}},
			"regalloc check: block 0, instruction 4 (I4): reads v3 from r1, which holds nothing known"},
		{"a register back in its first location, once in two", 0,
			[]hb{{nil, []hi{def(v3, r1), def(v3, r2), def(v3, r1), use(v3, r1)}}},
			[]hb{{nil, []hi{def(v3, r1), def(v3, r2), def(v3, r1), use(v3, r2)}}},
			"regalloc check: block 0, instruction 3 (I3): reads v3 from r2, which holds nothing known"},
		{"register clobbered on one path to a join", 0,
			[]hb{
				{[]int{1, 2}, []hi{def(v3, r1)}},
				{[]int{3}, []hi{def(v4, r2), use(v4, r2)}},
				{[]int{3}, []hi{use(v3, r1)}},
				{nil, []hi{use(v3, r1)}}},
			[]hb{
				{[]int{1, 2}, []hi{def(v3, r1)}},
				{[]int{3}, []hi{def(v4, r1), use(v4, r1)}},
				{[]int{3}, []hi{use(v3, r1)}},
				{nil, []hi{use(v3, r1)}}},
			"regalloc check: block 3, instruction 0 (I0): reads v3 from r1, which holds nothing known"},
		{"slot stored on one path to a join", 1,
			[]hb{
				{[]int{1, 2}, []hi{def(v3, r1, Edit{s0, r1})}},
				{[]int{3}, []hi{def(v4, r1)}},
				{[]int{3}, nil},
				{nil, []hi{use(v3, r2, Edit{r2, s0})}}},
			[]hb{
				{[]int{1, 2}, []hi{def(v3, r1)}},
				{[]int{3}, []hi{def(v4, r2, Edit{s0, r1})}},
				{[]int{3}, nil},
				{nil, []hi{use(v3, r2, Edit{r2, s0})}}},
			"regalloc check: block 3, instruction 0 (I0): reads v3 from r2, which holds nothing known"},
		{"register clobbered around a loop's back edge", 0,
			[]hb{
				{[]int{1}, []hi{def(v3, r1)}},
				{[]int{1, 2}, []hi{use(v3, r1), def(v4, r2)}},
				{nil, []hi{use(v3, r1)}}},
			[]hb{
				{[]int{1}, []hi{def(v3, r1)}},
				{[]int{1, 2}, []hi{use(v3, r1), def(v4, r1)}},
				{nil, []hi{use(v4, r1)}}},
			"regalloc check: block 1, instruction 0 (I0): reads v3 from r1, which holds nothing known"},
		{"an edit names a slot that does not exist", 1,
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), use(v3, r2, Edit{r2, s0})}}},
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), use(v3, r2, Edit{r2, SlotLoc(5)})}}},
			"regalloc check: block 0, instruction 1 (I1): slot5: only 1 slots"},
		// Block 0 jumps into the loop, block 2, and falls through to its
		// exit, block 1: v3, spilled to s0 before r1 is written again,
		// is reloaded into r2 for the loop before the jump; after it, the
		// reload runs on the way to the exit only.
		{"a reload after a jump into a loop", 1,
			[]hb{
				{[]int{2, 1}, []hi{def(v3, r1, Edit{s0, r1}), def(v4, r1), jump(JumpTo(0), reload, nil)}},
				{nil, []hi{use(v4, r1)}},
				{[]int{2, 1}, []hi{use(v3, r2), jump(JumpTo(0), nil, nil), jump(JumpTo(1), nil, nil)}}},
			[]hb{
				{[]int{2, 1}, []hi{def(v3, r1, Edit{s0, r1}), def(v4, r1), jump(JumpTo(0), nil, reload)}},
				{nil, []hi{use(v4, r1)}},
				{[]int{2, 1}, []hi{use(v3, r2), jump(JumpTo(0), nil, nil), jump(JumpTo(1), nil, nil)}}},
			"regalloc check: block 2, instruction 0 (I0): reads v3 from r2, which holds v2"},
		// A reload after a jump away (a division's stub) runs on the way
		// on, to the block's end and its successor; a jump to that
		// successor in its place leaves the reload behind.
		{"a reload after a jump away", 1,
			[]hb{
				{[]int{1}, []hi{def(v3, r1, Edit{s0, r1}), def(v4, r1), jump(JumpAway, nil, reload), use(v4, r1)}},
				{nil, []hi{use(v3, r2)}}},
			[]hb{
				{[]int{1}, []hi{def(v3, r1, Edit{s0, r1}), def(v4, r1), jump(JumpTo(0), nil, reload)}},
				{nil, []hi{use(v3, r2)}}},
			"regalloc check: block 1, instruction 0 (I0): reads v3 from r2, which holds v2"},
		{"a jump to a successor the block does not have", 0,
			[]hb{{[]int{1}, []hi{def(v3, r1), jump(JumpTo(0), nil, nil)}}, {nil, []hi{use(v3, r1)}}},
			[]hb{{[]int{1}, []hi{def(v3, r1), jump(JumpTo(1), nil, nil)}}, {nil, []hi{use(v3, r1)}}},
			"regalloc check: block 0, instruction 1 (I1): jumps to successor 1, the block has 1"},
		{"a dropped instruction with moves", 1,
			[]hb{{nil, []hi{def(v3, r1, Edit{s0, r1}), {defs: []Reg{v4}, dead: true}, use(v3, r2, Edit{r2, s0})}}},
			[]hb{{nil, []hi{def(v3, r1), {defs: []Reg{v4}, dead: true, after: []Edit{{s0, r1}}}, use(v3, r2, Edit{r2, s0})}}},
			"regalloc check: block 0, instruction 1 (I1): dropped, but it has moves"},
		{"a dropped instruction that jumps", 0,
			[]hb{{[]int{1}, []hi{def(v3, r1), {defs: []Reg{v4}, dead: true}, jump(JumpTo(0), nil, nil)}}, {nil, []hi{use(v3, r1)}}},
			[]hb{{[]int{1}, []hi{def(v3, r1), {defs: []Reg{v4}, dead: true, jump: JumpTo(0)}}}, {nil, []hi{use(v3, r1)}}},
			"regalloc check: block 0, instruction 1 (I1): dropped, but it jumps"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := Check(handCase(tt.slots, tt.good)); err != nil {
				t.Fatalf("the correct allocation is rejected: %v", err)
			}
			err := Check(handCase(tt.slots, tt.bad))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}
