package gcm

import (
	"errors"
	"fmt"
	"strings"

	"son/cfg"
	"son/internal/dom"
	"son/son"
)

// Check verifies a schedule of g without the scheduler's code, with
// dominators from the algorithm of Cooper, Harvey and Kennedy (the pass
// uses Lengauer–Tarjan):
//
//   - every data node that control needs (the values of the ZeroChecks,
//     branches and Returns that run, their inputs, and the Phis of live
//     regions) is placed exactly once, and nothing else;
//   - every use is dominated by its definition: in the same block before
//     it, or in a block that strictly dominates; a Phi's k-th value at the
//     end of its block's k-th predecessor;
//   - pinned nodes stayed put: each Phi in the block of its region, with
//     the value of region input k for the predecessor that input comes
//     from; each ZeroCheck as a check in its block; a division pinned
//     below a ZeroCheck in a block that check dominates, after it;
//   - each instruction computes its node's op on its node's inputs.
func Check(g *son.Graph, r *Result) error {
	f := r.Func
	var probs []string
	bad := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }

	index := map[*cfg.Block]int{}
	for i, b := range f.Blocks {
		index[b] = i
	}
	succ := make([][]int, len(f.Blocks))
	for i, b := range f.Blocks {
		for _, s := range b.Succs {
			succ[i] = append(succ[i], index[s])
		}
	}
	tree := dom.NewTree(dom.CooperHarveyKennedy(succ))

	// Where each node went: block and position (-1 for a Phi).
	type site struct {
		b   *cfg.Block
		pos int
	}
	at := map[int]site{}
	seen := map[int]int{}
	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			at[p.Node] = site{b, -1}
			seen[p.Node]++
		}
		for i, in := range b.Instrs {
			at[in.Node] = site{b, i}
			seen[in.Node]++
		}
	}
	avail := func(def int, b *cfg.Block, pos int) bool {
		s, ok := at[def]
		if !ok {
			return false
		}
		if s.b == b {
			return s.pos < pos
		}
		return tree.StrictlyDominates(index[s.b], index[b])
	}

	// The data nodes control needs, found from the graph.
	need := map[*son.Node]bool{}
	var work []*son.Node
	want := func(n *son.Node) {
		if n != nil && !n.IsControl() && !need[n] {
			need[n] = true
			work = append(work, n)
		}
	}
	for _, n := range g.Live() {
		switch n.Op {
		case son.OpIf, son.OpZeroCheck:
			want(n.In[1])
		case son.OpReturn:
			if c := n.In[0]; !(c.Op == son.OpCProj && c.In[0].Op == son.OpNever && c.Aux == 1) {
				want(n.In[1])
			}
		case son.OpPhi:
			want(n)
		}
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, x := range n.In {
			want(x)
		}
	}
	for n := range need {
		switch k := seen[n.ID]; {
		case k == 0:
			bad("%v is not placed", n)
		case k > 1:
			bad("%v is placed %d times", n, k)
		}
	}
	for _, n := range g.Live() {
		if n.Op == son.OpZeroCheck && seen[n.ID] != 1 {
			bad("%v is checked %d times", n, seen[n.ID])
		}
	}
	for id := range seen {
		if n := g.Node(id); n == nil || !need[n] && n.Op != son.OpZeroCheck {
			bad("node %d is placed but not needed", id)
		}
	}

	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			phi := g.Node(p.Node)
			if phi == nil || phi.Op != son.OpPhi {
				bad("b%d: Phi v%d is not from a Phi node", b.ID, p.Dst)
				continue
			}
			region := phi.In[0]
			if r.Block[region.ID] != b {
				bad("b%d: %v of %v is not in its region's block", b.ID, phi, region)
			}
			for i, pred := range b.Preds {
				k := 0
				for j := 1; j < len(region.In); j++ {
					if r.Block[region.In[j].ID] == pred {
						k = j
					}
				}
				switch {
				case k == 0:
					bad("b%d: predecessor b%d is no input of %v", b.ID, pred.ID, region)
				case p.Args[i] != cfg.Reg(phi.In[k].ID):
					bad("b%d: %v takes v%d from b%d, want v%d", b.ID, phi, p.Args[i], pred.ID, phi.In[k].ID)
				case !avail(phi.In[k].ID, pred, len(pred.Instrs)):
					bad("b%d: %v's value %v is not available at the end of b%d", b.ID, phi, phi.In[k], pred.ID)
				}
			}
		}
		for i, in := range b.Instrs {
			n := g.Node(in.Node)
			if n == nil {
				bad("b%d: instruction %d is from no live node", b.ID, i)
				continue
			}
			if !sameOp(n, in) {
				bad("b%d: instruction %d (%v) does not compute %v", b.ID, i, in.Op, n)
			}
			for j, x := range n.In {
				if j > 0 && x != nil && !x.IsControl() && !avail(x.ID, b, i) {
					bad("b%d: %v uses %v before it is defined", b.ID, n, x)
				}
			}
			if n.Op == son.OpZeroCheck && r.Block[n.ID] != b {
				bad("b%d: the check of %v left its block", b.ID, n)
			}
			if c := n.Ctrl(); (n.Op == son.OpDiv || n.Op == son.OpMod) && c != nil {
				if !avail(c.ID, b, i) {
					bad("b%d: %v is not below its check %v", b.ID, n, c)
				}
			}
		}
		if t := b.Term; t.Kind == cfg.TermBranch || t.Kind == cfg.TermReturn {
			if n := g.Node(t.Node); n == nil || r.Block[n.ID] != b || cfg.Reg(n.In[1].ID) != t.Reg {
				bad("b%d: the terminator is not its node's", b.ID)
			} else if !avail(n.In[1].ID, b, len(b.Instrs)) {
				bad("b%d: %v uses %v before it is defined", b.ID, n, n.In[1])
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New("the schedule does not hold:\n\t" + strings.Join(probs, "\n\t"))
}

// sameOp reports whether instruction in computes node n.
func sameOp(n *son.Node, in *cfg.Instr) bool {
	args := func(xs ...*son.Node) bool {
		if len(xs) != len(in.Args) {
			return false
		}
		for i, x := range xs {
			if cfg.Reg(x.ID) != in.Args[i] {
				return false
			}
		}
		return true
	}
	switch n.Op {
	case son.OpZeroCheck:
		return in.Op == cfg.OpCheck && args(n.In[1])
	case son.OpConstant:
		return in.Op == cfg.OpConst && in.Aux == n.Aux && in.Dst == cfg.Reg(n.ID)
	case son.OpProj:
		return in.Op == cfg.OpArg && in.Dst == cfg.Reg(n.ID)
	case son.OpMinus:
		return in.Op == cfg.OpNeg && args(n.In[1])
	case son.OpNot:
		return in.Op == cfg.OpNot && args(n.In[1])
	}
	return in.Op == binaryOps[n.Op] && in.Op != cfg.OpInvalid && in.Dst == cfg.Reg(n.ID) && args(n.In[1], n.In[2])
}
