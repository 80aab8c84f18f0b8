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
	u, err := compileWithin(t, file, src, Options{Check: true})
	if err != nil {
		return "", err
	}
	p, err := amd64.Compile(u.Func, file, src, true)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, strings.ReplaceAll(filepath.Base(file), ".smp", ""))
	return path, (&elf.Exec{Text: p.Code, Entry: p.Entry}).WriteFile(path)
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
	var files []string
	for _, dir := range []string{"../testdata", "../examples"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.smp"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatal("no programs")
	}
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
// stopping after 25 seconds (SON_NATIVE_RANDOM sets the number).
func TestNativeRandom(t *testing.T) {
	needNative(t)
	n := envInt(t, "SON_NATIVE_RANDOM", 500, "a number of programs")
	if testing.Short() {
		n = 30
	}
	dir := t.TempDir()
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	deadline := time.Now().Add(25 * time.Second)
	ran := 0
	for seed := int64(0); seed < n && time.Now().Before(deadline); seed++ {
		c := gen.Config{Seed: seed, Size: 10 + int(seed%40), Shape: shapes[seed%4]}
		src := gen.Program(c)
		args := randomArgs(seed)
		want, err := referenceResults(src, args)
		if err != nil {
			t.Fatalf("seed %d: reference: %v", seed, err)
		}
		name := fmt.Sprintf("gen%d.smp", seed)
		path, err := buildNative(t, dir, name, []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
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
	t.Logf("%d programs", ran)
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
		p, err := amd64.Compile(u.Func, u.Name, src, true)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("..", "testdata", "asm", name+".s")
		if *update {
			if err := os.WriteFile(golden, []byte(p.Listing), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if p.Listing != string(want) {
			t.Errorf("%s: the code changed; want\n%s\ngot\n%s", name, want, p.Listing)
		}
	}
}
