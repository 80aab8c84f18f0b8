package outssa

import (
	"fmt"

	"son/cfg"
)

// Sequentializing a parallel move, after Rideau, Serpette and Leroy,
// "Tilting at windmills with Coq: formal verification of a compilation
// algorithm for parallel moves" (JAR 2008): to do a move, first do every
// move that reads its destination; a move found half-done on that path
// closes a cycle, which is broken by saving its source in the temporary.
// Their algorithm recurses; this one keeps the path on an explicit stack
// and finds the readers of a register through an index, so it takes
// O(n) time for n moves.

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
	if tmp <= 0 {
		return nil, 0, fmt.Errorf("outssa: temporary %v is not a register > 0", tmp)
	}
	var moves, consts []Move
	dsts := make(map[cfg.Reg]bool, len(par))
	for _, m := range par {
		switch {
		case m.Dst <= 0 || m.Src < 0:
			return nil, 0, fmt.Errorf("outssa: move %v: registers must be > 0", m)
		case dsts[m.Dst]:
			return nil, 0, fmt.Errorf("outssa: %v is the destination of two moves of the parallel move", m.Dst)
		case m.Dst == tmp || m.Src == tmp:
			return nil, 0, fmt.Errorf("outssa: move %v mentions the temporary %v", m, tmp)
		}
		dsts[m.Dst] = true
		switch m.Src {
		case 0:
			consts = append(consts, m)
		case m.Dst: // a self-move: nothing to do
		default:
			moves = append(moves, m)
		}
	}

	// readers[r] lists the moves that read r.
	readers := make(map[cfg.Reg][]int, len(moves))
	for i, m := range moves {
		readers[m.Src] = append(readers[m.Src], i)
	}
	const (
		toMove = iota
		beingMoved
		moved
	)
	status := make([]uint8, len(moves))
	src := make([]cfg.Reg, len(moves))
	for i, m := range moves {
		src[i] = m.Src
	}
	type frame struct{ i, next int }
	var stack []frame
	for i0 := range moves {
		if status[i0] != toMove {
			continue
		}
		status[i0] = beingMoved
		stack = append(stack[:0], frame{i: i0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			i := top.i
			if rs := readers[moves[i].Dst]; top.next < len(rs) {
				j := rs[top.next]
				top.next++
				switch status[j] {
				case toMove:
					status[j] = beingMoved
					stack = append(stack, frame{i: j})
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
	return append(seq, consts...), cycles, nil
}
