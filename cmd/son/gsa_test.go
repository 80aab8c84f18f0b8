package main

import (
	"strings"
	"testing"
)

// TestGraphGSA: after gsa, graph draws the gated SSA form.
func TestGraphGSA(t *testing.T) {
	inDir(t)
	code, stdout, stderr := runSon("", "graph", "-after", "gsa", "loop.smp")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{`label="loop.smp after gsa";`, `v10 = μ(v7, v23)\l`, `v25 = η(¬(v11 < v4): v10)\l`, "n2 -> n1 [style=dashed];"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
}
