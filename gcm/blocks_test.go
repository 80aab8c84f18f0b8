package gcm

import (
	"fmt"
	"strings"
	"testing"

	"son/internal/gen"
	"son/son"
)

// naturalLoopDepths is loopDepths by its definition, one walk per loop:
// quadratic in the nesting, the reference for the linear version.
func naturalLoopDepths(sk *skeleton) []int {
	depth := make([]int, len(sk.blocks))
	for _, h := range sk.blocks {
		if h.head.Op != son.OpLoop {
			continue
		}
		body := map[*block]bool{h: true}
		work := []*block{sk.blockOf(h.head.In[2])}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if !body[b] {
				body[b] = true
				for _, p := range sk.predsOf(b) {
					work = append(work, sk.blocks[p])
				}
			}
		}
		for b := range body {
			depth[b.index]++
		}
	}
	return depth
}

// TestLoopDepths compares the loop tree's depths with the definition on
// nested and sequenced loops with breaks and continues, and on random
// loop-heavy programs.
func TestLoopDepths(t *testing.T) {
	srcs := []string{
		`int s = 0; for (int i = 0; i < arg; i++) { for (int j = 0; j < i; j++) { if (j == 3) continue; if (j > 7) break; s += j; } while (s > 100) s -= 7; } return s;`,
		`int x = arg; while (x > 0) { x--; if (x == 5) { while (x > 1) x = x / 2; break; } } return x;`,
		`int x = 0; while (true) { x++; if (x > arg) break; } while (x < 10) x++; return x;`,
	}
	var nest strings.Builder
	nest.WriteString("int x = 0;\n")
	for i := range 40 {
		fmt.Fprintf(&nest, "while (x < %d) {\n", i+1)
	}
	nest.WriteString("x++;\n" + strings.Repeat("}\n", 40) + "return x;\n")
	srcs = append(srcs, nest.String())
	for seed := range int64(20) {
		srcs = append(srcs, gen.Program(gen.Config{Seed: seed, Size: 60, Shape: gen.Loopy, KeepLive: true}))
	}
	loops := 0
	for i, src := range srcs {
		g := optimized(t, src)
		sk, err := buildSkeleton(g)
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		got, want := sk.loopDepths(), naturalLoopDepths(sk)
		for b := range want {
			if int(got[b]) != want[b] {
				t.Fatalf("program %d: block %d at loop depth %d, want %d\n%s", i, b, got[b], want[b], src)
			}
			if sk.blocks[b].head.Op == son.OpLoop {
				loops++
			}
		}
	}
	if loops < 100 {
		t.Errorf("only %d loops in the programs: the test lost its subject", loops)
	}
}
