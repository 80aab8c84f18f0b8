package cfg

import "son/internal/numbering"

// regMap numbers the registers that a function mentions 0..n-1, so that
// Run can keep per-register facts in slices (Verify numbers only the
// definitions, in its own table: defs). Registers are
// looked up in an array by register when their numbers are dense, and in
// an open-addressing table when they are not, as for gcm's, named by node
// ID (19,854 registers up to 550,020 on a 100,000-node program), where a
// Go map cost Verify a third of outssa's CPU.
type regMap struct {
	slots *numbering.Table // register -> slot
	regs  []Reg            // slot -> register
}

// newRegMap numbers the registers > 0 mentioned in f: defined or used by a
// Phi, an instruction or a terminator, in order of first mention.
func newRegMap(f *Func) *regMap {
	var maxReg Reg
	defs := 0
	for _, b := range f.Blocks {
		if b != nil {
			defs += len(b.Phis) + len(b.Instrs)
		}
	}
	forEachReg(f, func(r Reg) { maxReg = max(maxReg, r) })
	m := &regMap{slots: numbering.New(defs, int64(maxReg))}
	forEachReg(f, func(r Reg) {
		if r <= 0 || m.slot(r) >= 0 {
			return
		}
		m.slots.Set(int64(r), int32(len(m.regs)))
		m.regs = append(m.regs, r)
	})
	return m
}

// len is the number of registers.
func (m *regMap) len() int { return len(m.regs) }

// slot returns the number of r, or -1 if r is not a register of f.
func (m *regMap) slot(r Reg) int {
	if r <= 0 {
		return -1
	}
	return int(m.slots.Lookup(int64(r)))
}

// forEachReg calls fn for every register that f mentions, 0 and negative
// ones included, in block order: Phis, instructions, terminator.
func forEachReg(f *Func, fn func(Reg)) {
	for _, b := range f.Blocks {
		if b == nil {
			continue
		}
		for _, p := range b.Phis {
			if p == nil {
				continue
			}
			fn(p.Dst)
			for _, a := range p.Args {
				fn(a)
			}
		}
		for _, in := range b.Instrs {
			if in == nil {
				continue
			}
			fn(in.Dst)
			for _, a := range in.Args {
				fn(a)
			}
		}
		fn(b.Term.Reg)
	}
}
