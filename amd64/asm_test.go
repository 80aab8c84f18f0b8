package amd64

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/arch/x86/x86asm"
)

// fill emits n one-byte instructions.
func fill(a *Asm, n int) {
	for range n {
		a.Emit(I1(PUSH, R(RAX)))
	}
}

// assemble assembles a and checks every instruction of the result with
// x86asm, and each branch's displacement against its label's offset.
func assemble(t *testing.T, a *Asm) ([]byte, []Inst) {
	t.Helper()
	code, final, err := a.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for k, in := range final {
		if a.align[k] {
			pos = skipPad(t, code, pos)
		}
		enc, err := in.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(code[pos:pos+len(enc)], enc) {
			t.Fatalf("instruction %d (%s) at %d: % x in the code, % x alone", k, in, pos, code[pos:pos+len(enc)], enc)
		}
		checkDecode(t, in, enc)
		pos += len(enc)
		if src := a.insts[k]; src.Dst.Kind == KindLabel {
			off, _ := a.Offset(src.Dst.Label)
			if pos+int(in.Dst.Imm) != off {
				t.Errorf("%s: goes to %d, %s is at %d", in, pos+int(in.Dst.Imm), src.Dst.Label, off)
			}
		}
	}
	return code, final
}

// skipPad checks the padding AlignNext asks for at pos: up to the next
// 16-byte boundary when that is at most maxPad bytes away, every byte of
// it in no-ops as x86asm decodes them. It returns where the padding ends.
func skipPad(t *testing.T, code []byte, pos int) int {
	t.Helper()
	end := pos + (-pos & 15)
	if end-pos > maxPad {
		return pos
	}
	for pos < end {
		d, err := x86asm.Decode(code[pos:end], 64)
		if err != nil || d.Op != x86asm.NOP {
			t.Fatalf("padding at %d: % x decodes as %v, %v; want a nop", pos, code[pos:end], d, err)
		}
		pos += d.Len
	}
	return pos
}

// TestAlignNext: a loop head after 0 to 31 bytes of code starts on a
// 16-byte boundary when that takes at most maxPad bytes of no-ops, and the
// branches across the padding, back to the head and forward over it, reach
// their labels.
func TestAlignNext(t *testing.T) {
	for n := range 32 {
		var a Asm
		head, exit := a.NewLabel(), a.NewLabel()
		fill(&a, n)
		a.Emit(Jcc(CondE, To(exit)))
		a.AlignNext()
		a.Bind(head)
		a.Emit(I2(ADD, R(RAX), Imm(1)))
		a.Emit(Jcc(CondNE, To(head)))
		a.Bind(exit)
		a.Emit(I0(RET))
		assemble(t, &a)
		before := n + 2 // the fill and the short jcc
		off, _ := a.Offset(head)
		want := before
		if p := -before & 15; p <= maxPad {
			want = before + p
		}
		if off != want {
			t.Errorf("after %d bytes: the head is at %d, want %d", before, off, want)
		}
	}
}

// TestBranchSizes: a branch is short exactly when its displacement fits
// 8 bits signed, forward and backward.
func TestBranchSizes(t *testing.T) {
	for _, tt := range []struct {
		forward bool
		fill    int
		want    string
	}{
		{true, 127, "jmp .+0x7f"},
		{true, 128, "jmp .+0x80"},
		{false, 126, "jmp .-0x80"},
		{false, 127, "jmp .-0x84"},
	} {
		var a Asm
		l := a.NewLabel()
		if tt.forward {
			a.Emit(I1(JMP, To(l)))
			fill(&a, tt.fill)
			a.Bind(l)
			a.Emit(I0(RET))
		} else {
			a.Bind(l)
			fill(&a, tt.fill)
			a.Emit(I1(JMP, To(l)))
		}
		_, final := assemble(t, &a)
		br := final[0]
		if !tt.forward {
			br = final[len(final)-1]
		}
		if br.String() != tt.want {
			t.Errorf("forward %v over %d bytes: %s, want %s", tt.forward, tt.fill, br, tt.want)
		}
		short := br.Dst.Kind == KindRel8
		if short != (tt.fill == 127 && tt.forward || tt.fill == 126 && !tt.forward) {
			t.Errorf("forward %v over %d bytes: short %v", tt.forward, tt.fill, short)
		}
	}
}

// TestBranchFixpoint: a branch that fits only while another one is short
// becomes long when the other does, so one pass is not enough.
func TestBranchFixpoint(t *testing.T) {
	var a Asm
	la, lb := a.NewLabel(), a.NewLabel()
	a.Emit(Jcc(CondL, To(la))) // over 123 bytes and the jmp: fits if the jmp is short
	fill(&a, 123)
	a.Emit(I1(JMP, To(lb))) // over 200 bytes: long
	a.Bind(la)
	fill(&a, 200)
	a.Bind(lb)
	a.Emit(I0(RET))
	code, final := assemble(t, &a)
	if final[0].String() != "jl .+0x80" || final[0].Dst.Kind != KindRel32 {
		t.Errorf("first branch %s (%v), want jl .+0x80 in the rel32 form", final[0], final[0].Dst.Kind)
	}
	if final[124].String() != "jmp .+0xc8" || final[124].Dst.Kind != KindRel32 {
		t.Errorf("second branch %s, want jmp .+0xc8 in the rel32 form", final[124])
	}
	if len(code) != 6+123+5+200+1 {
		t.Errorf("%d bytes", len(code))
	}
}

// TestAsmData: data follows the code, and a RIP-relative operand reaches it.
func TestAsmData(t *testing.T) {
	var a Asm
	msg := a.Data([]byte("abc"))
	two := a.Data([]byte("de"))
	a.Emit(I2(LEA, R(RSI), RIPLabel(two)))
	a.Emit(I2(MOVZX, R(RAX), RIPLabel(msg)))
	a.Emit(I0(RET))
	code, final := assemble(t, &a)
	if got := string(code[len(code)-5:]); got != "abcde" {
		t.Errorf("data %q", got)
	}
	// lea is 7 bytes, movzx 7, ret 1: "abc" at 15, "de" at 18.
	if off, _ := a.Offset(msg); off != 15 {
		t.Errorf("msg at %d", off)
	}
	if final[0].String() != "lea rsi, [rip+0xb]" || final[1].String() != "movzx eax, byte ptr [rip+0x1]" {
		t.Errorf("resolved to %s; %s", final[0], final[1])
	}
}

func TestAsmErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    func(a *Asm)
		err  string
	}{
		{"unbound", func(a *Asm) { a.Emit(I1(JMP, To(a.NewLabel()))) }, "amd64: jmp L1: label L1 not bound"},
		{"unknown", func(a *Asm) { a.Emit(Jcc(CondE, To(7))) }, "amd64: je L7: label L7 not bound"},
		{"twice", func(a *Asm) {
			l := a.NewLabel()
			a.Bind(l)
			a.Emit(I0(RET))
			a.Bind(l)
		}, "amd64: label L1 bound twice"},
		{"bind data", func(a *Asm) { a.Bind(a.Data([]byte("x"))) }, "amd64: label L1 bound twice"},
		{"bind unknown", func(a *Asm) { a.Bind(3) }, "amd64: bind of unknown label L3"},
		{"branch to data", func(a *Asm) { a.Emit(I1(CALL, To(a.Data([]byte("x"))))) }, "amd64: call L1: branch to data"},
		{"rip unbound", func(a *Asm) { a.Emit(I2(LEA, R(RAX), RIPLabel(a.NewLabel()))) }, "amd64: lea rax, [rip+L1]: label L1 not bound"},
		{"bad form", func(a *Asm) { a.Emit(I2(LEA, R(RAX), R(RAX))) }, "amd64: lea rax, rax: no such form"},
		{"label in a non-branch", func(a *Asm) {
			l := a.NewLabel()
			a.Bind(l)
			a.Emit(I1(PUSH, To(l)))
		}, "amd64: push L1: no such form"},
	} {
		var a Asm
		tt.f(&a)
		_, _, err := a.Assemble()
		if err == nil || err.Error() != tt.err {
			t.Errorf("%s: error %v, want %s", tt.name, err, tt.err)
		}
	}
}

// randomCode emits 20 to 219 random instructions into a around 1 to 20
// new labels: branches and calls to them, the labels bound in order, and
// fillers of every size; with msg, also aligned instructions and
// RIP-relative reads of msg. It returns the labels and how many it bound.
func randomCode(a *Asm, rng *rand.Rand, msg *Label) ([]Label, int) {
	kinds := 6
	if msg != nil {
		kinds = 8
	}
	labels := make([]Label, 1+rng.IntN(20))
	for k := range labels {
		labels[k] = a.NewLabel()
	}
	bound := 0
	for range 20 + rng.IntN(200) {
		switch k := rng.IntN(kinds); {
		case k == 0:
			if bound < len(labels) {
				a.Bind(labels[bound])
				bound++
			}
		case k == 1:
			a.Emit(Jcc(Cond(rng.IntN(int(NumConds))), To(labels[rng.IntN(len(labels))])))
		case k == 2:
			a.Emit(I1(JMP, To(labels[rng.IntN(len(labels))])))
		case k == 3:
			a.Emit(I1(CALL, To(labels[rng.IntN(len(labels))])))
		case k == 4 && msg != nil:
			a.AlignNext()
		case k == 5 && msg != nil:
			a.Emit(I2(LEA, R(Reg(rng.IntN(16))), RIPLabel(*msg)))
		default:
			fill(a, rng.IntN(60))
			a.Emit(I2(MOVABS, R(Reg(rng.IntN(16))), Imm(rng.Int64())))
		}
	}
	return labels, bound
}

// TestAsmRandom assembles random code of branches, calls and fillers of
// every size around many labels, and checks every branch with x86asm and
// against its label's offset (assemble), and that a branch is long only
// when its displacement, measured as if it were short, would not fit.
func TestAsmRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var a Asm
		labels, bound := randomCode(&a, rng, nil)
		for ; bound < len(labels); bound++ {
			a.Bind(labels[bound])
		}
		a.Emit(I0(RET))
		_, final := assemble(t, &a)
		pos := 0
		for _, in := range final {
			n := 5
			switch {
			case in.Dst.Kind == KindRel8:
				n = 2
			case in.Op == JCC:
				n = 6
			case in.Op != JMP && in.Op != CALL:
				enc, _ := in.Encode(nil)
				n = len(enc)
			}
			pos += n
			if in.Dst.Kind == KindRel32 && in.Op != CALL {
				target := pos + int(in.Dst.Imm)
				shortEnd := pos - n + 2
				if target > pos {
					target -= n - 2 // the code after would move back
				}
				if fits8(int64(target - shortEnd)) {
					t.Errorf("%s: long, but short it would reach", in)
				}
			}
		}
	}
}

// TestAsmEvents: random code of branches, calls, RIP-relative reads of
// data, fillers and aligned loop heads, with labels bound anywhere (the
// end too), assembled from the layout's events (the instructions whose
// offsets assembly needs, and the runs of encoded bytes between them):
// every instruction and branch checks out against a walk of all of them
// (assemble), and a Lean assembler, which keeps no instruction, gives
// the same bytes and label offsets.
func TestAsmEvents(t *testing.T) {
	for seed := range uint64(200) {
		var kept, lean Asm
		lean.Lean = true
		for _, a := range []*Asm{&kept, &lean} {
			rng := rand.New(rand.NewPCG(seed, 5))
			msg := a.Data([]byte("message"))
			labels, bound := randomCode(a, rng, &msg)
			if rng.IntN(2) == 0 {
				a.Emit(I0(RET))
			}
			for ; bound < len(labels); bound++ {
				a.Bind(labels[bound]) // at the end: no instruction after
			}
		}
		code, _ := assemble(t, &kept)
		leanCode, err := lean.Code()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(code, leanCode) {
			t.Fatalf("seed %d: the Lean assembler's %d bytes differ from the kept one's %d", seed, len(leanCode), len(code))
		}
		for k := range kept.labels {
			l := Label(k + 1)
			want, _ := kept.Offset(l)
			if got, _ := lean.Offset(l); got != want {
				t.Fatalf("seed %d: %s at %d in the Lean code, %d in the other", seed, l, got, want)
			}
		}
	}
}
