package opt

import (
	"slices"

	"son/son"
)

// ZeroCheckRecord is what the checker of the zerocheck pass keeps of the
// graph before the pass, in place of a son.Graph.Clone: each live node's
// op, constant, type and inputs by ID (an SCCPRecord without the labels),
// and the few facts the checker reads through package son, computed when
// recorded: for a ZeroCheck its divisor's son.Unrefined and son.NonZeroKey,
// for a division or remainder those of its divisor, and for a side of an
// If the values (by NonZeroKey) that son.ProvedNonZero says it proves.
// The users of the nodes are not kept: the checker finds them from the
// inputs.
type ZeroCheckRecord struct {
	nodes *SCCPRecord
	start int32 // Start's ID
	// factID lists by ascending ID the nodes that have facts; the facts
	// of factID[i] are fact[factStart[i]:factStart[i+1]], -1 for none:
	// [Unrefined, NonZeroKey] of a check's or a division's divisor, the
	// values a side of an If proves.
	factID    []int32
	factStart []int32
	fact      []int32
}

// RecordZeroCheck records g, well formed, for CheckZeroCheckElim. Cost:
// one walk of the graph, linear in its nodes and edges, plus what
// son.ProvedNonZero reads at each side of an If.
func RecordZeroCheck(g *son.Graph) *ZeroCheckRecord {
	if g == nil || g.Start == nil {
		return nil
	}
	r := &ZeroCheckRecord{nodes: recordNodes(g, false), start: int32(g.Start.ID), factStart: []int32{0}}
	id := func(x *son.Node) int32 {
		if x == nil {
			return -1
		}
		return int32(x.ID)
	}
	// divisor notes x's Unrefined and NonZeroKey.
	divisor := func(x *son.Node) {
		r.fact = append(r.fact, id(son.Unrefined(x)), id(son.NonZeroKey(x)))
	}
	// By ID, so that factID is sorted.
	for i, op := range r.nodes.op {
		n := g.Node(i)
		if op == son.OpInvalid || n == nil {
			continue
		}
		switch {
		case op == son.OpZeroCheck && len(n.In) > 1:
			divisor(n.In[1])
		case (op == son.OpDiv || op == son.OpMod) && len(n.In) > 2:
			divisor(n.In[2])
		case op == son.OpCProj && len(n.In) > 0 && n.In[0] != nil && n.In[0].Op == son.OpIf && len(n.In[0].In) > 1:
			son.ProvedNonZero(n.In[0].In[1], n.Aux, func(x *son.Node) { r.fact = append(r.fact, id(x)) })
		}
		if k := len(r.fact); k > int(r.factStart[len(r.factStart)-1]) {
			r.factID = append(r.factID, int32(i))
			r.factStart = append(r.factStart, int32(k))
		}
	}
	return r
}

// facts are the recorded facts of the node with this ID (none if it has
// none).
func (r *ZeroCheckRecord) facts(id int32) []int32 {
	i, ok := slices.BinarySearch(r.factID, id)
	if !ok {
		return nil
	}
	return r.fact[r.factStart[i]:r.factStart[i+1]]
}

// divisorFact is fact k (0: Unrefined, 1: NonZeroKey) of the divisor of
// the check or division with this ID, -1 if none was recorded.
func (r *ZeroCheckRecord) divisorFact(id int32, k int) int32 {
	if f := r.facts(id); len(f) == 2 {
		return f[k]
	}
	return -1
}

// in is input k of the recorded node id, -1 for none.
func (r *ZeroCheckRecord) in(id int32, k int) int32 {
	if id < 0 || !r.nodes.has(int(id)) {
		return -1
	}
	if ins := r.nodes.inputs(int(id)); k < len(ins) {
		return ins[k]
	}
	return -1
}

// opOf is the recorded op of the node with this ID, OpInvalid if it was
// not live.
func (r *ZeroCheckRecord) opOf(id int32) son.Op {
	if id < 0 || !r.nodes.has(int(id)) {
		return son.OpInvalid
	}
	return r.nodes.op[id]
}
