// Package ssagen builds the SSA form of an RTL function (cfg.RTL) by
// Cytron, Ferrante, Rosen, Wegman and Zadeck's algorithm (TOPLAS 1991), as
// CompCertSSA's untrusted generator does (paper 003, section 5): the
// dominator tree (Lengauer and Tarjan), dominance frontiers (by walking up
// from the predecessors of each junction), Phis at the iterated dominance
// frontiers of each register's definitions, and renaming along the
// dominator tree. Three flavours place fewer or more Phis:
//
//   - Minimal: a Phi for x at every junction of the iterated dominance
//     frontier of x's definitions;
//   - SemiPruned: the same, only for the registers used in some block
//     before any assignment in it (Briggs et al.'s "non-local names"): a
//     register only ever used in the block that assigns it needs none;
//   - Pruned: only where x is live. The liveness is computed sparsely, on
//     the semi-pruned form after renaming: a Phi is live if an instruction
//     or terminator uses it, directly or through live Phis, and the others
//     are removed (pruneDead). A Phi for x at j survives exactly when some
//     path from j reaches a use of x with no assignment of x on the way,
//     the definition of x live at j; this costs O(size of the semi-pruned
//     form), where a dense liveness over the RTL costs blocks × registers.
//
// Besides the SSA function, Build returns the hint of paper 003, section
// 5.5, that package ssacheck validates it with: the index of each
// definition and the Phis of each junction.
//
// The RTL register x becomes the versions x_1, x_2, ... (one per
// definition, numbered in the order of the renaming walk), each a fresh
// SSA register. A Phi whose argument has no definition reaching it (x is
// not assigned on some path to the junction, as a variable declared in a
// loop body is not on the loop's entry edge) is dropped, and so are the
// Phis that take it as an argument; a use of x with no single reaching
// definition is an error, since the RTL would read an unassigned register.
//
// The cost is O(n + m + r) for the dominators, frontiers and renaming, plus
// the placement's Σ over definitions of the frontier sizes (Cytron's
// bound). Nothing recurses.
package ssagen

import (
	"fmt"

	"son/cfg"
	"son/internal/dom"
	"son/ssacheck"
)

// Flavour says where Phis go.
type Flavour uint8

const (
	Minimal Flavour = iota
	SemiPruned
	Pruned
)

// Flavours lists the flavours, for tests and benchmarks.
var Flavours = []Flavour{Minimal, SemiPruned, Pruned}

func (f Flavour) String() string {
	switch f {
	case Minimal:
		return "minimal"
	case SemiPruned:
		return "semi-pruned"
	case Pruned:
		return "pruned"
	}
	return fmt.Sprintf("Flavour(%d)", f)
}

// ParseFlavour is the flavour of a name String returns.
func ParseFlavour(s string) (Flavour, bool) {
	for _, f := range Flavours {
		if f.String() == s {
			return f, true
		}
	}
	return 0, false
}

// Version is the RTL register and index an SSA register stands for.
type Version struct {
	Reg   cfg.Reg
	Index int32
}

// Result is the SSA form of an RTL function.
type Result struct {
	Func *cfg.Func      // at the SSA level; the blocks of the RTL, in the same order, with the same IDs
	Hint *ssacheck.Hint // for ssacheck.Validate
	// Versions[r] is what SSA register r stands for (Versions[0] is unused).
	Versions []Version
	Placed   int // the Phis the placement put (before Pruned's removal of dead ones and the dropping of partial ones)
	Phis     int // the Phis of Func
}

// Build returns the SSA form of the RTL function f in flavour fl. f must
// pass cfg.Verify at the RTL level (normalized, every block reachable);
// it is not changed.
func Build(f *cfg.Func, fl Flavour) (*Result, error) {
	if f == nil || f.Level != cfg.RTL {
		return nil, fmt.Errorf("ssagen: not an RTL function")
	}
	if fl > Pruned {
		return nil, fmt.Errorf("ssagen: unknown flavour %d", fl)
	}
	if err := cfg.Verify(f); err != nil {
		return nil, fmt.Errorf("ssagen: %w", err)
	}
	g := newGen(f)
	g.frontiers()
	g.place(fl)
	if err := g.rename(fl == Pruned); err != nil {
		return nil, err
	}
	return g.result(), nil
}

// gen is the state of one generation. Blocks are by position; RTL
// registers are numbered densely as variables.
type gen struct {
	f     *cfg.Func
	n     int
	pos   map[*cfg.Block]int
	vars  map[cfg.Reg]int32 // RTL register -> variable
	regOf []cfg.Reg         // variable -> RTL register
	tree  *dom.Tree
	df    [][]int32 // dominance frontier of each block
	defs  [][]int32 // blocks assigning each variable, each once
	phis  [][]int32 // the variables with a Phi at each block, in placement order

	mentions       [][]int32 // by block: its register mentions as variables (see newGen)
	nInstrs, nArgs int       // sizes, for the SSA function's slabs

	// Renaming.
	out      []*cfg.Block // the SSA blocks, by position
	instrs   []cfg.Instr  // the rest of the slab of instructions
	args     []cfg.Reg    // the rest of the slab of arguments
	hint     *ssacheck.Hint
	versions []Version // by SSA register
	count    []int32   // versions made of each variable
	cur      []cfg.Reg // the register of each variable's most recent definition, 0 for none
	log      []undo    // the changes to cur, for leaving subtrees
	succK    []int     // for a block entering a junction: its index among the junction's Preds
	err      error
}

func newGen(f *cfg.Func) *gen {
	g := &gen{f: f, n: len(f.Blocks), pos: make(map[*cfg.Block]int, len(f.Blocks)), vars: map[cfg.Reg]int32{}}
	for i, b := range f.Blocks {
		g.pos[b] = i
	}
	// Every register mention, as a variable, in the order renaming meets
	// them: per instruction its arguments then its destination (-1 for a
	// Check), per block then its terminator's register (-1 for a jump).
	g.mentions = make([][]int32, g.n)
	for i, b := range f.Blocks {
		var m []int32
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				m = append(m, g.variable(a))
			}
			d := int32(-1)
			if in.Op.HasDst() {
				d = g.variable(in.Dst)
				if l := len(g.defs[d]); l == 0 || g.defs[d][l-1] != int32(i) {
					g.defs[d] = append(g.defs[d], int32(i))
				}
			}
			m = append(m, d)
			g.nInstrs++
			g.nArgs += len(in.Args)
		}
		t := int32(-1)
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			t = g.variable(b.Term.Reg)
		}
		g.mentions[i] = append(m, t)
	}
	return g
}

// variable returns the variable of RTL register r, making it if new.
func (g *gen) variable(r cfg.Reg) int32 {
	x, ok := g.vars[r]
	if !ok {
		x = int32(len(g.regOf))
		g.vars[r] = x
		g.regOf = append(g.regOf, r)
		g.defs = append(g.defs, nil)
	}
	return x
}

// frontiers computes the dominator tree and the dominance frontiers: a
// junction j is in the frontier of every block on the dominator tree path
// from each of its predecessors up to, not including, idom(j) (Cooper,
// Harvey and Kennedy's formulation of Cytron et al.'s sets).
func (g *gen) frontiers() {
	succ := make([][]int, g.n)
	for i, b := range g.f.Blocks {
		for _, s := range b.Succs() {
			succ[i] = append(succ[i], g.pos[s])
		}
	}
	g.tree = dom.NewTree(dom.LengauerTarjan(succ))
	g.df = make([][]int32, g.n)
	for j, b := range g.f.Blocks {
		if len(b.Preds) < 2 {
			continue
		}
		stop := g.tree.Idom(j)
		for _, p := range b.Preds {
			for r := g.pos[p]; r != stop; r = g.tree.Idom(r) {
				if l := len(g.df[r]); l > 0 && g.df[r][l-1] == int32(j) {
					break // walked already from another predecessor of j
				}
				g.df[r] = append(g.df[r], int32(j))
			}
		}
	}
}
