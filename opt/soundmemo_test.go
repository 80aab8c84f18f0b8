package opt

import (
	"testing"

	"son/internal/gen"
	"son/son"
	"son/types"
)

// TestSoundMemoAgrees: the checker's remembered sampling (son.SoundMemo)
// gives CheckTransfer's verdict and message on every node of a generated
// program, for the solution's claims (remembered, then answered again
// from the memo) and for wrong ones (a claim narrowed to one of its ends,
// which the samples refute), in either order.
func TestSoundMemoAgrees(t *testing.T) {
	g := peepholed(t, gen.Program(gen.Config{Seed: 5, Size: 3_000, KeepLive: true}))
	s, err := Analyze(g, Combined, nil)
	if err != nil {
		t.Fatal(err)
	}
	narrowed := func(c types.Type) (types.Type, bool) {
		if !c.IsInt() || c.IsConst() {
			return c, false
		}
		return types.Const(c.Hi()), true
	}
	m := son.NewSoundMemo(len(g.Live()))
	wrong, refuted := 0, 0
	for round := range 3 {
		for _, n := range g.Live() {
			claim := s.Value(n)
			if round == 1 {
				var ok bool
				if claim, ok = narrowed(claim); !ok {
					continue
				}
				wrong++
			}
			want := son.CheckTransfer(n, claim, s.Value)
			if got := m.CheckTransfer(n, claim, s.Value); got != want {
				t.Fatalf("round %d, %v claimed %v: the memo says %q, CheckTransfer %q", round, n, claim, got, want)
			}
			if round == 1 && want != "" {
				refuted++
			}
		}
	}
	if m.Hits == 0 || refuted == 0 {
		t.Fatalf("the memo answered %d nodes, %d of %d wrong claims refuted: the test shows nothing", m.Hits, refuted, wrong)
	}
	t.Logf("%d answered from the memo; %d of %d wrong claims refuted", m.Hits, refuted, wrong)
}
