package amd64

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"math/rand"

	"son/elf"
	"son/syntax"
)

func needLinuxAMD64(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the executables are Linux x86-64 code; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
}

// build writes an executable: the runtime around the code emit writes
// at main, and returns its path.
func build(t *testing.T, emit func(a *Asm, rt *Runtime)) string {
	t.Helper()
	var a Asm
	main := a.NewLabel()
	rt := NewRuntime(&a, main)
	a.Bind(main)
	emit(&a, rt)
	rt.Finish()
	code, _, err := a.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	entry, _ := a.Offset(rt.Entry)
	path := filepath.Join(t.TempDir(), "prog")
	if err := (&elf.Exec{Text: code, Entry: entry}).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

type result struct {
	stdout, stderr string
	status         int
}

func run(t *testing.T, path string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	status := 0
	switch {
	case errors.As(err, &ee) && ee.Exited():
		status = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", path, args, err)
	}
	return result{out.String(), errb.String(), status}
}

func ok(v int64) result { return result{stdout: strconv.FormatInt(v, 10) + "\n"} }

func badArg(s string) result {
	return result{stderr: `bad argument "` + s + `": want an integer literal such as 42, -7 or 0x2A` + "\n", status: 2}
}

// TestRuntimeArgument: the identity program prints its argument, and every
// malformed or out-of-range argument is rejected with the message and 2.
func TestRuntimeArgument(t *testing.T) {
	needLinuxAMD64(t)
	path := build(t, func(a *Asm, rt *Runtime) {
		a.Emit(I2(MOV, R(RAX), R(RDI)))
		a.Emit(I0(RET))
	})
	for _, tt := range []struct {
		args []string
		want result
	}{
		{nil, ok(0)},
		{[]string{"0"}, ok(0)},
		{[]string{"1"}, ok(1)},
		{[]string{"-1"}, ok(-1)},
		{[]string{"42"}, ok(42)},
		{[]string{"-0"}, ok(0)},
		{[]string{"10"}, ok(10)},
		{[]string{"-9223372036854775808"}, ok(-1 << 63)},
		{[]string{"9223372036854775807"}, ok(1<<63 - 1)},
		{[]string{"-9223372036854775807"}, ok(-1<<63 + 1)},
		{[]string{"1000000000000000000"}, ok(1e18)},
		{[]string{"7", "extra"}, ok(7)},
		{[]string{"9223372036854775808"}, badArg("9223372036854775808")},
		{[]string{"-9223372036854775809"}, badArg("-9223372036854775809")},
		{[]string{"92233720368547758070"}, badArg("92233720368547758070")},
		{[]string{"99999999999999999999"}, badArg("99999999999999999999")},
		{[]string{"abc"}, badArg("abc")},
		{[]string{""}, badArg("")},
		{[]string{"-"}, badArg("-")},
		{[]string{"+5"}, badArg("+5")},
		{[]string{"007"}, badArg("007")},
		{[]string{"-01"}, badArg("-01")},
		{[]string{"00"}, badArg("00")},
		{[]string{"12a"}, badArg("12a")},
		{[]string{" 1"}, badArg(" 1")},
		{[]string{"1 "}, badArg("1 ")},
		{[]string{"--1"}, badArg("--1")},
		{[]string{"0x10"}, ok(16)},
		{[]string{"0X2a"}, ok(42)},
		{[]string{"-0x2A"}, ok(-42)},
		{[]string{"0x0"}, ok(0)},
		{[]string{"0x000000000000000000ff"}, ok(255)},
		{[]string{"0x7fffffffffffffff"}, ok(1<<63 - 1)},
		{[]string{"0x8000000000000000"}, ok(-1 << 63)},
		{[]string{"-0x8000000000000000"}, ok(-1 << 63)},
		{[]string{"0xffffffffffffffff"}, ok(-1)},
		{[]string{"-0xFFFFFFFFFFFFFFFF"}, ok(1)},
		{[]string{"0x10000000000000000"}, badArg("0x10000000000000000")},
		{[]string{"0x"}, badArg("0x")},
		{[]string{"-0x"}, badArg("-0x")},
		{[]string{"0xg"}, badArg("0xg")},
		{[]string{"0x1g"}, badArg("0x1g")},
		{[]string{"0x@"}, badArg("0x@")}, // 'a'-1 after lower-casing
		{[]string{"0x`"}, badArg("0x`")},
		{[]string{"0x:"}, badArg("0x:")},
		{[]string{"0y1"}, badArg("0y1")},
		{[]string{"0X"}, badArg("0X")},
		{[]string{"x10"}, badArg("x10")},
		{[]string{"00x1"}, badArg("00x1")},
		{[]string{"0a"}, badArg("0a")},
		{[]string{"/"}, badArg("/")}, // '0'-1
		{[]string{":"}, badArg(":")}, // '9'+1
	} {
		if got := run(t, path, tt.args...); got != tt.want {
			t.Errorf("prog %q: %+v, want %+v", tt.args, got, tt.want)
		}
	}
}

// TestRuntimeCompute: a program that computes, printed for values whose
// result has every number of digits and both signs.
func TestRuntimeCompute(t *testing.T) {
	needLinuxAMD64(t)
	// 3*arg - 7, through lea and imul, wrapping.
	path := build(t, func(a *Asm, rt *Runtime) {
		a.Emit(I2(LEA, R(RAX), MI(RDI, RDI, 2, -7)))
		a.Emit(Imul3(RCX, RAX, 1))
		a.Emit(I2(MOV, R(RAX), R(RCX)))
		a.Emit(I0(RET))
	})
	for _, x := range []int64{0, 1, 2, 3, -1, 42, 1 << 62, -1 << 62, 1<<63 - 1, -1 << 63, 123456789, -987654321} {
		if got, want := run(t, path, strconv.FormatInt(x, 10)), ok(3*x-7); got != want {
			t.Errorf("3*%d-7: %+v, want %+v", x, got, want)
		}
	}
}

// TestRuntimeStack: the program is entered as a System V function: rsp+8
// a multiple of 16.
func TestRuntimeStack(t *testing.T) {
	needLinuxAMD64(t)
	path := build(t, func(a *Asm, rt *Runtime) {
		a.Emit(I2(LEA, R(RAX), M(RSP, 8)))
		a.Emit(I2(AND, R(RAX), Imm(15)))
		a.Emit(I0(RET))
	})
	if got := run(t, path); got != ok(0) {
		t.Errorf("(rsp+8) %% 16 = %+v, want 0", got)
	}
}

// TestRuntimeDivZero: each division site writes its own message and
// exits 1, with nothing on standard output.
func TestRuntimeDivZero(t *testing.T) {
	needLinuxAMD64(t)
	const msg1 = "prog.smp:3:9: runtime error: division by zero\n"
	const msg2 = "prog.smp:4:15: runtime error: division by zero\n"
	// 100/arg + 1000%(arg-5)
	path := build(t, func(a *Asm, rt *Runtime) {
		a.Emit(I2(TEST, R(RDI), R(RDI)))
		a.Emit(Jcc(CondE, To(rt.DivZero([]byte(msg1)))))
		a.Emit(MovConst(RAX, 100))
		a.Emit(I0(CQO))
		a.Emit(I1(IDIV, R(RDI)))
		a.Emit(I2(MOV, R(R8), R(RAX)))
		a.Emit(I2(SUB, R(RDI), Imm(5)))
		a.Emit(Jcc(CondE, To(rt.DivZero([]byte(msg2)))))
		a.Emit(MovConst(RAX, 1000))
		a.Emit(I0(CQO))
		a.Emit(I1(IDIV, R(RDI)))
		a.Emit(I2(LEA, R(RAX), MI(R8, RDX, 1, 0)))
		a.Emit(I0(RET))
	})
	for _, tt := range []struct {
		arg  string
		want result
	}{
		{"0", result{stderr: msg1, status: 1}},
		{"5", result{stderr: msg2, status: 1}},
		{"7", ok(100/7 + 1000%2)},
		{"-1", ok(-100 + 1000%-6)},
		{"1005", ok(0 + 0)},
	} {
		if got := run(t, path, tt.arg); got != tt.want {
			t.Errorf("prog %s: %+v, want %+v", tt.arg, got, tt.want)
		}
	}
}

// TestRuntimeFinish: Finish without sites emits nothing, and a
// second Finish emits no stub again.
func TestRuntimeFinish(t *testing.T) {
	var a Asm
	main := a.NewLabel()
	rt := NewRuntime(&a, main)
	a.Bind(main)
	a.Emit(I0(RET))
	n := a.Len()
	rt.Finish()
	if a.Len() != n {
		t.Errorf("Finish without division sites emitted %d instructions", a.Len()-n)
	}
	rt.DivZero([]byte("x\n"))
	rt.Finish()
	m := a.Len()
	rt.Finish()
	if a.Len() != m {
		t.Errorf("second Finish emitted %d instructions", a.Len()-m)
	}
	if _, _, err := a.Assemble(); err != nil {
		t.Fatal(err)
	}
}

// TestRuntimeArgumentRule: _start accepts exactly what syntax.ParseInt
// (son run's rule) accepts, with the same value: random strings over the
// characters of literals, and their edges.
func TestRuntimeArgumentRule(t *testing.T) {
	needLinuxAMD64(t)
	path := build(t, func(a *Asm, rt *Runtime) {
		a.Emit(I2(MOV, R(RAX), R(RDI)))
		a.Emit(I0(RET))
	})
	rng := rand.New(rand.NewSource(1))
	const alphabet = "0123456789abcdefABCDEFxX-+_g"
	cases := []string{"0", "-0", "0x", "0x0", "-0x8000000000000001", "9223372036854775807", "-9223372036854775808"}
	for range 400 {
		n := 1 + rng.Intn(20)
		b := make([]byte, n)
		for k := range b {
			b[k] = alphabet[rng.Intn(len(alphabet))]
		}
		// Make literals likely: a digit or "0x" first, after a sign.
		switch rng.Intn(4) {
		case 0:
			b[0] = "123456789"[rng.Intn(9)]
		case 1:
			b = append([]byte("0x"), b...)
		case 2:
			b = append([]byte("-0x"), b...)
		}
		cases = append(cases, string(b))
	}
	for _, arg := range cases {
		want := badArg(arg)
		if v, err := syntax.ParseInt(arg); err == nil {
			want = ok(v)
		}
		if got := run(t, path, arg); got != want {
			t.Errorf("argument %q: %+v, want %+v", arg, got, want)
		}
	}
}

// TestStartRuntimeCopy: the runtime's _start copied from runtimeStarts
// assembles, with the code after it, to the same bytes, entry and listing
// as _start emitted afresh, in both Lean settings, again on a second use
// (the copy leaves the template as it was), and on an assembler that
// already holds something (which emits _start afresh).
func TestStartRuntimeCopy(t *testing.T) {
	body := func(a *Asm, rt *Runtime, main Label) {
		a.Bind(main)
		loop := a.NewLabel()
		a.Bind(loop)
		a.Emit(I2(ADD, R(RAX), Imm(3)))
		a.Emit(Jcc(CondL, To(rt.DivZero([]byte("t.smp:1:2: runtime error: division by zero\n")))))
		a.Emit(Jcc(CondNE, To(loop)))
		a.Emit(I0(RET))
		rt.Finish()
	}
	assemble := func(a *Asm, rt *Runtime) (string, int) {
		code, insts, err := a.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		entry, _ := a.Offset(rt.Entry)
		var text []string
		for _, in := range insts {
			text = append(text, in.String())
		}
		return string(code) + "\x00" + strings.Join(text, "\n"), entry
	}
	for _, lean := range []bool{false, true} {
		fresh := Asm{Lean: lean}
		main := fresh.NewLabel()
		rt := NewRuntime(&fresh, main)
		body(&fresh, rt, main)
		want, wantEntry := assemble(&fresh, rt)
		for round := 1; round <= 2; round++ {
			a := Asm{Lean: lean}
			main, rt := startRuntime(&a)
			body(&a, rt, main)
			if got, entry := assemble(&a, rt); got != want || entry != wantEntry {
				t.Errorf("lean %v, use %d: the copied start assembles differently (entry %d, want %d)", lean, round, entry, wantEntry)
			}
		}
		used := Asm{Lean: lean}
		used.NewLabel()
		main2 := used.NewLabel()
		rt2 := NewRuntime(&used, main2)
		body(&used, rt2, main2)
		want2, wantEntry2 := assemble(&used, rt2)
		a := Asm{Lean: lean}
		a.NewLabel()
		main, rt = startRuntime(&a)
		body(&a, rt, main)
		if got, entry := assemble(&a, rt); got != want2 || entry != wantEntry2 || main != main2 {
			t.Errorf("lean %v: startRuntime on a used assembler: main %v (want %v), entry %d (want %d), other bytes", lean, main, main2, entry, wantEntry2)
		}
	}
}
