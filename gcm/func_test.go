package gcm

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"son/cfg"
	"son/internal/hostile"
)

// TestScheduleFuncIsSchedules: ScheduleFunc, which lets the arrays of
// Result go early, makes the function Schedule makes, on the test
// programs and on the hostile shapes (Phis of many predecessors, whose
// arguments follow the regions' inputs; more blocks than a chunk of
// blockChunk).
func TestScheduleFuncIsSchedules(t *testing.T) {
	n := 0
	for name, src := range testPrograms(t, 10000) {
		g, err := optimize(src)
		if err != nil {
			continue // a program the front end rejects
		}
		r, err := Schedule(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := ScheduleFunc(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want, got := cfg.Print(r.Func), cfg.Print(f); got != want {
			t.Errorf("%s: ScheduleFunc made\n%s\nSchedule made\n%s", name, got, want)
		}
		if err := Check(g, f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d programs scheduled", n)
	}
}

// testPrograms returns the programs of testdata/ and examples/ and the
// hostile shapes at size bytes, by name.
func testPrograms(t *testing.T, size int) map[string]string {
	t.Helper()
	srcs := map[string]string{}
	files, _ := filepath.Glob("../testdata/*.smp")
	more, _ := filepath.Glob("../examples/*.smp")
	for _, p := range append(files, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs[p] = string(b)
	}
	if len(srcs) < 20 {
		t.Fatalf("only %d programs", len(srcs))
	}
	for _, s := range hostile.Shapes {
		srcs[s.Name] = s.Program(size)
	}
	return srcs
}

// TestBlockChunksFillPages: a chunk of blocks, of the skeleton's or of
// cfg.Blocks, is a whole number of the allocator's 8 KB pages (a chunk
// over 32 KB takes whole pages: 256 cfg.Blocks wasted a sixth of them).
func TestBlockChunksFillPages(t *testing.T) {
	for _, size := range []uintptr{unsafe.Sizeof(block{}), unsafe.Sizeof(cfg.Block{})} {
		if bytes := size * blockChunk; bytes > 32<<10 && bytes%(8<<10) != 0 {
			t.Errorf("a chunk of %d blocks of %d bytes is %d bytes, not a whole number of 8 KB pages", blockChunk, size, bytes)
		}
	}
}
