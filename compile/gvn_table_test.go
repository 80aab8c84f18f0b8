package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"son/cfg"
	"son/gvn"
	"son/internal/gen"
)

// gvnCounts are the columns of paper 003's Table 1 for a set of programs,
// counted as gvn.Count does (Phis and instructions other than Check, at
// the cfg level).
type gvnCounts struct {
	programs int
	defs     int // after gcm, the graph's value numbering off (the paper's Iop)
	graph    int // removed by the graph's value numbering (the paper's LVN)
	gvn      int // removed by the gvn pass after it (GVN)
	gvnOnly  int // removed by the gvn pass, the graph's value numbering off (GVN only)
}

// gvnMeasure compiles src with the graph's value numbering on and off and
// adds its counts to c. It requires every check to pass in both modes,
// the same results in both (those of its run: lines when it has some),
// and a second gvn to find nothing more.
func gvnMeasure(t *testing.T, name string, src []byte, c *gvnCounts) {
	t.Helper()
	d, err := parseDirectives(string(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	args := []int64{0, 1, -7, 10}
	var results [2][]string
	var gcmDefs, gvnDefs [2]int
	for i, off := range []bool{false, true} {
		after := func(u *Unit, pass string) error {
			switch pass {
			case "gcm":
				gcmDefs[i] = gvn.Count(u.Func)
			case "gvn":
				gvnDefs[i] = gvn.Count(u.Func)
			}
			return nil
		}
		u, err := Compile(name, src, Options{Check: true, NoGVN: off, StopAfter: "gvn", AfterPass: after})
		if err != nil {
			t.Fatalf("%s (graph value numbering off: %v): %v", name, off, err)
		}
		for _, r := range d.Runs {
			got, err := cfg.Run(u.Func, r.Arg, cfg.Limits{Steps: d.Steps})
			if diff := checkRun(r, got, err); diff != "" {
				t.Errorf("%s:%d: graph value numbering off: %v: arg %d: %s", name, r.Line, off, r.Arg, diff)
			}
		}
		for _, a := range args {
			got, err := cfg.Run(u.Func, a, cfg.Limits{Steps: d.Steps})
			results[i] = append(results[i], fmt.Sprint(got, err))
		}
		p, err := gvn.Number(u.Func)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Replace) > 0 {
			t.Errorf("%s: a second gvn replaces %v", name, p.Replace)
		}
	}
	if a, b := strings.Join(results[0], "; "), strings.Join(results[1], "; "); a != b {
		t.Errorf("%s: results %s with the graph's value numbering, %s without", name, a, b)
	}
	c.programs++
	c.defs += gcmDefs[1]
	c.graph += gcmDefs[1] - gcmDefs[0]
	c.gvn += gcmDefs[0] - gvnDefs[0]
	c.gvnOnly += gcmDefs[1] - gvnDefs[1]
}

// gvnRandomPrograms is the fixed set of generated programs of the table.
const gvnRandomPrograms = 100

// TestGVNTable measures the gvn pass as Table 1 of paper 003 measures
// CompCertSSA's GVN, over testdata/, examples/ and a fixed set of
// generated programs; with -v it prints the table of docs/OPTIMIZATIONS.md:
//
//	go test ./compile -run GVNTable -v
func TestGVNTable(t *testing.T) {
	var rows []string
	var total gvnCounts
	row := func(name string, c gvnCounts) {
		rows = append(rows, fmt.Sprintf("| %s | %d | %d | %d | %d | %d |", name, c.programs, c.defs, c.graph, c.gvn, c.gvnOnly))
		total.programs += c.programs
		total.defs += c.defs
		total.graph += c.graph
		total.gvn += c.gvn
		total.gvnOnly += c.gvnOnly
	}
	for _, dir := range []string{"testdata", "examples", "bench"} {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.smp"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no programs in %s: %v", dir, err)
		}
		var c gvnCounts
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			gvnMeasure(t, file, src, &c)
		}
		row(dir+"/", c)
	}
	n := gvnRandomPrograms
	if testing.Short() {
		n = 20
	}
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	var c gvnCounts
	for seed := range int64(n) {
		src := gen.Program(gen.Config{Seed: seed, Size: 10 + int(seed%40), Shape: shapes[seed%4]})
		gvnMeasure(t, fmt.Sprintf("gen seed %d", seed), []byte(src), &c)
	}
	row(fmt.Sprintf("generated, seeds 0–%d", n-1), c)
	row("total", total)
	t.Log("\n| programs | count | defs | graph VN | gvn | gvn only |\n|---|---:|---:|---:|---:|---:|\n" + strings.Join(rows, "\n"))
	if total.gvn == 0 || total.gvnOnly < total.gvn {
		t.Errorf("gvn removed %d definitions after the graph's value numbering and %d without it: want some, and more without", total.gvn, total.gvnOnly)
	}
}
