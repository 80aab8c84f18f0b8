package amd64

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"son/cfg"
)

// iselRTL divides by constants (a magic number, a power of two), by a
// register with and without a Check before it, subtracts and compares.
const iselRTL = `func t level RTL
b1:
	v1 = Arg
	v2 = Mul v1 v1
	v3 = Sub v1 v2
	v4 = Const 7
	v5 = Div v3 v4
	v6 = Const 4
	v7 = Div v5 v6
	v8 = Lt v7 v2
	branch v8 b2 b3
b2:
	v9 = Mod v1 v2
	return v9
b3:
	check v2          ; line 5:9
	v10 = Div v1 v2
	return v10
`

func selectRTL(t *testing.T, text string) (*cfg.Func, *VFunc) {
	t.Helper()
	f, err := cfg.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Verify(f); err != nil {
		t.Fatal(err)
	}
	vf, err := Select(f, "t.smp")
	if err != nil {
		t.Fatal(err)
	}
	return f, vf
}

// TestCheckSelectionRejects: CheckSelection accepts the selection of
// iselRTL and rejects it broken by hand, each time naming the RTL block
// and what is wrong.
func TestCheckSelectionRejects(t *testing.T) {
	f, vf := selectRTL(t, iselRTL)
	if err := CheckSelection(f, vf, "t.smp"); err != nil {
		t.Fatalf("the right selection: %v", err)
	}
	// find returns the block and index of the first instruction of op
	// whose printed text is want.
	find := func(vf *VFunc, want string) (int, int) {
		for b, blk := range vf.Blocks {
			for i := range blk.Insts {
				if blk.Insts[i].text(vf) == want {
					return b, i
				}
			}
		}
		t.Fatalf("no %q in\n%v", want, vf)
		return 0, 0
	}
	cases := []struct {
		name   string
		inst   string // the instruction to break
		change func(vf *VFunc, in *VInst, b, i int)
		want   []string
	}{
		{"add for sub", "sub v3, v2", func(_ *VFunc, in *VInst, _, _ int) { in.Op = ADD },
			[]string{"b1 (machine block 1)", "the RTL branches on"}},
		{"cmp operands swapped", "cmp v7, v2", func(_ *VFunc, in *VInst, _, _ int) { in.Dst, in.Src = in.Src, in.Dst },
			[]string{"b1 (machine block 1)", "a path to machine block", "(by machine block 1 instruction 22 (jge .b6))", "the RTL branches on lt("}},
		{"wrong condition", "jge .b6", func(_ *VFunc, in *VInst, _, _ int) { in.Cond = CondG },
			[]string{"b1 (machine block 1)", "is taken when lt(mul(arg, arg), div(", "the RTL branches on lt(div(div("}},
		{"wrong magic number", "movabs rax, 0x4924924924924925", func(_ *VFunc, in *VInst, _, _ int) { in.Src.Imm += 2 },
			[]string{"b1 (machine block 1)", "mulhi(", "the RTL branches on lt(div(div((arg + -1*mul(arg, arg)), 7), 4)"}},
		{"wrong shift", "sar rdx, 0x1", func(_ *VFunc, in *VInst, _, _ int) { in.Src.Imm = 2 },
			[]string{"b1 (machine block 1)", "div(div((arg + -1*mul(arg, arg)), 14), 4)"}},
		{"missing sign fix-up", "sub rdx, t6", func(vf *VFunc, _ *VInst, b, i int) {
			vf.Blocks[b].Insts = slices.Delete(vf.Blocks[b].Insts, i, i+1)
		}, []string{"b1 (machine block 1)", "div(sar(mulhi("}},
		{"missing power-of-two fix-up", "add t10, v5", func(vf *VFunc, _ *VInst, b, i int) {
			vf.Blocks[b].Insts = slices.Delete(vf.Blocks[b].Insts, i, i+1)
		}, []string{"b1 (machine block 1)", "sar(shr("}},
		{"wrong stub position", "je divzero", func(vf *VFunc, _ *VInst, _, _ int) {
			vf.Stubs[0] = []byte("t.smp:6:9: runtime error: division by zero\n")
		}, []string{"b3 (machine block 6)", "the check of b3 instruction 0 (check at 5:9)", `"t.smp:6:9: runtime error`, "machine block 15 instruction 0 (je divzero)"}},
		{"missing stub", "je divzero", func(_ *VFunc, in *VInst, _, _ int) { in.ToStub, in.Target, in.Cond = false, 9, CondNE },
			[]string{"b3 (machine block 6)", "the check of b3 instruction 0 (check at 5:9)", "is missing"}},
		{"MinInt / -1 not tested", "cmp rcx, -0x1", func(_ *VFunc, in *VInst, _, _ int) { in.Src.Imm = -2 },
			[]string{"b2 (machine block 2)", "machine block 11 instruction 1 (idiv rcx)", "may be MinInt / -1"}},
		{"32-bit division unguarded", "cmp rax, 0x7fffffff", func(_ *VFunc, in *VInst, _, _ int) { in.Src.Imm = -1 },
			[]string{"b2 (machine block 2)", "machine block 4 instruction 1 (div rcx)", "not proved in [0, 2^32)"}},
	}
	for _, tc := range cases {
		f, vf := selectRTL(t, iselRTL)
		b, i := find(vf, tc.inst)
		tc.change(vf, &vf.Blocks[b].Insts[i], b, i)
		err := CheckSelection(f, vf, "t.smp")
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nwants %q", tc.name, err, w)
			}
		}
	}
	// A jmp to a stub at the end of the prologue's block, where no path
	// stops: read as a jump to machine block 1 (the stub's number), it
	// was accepted, and the program stopped with the stub's message.
	f, vf = selectRTL(t, iselRTL)
	vf.Blocks[0].Insts = append(vf.Blocks[0].Insts, VInst{Op: JMP, ToStub: true, Target: 1})
	if err := CheckSelection(f, vf, "t.smp"); err == nil || !strings.Contains(err.Error(), "a jmp to a stub") {
		t.Errorf("a jmp to a stub: %v, want a jmp to a stub", err)
	}
}

// iselRTL2 divides by a negative constant and subtracts a register from
// another into the latter (d = a - d, selected as neg d; add d, a).
const iselRTL2 = `func t level RTL
b1:
	v1 = Arg
	v2 = Mul v1 v1
	v3 = Const -7
	v4 = Div v1 v3
	v2 = Sub v4 v2
	return v2
`

// TestCheckSelectionRejectsMore: the two selection faults the programs of
// the campaign do not reach (the sign fix-up of a negative divisor, the
// reversed subtraction), by hand.
func TestCheckSelectionRejectsMore(t *testing.T) {
	f, vf := selectRTL(t, iselRTL2)
	if err := CheckSelection(f, vf, "t.smp"); err != nil {
		t.Fatalf("the right selection: %v\n%v", err, vf)
	}
	blk := vf.Blocks[1]
	var fix, neg = -1, -1
	for i := range blk.Insts {
		switch in := &blk.Insts[i]; {
		case in.Op == ADD && in.Src.Kind == KindReg && vf.regName(in.Src.R)[0] == 't':
			fix = i // add q, t: q's sign bit
		case in.Op == NEG:
			neg = i
		}
	}
	if fix < 0 || neg < 0 {
		t.Fatalf("no fix-up or neg in\n%v", vf)
	}
	blk.Insts[fix].Op = SUB
	err := CheckSelection(f, vf, "t.smp")
	if err == nil || !strings.Contains(err.Error(), "b1 (machine block 1): returns") || !strings.Contains(err.Error(), "the RTL (-1*mul(arg, arg) + -1*div(arg, 7))") {
		t.Errorf("fix-up subtracted: %v", err)
	}
	f, vf = selectRTL(t, iselRTL2)
	blk = vf.Blocks[1]
	blk.Insts[neg+1].Op = SUB // neg d; add d, a -> neg d; sub d, a
	blk.Insts = slices.Delete(blk.Insts, neg, neg+1)
	err = CheckSelection(f, vf, "t.smp")
	if err == nil || !strings.Contains(err.Error(), "returns (mul(arg, arg) + div(arg, 7)) (last written by machine block 1 instruction") ||
		!strings.Contains(err.Error(), "the RTL (-1*mul(arg, arg) + -1*div(arg, 7))") {
		t.Errorf("sub d, a for d = a - d: %v", err)
	}
}

// TestCertify: certify accepts the multiplier and shift magic computes
// for divisors of every size and sign, and they give the quotient on the
// corners of the dividends; it rejects each with the multiplier or the
// shift off by one.
func TestCertify(t *testing.T) {
	tt := newTermTable()
	divisors := []int64{3, 5, 6, 7, 9, 10, 11, 12, 25, 100, 387, 641, 1000003, 1<<31 - 1, 1<<31 + 1, 1<<32 + 1, 1<<62 - 1, 1<<63 - 1}
	for _, d := range divisors {
		for _, c := range []int64{d, -d} {
			M, s := magic(c)
			sigma := int64(0)
			switch {
			case c > 0 && M < 0:
				sigma = 1
			case c < 0 && M > 0:
				sigma = -1
			}
			got, ok := tt.certify(M, s, sigma, c > 0)
			if !ok || got != c {
				t.Errorf("%d: certify(%d, %d) = %d, %v", c, M, s, got, ok)
				continue
			}
			if g, ok := tt.certify(M-1, s, sigma, c > 0); ok && g == c {
				t.Errorf("%d: M-1 certified for the same divisor", c)
			}
			if g, ok := tt.certify(M, s+1, sigma, c > 0); ok && g == c {
				t.Errorf("%d: s+1 certified for the same divisor", c)
			}
			// The quotient as the selection computes it, on the corners.
			for _, x := range []int64{0, 1, -1, d - 1, d, d + 1, -d + 1, -d, -d - 1, 1<<62 + 12345, -1 << 63, 1<<63 - 1, 1<<63 - 1 - (1<<63-1)%d, -(1<<63 - 1 - (1<<63-1)%d)} {
				hi := tt.mulHi(tt.konst(x), tt.konst(M))
				hv, _ := tt.isConst(hi)
				q := hv + sigma*x
				q >>= s
				if c > 0 {
					q += int64(uint64(x) >> 63)
				} else {
					q += int64(uint64(q) >> 63)
				}
				if want := cfg.EvalBinary(cfg.OpDiv, x, c); q != want {
					t.Errorf("%d / %d: the certified multiplier gives %d, want %d", x, c, q, want)
				}
			}
		}
	}
}

// TestCheckSelectionIdivAfterChecks: an idiv by a register no Check of
// the block guards counts on the RTL's word that its divisor is not 0 only
// once the path has passed the Checks the RTL runs before the division.
func TestCheckSelectionIdivAfterChecks(t *testing.T) {
	const text = `func t level RTL
b1:
	v1 = Arg
	v2 = Mul v1 v1
	v5 = Sub v1 v2
	check v1          ; line 3:4
	v3 = Div v2 v5
	return v3
`
	f, vf := selectRTL(t, text)
	if err := CheckSelection(f, vf, "t.smp"); err != nil {
		t.Fatalf("the right selection: %v\n%v", err, vf)
	}
	blk := vf.Blocks[1]
	i := slices.IndexFunc(blk.Insts, func(in VInst) bool { return in.ToStub })
	if i < 0 {
		t.Fatalf("no stub in\n%v", vf)
	}
	blk.Insts = slices.Delete(blk.Insts, i, i+1) // the check of v1 left out
	err := CheckSelection(f, vf, "t.smp")
	if err == nil || !strings.Contains(err.Error(), "(idiv rcx): idiv by (arg + -1*mul(arg, arg)), which may be 0") {
		t.Errorf("idiv before its block's checks: %v", err)
	}
}

// TestCheckSelectionPrologueWritesArg: a prologue that never copies rdi
// into the argument's register is rejected; the checker once took the
// register's value on entry for the argument there too.
func TestCheckSelectionPrologueWritesArg(t *testing.T) {
	f, vf := selectRTL(t, iselRTL)
	vf.Blocks[0].Insts = slices.Delete(vf.Blocks[0].Insts, 0, 1)
	err := CheckSelection(f, vf, "t.smp")
	if err == nil || !strings.Contains(err.Error(), "prologue") {
		t.Fatalf("a prologue without mov arg, rdi: got %v, want an error naming the prologue", err)
	}
}

// TestCheckSelectionEmptyStubMessage: a stub with an empty message is an
// error of the check, not a panic.
func TestCheckSelectionEmptyStubMessage(t *testing.T) {
	f, vf := selectRTL(t, iselRTL)
	vf.Stubs[0] = nil
	err := CheckSelection(f, vf, "t.smp")
	if err == nil || !strings.Contains(err.Error(), `(je divzero) with "" when eq0(v2)`) {
		t.Fatalf("a stub whose message is empty: %v, want the stub's empty message against the check's", err)
	}
}

// TestCheckSelectionManyChecks: a block of many checked divisions by
// computed values is accepted (TestCheckSelectionLinearInDivisions counts
// the cost of such blocks; docs/PERFORMANCE.md, "iselcheck14", "cons14").
func TestCheckSelectionManyChecks(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("func t level RTL\nb1:\n\tv1 = Arg\n\tv2 = Mul v1 v1\n")
	r, prev := 3, 1
	for i := range 60 {
		fmt.Fprintf(&sb, "\tv%d = Add v%d v2\n", r, prev)
		fmt.Fprintf(&sb, "\tcheck v%d          ; line %d:1\n", r, i+1)
		fmt.Fprintf(&sb, "\tv%d = Div v%d v%d\n", r+1, prev, r)
		prev = r + 1
		r += 2
	}
	fmt.Fprintf(&sb, "\treturn v%d\n", prev)
	f, vf := selectRTL(t, sb.String())
	if err := CheckSelection(f, vf, "t.smp"); err != nil {
		t.Fatal(err)
	}
}

// divisionsRTL is one block of n checked divisions: by arg + k, each
// quotient added to a sum (chain false: hostile's divs shape), or by
// y + k where y = 7y + x takes in the quotient before (chain: the
// divisors are ever deeper terms).
func divisionsRTL(n int, chain bool) string {
	var sb strings.Builder
	sb.WriteString("func t level RTL\nb1:\n\tv1 = Arg\n\tv2 = Const 7\n\tv3 = Copy v1\n\tv4 = Copy v1\n")
	x, y, r := 3, 4, 5
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "\tv%d = Const %d\n", r, i)
		base := 1
		if chain {
			base = y
		}
		fmt.Fprintf(&sb, "\tv%d = Add v%d v%d\n", r+1, base, r)
		fmt.Fprintf(&sb, "\tcheck v%d          ; line %d:1\n", r+1, i)
		if chain {
			fmt.Fprintf(&sb, "\tv%d = Div v%d v%d\n", r+2, x, r+1)
			fmt.Fprintf(&sb, "\tv%d = Mul v%d v2\n", r+3, y)
			fmt.Fprintf(&sb, "\tv%d = Add v%d v%d\n", r+4, r+3, r+2)
			x, y = r+2, r+4
		} else {
			fmt.Fprintf(&sb, "\tv%d = Div v2 v%d\n", r+2, r+1)
			fmt.Fprintf(&sb, "\tv%d = Add v%d v%d\n", r+4, x, r+2)
			x = r + 4
		}
		r += 5
	}
	fmt.Fprintf(&sb, "\tv%d = Add v%d v%d\n\treturn v%d\n", r, x, y, r)
	return sb.String()
}

// TestCheckSelectionLinearInDivisions: the checker's allocations on a
// block of checked divisions grow about as the block does, ten times
// the divisions making at most twelve times the allocations (a path's
// maps, pmap, are a level deeper for each 32 times the terms: n log n,
// 10.9× here, 12.0× from 40 to 400 divisions, a level more). Each
// division forks the paths, which pin values and meet again: copying the
// paths' registers and facts at each fork, looking at every fact again
// at each branch or merge (consistent, merge), or trying every check
// the paths may prove false, made it quadratic or cubic (issue 14).
func TestCheckSelectionLinearInDivisions(t *testing.T) {
	for _, chain := range []bool{false, true} {
		allocs := func(n int) float64 {
			f, vf := selectRTL(t, divisionsRTL(n, chain))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			if err := CheckSelection(f, vf, "t.smp"); err != nil {
				t.Fatalf("chain %v, %d divisions: %v", chain, n, err)
			}
			runtime.ReadMemStats(&after)
			return float64(after.Mallocs - before.Mallocs)
		}
		small, large := allocs(100), allocs(1000)
		t.Logf("chain %v: %.0f allocations for 100 divisions, %.0f for 1000: %.1f×", chain, small, large, large/small)
		if large > 12*small {
			t.Errorf("chain %v: %.0f allocations for 100 divisions, %.0f for 1000: %.1f×, not linear", chain, small, large, large/small)
		}
	}
}

// blocksRTL is a chain of n blocks of one shape, b2 to b(n+1): each
// divides (v1*v1 + v1) by 3 into v1 and returns it (from a block of its
// own) when the quotient is below 3.
func blocksRTL(n int) string {
	var sb strings.Builder
	sb.WriteString("func t level RTL\nb1:\n\tv1 = Arg\n\tv2 = Const 3\n\tjump b2\n")
	end := n + 2
	for i := 2; i < end; i++ {
		fmt.Fprintf(&sb, "b%d:\n\tv3 = Mul v1 v1\n\tv4 = Add v3 v1\n\tv1 = Div v4 v2\n\tv5 = Lt v1 v2\n\tbranch v5 b%d b%d\n", i, end+i, i+1)
	}
	for i := end; i < 2*end; i++ {
		if i != end+1 {
			fmt.Fprintf(&sb, "b%d:\n\treturn v1\n", i)
		}
	}
	return sb.String()
}

// TestCheckSelectionTermsPerBlock: the checker's terms are its block's
// (termTable.reset at each block): ten times the blocks of one shape hold
// no more terms at once, and a fault in the last block is still found and
// named with that block's terms.
func TestCheckSelectionTermsPerBlock(t *testing.T) {
	peak := func(n int) int {
		f, vf := selectRTL(t, blocksRTL(n))
		c, err := checkSelection(f, vf, "t.smp")
		if err != nil {
			t.Fatalf("%d blocks: %v", n, err)
		}
		return max(c.tt.peak, len(c.tt.terms))
	}
	small, large := peak(20), peak(200)
	t.Logf("terms at once: %d, %d", small, large)
	if small != large || small > 100 {
		t.Errorf("the most terms held at once: %d for 20 blocks, %d for 200; want one block's, the same", small, large)
	}
	f, vf := selectRTL(t, blocksRTL(200))
	var last *VInst
	for b := range vf.Blocks {
		for i := range vf.Blocks[b].Insts {
			if in := &vf.Blocks[b].Insts[i]; in.Op == MOVABS {
				last = in
			}
		}
	}
	if last == nil {
		t.Fatalf("no movabs in\n%v", vf)
	}
	last.Src.Imm += 2 // the last division's magic number
	err := CheckSelection(f, vf, "t.smp")
	if err == nil {
		t.Fatal("a wrong magic number in the last block: accepted")
	}
	for _, w := range []string{"b201 (machine block", "mulhi(", "the RTL branches on lt(div((v1 + mul(v1, v1)), 3), 3)"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("a wrong magic number in the last block: %v\nwants %q", err, w)
		}
	}
}

// TestTermTableReset: after reset the ids start again at 0 and no old
// id or key is found for a new term, whether the table keeps its maps
// (few terms) or drops them (more than resetKeep); fresh terms keep
// their serial numbers.
func TestTermTableReset(t *testing.T) {
	for _, n := range []int{10, 2 * resetKeep} {
		tt := newTermTable()
		x := tt.input(1)
		for k := range n {
			x = tt.add(x, tt.konst(int64(k)))
		}
		tt.freshTerm()
		made := len(tt.terms)
		tt.reset()
		if len(tt.terms) != 0 || len(tt.index) != 0 || len(tt.lins) != 0 || tt.peak != made {
			t.Fatalf("%d sums: after reset %d terms, %d keys, %d forms, peak %d (want 0, 0, 0, %d)", n, len(tt.terms), len(tt.index), len(tt.lins), tt.peak, made)
		}
		a := tt.input(2)
		k := tt.konst(5)
		s := tt.add(a, k)
		if a != 0 || tt.String(s) != "(v2 + 5)" || tt.String(tt.add(tt.input(1), tt.konst(0))) != "v1" {
			t.Errorf("%d sums: after reset a = %d, %s", n, a, tt.String(s))
		}
		if f := tt.freshTerm(); tt.String(f) != "?2" {
			t.Errorf("%d sums: the fresh term after reset is %s, want ?2", n, tt.String(f))
		}
	}
}

// TestCheckSelectionDivisionsMutants: on blocks of many checked divisions
// (divisionsRTL), where paths keep facts and pins in shared maps and count
// the checks they prove false as a prefix (issue 14), CheckSelection
// rejects each stub jump broken: dropped (the division may trap by 0),
// sent to another division's stub (its message names another line), or
// taken on the negated condition (it stops where the divisor is not 0).
// A check counted as proved where it is not, or a fact or pin a merge
// keeps from one path only, would let one of them through.
func TestCheckSelectionDivisionsMutants(t *testing.T) {
	for _, chain := range []bool{false, true} {
		f, vf := selectRTL(t, divisionsRTL(40, chain))
		if err := CheckSelection(f, vf, "t.smp"); err != nil {
			t.Fatalf("chain %v: the right selection: %v", chain, err)
		}
		if len(vf.Stubs) < 40 {
			t.Fatalf("chain %v: %d stubs, want one a division", chain, len(vf.Stubs))
		}
		n := 0
		for bi, b := range vf.Blocks {
			for ii, in := range b.Insts {
				if !in.ToStub {
					continue
				}
				n++
				if n%3 != 0 && n > 4 { // the first few and every third
					continue
				}
				for _, kind := range []string{"drop", "other stub", "negated"} {
					m := *vf
					m.Blocks = slices.Clone(vf.Blocks)
					nb := *b
					nb.Insts = slices.Clone(b.Insts)
					m.Blocks[bi] = &nb
					switch kind {
					case "drop":
						nb.Insts = slices.Delete(nb.Insts, ii, ii+1)
					case "other stub":
						nb.Insts[ii].Target = in.Target%int32(len(vf.Stubs)) + 1
					case "negated":
						nb.Insts[ii].Cond = in.Cond ^ 1
					}
					if err := CheckSelection(f, &m, "t.smp"); err == nil {
						t.Errorf("chain %v: stub jump %d (block %d instruction %d) %s: accepted", chain, n, bi, ii, kind)
					} else if !strings.Contains(err.Error(), "isel check: b1") {
						t.Errorf("chain %v: stub jump %d %s: %v, want it to name b1", chain, n, kind, err)
					}
				}
			}
		}
		if n < 40 {
			t.Errorf("chain %v: %d stub jumps, want one a division", chain, n)
		}
	}
}

// loopsRTL is two nested loops over registers numbered far apart (v900001:
// the checker numbers them by a hash table, not an array) in blocks whose
// IDs are not their order.
const loopsRTL = `func t level RTL
b7:
	v1 = Arg
	v900001 = Const 0
	v3 = Const 1
	v40 = Const 0
	jump b100
b100:
	v5 = Lt v900001 v1
	branch v5 b3 b55
b3:
	v6 = Const 0
	jump b9
b9:
	v8 = Lt v6 v900001
	branch v8 b12 b20
b12:
	v40 = Add v40 v6
	v6 = Add v6 v3
	jump b9
b20:
	v900001 = Add v900001 v3
	jump b100
b55:
	v41 = Mul v40 v3
	return v41
`

// TestSelCheckerLiveAt: the checker's liveness (liveAt, from the flat
// arrays of liveness) agrees with a fixed point of the dataflow equations
// (live in = read before written, or live out and not written) on every
// register and block of iselRTL, loopsRTL and blocksRTL, asked in two
// orders so that the live sets lie interleaved in their one array.
func TestSelCheckerLiveAt(t *testing.T) {
	for name, text := range map[string]string{"isel": iselRTL, "loops": loopsRTL, "blocks": blocksRTL(6)} {
		f, vf := selectRTL(t, text)
		c, err := checkSelection(f, vf, "t.smp")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "loops" && c.rnum.Dense() {
			t.Errorf("loops: registers numbered by an array, want the hash table")
		}
		want := refLiveIn(f)
		live := 0
		for _, rev := range []bool{true, false} {
			for k := range c.regs {
				x := k
				if rev {
					x = len(c.regs) - 1 - k
				}
				for i, b := range f.Blocks {
					got := c.liveAt(int32(x), i)
					if got != want[i][c.regs[x]] {
						t.Errorf("%s: v%d live on entry to b%d: %v, want %v", name, c.regs[x], b.ID, got, !got)
					}
					if got {
						live++
					}
				}
			}
		}
		if live == 0 {
			t.Errorf("%s: no register live anywhere", name)
		}
	}
	// Registers live across the loops of loopsRTL, by hand.
	f, vf := selectRTL(t, loopsRTL)
	c, _ := checkSelection(f, vf, "t.smp")
	for _, w := range []struct {
		r     cfg.Reg
		block int // index in f.Blocks
		live  bool
	}{{900001, 1, true}, {900001, 6, false}, {40, 3, true}, {6, 3, true}, {6, 1, false}, {41, 6, false}, {1, 5, true}} {
		if got := c.liveAt(c.reg(w.r), w.block); got != w.live {
			t.Errorf("loops: v%d live on entry to b%d: %v, want %v", w.r, f.Blocks[w.block].ID, got, w.live)
		}
	}
}

// refLiveIn is each block's live-in registers, by iterating the dataflow
// equations to their fixed point.
func refLiveIn(f *cfg.Func) []map[cfg.Reg]bool {
	in := make([]map[cfg.Reg]bool, len(f.Blocks))
	index := map[*cfg.Block]int{}
	for i, b := range f.Blocks {
		in[i] = map[cfg.Reg]bool{}
		index[b] = i
	}
	for changed := true; changed; {
		changed = false
		for i := len(f.Blocks) - 1; i >= 0; i-- {
			b := f.Blocks[i]
			live := map[cfg.Reg]bool{}
			for _, s := range b.Succs() {
				for r := range in[index[s]] {
					live[r] = true
				}
			}
			if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
				live[b.Term.Reg] = true
			}
			for k := len(b.Instrs) - 1; k >= 0; k-- {
				ins := b.Instrs[k]
				if ins.Op.HasDst() {
					delete(live, ins.Dst)
				}
				for _, a := range ins.Args {
					live[a] = true
				}
			}
			if len(live) != len(in[i]) {
				in[i], changed = live, true
			}
		}
	}
	return in
}

// TestPairSet: run's set of pairs holds two machine blocks an RTL block
// in its array and any more in its map, each found once added and no
// other.
func TestPairSet(t *testing.T) {
	var s pairSet
	s.init(3)
	add := []pair{{0, 5}, {2, 0}, {0, 7}, {0, 9}, {2, 3}, {1, 1 << 40}, {0, 11}}
	for k, pr := range add {
		if s.has(pr) {
			t.Fatalf("%v found before it is added", pr)
		}
		s.add(pr)
		for j, q := range add {
			if s.has(q) != (j <= k) {
				t.Fatalf("after adding %v: has(%v) = %v", add[:k+1], q, s.has(q))
			}
		}
	}
	for _, pr := range []pair{{1, 5}, {2, 5}, {0, 0}, {1, 0}, {2, 1}, {0, 8}} {
		if s.has(pr) {
			t.Errorf("%v found, never added", pr)
		}
	}
	if s.n != len(add) || len(s.extra) != 3 {
		t.Errorf("%d pairs, %d in the map; want %d, 3 ({0 9}, {0 11}, and {1 2^40} beyond an int32)", s.n, len(s.extra), len(add))
	}
}

// TestCheckSelectionDuplicateBlockIDs: blocks are numbered by ID, so two
// blocks of one ID (which cfg.Verify rejects) are an error, not one block
// checked for the other.
func TestCheckSelectionDuplicateBlockIDs(t *testing.T) {
	f, vf := selectRTL(t, loopsRTL)
	f.Blocks[4].ID = f.Blocks[2].ID
	err := CheckSelection(f, vf, "t.smp")
	if err == nil || err.Error() != "isel check: two blocks b3" {
		t.Errorf("two blocks b3: %v", err)
	}
}
