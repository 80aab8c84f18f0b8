package cfg

import "son/internal/dom"

// Block positions and dominators, shared by Verify, Run, Print and DOT. A
// block's position is its index in Func.Blocks, and its vertex number for
// package dom: the entry is 0.

// blockIndex finds the position of a block. Block IDs are usually unique
// and small, so it looks the block up by ID in a slice and checks the
// pointer; a function with duplicate or huge IDs falls back on a map.
type blockIndex struct {
	blocks []*Block
	byID   []int32        // byID[id] is 1 + the position of the first block with that ID, or 0
	m      map[*Block]int // all blocks, when byID cannot find them all; else nil
}

// positions indexes the blocks of f. A nil block has no position; a block
// listed twice keeps its first.
func positions(f *Func) *blockIndex {
	x := &blockIndex{blocks: f.Blocks}
	maxID := -1
	for _, b := range f.Blocks {
		if b != nil {
			maxID = max(maxID, b.ID)
		}
	}
	if maxID <= 4*len(f.Blocks)+1024 {
		x.byID = make([]int32, maxID+1)
	}
	for i, b := range f.Blocks {
		switch {
		case b == nil:
		case x.byID != nil && b.ID >= 0 && x.byID[b.ID] == 0:
			x.byID[b.ID] = int32(i) + 1
		case x.byID != nil && b.ID >= 0 && f.Blocks[x.byID[b.ID]-1] == b:
			// listed twice: the first position stands
		default:
			x.m = make(map[*Block]int, len(f.Blocks))
			for i := len(f.Blocks) - 1; i >= 0; i-- {
				if b := f.Blocks[i]; b != nil {
					x.m[b] = i
				}
			}
			return x
		}
	}
	return x
}

// of returns the position of b, or false if b is not a block of f.
func (x *blockIndex) of(b *Block) (int, bool) {
	if x.m != nil {
		if i, ok := x.m[b]; ok {
			return i, true
		}
		return -1, false
	}
	if b == nil || b.ID < 0 || b.ID >= len(x.byID) {
		return -1, false
	}
	i := int(x.byID[b.ID]) - 1
	if i < 0 || x.blocks[i] != b {
		return -1, false
	}
	return i, true
}

// at returns the position of b, or -1 if b is not a block of f.
func (x *blockIndex) at(b *Block) int {
	i, _ := x.of(b)
	return i
}

// succIndex returns the successor lists of f by position, for package dom,
// laid out flat: block i's are succ[start[i]:start[i+1]]. Successors that
// are not blocks of f are left out, as are the successors of a block
// listed a second time.
func succIndex(f *Func, pos *blockIndex) (start, succ []int32) {
	n := 0
	for _, b := range f.Blocks {
		if b != nil {
			n += len(b.Succs())
		}
	}
	start = make([]int32, len(f.Blocks)+1)
	succ = make([]int32, 0, n)
	for i, b := range f.Blocks {
		if b != nil && pos.at(b) == i {
			for _, s := range b.Succs() {
				if j, ok := pos.of(s); ok {
					succ = append(succ, int32(j))
				}
			}
		}
		start[i+1] = int32(len(succ))
	}
	return start, succ
}

// dominance returns the dominance of f's blocks by position, computed by
// Cooper, Harvey and Kennedy's iterative algorithm and numbered for O(1)
// queries (the intervals of the tree, all that Verify and DOT ask, not a
// dom.Tree's searches, which took a fourth of its time). Unreachable
// blocks dominate nothing and are dominated by nothing. It takes O(n + m)
// time per pass over the blocks and recurses nowhere.
func dominance(f *Func, pos *blockIndex) dom.Intervals {
	return dom.NewIntervals(dom.CooperHarveyKennedyFlat(succIndex(f, pos)))
}

// Positions returns the lookup of f's blocks' positions: by ID in an
// int32 slice when the IDs are small, else a map (blockIndex). A checker
// keeps it instead of a map of its own: 4 bytes a block, not about 30.
func Positions(f *Func) func(*Block) (int, bool) { return positions(f).of }
