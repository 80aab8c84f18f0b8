package amd64

import (
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
