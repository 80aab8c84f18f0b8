package opt

import (
	"errors"
	"fmt"
	"strings"

	"son/internal/dom"
	"son/son"
)

// CheckZeroCheckElim verifies each removal of ZeroCheckElim on the graph it
// left, with dominators computed by the iterative algorithm of Cooper,
// Harvey and Kennedy rather than the pass's Lengauer–Tarjan: the removed
// check is gone; its witness is a live ZeroCheck of the same value node;
// the witness dominates the point where the removed check was (its
// predecessor, so the witness strictly dominated the check); and each
// division the check guarded is now pinned to the witness.
func CheckZeroCheckElim(g *son.Graph, removed []Removal) error {
	c := newCtrlGraph(g)
	tree := dom.NewTree(dom.CooperHarveyKennedy(c.succ))
	var probs []string
	bad := func(r Removal, format string, args ...any) {
		probs = append(probs, fmt.Sprintf("removal of ZeroCheck#%d: ", r.Check.ID)+fmt.Sprintf(format, args...))
	}
	for _, r := range removed {
		if !r.Check.IsDead() {
			bad(r, "the check is still in the graph")
		}
		w := r.Witness
		if w.IsDead() || w.Op != son.OpZeroCheck || w.In[1] != r.Value {
			bad(r, "witness %v is not a live check of %v", w, r.Value)
			continue
		}
		wi, ok1 := c.index[w]
		pi, ok2 := c.index[r.Pred]
		if !ok1 || !ok2 || !tree.Dominates(wi, pi) {
			bad(r, "witness %v does not dominate %v, where the check was", w, r.Pred)
		}
		for _, d := range r.Divs {
			if !d.IsDead() && (d.In[0] != w || d.In[2] != r.Value) {
				bad(r, "%v is not pinned to the witness %v", d, w)
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New("zero-check elimination is not justified:\n\t" + strings.Join(probs, "\n\t"))
}
