package regalloc

import (
	"slices"
	"testing"
)

// allocChecked allocates f and requires Check to accept the result.
func allocChecked(t *testing.T, f *Func) *Result {
	t.Helper()
	res, err := Allocate(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(f, res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSpillBeforePressure: v3, written and read before the point where
// three registers are live on a machine of two (v5's write), is spilled
// there, as it ends last; its temporaries before that point keep its
// register (r1), stored after the write and reloaded before the read,
// and its read after reloads into a register free there.
func TestSpillBeforePressure(t *testing.T) {
	f := &Func{NumPhys: 3, Allocatable: []Reg{1, 2}}
	f.Blocks = []Block{f.block(nil,
		ti{Defs: []Reg{3}},    // I0
		ti{Uses: []Reg{3}},    // I1
		ti{Defs: []Reg{4}},    // I2
		ti{Defs: []Reg{5}},    // I3: v3, v4 and v5 live
		ti{Uses: []Reg{4, 5}}, // I4
		ti{Uses: []Reg{3}},    // I5
	)}
	res := allocChecked(t, f)
	if res.Spilled != 1 || res.Slots != 1 {
		t.Fatalf("spilled %d in %d slots; want 1 in 1", res.Spilled, res.Slots)
	}
	ps := res.Blocks[0]
	slot := SlotLoc(0)
	if d, a := res.Defs(&ps[0]), res.After(&ps[0]); d[0] != 1 || !slices.Equal(a, []Edit{{Dst: slot, Src: 1}}) {
		t.Errorf("I0 writes %v, then %v; want r1, then a store of r1", d, a)
	}
	if u, b := res.Uses(&ps[1]), res.Before(&ps[1]); u[0] != 1 || !slices.Equal(b, []Edit{{Dst: 1, Src: slot}}) {
		t.Errorf("I1 reads %v after %v; want r1 after its reload", u, b)
	}
	if d := res.Defs(&ps[3]); d[0] != 1 {
		t.Errorf("v5 got %v; want v3's r1", d[0])
	}
	if u, b := res.Uses(&ps[5]), res.Before(&ps[5]); len(b) != 1 || b[0].Src != slot || b[0].Dst != u[0] {
		t.Errorf("I5 reads %v after %v; want a reload from the slot", u, b)
	}
}

// TestSpillStraddling: v3 is read and written by I2 (two-address), which
// also writes v6, where no register is free (v3 in r1, v4 in r2); v3 ends
// last and is spilled, but its temporary in I2 holds r1 from the read to
// the write, so v6 takes the register of a second victim, v4; the checker
// accepts it.
func TestSpillStraddling(t *testing.T) {
	f := &Func{NumPhys: 3, Allocatable: []Reg{1, 2}}
	f.Blocks = []Block{f.block(nil,
		ti{Defs: []Reg{3}},                    // I0
		ti{Defs: []Reg{4}},                    // I1
		ti{Uses: []Reg{3}, Defs: []Reg{3, 6}}, // I2
		ti{Uses: []Reg{6}},                    // I3
		ti{Uses: []Reg{4}},                    // I4
		ti{Uses: []Reg{3}},                    // I5
	)}
	res := allocChecked(t, f)
	if res.Spilled != 2 {
		t.Fatalf("spilled %d; want 2 (v3, then v4)", res.Spilled)
	}
	p := &res.Blocks[0][2]
	if u, d := res.Uses(p), res.Defs(p); u[0] != 1 || d[0] != 1 || d[1] != 2 {
		t.Errorf("I2 reads %v and writes %v; want v3 in r1 both times and v6 in r2", u, d)
	}
}

// TestSpillMoveTemporary: a Move copies v3 before the point where v3 is
// spilled (v6's write), while v3 is live: into v7, which got the other
// register, r2, or into physical register r1 (as into rcx for a
// division), whose segment starts at the Move's write. The Move's
// temporary of v3 takes the destination's register rather than v3's,
// free at the read, and the Move is coalesced (it reloads v3 there).
func TestSpillMoveTemporary(t *testing.T) {
	for _, dst := range []Reg{7, 1} {
		want := Loc(2) // v7's
		if dst == 1 {
			want = 1
		}
		f := &Func{NumPhys: 3, Allocatable: []Reg{1, 2}}
		f.Blocks = []Block{f.block(nil,
			ti{Defs: []Reg{3}}, // I0
			ti{Uses: []Reg{3}, Defs: []Reg{dst}, Move: true}, // I1
			ti{Uses: []Reg{dst}},                             // I2
			ti{Defs: []Reg{5}},                               // I3
			ti{Defs: []Reg{6}},                               // I4: v3, v5 and v6 live
			ti{Uses: []Reg{5, 6}},                            // I5
			ti{Uses: []Reg{3}},                               // I6
		)}
		res := allocChecked(t, f)
		if res.Spilled != 1 {
			t.Fatalf("into %d: spilled %d; want 1", dst, res.Spilled)
		}
		p := &res.Blocks[0][1]
		if u, d, b := res.Uses(p), res.Defs(p), res.Before(p); u[0] != want || d[0] != want || !slices.Equal(b, []Edit{{Dst: want, Src: SlotLoc(0)}}) {
			t.Errorf("into %d: the Move reads %v and writes %v after %v; want %v both, reloaded from slot0", dst, u, d, b, want)
		}
		if res.Coalesced != 1 || res.Moves != 0 {
			t.Errorf("into %d: moves left %d, coalesced %d; want 0 and 1", dst, res.Moves, res.Coalesced)
		}
	}
}
