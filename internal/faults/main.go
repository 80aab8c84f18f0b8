// Command faults is the fault-injection campaign that measures son's
// guards (docs/ASSURANCE.md). For each fault of the catalogue — a small,
// realistic bug in one pass's source — it copies the module to a
// temporary directory, makes the fault's edit there, builds the probe
// (internal/faults/probe) in the copy and runs it: every program of the
// set through the checked pipeline and the differential. It then prints
// a Markdown table of what caught each fault first, and a summary.
//
// The unchanged tree is probed first: if anything catches something
// there, the campaign would measure nothing, and it stops (-keep-going
// runs the faults anyway). The faults run one after another; the build
// cache is shared, so each copy recompiles only the package edited and
// those above it.
//
//	go run ./internal/faults                    # the whole catalogue, table on stdout
//	go run ./internal/faults -write             # and into docs/ASSURANCE.md
//	go run ./internal/faults -faults 'gcm|zc-' -v   # some faults, with each program's catch
//	go run ./internal/faults -check             # only: does every entry still apply?
//	go run ./internal/faults -list              # the catalogue
//	go run ./internal/faults -faults '^gcm-lca-deeper$' -tree /tmp/t   # a faulty copy to study
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"son/internal/faults/outcome"
)

func main() {
	var c campaign
	only := flag.String("faults", "", "run only the faults whose name matches this regexp")
	flag.IntVar(&c.n, "n", 30, "generated programs in the probe's set (besides testdata/ and examples/)")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Second, "time bound of one program in the probe")
	flag.DurationVar(&c.deadline, "deadline", 5*time.Minute, "time bound of one run of the probe")
	flag.StringVar(&c.programs, "programs", "", "probe only the programs whose name matches this regexp")
	flag.BoolVar(&c.keepGoing, "keep-going", false, "run the faults even if the unchanged tree fails the probe")
	verbose := flag.Bool("v", false, "print each fault's result as it comes, with every program that caught it")
	write := flag.Bool("write", false, "also write the table and summary into docs/ASSURANCE.md")
	check := flag.Bool("check", false, "only check that every fault applies to the tree")
	list := flag.Bool("list", false, "only list the catalogue")
	tree := flag.String("tree", "", "only copy the module into this new directory with the one fault -faults selects, to study it by hand")
	flag.Parse()

	root, err := moduleRoot(".")
	if err != nil {
		fatal(err)
	}
	c.root = root
	faults := Catalogue
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fatal(err)
		}
		faults = nil
		for _, f := range Catalogue {
			if re.MatchString(f.Name) {
				faults = append(faults, f)
			}
		}
	}
	switch {
	case *tree != "":
		if len(faults) != 1 {
			fatal(fmt.Errorf("-tree wants -faults to select one fault, not %d", len(faults)))
		}
		if err := os.Mkdir(*tree, 0o755); err != nil {
			fatal(err)
		}
		if err := copyModule(root, *tree); err != nil {
			fatal(err)
		}
		if err := faults[0].Apply(*tree); err != nil {
			fatal(err)
		}
		fmt.Printf("%s: %s\n", *tree, faults[0].What)
		return
	case *list:
		for _, f := range faults {
			fmt.Printf("%-28s %-10s %-18s %s\n", f.Name, f.Pass, f.File, f.What)
		}
		return
	case *check:
		bad := 0
		for _, f := range faults {
			if err := f.Check(root); err != nil {
				fmt.Println(err)
				bad++
			}
		}
		fmt.Printf("%d of %d faults apply\n", len(faults)-bad, len(faults))
		if bad > 0 {
			os.Exit(1)
		}
		return
	}
	if c.gocache, err = goCacheDir(); err != nil {
		fatal(err)
	}

	log := os.Stderr
	start := time.Now()
	fmt.Fprintf(log, "probing the unchanged tree (%d generated programs)...\n", c.n)
	base := c.run(nil)
	switch {
	case base.Status != Ran:
		fatal(fmt.Errorf("the unchanged tree: %s", base.Note))
	case base.Verdict.First != outcome.None:
		fmt.Fprintf(log, "the unchanged tree fails the probe: %s: %s\n", base.Verdict.Program, base.Verdict.Detail)
		if !c.keepGoing {
			os.Exit(1)
		}
	}
	fmt.Fprintf(log, "%d programs, all pass, in %v\n", base.Verdict.Programs, base.Time.Round(time.Millisecond))

	var results []Result
	for i, f := range faults {
		r := c.run(&f)
		results = append(results, r)
		what := string(r.Status)
		if r.Status == Ran {
			what = label(r.Verdict)
		}
		fmt.Fprintf(log, "[%d/%d] %-28s %-40s %v\n", i+1, len(faults), f.Name, what, r.Time.Round(time.Millisecond))
		if *verbose {
			printDetails(log, r)
		}
	}
	cmd := "go run ./internal/faults"
	if c.n != 30 {
		cmd += fmt.Sprintf(" -n %d", c.n)
	}
	text := fmt.Sprintf("Made by `%s` on %d programs (%d generated), in %v.\n\n%s\n%s",
		cmd, base.Verdict.Programs, c.n, time.Since(start).Round(time.Second), table(results), summary(results))
	fmt.Print(text)
	if *write {
		if *only != "" || c.programs != "" {
			fatal(fmt.Errorf("-write wants the whole catalogue on the whole program set: drop -faults and -programs"))
		}
		if err := writeBetweenMarkers(filepath.Join(root, "docs", "ASSURANCE.md"), text); err != nil {
			fatal(err)
		}
	}
}

// printDetails writes a fault's details: the note, the first catch, and
// every program that caught it.
func printDetails(w *os.File, r Result) {
	if r.Note != "" {
		fmt.Fprintf(w, "\t%s\n", r.Note)
	}
	if r.Status != Ran {
		return
	}
	if r.Verdict.First != outcome.None {
		fmt.Fprintf(w, "\tfirst: %s: %s\n", r.Verdict.Program, r.Verdict.Detail)
	}
	for _, p := range r.Lines {
		if p.Millis >= 2000 {
			fmt.Fprintf(w, "\t  %-36s slow: %.1fs\n", p.Name, float64(p.Millis)/1000)
		}
		if p.Guard != outcome.None {
			fmt.Fprintf(w, "\t  %-36s %s\n", p.Name, p.GuardDetail)
		}
		if p.Diff != outcome.None {
			fmt.Fprintf(w, "\t  %-36s %s\n", p.Name, p.DiffDetail)
		}
	}
}

// goCacheDir is the go command's build cache, which every copy shares.
func goCacheDir() (string, error) {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOCACHE: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "faults:", err)
	os.Exit(2)
}
