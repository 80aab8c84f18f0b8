package amd64

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"son/regalloc"
)

// TestOperandsUsesFirst: for every op, with every kind of each operand,
// listOperands lists every use before any def (RegallocFunc takes the
// first nu registers for the uses), and no more registers than opnds
// holds.
func TestOperandsUsesFirst(t *testing.T) {
	v := FirstVirtual
	args := []VArg{{}, vr(v), vimm(7), vmem(v+1, v+2, 8, 16), vmem(v+1, NoVReg, 1, 0)}
	for op := OpInvalid + 1; op < NumOps; op++ {
		for _, d := range args {
			for _, s := range args {
				in := VInst{Op: op, Dst: d, Src: s}
				if d.Kind == KindReg {
					in.Dst.R = v + 3
				}
				o := in.operands()
				if o.late {
					t.Errorf("%v with Dst %+v, Src %+v: a use listed after a def (regs %v, %d uses)", op, in.Dst, s, o.regs[:o.n], o.nu)
				}
				if o.nu > o.n {
					t.Errorf("%v with Dst %+v, Src %+v: %d uses of %d registers", op, in.Dst, s, o.nu, o.n)
				}
			}
		}
	}
}

// TestJumpTo: a jump names the first successor that is its target and
// that no jump before it named; a target not among the successors, one
// past them (regalloc.Check rejects it).
func TestJumpTo(t *testing.T) {
	var named uint64
	succs := []int{5, 5, 7}
	for _, tt := range []struct {
		target int32
		want   regalloc.Jump
	}{{7, regalloc.JumpTo(2)}, {5, regalloc.JumpTo(0)}, {5, regalloc.JumpTo(1)}, {5, regalloc.JumpTo(3)}, {9, regalloc.JumpTo(3)}} {
		if got := jumpTo(succs, tt.target, &named); got != tt.want {
			t.Errorf("jump to %d: got successor %d, want %d", tt.target, got.Succ(), tt.want.Succ())
		}
	}
}

// TestLowerDrop: lowering that lets each block's selected code go once it
// is lowered (Code's) makes the same machine code as lowering that keeps
// it, and leaves no block behind; the listing of the kept code names each
// source line once, in order, before its code (the lines are runs in
// VFunc.lines, not a field of each instruction).
func TestLowerDrop(t *testing.T) {
	const n = 40
	lower2 := func(drop bool) (*VFunc, *Program) {
		_, vf := selectRTL(t, divisionsRTL(n, false))
		rf := vf.RegallocFunc()
		res, err := regalloc.Allocate(rf)
		if err != nil {
			t.Fatal(err)
		}
		p, err := lower(vf, rf, res, nil, false, drop)
		if err != nil {
			t.Fatal(err)
		}
		return vf, p
	}
	kept, keep := lower2(false)
	dropped, drop := lower2(true)
	if !bytes.Equal(keep.Code, drop.Code) || keep.Entry != drop.Entry {
		t.Errorf("lowering with drop made other machine code")
	}
	for b, blk := range dropped.Blocks {
		if blk != nil {
			t.Fatalf("block %d of %d kept after lowering with drop", b, len(dropped.Blocks))
		}
	}
	if len(kept.Blocks) < n || kept.Blocks[len(kept.Blocks)-1] == nil {
		t.Fatalf("lowering without drop let blocks go")
	}
	var src strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&src, "line %d\n", i)
	}
	keep.src = []byte(src.String())
	listing := keep.Listing()
	at := 0
	for i := 1; i <= n; i++ {
		c := fmt.Sprintf("\t; %d: line %d\n", i, i)
		k := strings.Index(listing[at:], c)
		if k < 0 || strings.Contains(listing[at+k+len(c):], c) {
			t.Fatalf("line %d not listed once after line %d:\n%s", i, i-1, listing)
		}
		at += k + len(c)
		if !strings.HasPrefix(listing[at:], "\tlea rdx, [rcx+0x1]\n") { // its division's cold code
			t.Errorf("line %d's comment not before its division's cold code:\n%s", i, listing[at:min(len(listing), at+80)])
		}
	}
}
