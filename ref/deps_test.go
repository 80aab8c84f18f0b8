package ref

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestIndependent makes sure that ref shares no code with the compiler:
// its own files import only son/syntax and the standard library, and
// nothing it depends on, however indirectly, is son, opt, gcm or cfg.
func TestIndependent(t *testing.T) {
	direct := moduleImports(t, ".")
	for _, p := range direct {
		if p != "son/syntax" {
			t.Errorf("ref imports %s: it may import only son/syntax and the standard library", p)
		}
	}
	forbidden := []string{"son/son", "son/opt", "son/gcm", "son/cfg"}
	seen := map[string]bool{}
	var visit func(pkg, via string)
	visit = func(pkg, via string) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		if slices.Contains(forbidden, pkg) {
			t.Errorf("ref depends on %s (%s)", pkg, via)
			return
		}
		for _, p := range moduleImports(t, filepath.Join("..", strings.TrimPrefix(pkg, "son/"))) {
			visit(p, via+" → "+p)
		}
	}
	for _, p := range direct {
		visit(p, "ref → "+p)
	}
	if !seen["son/syntax"] {
		t.Errorf("the walk did not reach son/syntax: it reads nothing")
	}
}

// moduleImports returns the imports of the package in dir, not counting
// its tests, that belong to the module son.
func moduleImports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if (p == "son" || strings.HasPrefix(p, "son/")) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}
