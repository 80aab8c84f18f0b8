package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestProfiles: SON_CPUPROFILE and SON_MEMPROFILE each write a gzipped
// pprof profile of the run, and say so on standard error when they cannot
// or when SON_MEMPROFILERATE is not a positive number.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	t.Setenv(envCPUProfile, cpu)
	t.Setenv(envMemProfile, mem)
	var stderr bytes.Buffer
	stop := startProfiles(&stderr)
	if code := run([]string{"ir", filepath.Join("..", "..", "examples", "collatz.smp")}, nil, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("son ir: exit %d, %s", code, stderr.String())
	}
	stop()
	if stderr.Len() > 0 {
		t.Fatalf("stderr: %s", stderr.String())
	}
	for _, f := range []string{cpu, mem} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s: %d bytes, not a gzipped profile", f, len(b))
		}
	}

	t.Setenv(envCPUProfile, filepath.Join(dir, "no", "such", "dir", "cpu.pprof"))
	t.Setenv(envMemProfile, "")
	stderr.Reset()
	startProfiles(&stderr)()
	if want := "son: " + envCPUProfile + ": open "; !bytes.HasPrefix(stderr.Bytes(), []byte(want)) {
		t.Errorf("stderr = %q, want it to start with %q", stderr.String(), want)
	}

	t.Setenv(envCPUProfile, "")
	t.Setenv(envMemProfile, mem)
	t.Setenv(envMemProfRate, "often")
	stderr.Reset()
	startProfiles(&stderr)()
	if want := "son: " + envMemProfRate + "=\"often\" is not a positive number of bytes; the default rate is used\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}
