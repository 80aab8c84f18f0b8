package son

import "son/types"

// SoundMemo is CheckTransfer for a checker that asks it of every node of a
// large graph (opt.CheckSCCP), with the samples that passed remembered:
// a unary or binary node's by op, claim and inputs' claims, which are all
// its sampling reads, and a Phi's for each input that control may take by
// the claim and that input's claim. A node whose samples were all
// remembered is not sampled again. Generated code repeats them: the
// sampling was the largest part of the checker's instructions (16% of the
// sccp pass at 10k and 100k nodes), and most of it sampled the same few
// ranges again. A failure is not remembered: the node is checked in full,
// by CheckTransfer, whose message is the answer. The zero SoundMemo
// remembers nothing.
type SoundMemo struct {
	// slots is a direct-mapped cache by a hash of the key, of a size
	// set by NewSoundMemo: a Go map of every key grew to 2.4 MB a run
	// on a graph of 100k nodes, for a few more hits.
	slots []soundKey
	shift uint // 64 - log2(len(slots))
	// Hits counts the nodes answered from the memo alone.
	Hits int
}

// NewSoundMemo returns a memo for checking a graph of about n nodes: a
// slot for every 64 nodes (a power of two), from 64 to 1024 (8 to 128
// KB), so that its bytes per node stay small on a small graph.
func NewSoundMemo(n int) *SoundMemo {
	bits := uint(6)
	for bits < 10 && 64<<bits < n {
		bits++
	}
	return &SoundMemo{slots: make([]soundKey, 1<<bits), shift: 64 - bits}
}

// soundKey is what a passing sample of a node reads: op, the node's
// claim t, the claims a and b of its operands (a Phi: of one input).
// A slot with op OpInvalid is empty.
type soundKey struct {
	op      Op
	t, a, b types.Type
}

// slot is k's place in m.slots.
func (m *SoundMemo) slot(k *soundKey) *soundKey {
	const mul = 0x9e3779b97f4a7c15
	h := uint64(k.op) * mul
	h = (h ^ uint64(k.t.Lo()) ^ uint64(k.t.Kind())<<59) * mul
	h = (h ^ uint64(k.t.Hi())) * mul
	h = (h ^ uint64(k.a.Lo()) ^ uint64(k.a.Kind())<<59) * mul
	h = (h ^ uint64(k.a.Hi())) * mul
	h = (h ^ uint64(k.b.Lo()) ^ uint64(k.b.Kind())<<59) * mul
	h = (h ^ uint64(k.b.Hi())) * mul
	return &m.slots[h>>m.shift]
}

// CheckTransfer is CheckTransfer(n, t, typ), the same verdict and the
// same message: checkSound's cases (unsampled, phiUnjudged, phiArrives
// shared with it), with the samples of a unary or binary node, or of a
// Phi's input, looked up before they are taken.
func (m *SoundMemo) CheckTransfer(n *Node, t types.Type, typ *Typing) string {
	switch {
	case n.Op == OpPhi:
		return m.checkPhi(n, t, typ)
	case n.Op == OpRefine:
		return checkSound(n, t, typ)
	case !n.Op.IsBinary() && !n.Op.IsUnary():
		return "" // checkSound judges no other op: no call (control nodes, constants)
	}
	if unsampled(n, t, typ) {
		return ""
	}
	k := soundKey{op: n.Op, t: t, a: typ.Of(n.In[1])}
	if n.Op.IsBinary() {
		k.b = typ.Of(n.In[2])
	}
	if m.known(&k) {
		m.Hits++
		return ""
	}
	msg := checkSound(n, t, typ)
	if msg == "" {
		m.remember(&k)
	}
	return msg
}

// checkPhi is checkSoundPhi with each input's samples remembered.
func (m *SoundMemo) checkPhi(n *Node, t types.Type, typ *Typing) string {
	if phiUnjudged(n, typ) {
		return ""
	}
	r := n.In[0]
	hit := true
	var buf [maxSamples]int64
	for i := 1; i < len(n.In) && i < len(r.In); i++ {
		c, x := r.In[i], n.In[i]
		if !phiArrives(c, x, typ) {
			continue
		}
		a := typ.Of(x)
		if a.Same(&t) {
			continue // every sample of the claim itself lies within it
		}
		k := soundKey{op: OpPhi, t: t, a: a}
		if m.known(&k) {
			continue
		}
		hit = false
		for _, v := range samplePoints(buf[:], k.a, false) {
			if !t.Contains(v) {
				return checkSoundPhi(n, t, typ)
			}
		}
		m.remember(&k)
	}
	if hit {
		m.Hits++
	}
	return ""
}

// known reports whether k's samples passed, as far as the memo remembers.
func (m *SoundMemo) known(k *soundKey) bool {
	if m.slots == nil { // the zero SoundMemo: remembers nothing
		return false
	}
	e := m.slot(k)
	return e.op == k.op && e.t.Same(&k.t) && e.a.Same(&k.a) && e.b.Same(&k.b)
}

func (m *SoundMemo) remember(k *soundKey) {
	if m.slots != nil {
		*m.slot(k) = *k
	}
}
