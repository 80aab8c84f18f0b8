package cfg

import (
	"testing"
	"unsafe"
)

// TestBlockSize: a Block holds its successors (at most two) and a 32-bit
// loop depth beside their count: 128 bytes, not 136 with a slice of
// successors (docs/PERFORMANCE.md, "mem12c").
func TestBlockSize(t *testing.T) {
	if got := unsafe.Sizeof(Block{}); got != 128 {
		t.Errorf("cfg.Block is %d bytes, want 128", got)
	}
}

// TestBlockSuccs: Succs is the block's own list (writing an element
// replaces that successor), SetSuccs and AddSucc set how many there are,
// and a third successor panics.
func TestBlockSuccs(t *testing.T) {
	a, b, c := &Block{ID: 1}, &Block{ID: 2}, &Block{ID: 3}
	if len(a.Succs()) != 0 {
		t.Fatalf("new block: %v", a.Succs())
	}
	a.AddSucc(b)
	a.AddSucc(c)
	if s := a.Succs(); len(s) != 2 || s[0] != b || s[1] != c {
		t.Fatalf("after AddSucc: %v", s)
	}
	a.Succs()[1] = b
	if s := a.Succs(); s[1] != b {
		t.Fatalf("after writing an element: %v", s)
	}
	a.SetSuccs(c)
	if s := a.Succs(); len(s) != 1 || s[0] != c {
		t.Fatalf("after SetSuccs(c): %v", s)
	}
	if s := append(a.Succs(), b); len(a.Succs()) != 1 || a.succs[1] != nil || s[1] != b {
		t.Fatalf("an append to Succs wrote into the block: %v, %v", a.Succs(), a.succs)
	}
	a.SetSuccs()
	if len(a.Succs()) != 0 || a.succs[0] != nil {
		t.Fatalf("after SetSuccs(): %v, %v", a.Succs(), a.succs)
	}
	for _, add := range []func(){
		func() { a.SetSuccs(a, b, c) },
		func() { a.SetSuccs(a, b); a.AddSucc(c) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a third successor did not panic: %v", a.Succs())
				}
			}()
			add()
		}()
	}
}

// TestPositions: the lookup finds each block at its position, by ID when
// the IDs are small and by the map when one is huge, and finds no block
// that is not in the function, even one with the ID of a block that is.
func TestPositions(t *testing.T) {
	for _, ids := range [][]int{{3, 0, 7, 1}, {3, 1 << 40, 7, 1}} {
		f := &Func{}
		for _, id := range ids {
			f.Blocks = append(f.Blocks, &Block{ID: id})
		}
		at := Positions(f)
		for i, b := range f.Blocks {
			if j, ok := at(b); !ok || j != i {
				t.Errorf("IDs %v: block b%d at %d, %v; want %d", ids, b.ID, j, ok, i)
			}
		}
		if j, ok := at(&Block{ID: 7}); ok {
			t.Errorf("IDs %v: a stranger with ID 7 found at %d", ids, j)
		}
		if _, ok := at(nil); ok {
			t.Errorf("IDs %v: nil found", ids)
		}
	}
}
