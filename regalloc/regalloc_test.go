package regalloc

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// randomFunc builds a function of nb blocks over nv virtual registers on a
// machine of 5 registers (0 is only ever used as a fixed register, as
// amd64's rax around a division): each block reads and writes random
// registers, some instructions copy one register to another, some use
// register 0 as a fixed operand, and blocks branch forward and back.
func randomFunc(rng *rand.Rand, nb, nv int) *Func {
	const np = 5
	f := &Func{NumPhys: np, Allocatable: []Reg{1, 2, 3, 4}}
	v := func() Reg { return Reg(np + rng.Intn(nv)) }
	// The entry defines every register, so that every use is defined.
	var entry Block
	for r := range nv {
		entry.Instrs = append(entry.Instrs, f.instr(ti{Defs: []Reg{Reg(np + r)}, Pure: true}))
	}
	f.Blocks = append(f.Blocks, entry)
	for b := 1; b < nb; b++ {
		var blk Block
		for range 1 + rng.Intn(8) {
			switch rng.Intn(5) {
			case 0:
				blk.Instrs = append(blk.Instrs, f.instr(ti{Uses: []Reg{v()}, Defs: []Reg{v()}, Move: true, Pure: true}))
			case 1: // through fixed register 0
				a, d := v(), v()
				blk.Instrs = append(blk.Instrs,
					f.instr(ti{Uses: []Reg{a}, Defs: []Reg{0}, Move: true}),
					f.instr(ti{Uses: []Reg{0, v()}, Defs: []Reg{0}}),
					f.instr(ti{Uses: []Reg{0}, Defs: []Reg{d}, Move: true}))
			case 2: // two-address
				d := v()
				blk.Instrs = append(blk.Instrs, f.instr(ti{Uses: []Reg{d, v()}, Defs: []Reg{d}}))
			default:
				blk.Instrs = append(blk.Instrs, f.instr(ti{Uses: []Reg{v(), v()}, Defs: []Reg{v()}, Pure: true}))
			}
		}
		f.Blocks = append(f.Blocks, blk)
	}
	// Every block reads everything at the end of the function: a final
	// block uses all registers.
	var exit Block
	for r := range nv {
		exit.Instrs = append(exit.Instrs, f.instr(ti{Uses: []Reg{Reg(np + r)}}))
	}
	f.Blocks = append(f.Blocks, exit)
	n := len(f.Blocks)
	f.Blocks[0].Succs = []int{1}
	for b := 1; b < n-1; b++ {
		f.Blocks[b].Succs = []int{b + 1}
		if rng.Intn(3) == 0 {
			f.Blocks[b].Succs = append(f.Blocks[b].Succs, 1+rng.Intn(n-2))
		}
	}
	return f
}

// TestAllocateChecked: on random functions with more registers live than
// the machine has, the allocation spills and the checker accepts it.
func TestAllocateChecked(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	spilled, split := 0, 0
	for k := range 300 {
		f := randomFunc(rng, 2+rng.Intn(10), 1+rng.Intn(12))
		res, err := Allocate(f)
		if err != nil {
			t.Fatalf("function %d: %v", k, err)
		}
		if err := Check(f, res); err != nil {
			t.Fatalf("function %d: %v", k, err)
		}
		spilled += res.Spilled
		split += res.Split
	}
	if spilled == 0 || split == 0 {
		t.Fatalf("%d registers spilled, %d split around a loop: the test does not exercise spilling and splitting", spilled, split)
	}
}

// TestCoalesce: a chain of moves whose sides do not overlap gets one
// register, and the moves become no-ops.
func TestCoalesce(t *testing.T) {
	f := &Func{NumPhys: 3, Allocatable: []Reg{1, 2}}
	f.Blocks = []Block{f.block(nil,
		ti{Uses: []Reg{0}, Defs: []Reg{3}, Move: true},
		ti{Uses: []Reg{3}, Defs: []Reg{4}, Move: true},
		ti{Uses: []Reg{4, 4}, Defs: []Reg{4}},
		ti{Uses: []Reg{4}, Defs: []Reg{5}, Move: true},
		ti{Uses: []Reg{5}, Defs: []Reg{0}, Move: true},
		ti{Uses: []Reg{0}},
	)}
	res, err := Allocate(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(f, res); err != nil {
		t.Fatal(err)
	}
	// 0 is not allocatable, so the moves from and to it stay; the two
	// between virtual registers go.
	if res.Moves != 2 || res.Coalesced != 2 {
		t.Fatalf("moves left %d, coalesced %d; want 2 and 2", res.Moves, res.Coalesced)
	}
}

// spillingCase is a function that must spill: registers 3..7 are live
// together on a machine with two allocatable registers.
func spillingCase(t *testing.T) (*Func, *Result) {
	t.Helper()
	f := &Func{NumPhys: 3, Allocatable: []Reg{1, 2},
		Describe: func(b, i int) string { return fmt.Sprintf("I%d", i) }}
	var b Block
	for r := Reg(3); r < 8; r++ {
		b.Instrs = append(b.Instrs, f.instr(ti{Defs: []Reg{r}}))
	}
	for r := Reg(3); r < 8; r++ {
		b.Instrs = append(b.Instrs, f.instr(ti{Uses: []Reg{r}}))
	}
	f.Blocks = []Block{b}
	res, err := Allocate(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(f, res); err != nil {
		t.Fatal(err)
	}
	if res.Spilled == 0 {
		t.Fatal("nothing spilled")
	}
	return f, res
}

// TestCheckRejects: hand-broken allocations, each fault of the catalogue,
// are rejected with the instruction named.
func TestCheckRejects(t *testing.T) {
	for _, tt := range []struct {
		name   string
		break_ func(f *Func, res *Result) bool
		want   string
	}{
		{"clobbered live register", func(f *Func, res *Result) bool {
			// The first instruction that writes a register: make the
			// second write the same register, clobbering the first.
			ps := res.Blocks[0]
			if len(res.Defs(&ps[0])) == 0 || len(res.Defs(&ps[1])) == 0 {
				return false
			}
			res.Defs(&ps[1])[0] = res.Defs(&ps[0])[0]
			ps[1].na = 0
			ps[0].na = 0
			return true
		}, "which holds"},
		{"missing reload", func(f *Func, res *Result) bool {
			for i := range res.Blocks[0] {
				if p := &res.Blocks[0][i]; len(res.Before(p)) > 0 {
					dropBefore(p)
					return true
				}
			}
			return false
		}, "which holds"},
		{"wrong spill slot", func(f *Func, res *Result) bool {
			if res.Slots < 2 {
				return false
			}
			for i := range res.Blocks[0] {
				if p := &res.Blocks[0][i]; len(res.Before(p)) > 0 {
					e := &res.Before(p)[0]
					e.Src = SlotLoc((e.Src.Slot() + 1) % res.Slots)
					return true
				}
			}
			return false
		}, "which holds"},
		{"store to the wrong slot", func(f *Func, res *Result) bool {
			if res.Slots < 2 {
				return false
			}
			for i := range res.Blocks[0] {
				if p := &res.Blocks[0][i]; len(res.After(p)) > 0 {
					e := &res.After(p)[0]
					e.Dst = SlotLoc((e.Dst.Slot() + 1) % res.Slots)
					return true
				}
			}
			return false
		}, "I"},
		{"physical register moved", func(f *Func, res *Result) bool {
			f.Blocks[0].Instrs[0] = f.instr(ti{Uses: []Reg{0}, Defs: f.Defs(&f.Blocks[0].Instrs[0])})
			setUses(res, &res.Blocks[0][0], 1)
			return true
		}, "physical"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, res := spillingCase(t)
			if !tt.break_(f, res) {
				t.Fatal("the case has nothing to break")
			}
			err := Check(f, res)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "instruction") {
				t.Fatalf("error %q; want it to name the instruction and say %q", err, tt.want)
			}
			t.Log(err)
		})
	}
}

// dropBefore removes the edits before p's instruction, as a broken
// allocator would leave them out.
func dropBefore(p *Placed) { p.edit, p.nb = p.edit+p.nb, 0 }

// setUses makes p read uses, keeping its defs.
func setUses(res *Result, p *Placed, uses ...Loc) {
	defs := res.Defs(p)
	p.loc, p.nu = int32(len(res.locs)), uint8(len(uses))
	res.locs = append(append(res.locs, uses...), defs...)
}

// TestTooManyOperands: an instruction with more uses than a Placed counts
// is rejected, naming it, not allocated with its uses cut short.
func TestTooManyOperands(t *testing.T) {
	uses := make([]Reg, maxOperands+1)
	for k := range uses {
		uses[k] = Reg(16 + k)
	}
	var ins []ti
	for _, r := range uses {
		ins = append(ins, ti{Defs: []Reg{r}})
	}
	ins = append(ins, ti{Uses: uses, Branch: true})
	f := &Func{NumPhys: 16, Allocatable: []Reg{0, 1, 2}}
	f.Blocks = []Block{f.block(nil, ins...)}
	_, err := Allocate(f)
	want := fmt.Sprintf("regalloc: block 0 instruction %d: more than 255 uses or defs", len(uses))
	if err == nil || err.Error() != want {
		t.Fatalf("error %v; want %q", err, want)
	}
}

// TestNewInstrTooLong: NewInstr given more uses than an Instr counts adds
// none of them and makes an instruction Allocate rejects, not one that
// silently reads nothing.
func TestNewInstrTooLong(t *testing.T) {
	f := &Func{NumPhys: 16, Allocatable: []Reg{0, 1, 2}}
	uses := make([]Reg, math.MaxUint16+1)
	in := f.NewInstr(uses, nil)
	if in.Off != -1 || len(f.Regs) != 0 {
		t.Fatalf("NewInstr of %d uses: Off %d, %d registers added; want -1 and none", len(uses), in.Off, len(f.Regs))
	}
	in.Branch = true
	f.Blocks = []Block{{Instrs: []Instr{in}}}
	_, err := Allocate(f)
	want := "regalloc: block 0 instruction 0: too many registers for one instruction (NewInstr refused them)"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v; want %q", err, want)
	}
}

// ti is an instruction of a test's function as the test writes it, its
// registers in lists of their own.
type ti struct {
	Uses, Defs         []Reg
	Move, Pure, Branch bool
}

// instr adds in's registers to f.Regs and returns it as an Instr of f.
func (f *Func) instr(in ti) Instr {
	r := f.NewInstr(in.Uses, in.Defs)
	r.Move, r.Pure, r.Branch = in.Move, in.Pure, in.Branch
	return r
}

// block is a block of f going to succs, of the instructions ins.
func (f *Func) block(succs []int, ins ...ti) Block {
	b := Block{Succs: succs}
	for _, in := range ins {
		b.Instrs = append(b.Instrs, f.instr(in))
	}
	return b
}

// TestMentions: on random functions, the blocks listed for each register
// cover every instruction mentioning it (checkMentions), as spilling walks
// only those; and the check rejects a list that lacks a block.
func TestMentions(t *testing.T) {
	// live is f's allocator after its liveness, whose lists are checked.
	live := func(f *Func, what string) *alloc {
		a := &alloc{f: f}
		if err := a.init(); err != nil {
			t.Fatal(err)
		}
		a.dropDead()
		a.liveness()
		if err := a.checkMentions(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return a
	}
	rng := rand.New(rand.NewSource(2))
	for k := range 200 {
		live(randomFunc(rng, 2+rng.Intn(10), 1+rng.Intn(12)), fmt.Sprintf("function %d", k))
	}

	f := randomFunc(rand.New(rand.NewSource(3)), 6, 8)
	a := live(f, "the lists")
	// Drop the block listed last for the register the last block reads
	// first (the exit reads every register), and find where that block
	// mentions it first.
	b := len(f.Blocks) - 1
	r := f.Uses(&f.Blocks[b].Instrs[0])[0]
	if got := a.ment[a.mhead[r]].blk; got != int32(b) {
		t.Fatalf("v%d: block %d listed last, want %d", r, got, b)
	}
	a.mhead[r] = a.ment[a.mhead[r]].next
	want := fmt.Sprintf("regalloc: block %d instruction 0: v%d is mentioned, and the block is not listed for it", b, r)
	if err := a.checkMentions(); err == nil || err.Error() != want {
		t.Fatalf("a list without block %d: got %v, want %q", b, err, want)
	}
}

// checkMentions checks that the block of every live instruction that
// reads or writes a virtual register is among the blocks listed for it
// (mhead, ment), which spilling walks instead of the whole code.
func (a *alloc) checkMentions() error {
	np := a.f.NumPhys
	listed := map[[2]int32]bool{} // {register, block}
	var in []int32
	for r := np; r < a.nregs; r++ {
		in = a.mentionedIn(Reg(r), in[:0])
		for _, b := range in {
			listed[[2]int32{int32(r), b}] = true
		}
	}
	for b := range a.f.Blocks {
		for wi := a.bw[b]; wi < a.bw[b+1]; wi++ {
			w, i := &a.w[wi], wi-a.bw[b]
			if w.dead() {
				continue
			}
			for _, r := range a.regs[w.off : w.off+int32(w.nu)+int32(w.nd)] {
				if int(r) >= np && !listed[[2]int32{int32(r), int32(b)}] {
					return fmt.Errorf("regalloc: block %d instruction %d: v%d is mentioned, and the block is not listed for it", b, i, r)
				}
			}
		}
	}
	return nil
}

// TestOneRunAccessors: Func.Operands is Uses then Defs, Result.Locs is
// Result.Uses then Defs, and Result.Edits is Before then After with the
// count of Before, for every instruction of an allocation that spills
// (so that edits are met), and Operands refuses registers out of f.Regs.
func TestOneRunAccessors(t *testing.T) {
	f, res := spillingCase(t)
	edits := 0
	for b := range f.Blocks {
		for i := range f.Blocks[b].Instrs {
			in, p := &f.Blocks[b].Instrs[i], &res.Blocks[b][i]
			if got, want := f.Operands(in), append(slices.Clone(f.Uses(in)), f.Defs(in)...); !slices.Equal(got, want) {
				t.Errorf("I%d: Operands %v, want %v", i, got, want)
			}
			if p.Dead {
				continue
			}
			if got, want := res.Locs(p), append(slices.Clone(res.Uses(p)), res.Defs(p)...); !slices.Equal(got, want) {
				t.Errorf("I%d: Locs %v, want %v", i, got, want)
			}
			got, nb := res.Edits(p)
			if want := append(slices.Clone(res.Before(p)), res.After(p)...); !slices.Equal(got, want) || nb != len(res.Before(p)) {
				t.Errorf("I%d: Edits %v with %d before, want %v with %d", i, got, nb, want, len(res.Before(p)))
			}
			edits += len(got)
		}
	}
	if edits == 0 {
		t.Fatal("the allocation has no edits to compare")
	}
	if got := f.Operands(&Instr{Off: int32(len(f.Regs)), NU: 1}); got != nil {
		t.Errorf("Operands past f.Regs: %v, want none", got)
	}
}

// TestAllocateLeavesInput: Allocate works on f.Regs itself until it first
// renames a register (ownRegs), and never changes them: Check, which
// reads f, must see the input's registers. On random functions, many of
// which spill (renaming and rewriting), f.Regs and every instruction are
// as before, and the allocation that spills is still checked right.
func TestAllocateLeavesInput(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	spilled := 0
	for k := range 200 {
		f := randomFunc(rng, 2+rng.Intn(10), 1+rng.Intn(24))
		regs := slices.Clone(f.Regs)
		instrs := make([][]Instr, len(f.Blocks))
		for b := range f.Blocks {
			instrs[b] = slices.Clone(f.Blocks[b].Instrs)
		}
		res, err := Allocate(f)
		if err != nil {
			t.Fatalf("function %d: %v", k, err)
		}
		if !slices.Equal(f.Regs, regs) {
			t.Fatalf("function %d: Allocate changed f.Regs", k)
		}
		for b := range f.Blocks {
			if !slices.Equal(f.Blocks[b].Instrs, instrs[b]) {
				t.Fatalf("function %d: Allocate changed block %d's instructions", k, b)
			}
		}
		if err := Check(f, res); err != nil {
			t.Fatalf("function %d: %v", k, err)
		}
		if res.Spilled > 0 {
			spilled++
		}
	}
	if spilled < 20 {
		t.Fatalf("%d of 200 functions spilled: too few to test the renames", spilled)
	}
	t.Logf("%d of 200 functions spilled", spilled)
}
