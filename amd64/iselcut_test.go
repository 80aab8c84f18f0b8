package amd64

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// straightRTL is one block of n assignments among five variables, as
// the hostile shape straight (internal/hostile): each value is made of
// the ones before, so that the last ones' terms reach every term of the
// block.
func straightRTL(n int) string {
	var sb strings.Builder
	sb.WriteString("func t level RTL\nb1:\n\tv1 = Arg\n\tv2 = Const 1\n\tv3 = Const 2\n\tv4 = Const 3\n\tv5 = Const 5\n\tv6 = Const 7\n")
	sb.WriteString("\tv7 = Add v1 v2\n\tv8 = Mul v1 v6\n\tv9 = Neg v1\n")
	vars := map[byte]int{'a': 1, 'c': 7, 'd': 4, 'e': 8, 'f': 9}
	r := 10
	op := func(dst byte, t string) {
		fmt.Fprintf(&sb, "\tv%d = %s\n", r, t)
		r++
		vars[dst] = r - 1
	}
	for i := range n {
		a, c, d, e, f := vars['a'], vars['c'], vars['d'], vars['e'], vars['f']
		switch i % 7 {
		case 0: // a += c * 3
			op('t', fmt.Sprintf("Mul v%d v4", c))
			op('a', fmt.Sprintf("Add v%d v%d", a, r-1))
		case 1: // c ^= d + a
			op('t', fmt.Sprintf("Add v%d v%d", d, a))
			op('c', fmt.Sprintf("Xor v%d v%d", c, r-1))
		case 2: // d -= e >> 2
			op('t', fmt.Sprintf("Sar v%d v3", e))
			op('d', fmt.Sprintf("Sub v%d v%d", d, r-1))
		case 3: // e += f & a
			op('t', fmt.Sprintf("And v%d v%d", f, a))
			op('e', fmt.Sprintf("Add v%d v%d", e, r-1))
		case 4: // f ^= a - c
			op('t', fmt.Sprintf("Sub v%d v%d", a, c))
			op('f', fmt.Sprintf("Xor v%d v%d", f, r-1))
		case 5: // a -= e | 5
			op('t', fmt.Sprintf("Or v%d v5", e))
			op('a', fmt.Sprintf("Sub v%d v%d", a, r-1))
		default: // c += d << 1
			op('t', fmt.Sprintf("Shl v%d v2", d))
			op('c', fmt.Sprintf("Add v%d v%d", c, r-1))
		}
	}
	op('s', fmt.Sprintf("Add v%d v%d", vars['a'], vars['c']))
	op('s', fmt.Sprintf("Add v%d v%d", r-1, vars['d']))
	op('s', fmt.Sprintf("Add v%d v%d", r-1, vars['e']))
	op('s', fmt.Sprintf("Add v%d v%d", r-1, vars['f']))
	fmt.Fprintf(&sb, "\treturn v%d\n", r-1)
	return sb.String()
}

// TestCheckSelectionCutsBounded: on one block of n statements, the most
// terms the checker holds at once does not grow with n (issue 12 point
// 6): ten times the statements, at most half as many again (a cut is
// tried every cutEvery terms made), where the block's whole
// table (before the cuts of iselcut.go) held ten times the terms. The
// three shapes: straight-line assignments, checked divisions, checked
// divisions by ever deeper terms.
func TestCheckSelectionCutsBounded(t *testing.T) {
	shapes := []struct {
		name string
		n    int // the smaller block's statements
		rtl  func(n int) string
	}{
		{"straight", 1000, straightRTL},
		{"divisions", 300, func(n int) string { return divisionsRTL(n, false) }},
		{"chain", 300, func(n int) string { return divisionsRTL(n, true) }},
	}
	for _, s := range shapes {
		peak := func(n int) (int, int) {
			f, vf := selectRTL(t, s.rtl(n))
			c, err := checkSelection(f, vf, "t.smp")
			if err != nil {
				t.Fatalf("%s, %d statements: %v", s.name, n, err)
			}
			return max(c.tt.peak, len(c.tt.terms)), c.cuts
		}
		small, _ := peak(s.n)
		large, cuts := peak(10 * s.n)
		t.Logf("%s: the most terms at once %d for %d statements, %d for %d (%d cuts)", s.name, small, s.n, large, 10*s.n, cuts)
		if 2*large > 3*small || cuts == 0 {
			t.Errorf("%s: the most terms at once %d for %d statements, %d for %d (%d cuts): want no growth", s.name, small, s.n, large, 10*s.n, cuts)
		}
	}
}

// withTinyCuts runs fn with a cut tried at nearly every instruction of
// every block of a few instructions or more.
func withTinyCuts(fn func()) {
	a, b, c, d := cutMinInstrs, cutEvery, cutRetry, cutAhead
	cutMinInstrs, cutEvery, cutRetry, cutAhead = 2, 1, 1, 1
	defer func() { cutMinInstrs, cutEvery, cutRetry, cutAhead = a, b, c, d }()
	fn()
}

// TestCheckSelectionCutsMutants: with cuts tried everywhere, the right
// selections are accepted, and broken ones rejected: the stub jumps of
// TestCheckSelectionDivisionsMutants, and on a straight-line block an
// immediate changed or an instruction's destination swapped for another
// register's, at every fifth instruction (cuts after it, before it, and
// terms copied across cuts in between).
func TestCheckSelectionCutsMutants(t *testing.T) {
	withTinyCuts(func() {
		for _, chain := range []bool{false, true} {
			f, vf := selectRTL(t, divisionsRTL(40, chain))
			c, err := checkSelection(f, vf, "t.smp")
			if err != nil || c.cuts < 10 {
				t.Fatalf("chain %v: %d cuts, %v", chain, c.cuts, err)
			}
		}
		TestCheckSelectionDivisionsMutants(t)

		f, vf := selectRTL(t, straightRTL(60))
		c, err := checkSelection(f, vf, "t.smp")
		if err != nil || c.cuts < 10 {
			t.Fatalf("straight: %d cuts, %v", c.cuts, err)
		}
		n, tried := 0, 0
		for bi, b := range vf.Blocks {
			for ii, in := range b.Insts {
				n++
				if n%5 != 0 {
					continue
				}
				m := *vf
				m.Blocks = slices.Clone(vf.Blocks)
				nb := *b
				nb.Insts = slices.Clone(b.Insts)
				m.Blocks[bi] = &nb
				mi := &nb.Insts[ii]
				switch {
				case mi.Src.Kind == KindImm:
					mi.Src.Imm++
				case mi.Src.Kind == KindMem:
					mi.Src = vmem(mi.Src.R, mi.Src.Index(), mi.Src.Scale, mi.Src.Disp()+1)
				case mi.Dst.Kind == KindReg && mi.Dst.R >= FirstVirtual && mi.Op != RET && ii > 0:
					mi.Dst.R = vf.Blocks[bi].Insts[ii-1].Dst.R
					if mi.Dst.R == in.Dst.R {
						continue
					}
				default:
					continue
				}
				tried++
				if err := CheckSelection(f, &m, "t.smp"); err == nil {
					t.Errorf("straight: block %d instruction %d (%s) made %s: accepted", bi, ii, in.text(vf), mi.text(&m))
				}
			}
		}
		if tried < 20 {
			t.Errorf("straight: %d mutants, want 20 or more", tried)
		}
	})
}

// TestCheckSelectionCutsConstWritten (review rev12d): a constant's
// register the RTL writes in a large block must hold its constant when
// the code leaves the block, as the blocks it dominates read it as that
// constant (value). Here the code never writes it (its mov dropped):
// the first cut puts the register in rs.written (keptWritten), but a
// later cut looks only at the registers of rs.regs and of the path,
// neither of which holds it, and forgets it. The mutant, run, returns
// garbage from b2 (v6 - arg with v6 never set); the whole block's check
// rejects it, and so must the check in segments.
func TestCheckSelectionCutsConstWritten(t *testing.T) {
	rtl := straightRTL(3000) // v6 = Const 7, read only at its start
	i := strings.LastIndex(rtl, "\treturn ")
	ret := strings.TrimSpace(strings.TrimPrefix(rtl[i:], "\treturn "))
	rtl = rtl[:i] + fmt.Sprintf("\tbranch %s b2 b3\nb2:\n\tv900000 = Sub v6 v1\n\treturn v900000\nb3:\n\treturn %s\n", ret, ret)
	f, vf := selectRTL(t, rtl)
	c, err := checkSelection(f, vf, "t.smp")
	if err != nil || c.cuts < 2 {
		t.Fatalf("the right selection: %d cuts, %v", c.cuts, err)
	}
	m := *vf
	m.Blocks = slices.Clone(vf.Blocks)
	dropped := false
	for bi, b := range vf.Blocks {
		for ii, in := range b.Insts {
			if !dropped && in.text(vf) == "mov v6, 0x7" {
				nb := *b
				nb.Insts = slices.Delete(slices.Clone(b.Insts), ii, ii+1)
				m.Blocks[bi] = &nb
				dropped = true
			}
		}
	}
	if !dropped {
		t.Fatal("no mov v6, 0x7 in the selection")
	}
	c, err = checkSelection(f, &m, "t.smp")
	if err == nil || !strings.Contains(err.Error(), "v6 holds") {
		t.Errorf("mov v6, 0x7 dropped: %v (%d cuts), want v6 found not holding 7", err, c.cuts)
	}
}
