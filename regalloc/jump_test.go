package regalloc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"son/amd64"
	"son/compile"
	"son/elf"
	"son/regalloc"
)

// TestLoopReloadsAfterJump: the reloads splitLoops puts before the jump
// that ends a block entering a loop, moved after that jump (the mistake
// of leaving them after a block's jumps). On spill_loop_break.smp the
// block jumps into the loop and falls through to its exit: Check rejects
// the move, and the executable made anyway computes wrong results. On
// spill_loop.smp the jump skips the loop and the fall-through enters it,
// where the moved reloads still run: Check accepts, and the results stay
// right.
func TestLoopReloadsAfterJump(t *testing.T) {
	native := runtime.GOOS == "linux" && runtime.GOARCH == "amd64"
	for _, tt := range []struct {
		file   string
		reject bool
	}{{"spill_loop_break.smp", true}, {"spill_loop.smp", false}} {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			runs := regexp.MustCompile(`(?m)^// run: (\S+) => (\S+)$`).FindAllStringSubmatch(string(src), -1)
			if len(runs) == 0 {
				t.Fatal("no run: lines")
			}
			u, err := compile.Compile(tt.file, src, compile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			vf, err := amd64.Select(u.Func, u.Name)
			if err != nil {
				t.Fatal(err)
			}
			rf := vf.RegallocFunc()
			// The blocks that end with one jump to a successor, reloads
			// before it (a jump reads no register: only splitLoops puts
			// moves there).
			res, err := regalloc.Allocate(rf)
			if err != nil {
				t.Fatal(err)
			}
			var sites []int
			for b, blk := range rf.Blocks {
				n := len(blk.Instrs)
				if n == 0 || blk.Instrs[n-1].Jump.Succ() < 0 || n > 1 && blk.Instrs[n-2].Branch {
					continue
				}
				if len(res.Before(&res.Blocks[b][n-1])) > 0 {
					sites = append(sites, b)
				}
			}
			if len(sites) == 0 {
				t.Fatal("no block enters a loop with reloads before its jump: the program no longer tests this")
			}
			rejected := 0
			for _, b := range sites {
				res, _ := regalloc.Allocate(rf)
				p := &res.Blocks[b][len(res.Blocks[b])-1]
				regalloc.MoveAfter(p, len(res.Before(p)))
				cerr := regalloc.Check(rf, res)
				if cerr != nil {
					rejected++
					if !strings.Contains(cerr.Error(), ", which holds ") {
						t.Errorf("block %d: %v: not a wrong read", b, cerr)
					}
				}
				if !native {
					continue
				}
				// Run what the allocation makes: wrong where rejected.
				prog, err := amd64.Lower(vf, res, nil)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(t.TempDir(), "mutant")
				if err := (&elf.Exec{Text: prog.Code, Entry: prog.Entry}).WriteFile(path); err != nil {
					t.Fatal(err)
				}
				wrong := 0
				for _, r := range runs {
					out, err := exec.Command(path, r[1]).Output()
					if err != nil || strings.TrimSpace(string(out)) != r[2] {
						wrong++
					}
				}
				if accepted := cerr == nil; accepted && wrong > 0 || !accepted && wrong == 0 {
					t.Errorf("block %d: the checker says %v, and %d of %d runs are wrong", b, cerr, wrong, len(runs))
				}
			}
			switch {
			case tt.reject && rejected == 0:
				t.Errorf("%d blocks' reloads moved after their jump, none rejected", len(sites))
			case !tt.reject && rejected > 0:
				t.Errorf("%d of %d blocks' reloads moved after their jump rejected, on a program where they stay right", rejected, len(sites))
			}
			t.Logf("%d blocks' reloads moved after their jump, %d rejected", len(sites), rejected)
		})
	}
}
