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
// which the samples refute). Each wrong claim is checked first with no
// control reached, which passes a Phi or a division unsampled: a memo
// that kept that pass would pass the same claim once control is reached.
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
	// The solution's values with every control node unreached.
	unreached := &son.Typing{Slot: s.t.Slot}
	for i, n := range s.live {
		v := s.t.At(i)
		if n.IsControl() {
			v = types.XCtrl
		}
		unreached.Add(v)
	}
	m := son.NewSoundMemo(len(g.Live()))
	wrong, refuted, guarded := 0, 0, 0
	agree := func(step string, n *son.Node, claim types.Type, typ *son.Typing) string {
		want := son.CheckTransfer(n, claim, typ)
		if got := m.CheckTransfer(n, claim, typ); got != want {
			t.Fatalf("%s, %v claimed %v: the memo says %q, CheckTransfer %q", step, n, claim, got, want)
		}
		return want
	}
	for round := range 3 {
		for _, n := range g.Live() {
			claim := s.Value(n)
			if round != 1 {
				agree("the solution's claims", n, claim, s.typing())
				continue
			}
			claim, ok := narrowed(claim)
			if !ok {
				continue
			}
			wrong++
			// The same wrong claim unreached, then reached: the
			// second must not be answered by the first's pass.
			passed := agree("a wrong claim unreached", n, claim, unreached) == ""
			if agree("a wrong claim", n, claim, s.typing()) != "" {
				refuted++
				if passed && (n.Op == son.OpPhi || n.Op == son.OpDiv || n.Op == son.OpMod) {
					guarded++
				}
			}
		}
	}
	if m.Hits == 0 || refuted == 0 || guarded == 0 {
		t.Fatalf("the memo answered %d nodes, %d of %d wrong claims refuted, %d passed unreached: the test shows nothing", m.Hits, refuted, wrong, guarded)
	}
	t.Logf("%d answered from the memo; %d of %d wrong claims refuted, %d of them Phis or divisions passed unreached", m.Hits, refuted, wrong, guarded)
}
