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
// by CheckTransfer, whose message is the answer. The zero SoundMemo is
// ready to use.
type SoundMemo struct {
	// slots is a direct-mapped cache by a hash of the key (64 KB, made
	// at the first pass): a Go map of the keys grew to megabytes on a
	// large graph, for about as many hits.
	slots *[soundSlots]soundKey
	// Hits counts the nodes answered from the memo alone.
	Hits int
}

// soundKey is what a passing sample of a node reads: op, the node's
// claim t, the claims a and b of its operands (a Phi: of one input).
// A slot with op OpInvalid is empty.
type soundKey struct {
	op      Op
	t, a, b types.Type
}

// soundSlots is the size of the cache: a power of two.
const soundSlots = 1 << soundBits

const soundBits = 9

// slot is k's place in the cache.
func (k *soundKey) slot() uint64 {
	const mul = 0x9e3779b97f4a7c15
	h := uint64(k.op) * mul
	for _, t := range [...]*types.Type{&k.t, &k.a, &k.b} {
		h = (h ^ uint64(t.Kind())) * mul
		h = (h ^ uint64(t.Lo())) * mul
		h = (h ^ uint64(t.Hi())) * mul
	}
	return h >> (64 - soundBits)
}

// CheckTransfer is CheckTransfer(n, t, typ), the same verdict and the
// same message: checkSound's cases, with the samples of a unary or binary
// node, or of a Phi's input, looked up before they are taken.
func (m *SoundMemo) CheckTransfer(n *Node, t types.Type, typ func(*Node) types.Type) string {
	switch {
	case n.Op == OpPhi:
		return m.checkPhi(n, t, typ)
	case !n.Op.IsBinary() && !n.Op.IsUnary():
		return checkSound(n, t, typ)
	}
	// checkSound's cases that take no sample.
	for _, x := range n.In[1:] {
		if x == nil || x.dead {
			return ""
		}
	}
	if c := n.In[0]; c != nil && (n.Op == OpDiv || n.Op == OpMod) && !typ(c).IsCtrl() {
		return ""
	}
	if allResults(n.Op, t) {
		return ""
	}
	k := soundKey{op: n.Op, t: t, a: typ(n.In[1])}
	if n.Op.IsBinary() {
		k.b = typ(n.In[2])
	}
	if m.known(k) {
		m.Hits++
		return ""
	}
	msg := checkSound(n, t, typ)
	if msg == "" {
		m.remember(k)
	}
	return msg
}

// checkPhi is checkSoundPhi with each input's samples remembered.
func (m *SoundMemo) checkPhi(n *Node, t types.Type, typ func(*Node) types.Type) string {
	r := n.In[0]
	if r == nil || !r.Op.IsRegion() || r.InProgress() || n.InProgress() || !typ(r).IsCtrl() {
		return ""
	}
	if r.Op == OpLoop && !typ(r.In[1]).IsCtrl() {
		return ""
	}
	hit := true
	var buf [maxSamples]int64
	for i := 1; i < len(n.In) && i < len(r.In); i++ {
		c, x := r.In[i], n.In[i]
		if c == nil || x == nil || x.dead || !typ(c).IsCtrl() {
			continue
		}
		k := soundKey{op: OpPhi, t: t, a: typ(x)}
		if m.known(k) {
			continue
		}
		hit = false
		for _, v := range samplePoints(buf[:], k.a, false) {
			if !t.Contains(v) {
				return checkSoundPhi(n, t, typ)
			}
		}
		m.remember(k)
	}
	if hit {
		m.Hits++
	}
	return ""
}

func (m *SoundMemo) known(k soundKey) bool {
	return m.slots != nil && m.slots[k.slot()] == k
}

func (m *SoundMemo) remember(k soundKey) {
	if m.slots == nil {
		m.slots = new([soundSlots]soundKey)
	}
	m.slots[k.slot()] = k
}
