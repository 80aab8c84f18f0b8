package son

// gvnTable is the value-numbering table: the hashable nodes entered, found
// by op, aux and inputs. It is an open-addressing table of node pointers
// (linear probing, deletion by backward shift) that hashes and compares
// the nodes' own fields: 16 bytes a slot, where a Go map keyed by a copy
// of each node's op, aux and first inputs took about 90 bytes an entry,
// and a lookup builds no key and allocates nothing, however many inputs.
// Each slot keeps its node's hash, as cmd/compile's and Go's maps keep
// theirs: a probe reads a node only when the hashes agree, and removal
// and growth never hash again (reading a node and its inputs' IDs is a
// cache miss or more on a large graph).
type gvnTable struct {
	slots []gvnSlot // n nil: empty; len is 0 or a power of two
	count int
}

// gvnSlot is an entry of the table: a node and the hash of its key.
type gvnSlot struct {
	h uint64
	n *Node
}

// gvnKey is what a lookup looks for: a node's op, aux and inputs. A
// commutative op's two operands match in either order, so that a+b and
// b+a meet.
type gvnKey struct {
	op  Op
	top bool // the Top constant, apart from the constant 0
	aux int64
	in  []*Node
}

// keyOf is n's key, valid while its inputs do not change (unlock takes a
// node out of the table before they do).
func keyOf(n *Node) gvnKey {
	return gvnKey{op: n.Op, top: n.Op == OpConstant && n.Type().IsTop(), aux: n.Aux, in: n.In}
}

func nodeID(n *Node) uint64 {
	if n == nil {
		return 0
	}
	return uint64(n.ID)
}

func mix(h, v uint64) uint64 {
	h = (h ^ v) * 0x9E3779B97F4A7C15
	return h ^ h>>31
}

// swapped reports whether k's operands 1 and 2 are hashed and compared in
// the other order: a commutative op's, put in the order of their IDs.
func (k *gvnKey) swapped() bool {
	return len(k.in) >= 3 && k.op.IsCommutative() && nodeID(k.in[1]) > nodeID(k.in[2])
}

func (k *gvnKey) hash() uint64 {
	h := mix(uint64(k.op), uint64(k.aux))
	if k.top {
		h = mix(h, 1)
	}
	h = mix(h, uint64(len(k.in)))
	in := k.in
	if k.swapped() { // operands 1 and 2 in the other order, then the rest
		h = mix(mix(mix(h, nodeID(in[0])), nodeID(in[2])), nodeID(in[1]))
		in = in[3:]
	}
	for _, x := range in {
		h = mix(h, nodeID(x))
	}
	return h
}

// matches reports whether n has key k.
func (k *gvnKey) matches(n *Node) bool {
	nk := keyOf(n)
	if nk.op != k.op || nk.aux != k.aux || nk.top != k.top || len(nk.in) != len(k.in) {
		return false
	}
	sn, sk := nk.swapped(), k.swapped()
	for i, x := range nk.in {
		j := i
		if sn != sk && (i == 1 || i == 2) {
			j = 3 - i
		}
		if x != k.in[j] {
			return false
		}
	}
	return true
}

// get returns the node entered with key k, or nil, and k's hash (for
// putHashed).
func (t *gvnTable) get(k gvnKey) (*Node, uint64) {
	h := k.hash()
	if t.count == 0 {
		return nil, h
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; t.slots[i].n != nil; i = (i + 1) & mask {
		if s := &t.slots[i]; s.h == h && k.matches(s.n) {
			return s.n, h
		}
	}
	return nil, h
}

// putHashed enters n, whose key, of hash h, is not in the table.
func (t *gvnTable) putHashed(n *Node, h uint64) {
	if (t.count+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	t.insert(gvnSlot{h, n})
	t.count++
}

func (t *gvnTable) insert(s gvnSlot) {
	mask := uint64(len(t.slots) - 1)
	i := s.h & mask
	for t.slots[i].n != nil {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

func (t *gvnTable) grow() {
	old := t.slots
	t.slots = make([]gvnSlot, max(64, 2*len(old)))
	for _, s := range old {
		if s.n != nil {
			t.insert(s)
		}
	}
}

// remove takes n out of the table if it is there, and reports whether it
// was.
func (t *gvnTable) remove(n *Node) bool {
	if t.count == 0 {
		return false
	}
	mask := uint64(len(t.slots) - 1)
	k := keyOf(n)
	i := k.hash() & mask
	for t.slots[i].n != n {
		if t.slots[i].n == nil {
			return false
		}
		i = (i + 1) & mask
	}
	// Backward shift: move up each later entry of the run that may sit in
	// the hole, so that no entry is cut off from its home slot.
	for j := (i + 1) & mask; t.slots[j].n != nil; j = (j + 1) & mask {
		home := t.slots[j].h & mask
		// The entry may move to i if i lies cyclically in [home, j).
		if (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = gvnSlot{}
	t.count--
	return true
}
