package compile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"son/amd64"
	"son/elf"
	"son/internal/gen"
	"son/internal/testenv"
	"son/regalloc"
)

// needNative skips a test that runs native code where the machine cannot.
func needNative(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("native code is Linux x86-64; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
}

// buildNative compiles src with checking on (the allocation checked too)
// and writes the executable to dir.
func buildNative(t *testing.T, dir, file string, src []byte) (string, error) {
	t.Helper()
	path, _, err := buildNativeProgram(t, dir, file, src)
	return path, err
}

// buildNativeProgram is buildNative, returning the Program too.
func buildNativeProgram(t *testing.T, dir, file string, src []byte) (string, *amd64.Program, error) {
	t.Helper()
	u, err := compileWithin(t, file, src, Options{Check: true})
	if err != nil {
		return "", nil, err
	}
	p, err := amd64.Compile(u.Func, file, src, amd64.CheckAll)
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, strings.ReplaceAll(filepath.Base(file), ".smp", ""))
	return path, p, (&elf.Exec{Text: p.Code, Entry: p.Entry}).WriteFile(path)
}

// runNative runs an executable with one argument: its standard output,
// standard error and exit status.
func runNative(t *testing.T, path string, arg int64) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, path, strconv.FormatInt(arg, 10))
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s %d: did not finish in 20s", path, arg)
	case errors.As(err, &ee) && ee.Exited():
		return out.String(), errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %d: %v", path, arg, err)
	}
	return out.String(), errb.String(), 0
}

// nativeOutcome is what the executable of file must do for a result of
// the reference: print the value, or report the division by zero at its
// position and exit 1.
func nativeOutcome(file, ref string) (stdout, stderr string, status int) {
	if pos, ok := strings.CutPrefix(ref, "error: division by zero at "); ok {
		return "", fmt.Sprintf("%s:%s: runtime error: division by zero\n", file, pos), 1
	}
	return ref + "\n", "", 0
}

// TestNativePrograms: the executable of every program of testdata and
// examples gives the results of its run: lines (but those that expect the
// step limit, which native code does not have).
func TestNativePrograms(t *testing.T) {
	needNative(t)
	files := programFiles(t, "../testdata", "../examples")
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".smp"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := parseDirectives(string(src))
			if err != nil {
				t.Fatal(err)
			}
			path, err := buildNative(t, t.TempDir(), file, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range d.Runs {
				if r.Err == "step limit exceeded" {
					continue
				}
				want := strconv.FormatInt(r.Value, 10)
				if r.Err != "" {
					want = "error: division by zero at " + r.Pos.String()
				}
				checkNative(t, file, path, r.Arg, want)
			}
		})
	}
}

func checkNative(t *testing.T, file, path string, arg int64, ref string) {
	t.Helper()
	out, errs, status := runNative(t, path, arg)
	wout, werr, wstatus := nativeOutcome(file, ref)
	if out != wout || errs != werr || status != wstatus {
		t.Errorf("%s, arg %d: native: stdout %q, stderr %q, status %d; want %q, %q, %d",
			file, arg, out, errs, status, wout, werr, wstatus)
	}
}

// TestNativeRandom: generated programs, native against the reference,
// stopping after 20 seconds unless SON_NATIVE_RANDOM sets the number (a
// campaign then runs them all). It logs how many allocations spilled and
// how many loops got a spilled register's copy (regalloc.Result.Split).
//
// Environment knobs, for a campaign:
//
//	SON_NATIVE_RANDOM=n  run n programs (default 500 or 20 seconds)
//	SON_NATIVE_SEED=k    seeds k to k+n-1 (default 0)
//	SON_NATIVE_SIZE=s    programs of about s statements (default 10 to 49)
//	SON_NATIVE_KEEPLIVE=1  guard every early return (gen.Config.KeepLive),
//	                     so that large programs stay large and spill
func TestNativeRandom(t *testing.T) {
	needNative(t)
	n := testenv.Int(t, "SON_NATIVE_RANDOM", 500, "a number of programs")
	if testing.Short() {
		n = 30
	}
	first := testenv.Int(t, "SON_NATIVE_SEED", 0, "a seed")
	size := testenv.Int(t, "SON_NATIVE_SIZE", 0, "a number of statements")
	keepLive := testenv.Int(t, "SON_NATIVE_KEEPLIVE", 0, "0 or 1") != 0
	dir := t.TempDir()
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	deadline := time.Now().Add(20 * time.Second)
	_, campaign := os.LookupEnv("SON_NATIVE_RANDOM")
	ran, spilled, split := 0, 0, 0
	for seed := first; seed < first+n && (campaign || time.Now().Before(deadline)); seed++ {
		m := ((seed % 40) + 40) % 40
		c := gen.Config{Seed: seed, Size: 10 + int(m), Shape: shapes[m%4], KeepLive: keepLive}
		if size > 0 {
			c.Size = int(size)
		}
		src := gen.Program(c)
		args := randomArgs(seed)
		want, err := referenceResults(src, args)
		if err != nil {
			t.Fatalf("seed %d: reference: %v", seed, err)
		}
		name := fmt.Sprintf("gen%d.smp", seed)
		path, p, err := buildNativeProgram(t, dir, name, []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if p.Alloc.Spilled > 0 {
			spilled++
		}
		split += p.Alloc.Split
		for k, arg := range args {
			if want[k] == "" {
				continue // the reference hit its step limit
			}
			checkNative(t, name, path, arg, want[k])
		}
		if t.Failed() {
			t.Fatalf("seed %d:\n%s", seed, src)
		}
		ran++
	}
	t.Logf("%d programs, %d allocations that spilled, %d loops split", ran, spilled, split)
}

// TestGoldenAsm: the code of a few programs, read by hand to be what a
// good compiler writes, kept in testdata/asm (go test -run GoldenAsm
// -update rewrites them after a change, to be read again).
func TestGoldenAsm(t *testing.T) {
	for _, name := range []string{"gcd", "collatz", "paper001_loop"} {
		file := filepath.Join("..", "examples", name+".smp")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Compile("examples/"+name+".smp", src, Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		p, err := amd64.Compile(u.Func, u.Name, src, amd64.CheckAll)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("..", "testdata", "asm", name+".s")
		if *update {
			if err := os.WriteFile(golden, []byte(p.Listing()), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if p.Listing() != string(want) {
			t.Errorf("%s: the code changed; want\n%s\ngot\n%s", name, want, p.Listing())
		}
	}
}

// selectFaultProgram compiles faultProgram with o and selects its
// instructions: the function and what the allocator reads of it.
func selectFaultProgram(t *testing.T, o Options) (*amd64.VFunc, *regalloc.Func) {
	t.Helper()
	u, err := Compile("faults.smp", []byte(faultProgram()), o)
	if err != nil {
		t.Fatal(err)
	}
	vf, err := amd64.Select(u.Func, u.Name)
	if err != nil {
		t.Fatal(err)
	}
	return vf, vf.RegallocFunc()
}

// faultProgram keeps 24 values live around a loop, more than the
// machine's registers, so that its allocation spills.
func faultProgram() string {
	var b strings.Builder
	for k := range 24 {
		fmt.Fprintf(&b, "int x%d = arg * %d + %d;\n", k, k+2, k)
	}
	b.WriteString("int i = 0;\nwhile (i < 3) {\n")
	for k := range 24 {
		fmt.Fprintf(&b, "\tx%d = x%d + x%d / (i + 1);\n", k, k, (k+1)%24)
	}
	b.WriteString("\ti = i + 1;\n}\nreturn x0")
	for k := 1; k < 24; k++ {
		fmt.Fprintf(&b, " ^ x%d", k)
	}
	b.WriteString(";\n")
	return b.String()
}

// TestAllocationFaults: the allocator's faults, made by hand in the
// allocation of a real program that spills: a reload dropped, a reload
// from the wrong slot, a store to the wrong slot, a result written to
// another register (clobbering whatever was live there). regalloc.Check
// rejects some of each kind, naming the instruction; every mutant it
// accepts (a reload of what the register already held, a register that
// held nothing live) still computes what the reference does.
func TestAllocationFaults(t *testing.T) {
	src := faultProgram()
	args := []int64{0, 1, -7, 1000}
	want, err := referenceResults(src, args)
	if err != nil {
		t.Fatal(err)
	}
	vf, rf := selectFaultProgram(t, Options{Check: true})
	native := runtime.GOOS == "linux" && runtime.GOARCH == "amd64"
	dir := t.TempDir()
	if native { // the allocation as made computes the right values
		path, err := buildNative(t, dir, "faults.smp", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for k, arg := range args {
			checkNative(t, "faults.smp", path, arg, want[k])
		}
	}
	type site struct{ b, i, k int }
	for _, kind := range []string{"missing reload", "reload from the wrong slot", "store to the wrong slot", "clobbered register"} {
		t.Run(kind, func(t *testing.T) {
			res, err := regalloc.Allocate(rf)
			if err != nil {
				t.Fatal(err)
			}
			if res.Slots < 2 {
				t.Fatalf("%d slots: the program does not spill enough", res.Slots)
			}
			var sites []site
			for b, ps := range res.Blocks {
				for i, p := range ps {
					switch {
					case kind == "clobbered register":
						for k := range res.Defs(&p) {
							if !p.Dead && rf.Defs(&rf.Blocks[b].Instrs[i])[k] >= regalloc.Reg(amd64.FirstVirtual) {
								sites = append(sites, site{b, i, k})
							}
						}
					case kind == "store to the wrong slot":
						for k := range res.After(&p) {
							sites = append(sites, site{b, i, k})
						}
					default:
						for k := range res.Before(&p) {
							sites = append(sites, site{b, i, k})
						}
					}
				}
			}
			rejected, accepted := 0, 0
			for n, s := range sites {
				if n%7 != 0 && kind == "clobbered register" {
					continue // a sample: one site in seven
				}
				res, _ := regalloc.Allocate(rf)
				p := &res.Blocks[s.b][s.i]
				before, after, defs := res.Before(p), res.After(p), res.Defs(p)
				switch kind {
				case "missing reload":
					// the reload made a move of its register to itself:
					// as if it were left out
					before[s.k].Src = before[s.k].Dst
				case "reload from the wrong slot":
					before[s.k].Src = regalloc.SlotLoc((before[s.k].Src.Slot() + 1) % res.Slots)
				case "store to the wrong slot":
					after[s.k].Dst = regalloc.SlotLoc((after[s.k].Dst.Slot() + 1) % res.Slots)
				default:
					defs[s.k] = regalloc.Loc((int(defs[s.k]) + 1) % 16)
					if defs[s.k] == regalloc.Loc(amd64.RSP) {
						defs[s.k]++
					}
				}
				err := regalloc.Check(rf, res)
				if err != nil {
					if !strings.Contains(err.Error(), ", instruction ") {
						t.Errorf("%s: %v: does not name the instruction", kind, err)
					}
					rejected++
					continue
				}
				accepted++
				if !native {
					continue
				}
				prog, err := amd64.Lower(vf, res, nil)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, "mutant")
				if err := (&elf.Exec{Text: prog.Code, Entry: prog.Entry}).WriteFile(path); err != nil {
					t.Fatal(err)
				}
				for k, arg := range args {
					checkNative(t, "faults.smp", path, arg, want[k])
				}
				if t.Failed() {
					t.Fatalf("the checker accepted a wrong allocation: %s at block %d, instruction %d", kind, s.b, s.i)
				}
			}
			if rejected == 0 {
				t.Fatalf("%d mutants, none rejected", len(sites))
			}
			if !native && accepted > 0 {
				t.Logf("the %d mutants accepted are not run: native code is Linux x86-64, this is %s/%s", accepted, runtime.GOOS, runtime.GOARCH)
			}
			t.Logf("%d rejected, %d accepted (and run correctly)", rejected, accepted)
		})
	}
}

// TestNativeDivConst: division and remainder by constants of every kind
// (±1, powers of two and their negations, MinInt, other constants by
// multiplication) against the reference, on dividends at the edges.
func TestNativeDivConst(t *testing.T) {
	needNative(t)
	divisors := []string{"1", "-1", "2", "-2", "4", "8", "-8", "0x80000000", "-0x80000000", "0x100000000",
		"0x4000000000000000", "-0x4000000000000000", "-9223372036854775808", "3", "5", "7", "10", "-3", "-7",
		"100", "1000003", "9223372036854775807", "-9223372036854775807", "0xFFFFFFFFFD", "641",
		"9", "-5", "-9", "15", "-15", "0x7FFFFFFF", "-0x7FFFFFFF", "0xFFFFFFFF"}
	args := []int64{0, 1, -1, 7, -7, 100, -100, 1<<63 - 1, -1 << 63, -1<<63 + 1, 123456789012345, -98765432109876}
	var progs []string
	for _, d := range divisors {
		progs = append(progs, "return arg / "+d+";\n", "return arg % "+d+";\n")
	}
	checkNativePrograms(t, t.TempDir(), "div", progs, args)
}

// checkNativePrograms builds each small program in dir as PREFIX<k>.smp and
// requires its executable to agree with the reference on every argument
// (skipping those where the reference hit its step limit); it stops at the
// first program that disagrees, naming its source.
func checkNativePrograms(t *testing.T, dir, prefix string, progs []string, args []int64) {
	t.Helper()
	for k, src := range progs {
		want, err := referenceResults(src, args)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		name := fmt.Sprintf("%s%d.smp", prefix, k)
		path, err := buildNative(t, dir, name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for j, arg := range args {
			if want[j] != "" {
				checkNative(t, name, path, arg, want[j])
			}
		}
		if t.Failed() {
			t.Fatalf("%s", src)
		}
	}
}

// TestNativeDivReg: division by a register on both sides of the 32-bit
// fast path's bounds (dividend in [0, 2^31), divisor in [1, 2^31]) and at
// the cases out of line (negative, wide, -1 with MinInt, 0), against the
// reference: the dividend a constant with the divisor the argument, and
// the argument divided by a register computed from it.
func TestNativeDivReg(t *testing.T) {
	needNative(t)
	progs := []string{}
	for _, a := range []string{"0", "1", "7", "0x7FFFFFFF", "0x80000000", "0xFFFFFFFF", "-1", "-7",
		"-9223372036854775808", "9223372036854775807"} {
		progs = append(progs, "int a = "+a+";\nreturn a / arg;\n", "int a = "+a+";\nreturn a % arg;\n")
	}
	progs = append(progs, "return arg / (arg >> 3);\n", "return arg % (arg >> 3);\n",
		"return arg / (arg - 0x7FFFFFFF);\n", "return arg % (arg - 0x7FFFFFFF);\n")
	args := []int64{0, 1, -1, 2, 7, -7, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 - 1, 1 << 32,
		-1 << 31, 1<<63 - 1, -1 << 63}
	checkNativePrograms(t, t.TempDir(), "divreg", progs, args)
}

// TestNativeCombine: the instruction pairs selection fuses (x*k + c and
// x*k + y as one lea, x % 2^k == 0 as a test), and the cases it must not
// fuse (the product read twice, its operand written in between), against
// the reference.
func TestNativeCombine(t *testing.T) {
	needNative(t)
	programs := []string{
		"return arg * 3 + 5;\n",
		"return 7 + arg * 9;\n",
		"return arg * 2 - 3;\n",
		"return arg * 8 + 0x7fffffff;\n",
		"int y = arg + 1;\nreturn (arg << 3) + y;\n",
		"int y = arg - 1;\nreturn y + arg * 4;\n",
		"int a = arg * 5;\nreturn a + 1 + a;\n",
		"int x = arg;\nint p = x * 3;\nx = x + 1;\nreturn p + x;\n",
		"int n = arg;\nint s = 0;\nwhile (n > 0) { if (n % 4 == 0) s = s + 1; n = n - 1; }\nreturn s;\n",
		"return arg % -8 != 0;\n",
		"return arg % 0x80000000 == 0;\n",
		"int r = arg % 16;\nif (r == 0) return 1;\nreturn r;\n",
		"int x = arg;\nint r = x % 2;\nx = x + 1;\nif (r == 0) return x;\nreturn -x;\n",
	}
	args := []int64{0, 1, -1, 2, -2, 7, -8, 16, 1 << 31, -1 << 31, 1<<63 - 1, -1 << 63}
	checkNativePrograms(t, t.TempDir(), "combine", programs, args)
}

// TestNativeSpill: larger generated programs, half of them keeping every
// variable live to the end, so that the allocation spills; native against
// the reference.
func TestNativeSpill(t *testing.T) {
	needNative(t)
	dir := t.TempDir()
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	spilled, split := 0, 0
	for seed := int64(1000); seed < 1040; seed++ {
		c := gen.Config{Seed: seed, Size: 150 + int(seed%100), Shape: shapes[seed%4], KeepLive: seed%2 == 0}
		src := gen.Program(c)
		args := randomArgs(seed)
		want, err := referenceResults(src, args)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Compile("g.smp", []byte(src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := amd64.Compile(u.Func, u.Name, nil, amd64.CheckAll)
		if err != nil {
			t.Fatal(err)
		}
		spilled += p.Alloc.Spilled
		split += p.Alloc.Split
		name := fmt.Sprintf("gen%d.smp", seed)
		path, err := buildNative(t, dir, name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for k, arg := range args {
			if want[k] != "" {
				checkNative(t, name, path, arg, want[k])
			}
		}
		if t.Failed() {
			t.Fatalf("seed %d:\n%s", seed, src)
		}
	}
	if spilled == 0 {
		t.Fatal("no program spilled: the test does not exercise spilling")
	}
	t.Logf("%d registers spilled in all, %d loop copies of spilled registers kept", spilled, split)
}
