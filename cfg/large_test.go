package cfg

import (
	"testing"
)

// diamonds returns an SSA function of n diamonds in a chain, 1+3n blocks:
//
//	acc = 0
//	for i in 0..n-1: if (arg >>> i%64) & 1 { acc += i } else { acc -= 1 }
//	return acc
//
// Each join is the next diamond's head, so the dominator tree is a path
// of depth 2n: a test of everything that walks it.
func diamonds(n int) *Func {
	f := &Func{Name: "diamonds", Level: SSA}
	var next Reg
	reg := func() Reg { next++; return next }
	instr := func(b *Block, op Op, aux int64, args ...Reg) Reg {
		d := Reg(0)
		if op.HasDst() {
			d = reg()
		}
		b.Instrs = append(b.Instrs, &Instr{Op: op, Dst: d, Args: args, Aux: aux})
		return d
	}
	id := 0
	block := func() *Block {
		id++
		b := &Block{ID: id}
		f.Blocks = append(f.Blocks, b)
		return b
	}
	edge := func(from, to *Block) {
		from.AddSucc(to)
		to.Preds = append(to.Preds, from)
	}
	head := block()
	x := instr(head, OpArg, 0)
	one := instr(head, OpConst, 1)
	acc := instr(head, OpConst, 0)
	for i := range n {
		k := instr(head, OpConst, int64(i%64))
		c := instr(head, OpAnd, 0, instr(head, OpShr, 0, x, k), one)
		head.Term = Term{Kind: TermBranch, Reg: c}
		tb, fb := block(), block()
		edge(head, tb)
		edge(head, fb)
		t := instr(tb, OpAdd, 0, acc, instr(tb, OpConst, int64(i)))
		e := instr(fb, OpSub, 0, acc, one)
		join := block()
		for _, b := range []*Block{tb, fb} {
			b.Term = Term{Kind: TermJump}
			edge(b, join)
		}
		acc = reg()
		join.Phis = []*Phi{{Dst: acc, Args: []Reg{t, e}}}
		head = join
	}
	head.Term = Term{Kind: TermReturn, Reg: acc}
	return f
}

// diamondsResult is what diamonds(n) returns on arg.
func diamondsResult(n int, arg int64) int64 {
	var acc int64
	for i := range n {
		if uint64(arg)>>(i%64)&1 != 0 {
			acc += int64(i)
		} else {
			acc--
		}
	}
	return acc
}

const largeDiamonds = 33333 // 100,000 blocks

func TestLargeFunction(t *testing.T) {
	n := largeDiamonds
	if testing.Short() {
		n = 1000
	}
	f := diamonds(n)
	if err := Verify(f); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []int64{0, -1, 0x5555_5555_5555_5555, 12345} {
		got, err := Run(f, arg, Limits{})
		if want := diamondsResult(n, arg); err != nil || got != want {
			t.Errorf("Run(%d) = %d, %v; want %d", arg, got, err, want)
		}
	}
	text := Print(f)
	g, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if Print(g) != text {
		t.Error("Print(Parse(Print(f))) != Print(f)")
	}
	if d := diffFuncs(f, g); d != "" {
		t.Error(d)
	}
	checkDOT(t, DOT(f, "large"))
}

func BenchmarkVerify(b *testing.B) {
	f := diamonds(largeDiamonds)
	b.ResetTimer()
	for range b.N {
		if err := Verify(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRun(b *testing.B) {
	f := diamonds(largeDiamonds)
	b.ResetTimer()
	for range b.N {
		if _, err := Run(f, 12345, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrint(b *testing.B) {
	f := diamonds(largeDiamonds)
	b.ResetTimer()
	for range b.N {
		Print(f)
	}
}

func BenchmarkParse(b *testing.B) {
	text := Print(diamonds(largeDiamonds))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}
