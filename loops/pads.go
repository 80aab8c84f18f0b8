package loops

import "son/cfg"

// Pads puts a landing pad on every edge that leaves a loop (paper 004,
// section 6.2): an empty block with that edge as its only predecessor,
// which jumps on to the old target. An edge that leaves several nested
// loops at once (a return or break out of an inner loop) gets one pad,
// the exit of every loop it leaves. An edge already ending at a block
// with one predecessor, no instructions and a jump is left alone, so Pads
// changes nothing the second time, nor after Close. The target keeps its predecessor slot (the pad takes the
// place of the edge's source), so its Phis are unchanged.
func Pads(f *cfg.Func) error {
	a, err := Analyze(f)
	if err != nil {
		return err
	}
	e := newEditor(f)
	n := len(f.Blocks)
	for u := range n {
		ub := f.Blocks[u]
		for j, vb := range ub.Succs() {
			v := a.Pos[vb]
			left := 0
			for l := a.Of[u]; l != nil && !a.Contains(l, v); l = l.Parent {
				left++
			}
			if left == 0 || isPad(vb) {
				continue
			}
			p := e.block(vb, max(ub.LoopDepth-int32(left), 0))
			p.Preds = []*cfg.Block{ub}
			ub.Succs()[j] = p
			replace(vb.Preds, ub, p)
		}
	}
	Reorder(f)
	return nil
}

// isPad reports whether b is a block with one predecessor, no
// instructions (one-argument Phis, as Close adds, are allowed) and a jump.
func isPad(b *cfg.Block) bool {
	return len(b.Preds) == 1 && len(b.Instrs) == 0 && b.Term.Kind == cfg.TermJump
}
