package compile

import (
	"fmt"
	"os"
	"testing"

	"son/cfg"
	"son/internal/gen"
	"son/son"
)

// passListings compiles src with o and lists the program after each
// pass: the graph ID by ID (son.Listing) before gcm, the blocks from gcm
// on; and the compile error, if any.
func passListings(name string, src []byte, o Options) []string {
	var out []string
	o.AfterPass = func(u *Unit, pass string) error {
		if u.Func != nil {
			out = append(out, pass+":\n"+cfg.Print(u.Func))
		} else {
			out = append(out, pass+":\n"+son.Listing(u.Graph))
		}
		return nil
	}
	if _, err := Compile(name, src, o); err != nil {
		out = append(out, "error: "+err.Error())
	}
	return out
}

// TestUncheckedMatchesChecked: with the checkers off, as son run and son
// build compile, every pass leaves the program it leaves with them on,
// ID for ID. The builder folds more with them off (son's foldBranch takes
// a branch with one side reached, deadRegion leaves out a Region of dead
// paths), and the tests of results (TestPrograms, TestRandomPrograms)
// compile with them on. On the programs of testdata, examples and bench,
// and generated programs of every shape.
func TestUncheckedMatchesChecked(t *testing.T) {
	type prog struct {
		name string
		src  []byte
	}
	var progs []prog
	for _, file := range programFiles(t, "../testdata", "../examples", "../bench") {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{file, src})
	}
	n := 120
	if testing.Short() {
		n = 20
	}
	for seed := range int64(n) {
		cfg := gen.Config{Seed: seed, Size: 10 + int(seed%40), Shape: gen.Shape(seed % 4)}
		progs = append(progs, prog{fmt.Sprintf("generated, seed %d", seed), []byte(gen.Program(cfg))})
	}
	for _, p := range progs {
		off := passListings(p.name, p.src, Options{})
		on := passListings(p.name, p.src, Options{Check: true})
		if len(off) != len(on) {
			t.Fatalf("%s: %d passes listed with the checkers off, %d with them on:\n%v\n%v", p.name, len(off), len(on), off[len(off)-1], on[len(on)-1])
		}
		for i := range off {
			if off[i] != on[i] {
				t.Fatalf("%s: with the checkers off, after %s\nwith them on, after %s", p.name, off[i], on[i])
			}
		}
	}
}
