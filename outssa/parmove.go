package outssa

import (
	"cmp"
	"fmt"
	"slices"

	"son/cfg"
)

// Sequentializing a parallel move, after Rideau, Serpette and Leroy,
// "Tilting at windmills with Coq: formal verification of a compilation
// algorithm for parallel moves" (JAR 2008): to do a move, first do every
// move that reads its destination; a move found half-done on that path
// closes a cycle, which is broken by saving its source in the temporary.
// Their algorithm recurses; this one keeps the path on an explicit stack
// and finds the readers of a register in the moves sorted by source, so
// it takes O(n log n) time for n moves (and no map: most parallel moves
// are of one to three moves, for which two maps were most of the work).

// Move is one move of a parallel move: Dst gets the value of Src, or the
// constant Const when Src is 0.
type Move struct {
	Dst   cfg.Reg
	Src   cfg.Reg // 0: the source is Const
	Const int64
}

func (m Move) String() string {
	if m.Src == 0 {
		return fmt.Sprintf("%v = Const %d", m.Dst, m.Const)
	}
	return fmt.Sprintf("%v = Copy %v", m.Dst, m.Src)
}

// Sequentialize returns a sequence of moves that, run one after the
// other, assigns what the parallel move par assigns at once: every Dst
// gets the value its Src had before any move. Self-moves are dropped; a
// register read by several moves is read before it is overwritten; each
// cycle of moves costs one extra move, through tmp, and cycles is their
// number. Moves from constants come last, since they read nothing. The
// destinations must be distinct registers > 0, and tmp a register > 0
// that par does not mention; otherwise it returns an error.
func Sequentialize(par []Move, tmp cfg.Reg) (seq []Move, cycles int, err error) {
	var q sequencer
	return q.sequentialize(par, tmp)
}

// sequencer is Sequentialize with its scratch arrays, kept from one
// parallel move to the next by a caller that sequentializes one per edge
// (Translate): most parallel moves are of one to three moves, for which
// the arrays, made for each, were most of the work.
type sequencer struct {
	order  []int32
	again  []bool
	moves  []Move
	status []uint8
	src    []cfg.Reg
	stack  []frame
	seq    []Move
}

// frame is a move on the path of the walk: the move i, its readers, and
// the next of them to do.
type frame struct {
	i, next int
	readers []int32 // the moves that read the destination of moves[i]
}

// sequentialize is Sequentialize; the sequence it returns is q's own,
// good until its next call.
func (q *sequencer) sequentialize(par []Move, tmp cfg.Reg) (seq []Move, cycles int, err error) {
	if tmp <= 0 {
		return nil, 0, fmt.Errorf("outssa: temporary %v is not a register > 0", tmp)
	}
	// again[i]: an earlier move has the destination of par[i]. The moves
	// sorted by destination, then by index: such a move follows one of
	// the same destination.
	order := q.order[:0]
	for i := range par {
		order = append(order, int32(i))
	}
	q.order = order
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(par[a].Dst, par[b].Dst), cmp.Compare(a, b))
	})
	again := append(q.again[:0], make([]bool, len(par))...)
	q.again = again
	for k := 1; k < len(order); k++ {
		again[order[k]] = par[order[k]].Dst == par[order[k-1]].Dst
	}
	moves, consts := q.moves[:0], 0
	for i, m := range par {
		switch {
		case m.Dst <= 0 || m.Src < 0:
			return nil, 0, fmt.Errorf("outssa: move %v: registers must be > 0", m)
		case again[i]:
			return nil, 0, fmt.Errorf("outssa: %v is the destination of two moves of the parallel move", m.Dst)
		case m.Dst == tmp || m.Src == tmp:
			return nil, 0, fmt.Errorf("outssa: move %v mentions the temporary %v", m, tmp)
		}
		switch m.Src {
		case 0:
			consts++
		case m.Dst: // a self-move: nothing to do
		default:
			moves = append(moves, m)
		}
	}
	q.moves = moves
	// Each cycle, of two moves at least, costs one move more.
	seq = q.seq[:0]
	if n := len(moves) + len(moves)/2 + consts; cap(seq) < n {
		seq = make([]Move, 0, n)
	}

	// The moves that read r are bySrc[lo:hi], in order, for the range
	// of moves sorted by source, then by index, whose source is r.
	bySrc := order[:len(moves)]
	for i := range bySrc {
		bySrc[i] = int32(i)
	}
	slices.SortFunc(bySrc, func(a, b int32) int {
		return cmp.Or(cmp.Compare(moves[a].Src, moves[b].Src), cmp.Compare(a, b))
	})
	readers := func(r cfg.Reg) []int32 {
		lo, _ := slices.BinarySearchFunc(bySrc, r, func(i int32, r cfg.Reg) int { return cmp.Compare(moves[i].Src, r) })
		hi := lo
		for hi < len(bySrc) && moves[bySrc[hi]].Src == r {
			hi++
		}
		return bySrc[lo:hi]
	}
	const (
		toMove = iota
		beingMoved
		moved
	)
	status := append(q.status[:0], make([]uint8, len(moves))...)
	q.status = status
	src := q.src[:0]
	for _, m := range moves {
		src = append(src, m.Src)
	}
	q.src = src
	stack := q.stack
	for i0 := range moves {
		if status[i0] != toMove {
			continue
		}
		status[i0] = beingMoved
		stack = append(stack[:0], frame{i: i0, readers: readers(moves[i0].Dst)})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			i := top.i
			if rs := top.readers; top.next < len(rs) {
				j := int(rs[top.next])
				top.next++
				switch status[j] {
				case toMove:
					status[j] = beingMoved
					stack = append(stack, frame{i: j, readers: readers(moves[j].Dst)})
				case beingMoved:
					// j is on the path to i: a cycle. Save what j reads,
					// the register i is about to overwrite.
					seq = append(seq, Move{Dst: tmp, Src: src[j]})
					src[j] = tmp
					cycles++
				}
				continue
			}
			seq = append(seq, Move{Dst: moves[i].Dst, Src: src[i]})
			status[i] = moved
			stack = stack[:len(stack)-1]
		}
	}
	q.stack = stack
	// The constants last, in their order.
	for _, m := range par {
		if m.Src == 0 {
			seq = append(seq, m)
		}
	}
	q.seq = seq
	return seq, cycles, nil
}
