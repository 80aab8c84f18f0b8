package cfg

// regMap numbers the registers that a function mentions 0..n-1, so that
// Verify and Run can keep per-register facts in slices. Register numbers
// are usually small and dense, and are then looked up in a slice; a
// function with a few huge register numbers uses a map instead.
type regMap struct {
	dense  []int32       // dense[r] is 1 + the slot of r, or 0; nil when sparse is used
	sparse map[Reg]int32 // register -> slot
	regs   []Reg         // slot -> register
}

// newRegMap numbers the registers > 0 mentioned in f: defined or used by a
// Phi, an instruction or a terminator, in order of first mention.
func newRegMap(f *Func) *regMap {
	var maxReg Reg
	mentions := 0
	forEachReg(f, func(r Reg) {
		mentions++
		maxReg = max(maxReg, r)
	})
	m := &regMap{}
	if int64(maxReg) <= 4*int64(mentions)+1024 {
		m.dense = make([]int32, int(maxReg)+1)
	} else {
		m.sparse = make(map[Reg]int32)
	}
	forEachReg(f, func(r Reg) {
		if r <= 0 || m.slot(r) >= 0 {
			return
		}
		if m.dense != nil {
			m.dense[r] = int32(len(m.regs)) + 1
		} else {
			m.sparse[r] = int32(len(m.regs))
		}
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
	if m.dense != nil {
		if int(r) >= len(m.dense) {
			return -1
		}
		return int(m.dense[r]) - 1
	}
	if s, ok := m.sparse[r]; ok {
		return int(s)
	}
	return -1
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
