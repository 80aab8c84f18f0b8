package compile

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"son/cfg"
	"son/internal/gen"
)

// The size table of docs/OPTIMIZATIONS.md ("Optimization power"): for every
// program of testdata/, examples/, bench/ and a fixed set of random
// programs, the nodes of the graph after the last graph pass (cleanup) and
// the instructions of the final RTL function (instructions plus one
// terminator per block, a constant's copies counted once). testdata/sizes.txt records them as they were
// before the issue-18 rules; no program may be larger now, in either
// count. SON_SIZES_WRITE=FILE writes the current sizes to FILE in the same
// format (how testdata/sizes.txt was made).

// sizesFile is the recorded baseline, relative to the compile package.
const sizesFile = "testdata/sizes.txt"

// sizeRandomSeeds is the fixed set of random programs of the table.
const sizeRandomSeeds = 40

type progSize struct{ nodes, instrs int }

// sizePrograms lists the table's programs: name → source.
func sizePrograms(t *testing.T) map[string][]byte {
	t.Helper()
	progs := map[string][]byte{}
	for _, f := range programFiles(t, "../testdata", "../examples", "../bench") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = src
	}
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := int64(1); seed <= sizeRandomSeeds; seed++ {
		c := gen.Config{Seed: seed, Size: 30, Shape: shapes[seed%4], KeepLive: true}
		progs[fmt.Sprintf("random/%d", seed)] = []byte(gen.Program(c))
	}
	return progs
}

// measure compiles src through the whole pipeline, unchecked.
func measure(name string, src []byte) (progSize, error) {
	u, err := Compile(name, src, Options{})
	if err != nil {
		return progSize{}, err
	}
	var s progSize
	for _, st := range u.Stats {
		if st.Name == "cleanup" {
			s.nodes = st.Nodes
		}
	}
	// A constant's copies (gcm rematerializes constants, one Const per
	// block its uses need it in) count once: the rule trades a register
	// kept live across blocks for recomputing the value, mostly an
	// immediate operand in the native code.
	consts := map[int]bool{}
	for _, b := range u.Func.Blocks {
		s.instrs += len(b.Instrs) + 1
		for _, in := range b.Instrs {
			if in.Op == cfg.OpConst && in.Node != 0 {
				if consts[in.Node] {
					s.instrs--
				}
				consts[in.Node] = true
			}
		}
	}
	return s, nil
}

func readSizes(t *testing.T) map[string]progSize {
	t.Helper()
	f, err := os.Open(sizesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]progSize{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var name string
		var s progSize
		if _, err := fmt.Sscanf(line, "%s %d %d", &name, &s.nodes, &s.instrs); err != nil {
			t.Fatalf("%s: %q: %v", sizesFile, line, err)
		}
		m[name] = s
	}
	return m
}

// TestSizes fails if any program's graph or instruction count grew since
// the recorded baseline, and logs the totals of the table.
func TestSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every program once more")
	}
	progs := sizePrograms(t)
	names := make([]string, 0, len(progs))
	for n := range progs {
		names = append(names, n)
	}
	sort.Strings(names)
	now := map[string]progSize{}
	for _, n := range names {
		if strings.HasPrefix(n, "errors/") {
			continue
		}
		s, err := measure(n, progs[n])
		if err != nil {
			t.Errorf("%s: %v", n, err) // every program of the table compiles
			continue
		}
		now[n] = s
	}
	if out := os.Getenv("SON_SIZES_WRITE"); out != "" {
		var b strings.Builder
		b.WriteString("# program nodes-after-cleanup rtl-instructions (compile/sizes_test.go)\n")
		for _, n := range names {
			if s, ok := now[n]; ok {
				fmt.Fprintf(&b, "%s %d %d\n", n, s.nodes, s.instrs)
			}
		}
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := readSizes(t)
	var tb, tn [4]progSize // totals before/now, by set: testdata, examples, bench, random
	set := func(n string) int {
		switch {
		case strings.HasPrefix(n, "testdata/"):
			return 0
		case strings.HasPrefix(n, "examples/"):
			return 1
		case strings.HasPrefix(n, "bench/"):
			return 2
		}
		return 3
	}
	smaller, compared := 0, 0
	for _, n := range names {
		s, ok := now[n]
		b, had := base[n]
		if !ok || !had {
			continue
		}
		compared++
		if s.nodes > b.nodes || s.instrs > b.instrs {
			t.Errorf("%s grew: nodes %d → %d, instructions %d → %d", n, b.nodes, s.nodes, b.instrs, s.instrs)
		}
		if s.nodes < b.nodes || s.instrs < b.instrs {
			smaller++
		}
		k := set(n)
		tb[k].nodes += b.nodes
		tb[k].instrs += b.instrs
		tn[k].nodes += s.nodes
		tn[k].instrs += s.instrs
	}
	for k, name := range []string{"testdata", "examples", "bench", "random"} {
		t.Logf("%-8s nodes %5d → %5d   instructions %5d → %5d", name, tb[k].nodes, tn[k].nodes, tb[k].instrs, tn[k].instrs)
	}
	if compared < len(base)/2 {
		t.Errorf("only %d of the %d programs of %s compared", compared, len(base), sizesFile)
	}
	t.Logf("%d programs smaller, of %d compared", smaller, compared)
}
