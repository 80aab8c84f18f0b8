package compile

import (
	"os"
	"testing"

	"son/amd64"
	"son/regalloc"
)

// TestJumpTargets: in the allocator's view of every program of testdata
// and examples, each jump names where it goes, as regalloc.Check trusts
// it to: a jump to a block names a successor that is that block, each of
// a block's successors at most once; a jump to a division's stub, and a
// return, name none (JumpAway); every other instruction, no jump. Blocks
// jumping to a stub, with jumps and a fall-through both, are among them.
func TestJumpTargets(t *testing.T) {
	away, stubs, falls := 0, 0, 0
	for _, file := range programFiles(t, "../testdata", "../examples") {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Compile(file, src, Options{})
		if err != nil {
			continue // the programs that fail to compile on purpose
		}
		vf, err := amd64.Select(u.Func, u.Name)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		rf := vf.RegallocFunc()
		for b, vb := range vf.Blocks {
			named := make([]bool, len(vb.Succs))
			for i, vi := range vb.Insts {
				j := rf.Blocks[b].Instrs[i].Jump
				switch {
				case vi.Op == amd64.RET || (vi.Op == amd64.JCC || vi.Op == amd64.JMP) && vi.ToStub:
					if j != regalloc.JumpAway {
						t.Errorf("%s: block %d, instruction %d (%v): jump %d, want JumpAway", file, b, i, vi.Op, j)
					}
					away++
					if vi.Op != amd64.RET {
						stubs++
					}
				case vi.Op == amd64.JCC || vi.Op == amd64.JMP:
					k := j.Succ()
					if k < 0 || k >= len(vb.Succs) || vb.Succs[k] != int(vi.Target) || named[k] {
						t.Errorf("%s: block %d, instruction %d (%v to block %d): jump %d, successors %v", file, b, i, vi.Op, vi.Target, j, vb.Succs)
						continue
					}
					named[k] = true
				case j != regalloc.NoJump:
					t.Errorf("%s: block %d, instruction %d (%v): jump %d, want NoJump", file, b, i, vi.Op, j)
				}
			}
			for _, n := range named {
				if !n {
					falls++
				}
			}
		}
	}
	if stubs == 0 || falls == 0 {
		t.Fatalf("%d jumps to a stub, %d fall-throughs: the programs no longer test both", stubs, falls)
	}
	t.Logf("%d jumps away (%d to a stub, the others returns), %d successors reached by falling through", away, stubs, falls)
}
