package compile

import (
	"math/rand"
	"os"
	"strings"
	"testing"

	"son/cfg"
	"son/ssacheck"
	"son/ssagen"
)

// The fault catalogue of SSA generation: each fault breaks the output of
// ssagen on a real program in a way a buggy generator could, and the
// validator must reject it with the rule named. Faults are applied to a
// copy (Print then Parse) at the first place they apply.

// ssaFault breaks res, or reports that it does not apply.
type ssaFault struct {
	name string
	rule string // what the rejection must say
	do   func(res *ssagen.Result, f *cfg.Func, h *ssacheck.Hint) bool
}

var ssaFaults = []ssaFault{
	{"a missing phi", "no single definition", func(res *ssagen.Result, f *cfg.Func, h *ssacheck.Hint) bool {
		// Drop a Phi that an instruction or terminator uses, and use its
		// first argument instead.
		used := usedRegs(f)
		for i, b := range f.Blocks {
			for k, p := range b.Phis {
				if !used[p.Dst] {
					continue
				}
				b.Phis = append(b.Phis[:k:k], b.Phis[k+1:]...)
				h.Phis[i] = append(h.Phis[i][:k:k], h.Phis[i][k+1:]...)
				replaceUses(f, p.Dst, p.Args[0])
				return true
			}
		}
		return false
	}},
	{"a phi argument from the wrong predecessor", "use:", func(res *ssagen.Result, f *cfg.Func, h *ssacheck.Hint) bool {
		for _, b := range f.Blocks {
			for _, p := range b.Phis {
				if p.Args[0] != p.Args[1] {
					p.Args[0], p.Args[1] = p.Args[1], p.Args[0]
					return true
				}
			}
		}
		return false
	}},
	{"a use renamed to a non-dominating definition", "but the local typing gives", func(res *ssagen.Result, f *cfg.Func, h *ssacheck.Hint) bool {
		// Blocks are in reverse postorder: a later block dominates no
		// earlier one. Rename a use to a version of its variable defined
		// in a later block.
		last := map[cfg.Reg]cfg.Reg{} // RTL register -> its last version, in block order
		at := map[cfg.Reg]int{}       // version -> block position of its definition
		for i, b := range f.Blocks {
			for _, p := range b.Phis {
				last[res.Versions[p.Dst].Reg], at[p.Dst] = p.Dst, i
			}
			for _, in := range b.Instrs {
				if in.Dst != 0 {
					last[res.Versions[in.Dst].Reg], at[in.Dst] = in.Dst, i
				}
			}
		}
		for i, b := range f.Blocks {
			for _, in := range b.Instrs {
				for k, a := range in.Args {
					if w := last[res.Versions[a].Reg]; w != a && at[w] > i {
						in.Args[k] = w
						return true
					}
				}
			}
		}
		return false
	}},
	{"a wrong index in the hint", "unique-def", func(res *ssagen.Result, f *cfg.Func, h *ssacheck.Hint) bool {
		first := map[cfg.Reg]int32{} // RTL register -> the index of its first definition
		for i, b := range f.Blocks {
			for k, in := range b.Instrs {
				if in.Dst == 0 {
					continue
				}
				x := res.Versions[in.Dst]
				if idx, ok := first[x.Reg]; ok {
					h.Def[i][k] = idx
					return true
				}
				first[x.Reg] = x.Index
			}
		}
		return false
	}},
}

func usedRegs(f *cfg.Func) map[cfg.Reg]bool {
	used := map[cfg.Reg]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				used[a] = true
			}
		}
		used[b.Term.Reg] = true
	}
	return used
}

func replaceUses(f *cfg.Func, old, new cfg.Reg) {
	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			for k, a := range p.Args {
				if a == old {
					p.Args[k] = new
				}
			}
		}
		for _, in := range b.Instrs {
			for k, a := range in.Args {
				if a == old {
					in.Args[k] = new
				}
			}
		}
		if b.Term.Reg == old {
			b.Term.Reg = new
		}
	}
}

func copyHint(h *ssacheck.Hint) *ssacheck.Hint {
	c := &ssacheck.Hint{Def: make([][]int32, len(h.Def)), Phis: make([][]ssacheck.PhiHint, len(h.Phis))}
	for i := range h.Def {
		c.Def[i] = append([]int32(nil), h.Def[i]...)
		c.Phis[i] = append([]ssacheck.PhiHint(nil), h.Phis[i]...)
	}
	return c
}

// TestSSAFaults applies every fault to ssagen's output on every program,
// in each flavour, and requires the validator to reject each; every fault
// must apply somewhere.
func TestSSAFaults(t *testing.T) {
	files := programFiles(t, "../testdata", "../examples")
	applied := make([]int, len(ssaFaults))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rtl := lowerChecked(t, file, src)
		for _, fl := range ssagen.Flavours {
			res, err := ssagen.Build(rtl, fl)
			if err != nil {
				t.Fatalf("%s: %v: %v", file, fl, err)
			}
			for n, fault := range ssaFaults {
				f, err := cfg.Parse(cfg.Print(res.Func))
				if err != nil {
					t.Fatal(err)
				}
				h := copyHint(res.Hint)
				if !fault.do(res, f, h) {
					continue
				}
				applied[n]++
				err = ssacheck.Validate(rtl, f, h)
				if err == nil || !strings.Contains(err.Error(), fault.rule) {
					t.Errorf("%s %v: %s: got %v, want a rejection saying %q\n%s", file, fl, fault.name, err, fault.rule, cfg.Print(f))
				}
			}
		}
	}
	for n, fault := range ssaFaults {
		if applied[n] == 0 {
			t.Errorf("%s: applied nowhere", fault.name)
		} else {
			t.Logf("%s: applied to %d functions, all rejected", fault.name, applied[n])
		}
	}
}

// TestSSAValidatorSound mutates ssagen's output at random — a use or a
// Phi argument renamed to another register, or an index of the hint
// changed — and requires of every mutant the validator accepts that
// cfg.Verify accepts it too and that it computes what the RTL computes on
// the program's run: arguments (as the unmutated SSA form, through the
// same text); the validator must never panic.
func TestSSAValidatorSound(t *testing.T) {
	files := programFiles(t, "../testdata", "../examples")
	rng := rand.New(rand.NewSource(1))
	accepted, rejected := 0, 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := parseDirectives(string(src))
		if err != nil {
			t.Fatal(err)
		}
		rtl := lowerChecked(t, file, src)
		for _, fl := range ssagen.Flavours {
			res, err := ssagen.Build(rtl, fl)
			if err != nil {
				t.Fatal(err)
			}
			text := cfg.Print(res.Func)
			nregs := len(res.Versions)
			orig, err := cfg.Parse(text) // positions through the text keep only lines: compare like with like
			if err != nil {
				t.Fatal(err)
			}
			for range 10 {
				f, err := cfg.Parse(text)
				if err != nil {
					t.Fatal(err)
				}
				h := copyHint(res.Hint)
				mutate(rng, f, h, nregs)
				err = ssacheck.Validate(rtl, f, h)
				if err != nil {
					rejected++
					continue
				}
				accepted++
				if err := cfg.Verify(f); err != nil {
					t.Errorf("%s %v: the validator accepts a function cfg.Verify rejects: %v\n%s", file, fl, err, cfg.Print(f))
					continue
				}
				for _, r := range d.Runs {
					lim := cfg.Limits{Steps: d.Steps}
					want := runResult(cfg.Run(orig, r.Arg, lim))
					if got := runResult(cfg.Run(f, r.Arg, lim)); got != want {
						t.Errorf("%s %v: arg %d: the validator accepts a mutant giving %s, the RTL gives %s\n%s", file, fl, r.Arg, got, want, cfg.Print(f))
					}
				}
			}
		}
	}
	t.Logf("%d mutants accepted (harmless), %d rejected", accepted, rejected)
	if rejected == 0 {
		t.Error("no mutant rejected")
	}
}

// mutate changes one thing of f or h at random: a register used by an
// instruction, a terminator or a Phi, or an index of the hint.
func mutate(rng *rand.Rand, f *cfg.Func, h *ssacheck.Hint, nregs int) {
	var uses []*cfg.Reg
	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			for k := range p.Args {
				uses = append(uses, &p.Args[k])
			}
		}
		for _, in := range b.Instrs {
			for k := range in.Args {
				uses = append(uses, &in.Args[k])
			}
		}
		if b.Term.Reg != 0 {
			uses = append(uses, &b.Term.Reg)
		}
	}
	if rng.Intn(4) == 0 {
		i := rng.Intn(len(h.Def))
		if k := len(h.Def[i]); k > 0 {
			h.Def[i][rng.Intn(k)] = int32(rng.Intn(4))
			return
		}
	}
	if len(uses) > 0 {
		*uses[rng.Intn(len(uses))] = cfg.Reg(1 + rng.Intn(nregs+1))
	}
}
