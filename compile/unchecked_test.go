package compile

import (
	"fmt"
	"os"
	"testing"

	"son/cfg"
	"son/internal/gen"
	"son/internal/testenv"
	"son/ref"
	"son/son"
	"son/syntax"
)

// passListings compiles src with o and lists the program after each
// pass: the graph ID by ID (son.Listing) before gcm, the blocks from gcm
// on; and the compile error, if any. It returns the Unit compiled too (nil
// on an error).
func passListings(name string, src []byte, o Options) ([]string, *Unit) {
	var out []string
	o.AfterPass = func(u *Unit, pass string) error {
		if u.Func != nil {
			out = append(out, pass+":\n"+cfg.Print(u.Func))
		} else {
			out = append(out, pass+":\n"+son.Listing(u.Graph))
		}
		return nil
	}
	u, err := Compile(name, src, o)
	if err != nil {
		out = append(out, "error: "+err.Error())
	}
	return out, u
}

// TestUncheckedMatchesChecked: with the checkers off, as son run and son
// build compile, every pass leaves the program it leaves with them on,
// ID for ID. The builder folds more with them off (son's foldBranch takes
// a branch with one side reached, deadRegion leaves out a Region of dead
// paths), and the tests of results (TestPrograms, TestRandomPrograms)
// compile with them on. On the programs of testdata, examples and bench,
// and generated programs of every shape, whose results compiled with the
// checkers off (cfg.Run, as son run runs them) must also be those of the
// reference semantics (ref.Run).
//
// Environment knobs, for a campaign:
//
//	SON_UNCHECKED=n       n generated programs (default 120, 20 with -short)
//	SON_UNCHECKED_SEED=k  seeds k to k+n-1 (default 0)
//	SON_UNCHECKED_SIZE=s  programs of about s statements (default 10 to 49)
func TestUncheckedMatchesChecked(t *testing.T) {
	type prog struct {
		name string
		src  []byte
		seed int64 // of a generated program, whose results are compared too
		gen  bool
	}
	var progs []prog
	n := int64(120)
	if testing.Short() {
		n = 20
	}
	n = testenv.Int(t, "SON_UNCHECKED", n, "a number of programs")
	first := testenv.Int(t, "SON_UNCHECKED_SEED", 0, "a seed")
	size := testenv.Int(t, "SON_UNCHECKED_SIZE", 0, "a number of statements")
	if _, campaign := os.LookupEnv("SON_UNCHECKED"); !campaign {
		for _, file := range programFiles(t, "../testdata", "../examples", "../bench") {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			progs = append(progs, prog{name: file, src: src})
		}
	}
	for seed := first; seed < first+n; seed++ {
		m := ((seed % 40) + 40) % 40
		cfg := gen.Config{Seed: seed, Size: 10 + int(m), Shape: gen.Shape(m % 4)}
		if size > 0 {
			cfg.Size = int(size)
		}
		progs = append(progs, prog{fmt.Sprintf("generated, seed %d", seed), []byte(gen.Program(cfg)), seed, true})
	}
	for _, p := range progs {
		off, u := passListings(p.name, p.src, Options{})
		on, _ := passListings(p.name, p.src, Options{Check: true})
		if len(off) != len(on) {
			t.Fatalf("%s: %d passes listed with the checkers off, %d with them on:\n%v\n%v", p.name, len(off), len(on), off[len(off)-1], on[len(on)-1])
		}
		for i := range off {
			if off[i] != on[i] {
				t.Fatalf("%s: with the checkers off, after %s\nwith them on, after %s", p.name, off[i], on[i])
			}
		}
		if !p.gen || u == nil {
			continue
		}
		file, err := syntax.Parse("random.smp", p.src)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		for _, arg := range randomArgs(p.seed) {
			v, err := ref.Run(file, arg, ref.Limits{Steps: randomSteps})
			msg, ok := runtimeMsg(err)
			switch {
			case err != nil && !ok:
				t.Fatalf("%s, arg %d: ref.Run: %v", p.name, arg, err)
			case err != nil && msg != "division by zero":
				continue // the reference hit its step limit
			}
			want := resultText(v, err)
			v, err = cfg.Run(u.Func, arg, cfg.Limits{Steps: randomSteps * levelStepFactor})
			if got := resultText(v, err); got != want {
				t.Fatalf("%s, arg %d: compiled with the checkers off, cfg.Run %s; ref.Run %s\n%s", p.name, arg, got, want, p.src)
			}
		}
	}
	t.Logf("%d programs", len(progs))
}
