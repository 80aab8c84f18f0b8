// Apply, the rewrite of a validated numbering, and the copy propagation and
// dead-code removal it ends with (paper 003, section 6.2). Cost: O(n).

package gvn

import (
	"son/cfg"
	"son/internal/numbering"
)

// Stats says what Apply did.
type Stats struct {
	Replaced int // definitions made copies of a congruent, dominating one
	Copies   int // copies propagated: their uses renamed (the replaced ones and any the input had)
	Removed  int // definitions removed as unused: the copies, and what only they used
}

// Apply rewrites the function as the validated proposal says: each
// replaced instruction becomes a Copy of its replacement and each
// replaced Phi a Copy at the start of its block; then PropagateCopies and
// removeDead.
func (v *Valid) Apply() Stats {
	var st Stats
	var phis map[*cfg.Block]map[*cfg.Phi]cfg.Reg // replaced Phis, and by what
	for _, rp := range v.p.Replace {
		s, _ := v.site(rp.Dst)
		st.Replaced++
		if !s.phi {
			*s.in = cfg.Instr{Op: cfg.OpCopy, Dst: rp.Dst, Args: []cfg.Reg{rp.By}, Pos: s.in.Pos, Node: s.in.Node}
			continue
		}
		if phis == nil {
			phis = map[*cfg.Block]map[*cfg.Phi]cfg.Reg{}
		}
		if phis[s.b] == nil {
			phis[s.b] = map[*cfg.Phi]cfg.Reg{}
		}
		phis[s.b][s.ph] = rp.By
	}
	for b, gone := range phis {
		var copies []*cfg.Instr
		kept := b.Phis[:0]
		for _, ph := range b.Phis {
			if by, ok := gone[ph]; ok {
				copies = append(copies, &cfg.Instr{Op: cfg.OpCopy, Dst: ph.Dst, Args: []cfg.Reg{by}, Pos: ph.Pos, Node: ph.Node})
			} else {
				kept = append(kept, ph)
			}
		}
		clear(b.Phis[len(kept):])
		b.Phis = kept
		b.Instrs = append(copies, b.Instrs...)
	}
	st.Copies = PropagateCopies(v.f)
	// The validator's table numbers the same definitions: the rewrite
	// made some copies, of the same registers, and none new (if it did,
	// removeDead makes a table of its own).
	st.Removed = removeDead(v.f, v.sites, len(v.places))
	return st
}

// PropagateCopies makes every use of the destination of a Copy read the
// copy's source, following chains of copies to their end (paper 003,
// section 6.2: in SSA, the definition x = y holds wherever x is used). It
// returns the number of copies; they are left in place, unused. f must
// pass cfg.Verify: a Copy's source is then defined before it, and chains
// of copies end.
func PropagateCopies(f *cfg.Func) int {
	src := map[cfg.Reg]cfg.Reg{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == cfg.OpCopy && len(in.Args) == 1 {
				src[in.Dst] = in.Args[0]
			}
		}
	}
	if len(src) == 0 {
		return 0
	}
	// root follows a chain to its end and points every copy on it there.
	var chain []cfg.Reg
	root := func(r cfg.Reg) cfg.Reg {
		chain = chain[:0]
		for {
			s, ok := src[r]
			if !ok || s == r || len(chain) > len(src) {
				break
			}
			chain = append(chain, r)
			r = s
		}
		for _, c := range chain {
			src[c] = r
		}
		return r
	}
	for _, b := range f.Blocks {
		for _, ph := range b.Phis {
			for k, a := range ph.Args {
				ph.Args[k] = root(a)
			}
		}
		for _, in := range b.Instrs {
			for k, a := range in.Args {
				in.Args[k] = root(a)
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			b.Term.Reg = root(b.Term.Reg)
		}
	}
	return len(src)
}

// removeDead removes the Phis and instructions whose register nothing
// live uses: live are the registers of terminators and Checks, and the
// arguments of the definitions of live registers. Checks stay; so a
// division with no use goes but its Check stays (a division that has
// passed its Check is pure). Cycles of Phis that only feed each other go
// too. It returns the number of definitions removed, in O(n). If index is
// not nil, it gives the register of each definition of f a number of its
// own below n, which removeDead then need not make (Apply passes the
// validator's); a definition the table does not number, or numbers as
// another's, makes it drop the table and make its own.
func removeDead(f *cfg.Func, index *numbering.Table, n int) int {
	// The definitions by register through internal/numbering's table and
	// their marks in an array (were two Go maps).
	type def struct {
		ph *cfg.Phi
		in *cfg.Instr
	}
	var defs []def
	if index != nil {
		defs = make([]def, n)
		put := func(r cfg.Reg, d def) bool {
			i := index.Lookup(int64(r))
			if i < 0 || int(i) >= n || defs[i] != (def{}) {
				return false
			}
			defs[i] = d
			return true
		}
	fill:
		for _, b := range f.Blocks {
			for _, ph := range b.Phis {
				if !put(ph.Dst, def{ph: ph}) {
					index = nil
					break fill
				}
			}
			for _, in := range b.Instrs {
				if in.Op.HasDst() && !put(in.Dst, def{in: in}) {
					index = nil
					break fill
				}
			}
		}
	}
	if index == nil {
		n = 0
		var maxReg cfg.Reg
		for _, b := range f.Blocks {
			n += len(b.Phis) + len(b.Instrs)
			for _, ph := range b.Phis {
				maxReg = max(maxReg, ph.Dst)
			}
			for _, in := range b.Instrs {
				maxReg = max(maxReg, in.Dst)
			}
		}
		index = numbering.New(n, int64(maxReg))
		defs = make([]def, 0, n)
		for _, b := range f.Blocks {
			for _, ph := range b.Phis {
				index.Set(int64(ph.Dst), int32(len(defs)))
				defs = append(defs, def{ph: ph})
			}
			for _, in := range b.Instrs {
				if in.Op.HasDst() {
					index.Set(int64(in.Dst), int32(len(defs)))
					defs = append(defs, def{in: in})
				}
			}
		}
	}
	live := make([]bool, len(defs))
	isLive := func(r cfg.Reg) bool {
		i := index.Lookup(int64(r))
		return i >= 0 && live[i]
	}
	var work []int32
	mark := func(r cfg.Reg) {
		// A register with no definition has nothing to keep.
		if i := index.Lookup(int64(r)); i >= 0 && !live[i] {
			live[i] = true
			work = append(work, i)
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if !in.Op.HasDst() {
				for _, a := range in.Args {
					mark(a)
				}
			}
		}
		if b.Term.Kind == cfg.TermBranch || b.Term.Kind == cfg.TermReturn {
			mark(b.Term.Reg)
		}
	}
	for len(work) > 0 {
		d := defs[work[len(work)-1]]
		work = work[:len(work)-1]
		switch {
		case d.ph != nil:
			for _, a := range d.ph.Args {
				mark(a)
			}
		case d.in != nil:
			for _, a := range d.in.Args {
				mark(a)
			}
		}
	}
	removed := 0
	for _, b := range f.Blocks {
		phis := b.Phis[:0]
		for _, ph := range b.Phis {
			if isLive(ph.Dst) {
				phis = append(phis, ph)
			} else {
				removed++
			}
		}
		clear(b.Phis[len(phis):])
		b.Phis = phis
		instrs := b.Instrs[:0]
		for _, in := range b.Instrs {
			if !in.Op.HasDst() || isLive(in.Dst) {
				instrs = append(instrs, in)
			} else {
				removed++
			}
		}
		clear(b.Instrs[len(instrs):])
		b.Instrs = instrs
	}
	return removed
}
