// The typing pass: local typings inferred along the dominator tree,
// checking use_ok, ASSIG, USES and NASSIG (paper 003, sections 5.1 and
// 5.5). Cost: O(n + m + r + Σ|DF|·d), as the package doc says.

package ssacheck

import (
	"son/cfg"
	"son/internal/dom"
)

// typing is the second pass: the inference of local typings along the
// dominator tree, checking every use (use_ok), every Phi argument (USES)
// and the junctions where no Phi assigns a variable whose incoming
// indices may differ (NASSIG, as ⊥). It runs after structure has
// succeeded, so the blocks, edges and names are those of the RTL.
func (v *validator) typing() {
	n := v.n
	ssa := v.ssa

	// The dominator tree, by Cooper, Harvey and Kennedy's algorithm.
	succ := make([][]int, n)
	for i, b := range ssa.Blocks {
		for _, s := range b.Succs() {
			succ[i] = append(succ[i], v.pos[s])
		}
	}
	idom := dom.CooperHarveyKennedy(succ)
	childStart := make([]int, n+1)
	for i, d := range idom {
		if d < 0 {
			v.bad(ssa.Blocks[i], "", "reachable", "the block is not reachable from the entry")
		} else if i != 0 {
			childStart[d+1]++
		}
	}
	if len(v.probs) > 0 {
		return
	}
	for i := range n {
		childStart[i+1] += childStart[i]
	}
	child := make([]int, n)
	fill := append([]int(nil), childStart[:n]...)
	for i := 1; i < n; i++ {
		child[fill[idom[i]]] = i
		fill[idom[i]]++
	}

	// Dominance frontiers, by walking up from each predecessor of each
	// junction to the junction's immediate dominator.
	df := make([][]int32, n)
	for j, b := range ssa.Blocks {
		if len(b.Preds) < 2 {
			continue
		}
		for _, p := range b.Preds {
			for r := v.pos[p]; r != idom[j]; r = idom[r] {
				if l := len(df[r]); l > 0 && df[r][l-1] == int32(j) {
					break // this walk was done from another predecessor
				}
				df[r] = append(df[r], int32(j))
			}
		}
	}

	// The RTL registers, densely, and the blocks defining each.
	vars := make(map[cfg.Reg]int32)
	dense := func(x cfg.Reg) int32 {
		d, ok := vars[x]
		if !ok {
			d = int32(len(vars))
			vars[x] = d
		}
		return d
	}
	var defBlocks [][]int32
	addDef := func(x cfg.Reg, b int) {
		d := dense(x)
		for int(d) >= len(defBlocks) {
			defBlocks = append(defBlocks, nil)
		}
		if l := len(defBlocks[d]); l == 0 || defBlocks[d][l-1] != int32(b) {
			defBlocks[d] = append(defBlocks[d], int32(b))
		}
	}
	for i := range ssa.Blocks {
		for _, h := range v.hint.Phis[i] {
			addDef(h.Reg, i)
		}
		for _, in := range v.rtl.Blocks[i].Instrs {
			if in.Op.HasDst() {
				addDef(in.Dst, i)
			}
		}
	}

	// ⊥ at the junctions of the iterated dominance frontier of each
	// variable's definitions that have no Phi for it.
	phiMark := make([]int32, n) // 1 + the variable whose Phi blocks are marked
	botMark := make([]int32, n) // 1 + the variable last marked ⊥ at the block
	bot := make([][]int32, n)   // the variables ⊥ on entry to each block
	var work []int32
	for x := range defBlocks {
		stamp := int32(x) + 1
		for _, b := range defBlocks[x] {
			for _, h := range v.hint.Phis[b] {
				if vars[h.Reg] == int32(x) {
					phiMark[b] = stamp
				}
			}
		}
		work = append(work[:0], defBlocks[x]...)
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, j := range df[b] {
				if phiMark[j] == stamp || botMark[j] == stamp {
					continue
				}
				botMark[j] = stamp
				bot[j] = append(bot[j], int32(x))
				work = append(work, j)
			}
		}
	}

	// The walk: cur[x] is the register the local typing gives x (0 for
	// ⊥); the undo log restores it on leaving a subtree.
	v.vars, v.bot = vars, bot
	v.cur = make([]cfg.Reg, len(defBlocks))
	v.succK = make([]int, n)
	for _, s := range ssa.Blocks {
		if len(s.Preds) >= 2 {
			for k, p := range s.Preds {
				v.succK[v.pos[p]] = k
			}
		}
	}
	type frame struct{ b, next, mark int }
	stack := []frame{{0, 0, 0}}
	v.enter(0)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if c := childStart[top.b] + top.next; c < childStart[top.b+1] {
			top.next++
			w := child[c]
			stack = append(stack, frame{w, 0, len(v.log)})
			v.enter(w)
			continue
		}
		for k := len(v.log) - 1; k >= top.mark; k-- {
			v.cur[v.log[k].x] = v.log[k].old
		}
		v.log = v.log[:top.mark]
		stack = stack[:len(stack)-1]
	}
}

// undo is a local typing's entry before a definition changed it.
type undo struct {
	x   int32
	old cfg.Reg
}

func (v *validator) set(x int32, r cfg.Reg) {
	v.log = append(v.log, undo{x, v.cur[x]})
	v.cur[x] = r
}

// use checks that the local typing gives the variable of u the index of u.
func (v *validator) use(s site, u cfg.Reg) {
	x := v.name[u]
	have := v.cur[v.vars[x.x]]
	switch {
	case have == u:
	case have == 0:
		v.bad(s.b, s.String(), "use", "%v is %v, but no single definition of %v reaches here: the local typing gives %v ⊥", u, x, x.x, x.x)
	default:
		v.bad(s.b, s.String(), "use", "%v is %v, but the local typing gives %v the index %d here (%v)", u, x, x.x, v.name[have].i, have)
	}
}

// enter types block i: its Phis and ⊥s, its instructions and terminator,
// then the argument its successor's Phis take from it.
func (v *validator) enter(i int) {
	b := v.ssa.Blocks[i]
	for k, p := range b.Phis {
		v.set(v.vars[v.hint.Phis[i][k].Reg], p.Dst)
	}
	for _, x := range v.bot[i] {
		v.set(x, 0)
	}
	for k, in := range b.Instrs {
		for _, a := range in.Args {
			v.use(site{b: b, k: k}, a)
		}
		if in.Op.HasDst() {
			v.set(v.vars[v.rtl.Blocks[i].Instrs[k].Dst], in.Dst)
		}
	}
	if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
		v.use(site{b: b, k: -1}, b.Term.Reg)
	}
	if len(b.Succs()) != 1 || len(b.Succs()[0].Phis) == 0 {
		return
	}
	s, k := b.Succs()[0], v.succK[i]
	for j := range s.Phis {
		v.use(site{b: b, k: k, phi: j, to: s}, s.Phis[j].Args[k])
	}
}
