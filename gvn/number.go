// Number, the untrusted analysis of GVN: Alpern, Wegman and Zadeck's
// optimistic congruence partition and the replacements it proposes along the
// dominator tree (paper 003, section 7). Cost: O(m log n) for the partition,
// plus the dominators.

package gvn

import (
	"fmt"

	"son/cfg"
	"son/internal/dom"
	"son/internal/numbering"
)

// Numbering maps a register to its number, the canonical register of its
// congruence class (paper 003's N : reg → reg). A register absent from the
// map is its own number.
type Numbering map[cfg.Reg]cfg.Reg

// Of returns the number of r.
func (n Numbering) Of(r cfg.Reg) cfg.Reg {
	if m, ok := n[r]; ok {
		return m
	}
	return r
}

// Replacement proposes that the definition of Dst become a copy of By: the
// two have the same number and the definition of By strictly dominates
// that of Dst (paper 003's crep).
type Replacement struct{ Dst, By cfg.Reg }

// Proposal is what Number found: untrusted until Validate accepts it.
type Proposal struct {
	N       Numbering
	Replace []Replacement // in block order of Dst
	Values  int           // registers defined: Phis and instructions other than Check
	Classes int           // congruence classes among them
	// Uses and Work measure the refinement: Uses is the number of
	// argument positions of the values, Work how many of them the
	// splitting looked at, at most Uses·(1+log2 Values) (Hopcroft).
	Uses, Work int
}

// value is one register of the function being numbered: defined by a Phi
// or an instruction of block, or by nothing (a parameter, block -1). Its
// arguments are in the numberer's flat array (24 bytes a value, not 48).
type value struct {
	reg   cfg.Reg
	block int32
	phi   bool
	op    cfg.Op
	aux   int64 // the constant of a Const
}

// label is what puts values in one class before any splitting.
type label struct {
	aux   int64
	block int32 // the Phi's block; the parameter's value index
	n     int32 // number of arguments
	kind  uint8 // 1 instruction, 2 Phi, 3 parameter
	op    cfg.Op
}

// numberer holds the values of a function, their arguments and uses.
type numberer struct {
	f     *cfg.Func
	pos   *numbering.Table // block ID -> position in f.Blocks
	vals  []value
	first []int32          // first[b]: the first value of block b; first[len(Blocks)] ends the last
	byReg *numbering.Table // register -> value
	// The values of the arguments of definition v are
	// argv[argStart[v]:argStart[v+1]]; the uses of value w, pairs (user,
	// position), are usePairs[2*useStart[w]:2*useStart[w+1]]. Flat arrays,
	// not a slice per value (48 bytes a value for the two).
	argStart, argv     []int32
	useStart, usePairs []int32
	maxArg             int
}

// args returns the values of the arguments of value v (none for a
// parameter).
func (x *numberer) args(v int32) []int32 {
	if int(v)+1 >= len(x.argStart) {
		return nil
	}
	return x.argv[x.argStart[v]:x.argStart[v+1]]
}

// useOf returns the uses of value w: pairs (user, position).
func (x *numberer) useOf(w int32) []int32 {
	return x.usePairs[2*x.useStart[w] : 2*x.useStart[w+1]]
}

// Number computes the optimistic congruence partition of the registers of
// f and proposes replacements. f must be at the SSA level; it should pass
// cfg.Verify (Number reports what would make it fail, not every rule).
func Number(f *cfg.Func) (*Proposal, error) {
	x, err := collect(f)
	if err != nil {
		return nil, err
	}
	p, work := x.refine()
	pr := x.propose(p)
	pr.Work = work
	pr.Uses = len(x.argv)
	return pr, nil
}

// collect makes the values of f: each block's Phis, then its instructions,
// then the parameters, registers used but defined nowhere.
func collect(f *cfg.Func) (*numberer, error) {
	if f.Level != cfg.SSA {
		return nil, fmt.Errorf("gvn: function %s is at the %v level, not SSA", f.Name, f.Level)
	}
	if len(f.Blocks) == 0 {
		return nil, fmt.Errorf("gvn: function %s has no blocks", f.Name)
	}
	// The tables by block ID and by register (Go maps were a fifth of
	// the pass), sized once.
	x := &numberer{f: f}
	defs, maxID, nArgs := 0, 0, 0
	var maxReg cfg.Reg
	for i, b := range f.Blocks {
		if b == nil {
			return nil, fmt.Errorf("gvn: Blocks[%d] is nil", i)
		}
		defs += len(b.Phis) + len(b.Instrs)
		maxID = max(maxID, b.ID)
		for _, ph := range b.Phis {
			if ph != nil {
				maxReg = max(maxReg, ph.Dst)
				nArgs += len(ph.Args)
			}
		}
		for _, in := range b.Instrs {
			if in != nil {
				maxReg = max(maxReg, in.Dst)
				if in.Op.HasDst() {
					nArgs += len(in.Args)
				}
			}
		}
	}
	x.pos = numbering.New(len(f.Blocks), int64(maxID))
	for i, b := range f.Blocks {
		if j := x.pos.Lookup(int64(b.ID)); j >= 0 {
			if f.Blocks[j] == b {
				return nil, fmt.Errorf("gvn: %v is listed twice", b)
			}
			return nil, fmt.Errorf("gvn: %v has the ID of the block at position %d", b, j)
		}
		x.pos.Set(int64(b.ID), int32(i))
	}
	x.byReg = numbering.New(defs+1, int64(maxReg))
	x.vals = make([]value, 0, defs+1) // and the parameter
	x.first = make([]int32, 0, len(f.Blocks)+1)
	def := func(v value) error {
		if v.reg <= 0 {
			return fmt.Errorf("gvn: %v defines register %v", f.Blocks[v.block], v.reg)
		}
		if x.byReg.Lookup(int64(v.reg)) >= 0 {
			return fmt.Errorf("gvn: %v is defined twice (second time in %v)", v.reg, f.Blocks[v.block])
		}
		x.byReg.Set(int64(v.reg), int32(len(x.vals)))
		x.vals = append(x.vals, v)
		return nil
	}
	for i, b := range f.Blocks {
		x.first = append(x.first, int32(len(x.vals)))
		for _, s := range b.Succs() {
			if x.at(s) < 0 {
				return nil, fmt.Errorf("gvn: %v has a successor that is not a block of the function", b)
			}
		}
		for _, ph := range b.Phis {
			if ph == nil {
				return nil, fmt.Errorf("gvn: %v has a nil Phi", b)
			}
			if err := def(value{reg: ph.Dst, block: int32(i), phi: true}); err != nil {
				return nil, err
			}
		}
		for _, in := range b.Instrs {
			if in == nil {
				return nil, fmt.Errorf("gvn: %v has a nil instruction", b)
			}
			if !in.Op.HasDst() {
				continue
			}
			v := value{reg: in.Dst, block: int32(i), op: in.Op}
			if in.Op == cfg.OpConst {
				v.aux = in.Aux
			}
			if err := def(v); err != nil {
				return nil, err
			}
		}
	}
	x.first = append(x.first, int32(len(x.vals)))
	nDefs := len(x.vals)
	// The argument lists, and below the use lists, are laid out flat: an
	// allocation per value was most of the pass's. A register used but
	// defined nowhere becomes a parameter when first met, in the order of
	// the definitions and their arguments.
	x.argStart = make([]int32, 0, nDefs+1)
	x.argv = make([]int32, 0, nArgs)
	arg := func(regs []cfg.Reg) {
		x.argStart = append(x.argStart, int32(len(x.argv)))
		x.maxArg = max(x.maxArg, len(regs))
		for _, a := range regs {
			w := x.byReg.Lookup(int64(a))
			if w < 0 {
				w = int32(len(x.vals))
				x.byReg.Set(int64(a), w)
				x.vals = append(x.vals, value{reg: a, block: -1})
			}
			x.argv = append(x.argv, w)
		}
	}
	for _, b := range f.Blocks {
		for _, ph := range b.Phis {
			arg(ph.Args)
		}
		for _, in := range b.Instrs {
			if in.Op.HasDst() {
				arg(in.Args)
			}
		}
	}
	x.argStart = append(x.argStart, int32(len(x.argv)))
	// The uses by counting: useStart[w+1] counts w's, summed into the
	// starts, then each is filled from its start, which ends up at the
	// next one's and is shifted back.
	start := make([]int32, len(x.vals)+1)
	for _, w := range x.argv {
		start[w+1]++
	}
	for w := 1; w < len(start); w++ {
		start[w] += start[w-1]
	}
	pairs := make([]int32, 2*len(x.argv))
	for v := range nDefs {
		for k, w := range x.argv[x.argStart[v]:x.argStart[v+1]] {
			at := start[w]
			pairs[2*at], pairs[2*at+1] = int32(v), int32(k)
			start[w]++
		}
	}
	copy(start[1:], start)
	start[0] = 0
	x.useStart, x.usePairs = start, pairs
	return x, nil
}

// at returns the position of block b, or -1 if b is not a block of the
// function (nil, or one of another function with the ID of one of its
// blocks).
func (x *numberer) at(b *cfg.Block) int32 {
	if b == nil {
		return -1
	}
	i := x.pos.Lookup(int64(b.ID))
	if i < 0 || x.f.Blocks[i] != b {
		return -1
	}
	return i
}

// labels returns the initial class of each value and the number of
// classes: values with the same label share a class.
func (x *numberer) labels() ([]int32, int) {
	ids := newLabelTable()
	lab := make([]int32, len(x.vals))
	for v, val := range x.vals {
		n := int32(len(x.args(int32(v))))
		var l label
		switch {
		case val.block < 0:
			l = label{kind: 3, block: int32(v)}
		case val.phi:
			l = label{kind: 2, block: val.block, n: n}
		default:
			l = label{kind: 1, op: val.op, aux: val.aux, n: n}
		}
		lab[v] = ids.number(l)
	}
	return lab, ids.len()
}

// refine splits the classes of the labels until the arguments of the
// members of every class are congruent, and returns the uses it examined. Taking a class C off the
// worklist, it splits every class by which of its members have their k-th
// argument in C, for each position k; for a commutative op, by how many of
// the two arguments are in C (first some, then both), so that a+b and b+a
// stay together.
func (x *numberer) refine() (*partition, int) {
	lab, n := x.labels()
	p := newPartition(lab, n)
	buckets := make([][]int32, x.maxArg+1) // 0: commutative uses; k+1: uses at position k
	var letters []int
	count := make([]uint8, len(x.vals))
	var splitter []int32
	work := 0
	for c := p.pop(); c >= 0; c = p.pop() {
		splitter = append(splitter[:0], p.members(c)...)
		for _, r := range splitter {
			uses := x.useOf(r)
			work += len(uses) / 2
			for i := 0; i < len(uses); i += 2 {
				v, k := uses[i], int(uses[i+1])
				letter := k + 1
				if commutative(x.vals[v].op) && !x.vals[v].phi {
					letter = 0
				}
				if len(buckets[letter]) == 0 {
					letters = append(letters, letter)
				}
				buckets[letter] = append(buckets[letter], v)
			}
		}
		for _, letter := range letters {
			b := buckets[letter]
			if letter > 0 {
				for _, v := range b {
					p.mark(v)
				}
				p.split()
			} else {
				for _, v := range b {
					if count[v]++; count[v] == 1 {
						p.mark(v)
					}
				}
				p.split()
				for _, v := range b {
					if count[v] == 2 {
						p.mark(v)
						count[v] = 3 // marked
					}
				}
				p.split()
				for _, v := range b {
					count[v] = 0
				}
			}
			buckets[letter] = b[:0]
		}
		letters = letters[:0]
	}
	return p, work
}

// flatSuccs lists the blocks' successors by position, laid out flat as
// the dominators take them: block i's are succ[start[i]:start[i+1]].
func (x *numberer) flatSuccs() (start, succ []int32) {
	n := 0
	for _, b := range x.f.Blocks {
		n += len(b.Succs())
	}
	start, succ = make([]int32, 1, len(x.f.Blocks)+1), make([]int32, 0, n)
	for _, b := range x.f.Blocks {
		for _, s := range b.Succs() {
			succ = append(succ, x.at(s))
		}
		start = append(start, int32(len(succ)))
	}
	return start, succ
}

// propose numbers each class by its first member in block order, and walks
// the dominator tree with, for each class, the member defined on the path
// from the entry, if any: a value of that class met further down is
// replaced by it.
func (x *numberer) propose(p *partition) *Proposal {
	nDefs := int(x.first[len(x.first)-1])
	pr := &Proposal{N: make(Numbering, max(0, len(x.vals)-len(p.start))), Values: nDefs} // a register per member but the first of each class
	canon := make([]int32, len(p.start))
	for c := range canon {
		canon[c] = -1
	}
	for v := range x.vals {
		c := p.class[v]
		if canon[c] < 0 {
			canon[c] = int32(v)
			if v < nDefs {
				pr.Classes++
			}
		} else {
			pr.N[x.vals[v].reg] = x.vals[canon[c]].reg
		}
	}

	// The children lists are all the walk reads of the dominator tree (a
	// dom.Tree's depths, jumps and preorder cost it a quarter of the tree).
	tree := dom.NewChildren(dom.LengauerTarjanFlat(x.flatSuccs()))
	avail := make([]int32, len(p.start)) // 1 + the member available, or 0
	var undo []int32                     // classes made available, block by block
	type frame struct{ b, next, undo int }
	stack := []frame{{b: 0, undo: 0}}
	x.enter(0, p, avail, &undo, pr)
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		kids := tree.Of(fr.b)
		if fr.next < len(kids) {
			k := int(kids[fr.next])
			fr.next++
			stack = append(stack, frame{b: k, undo: len(undo)})
			x.enter(k, p, avail, &undo, pr)
			continue
		}
		for _, c := range undo[fr.undo:] {
			avail[c] = 0
		}
		undo = undo[:fr.undo]
		stack = stack[:len(stack)-1]
	}
	return pr
}

// enter visits the values of block b in order: each is replaced by the
// member of its class available there, or becomes that member. A Const
// is replaced only by one of its own block: a constant is cheaper to
// compute again than to keep in a register, and gcm gives a constant one
// copy per block its uses need it in, so that it is not live across the
// blocks between (on a chain of `?:`, quadratic live sets); replacing a
// copy by one in a dominating block would bring that range back.
func (x *numberer) enter(b int, p *partition, avail []int32, undo *[]int32, pr *Proposal) {
	for v := x.first[b]; v < x.first[b+1]; v++ {
		c := p.class[v]
		if a := avail[c]; a > 0 && x.vals[v].op == cfg.OpConst && !x.vals[v].phi && x.vals[a-1].block != int32(b) {
			avail[c] = 0 // a Const starts its own range (the undo clears it: no Const crosses blocks)
		}
		if a := avail[c]; a > 0 {
			pr.Replace = append(pr.Replace, Replacement{Dst: x.vals[v].reg, By: x.vals[a-1].reg})
			continue
		}
		avail[c] = v + 1
		*undo = append(*undo, c)
	}
}

// commutative reports whether op's two arguments can be swapped.
func commutative(op cfg.Op) bool {
	switch op {
	case cfg.OpAdd, cfg.OpMul, cfg.OpAnd, cfg.OpOr, cfg.OpXor, cfg.OpEq, cfg.OpNe:
		return true
	}
	return false
}
