package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Fault is one deliberate bug: an edit of one pass's source.
type Fault struct {
	Name string // short and unique, for -faults and the table
	Pass string // the pipeline pass it breaks ("build", "peephole", "sccp", "zerocheck", "gcm", ...)
	File string // the file edited, relative to the module's root
	Old  string // text that must occur exactly once in File
	New  string // what replaces it
	What string // one line saying what the bug is
}

// StaleError says that a fault's Old text is not in its file exactly once:
// the source moved on and the entry must be rewritten.
type StaleError struct {
	Fault Fault
	Count int // occurrences of Old found (-1: the file cannot be read)
	Err   error
}

func (e *StaleError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("fault %s is stale: %v", e.Fault.Name, e.Err)
	}
	return fmt.Sprintf("fault %s is stale: its old text occurs %d times in %s, want once", e.Fault.Name, e.Count, e.Fault.File)
}

// edited returns the text of the fault's file under root with the edit
// made, or a *StaleError.
func (f Fault) edited(root string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.File)))
	if err != nil {
		return nil, &StaleError{Fault: f, Count: -1, Err: err}
	}
	if k := strings.Count(string(data), f.Old); k != 1 || f.Old == "" {
		return nil, &StaleError{Fault: f, Count: k}
	}
	return []byte(strings.Replace(string(data), f.Old, f.New, 1)), nil
}

// Check reports whether the fault applies to the tree at root, as a
// *StaleError if not.
func (f Fault) Check(root string) error {
	_, err := f.edited(root)
	return err
}

// Apply makes the fault's edit in the tree at root, or returns a
// *StaleError and leaves the tree as it was.
func (f Fault) Apply(root string) error {
	data, err := f.edited(root)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, filepath.FromSlash(f.File)), data, 0o644)
}

// copyModule copies the module at src into dst (which must exist), all
// but version control: the .git directory or file, anywhere.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil // symbolic links and the like: no module has any
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// moduleRoot finds the directory of the go.mod above dir.
func moduleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the current directory")
		}
		dir = parent
	}
}
