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
	passed map[soundKey]struct{}
	// Hits counts the nodes answered from the memo alone.
	Hits int
}

// soundKey is what a passing sample of a node reads: op, the node's
// claim t, the claims a and b of its operands (a Phi: of one input).
type soundKey struct {
	op      Op
	t, a, b types.Type
}

// maxSoundMemo bounds the remembered checks, so that a graph whose nodes
// are all different costs no more than a map of this size.
const maxSoundMemo = 4096

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
	_, ok := m.passed[k]
	return ok
}

func (m *SoundMemo) remember(k soundKey) {
	if m.passed == nil {
		m.passed = make(map[soundKey]struct{})
	}
	if len(m.passed) < maxSoundMemo {
		m.passed[k] = struct{}{}
	}
}
