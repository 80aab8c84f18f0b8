package gvn_test

import (
	"fmt"
	"math/bits"
	"math/rand"
	"strings"
	"testing"

	"son/cfg"
	"son/compile"
	"son/gvn"
	"son/internal/gen"
)

// naiveClasses is the optimistic partition computed the slow, obvious way
// (Moore's refinement): start from the labels, and give each definition
// the class of (its class, the classes of its arguments, sorted for a
// commutative op) until the number of classes stops growing. It returns
// the class of each register defined.
func naiveClasses(f *cfg.Func) map[cfg.Reg]int {
	type def struct {
		key  string
		args []cfg.Reg
		comm bool
	}
	defs := map[cfg.Reg]def{}
	var order []cfg.Reg
	for _, b := range f.Blocks {
		for _, p := range b.Phis {
			defs[p.Dst] = def{key: fmt.Sprintf("phi %v %d", b, len(p.Args)), args: p.Args}
			order = append(order, p.Dst)
		}
		for _, in := range b.Instrs {
			if !in.Op.HasDst() {
				continue
			}
			key := in.Op.String()
			if in.Op == cfg.OpConst {
				key = fmt.Sprint("Const ", in.Aux)
			}
			switch in.Op {
			case cfg.OpAdd, cfg.OpMul, cfg.OpAnd, cfg.OpOr, cfg.OpXor, cfg.OpEq, cfg.OpNe:
				defs[in.Dst] = def{key: key, args: in.Args, comm: true}
			default:
				defs[in.Dst] = def{key: key, args: in.Args}
			}
			order = append(order, in.Dst)
		}
	}
	class := map[cfg.Reg]int{}
	ids := map[string]int{}
	for _, r := range order {
		k := defs[r].key
		if _, ok := ids[k]; !ok {
			ids[k] = len(ids)
		}
		class[r] = ids[k]
	}
	for n := len(ids); ; {
		next := map[cfg.Reg]int{}
		ids := map[string]int{}
		for _, r := range order {
			d := defs[r]
			cs := make([]int, len(d.args))
			for k, a := range d.args {
				cs[k] = class[a]
			}
			if d.comm && cs[0] > cs[1] {
				cs[0], cs[1] = cs[1], cs[0]
			}
			k := fmt.Sprint(class[r], cs)
			if _, ok := ids[k]; !ok {
				ids[k] = len(ids)
			}
			next[r] = ids[k]
		}
		class = next
		if len(ids) == n {
			return class
		}
		n = len(ids)
	}
}

// TestNumberMatchesNaive: on the cfg functions of generated programs,
// Number's partition is exactly the coarsest stable one that the naive
// refinement finds, and the validator accepts Number's proposal.
func TestNumberMatchesNaive(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	merged := 0
	for seed := range int64(n) {
		src := gen.Program(gen.Config{Seed: seed, Size: 10 + int(seed%30), Shape: shapes[seed%4]})
		u, err := compile.Compile("gen.smp", []byte(src), compile.Options{StopAfter: "gcm"})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		f := u.Func
		p, err := gvn.Number(f)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		naive := naiveClasses(f)
		byNaive := map[int]cfg.Reg{} // naive class -> number
		byNumber := map[cfg.Reg]int{}
		for r, c := range naive {
			num := p.N.Of(r)
			if m, ok := byNaive[c]; ok && m != num {
				t.Fatalf("seed %d: v%d is in the naive class of registers numbered %v, but has number %v\n%s", seed, r, m, num, cfg.Print(f))
			}
			if c2, ok := byNumber[num]; ok && c2 != c {
				t.Fatalf("seed %d: v%d has number %v, shared with a register of another naive class\n%s", seed, r, num, cfg.Print(f))
			}
			byNaive[c], byNumber[num] = num, c
		}
		if _, err := gvn.Validate(f, p); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		merged += p.Values - p.Classes
	}
	if merged == 0 {
		t.Errorf("no two registers ever congruent in %d programs", n)
	}
}

// TestWorkIsNLogN: the uses the splitting examines stay within
// Uses·(1+log2 Values) on large generated programs, and on a chain of a
// thousand Adds of which only the last operands tell them apart, the
// shape that makes naive refinement quadratic.
func TestWorkIsNLogN(t *testing.T) {
	check := func(name string, f *cfg.Func) {
		t.Helper()
		p, err := gvn.Number(f)
		if err != nil {
			t.Fatal(err)
		}
		bound := p.Uses * (1 + bits.Len(uint(p.Values)))
		if p.Work > bound {
			t.Errorf("%s: %d uses examined for %d uses of %d values, above %d", name, p.Work, p.Uses, p.Values, bound)
		}
		t.Logf("%s: %d values, %d uses, %d examined", name, p.Values, p.Uses, p.Work)
	}
	for _, shape := range []gen.Shape{gen.Mixed, gen.Loopy} {
		src := gen.Program(gen.Config{Seed: 3, Size: 2000, Shape: shape, KeepLive: true})
		u, err := compile.Compile("gen.smp", []byte(src), compile.Options{StopAfter: "gcm"})
		if err != nil {
			t.Fatal(err)
		}
		check(shape.String(), u.Func)
	}
	// Two chains x_k = x_{k-1} + 1 and y_k = y_{k-1} + 1 that differ only
	// at their start, x_0 = arg+1 and y_0 = arg+2: the difference climbs
	// the chains one Add per split, n rounds of a naive refinement.
	var text strings.Builder
	const n = 1000
	text.WriteString("func chain level SSA\nb1:\n\tv1 = Arg\n\tv2 = Const 1\n\tv3 = Const 2\n\tv4 = Add v1 v2\n\tv5 = Add v1 v3\n")
	x, y := 4, 5
	for k := range n {
		fmt.Fprintf(&text, "\tv%d = Add v%d v2\n\tv%d = Add v%d v2\n", 10+2*k, x, 11+2*k, y)
		x, y = 10+2*k, 11+2*k
	}
	fmt.Fprintf(&text, "\tv%d = Sub v%d v%d\n\treturn v%d\n", 10+2*n, x, y, 10+2*n)
	f, err := cfg.Parse(text.String())
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Verify(f); err != nil {
		t.Fatal(err)
	}
	check("chain", f)
}

// TestValidatorSoundOnRandomProposals: Number's proposals, perturbed at
// random (two registers' numbers merged, a replacement added, some
// replacements dropped), are either rejected by the validator or, once
// applied, leave a function that passes cfg.Verify and computes what the
// original did. No perturbation makes the validator panic.
func TestValidatorSoundOnRandomProposals(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	accepted, rejected := 0, 0
	for seed := range int64(30) {
		src := gen.Program(gen.Config{Seed: seed, Size: 15, Shape: gen.Shape(seed % 4)})
		u, err := compile.Compile("gen.smp", []byte(src), compile.Options{StopAfter: "gcm"})
		if err != nil {
			t.Fatal(err)
		}
		text := cfg.Print(u.Func)
		var regs []cfg.Reg
		for _, b := range u.Func.Blocks {
			for _, p := range b.Phis {
				regs = append(regs, p.Dst)
			}
			for _, in := range b.Instrs {
				if in.Op.HasDst() {
					regs = append(regs, in.Dst)
				}
			}
		}
		want := results(u.Func)
		for range 40 {
			f, err := cfg.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			p, err := gvn.Number(f)
			if err != nil {
				t.Fatal(err)
			}
			pick := func() cfg.Reg { return regs[rng.Intn(len(regs))] }
			switch rng.Intn(4) {
			case 0:
				p.N[pick()] = p.N.Of(pick())
			case 1:
				p.Replace = append(p.Replace, gvn.Replacement{Dst: pick(), By: pick()})
			case 2:
				x, y := pick(), pick()
				p.N[x] = p.N.Of(y)
				p.Replace = append(p.Replace, gvn.Replacement{Dst: x, By: y})
			case 3:
				kept := p.Replace[:0]
				for _, r := range p.Replace {
					if rng.Intn(2) == 0 {
						kept = append(kept, r)
					}
				}
				p.Replace = kept
			}
			v, err := gvn.Validate(f, p)
			if err != nil {
				rejected++
				continue
			}
			accepted++
			v.Apply()
			if err := cfg.Verify(f); err != nil {
				t.Fatalf("seed %d: an accepted proposal %v broke the function: %v\n%s", seed, p.Replace, err, text)
			}
			if got := results(f); got != want {
				t.Fatalf("seed %d: an accepted proposal %v changed the results from %s to %s\n%s", seed, p.Replace, want, got, text)
			}
		}
	}
	t.Logf("%d perturbed proposals accepted, %d rejected", accepted, rejected)
	if accepted == 0 || rejected == 0 {
		t.Errorf("%d accepted, %d rejected: want some of each", accepted, rejected)
	}
}

// results runs f on a few arguments.
func results(f *cfg.Func) string {
	var out []string
	for _, a := range []int64{0, 1, -7, 13} {
		v, err := cfg.Run(f, a, cfg.Limits{Steps: 1_000_000})
		out = append(out, fmt.Sprint(v, err))
	}
	return strings.Join(out, "; ")
}
