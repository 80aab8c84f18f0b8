package main

import (
	"strings"
	"testing"
)

// TestMeasure runs the measure on a hostile shape at a low percent, so
// that collections end in every pass: each pass's row has a live heap,
// most name son's functions, and they come in the order of the passes.
func TestMeasure(t *testing.T) {
	name, src, err := source("and", 20000, nil)
	if err != nil {
		t.Fatal(err)
	}
	prof := &profile{pass: "gcm"}
	rows, err := measure(name, src, 1, prof)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	framed := 0
	for _, r := range rows {
		got = append(got, r.Phase)
		if r.Live == 0 || r.GCs == 0 {
			t.Errorf("%s: live %d after %d collections", r.Phase, r.Live, r.GCs)
		}
		if len(r.Frames) > 0 {
			framed++ // none if the collection ended in compile's own code
		}
		for _, f := range r.Frames {
			if f == "compile.Compile" || f == "compile.runPass" || strings.Contains(f, "(0x") {
				t.Errorf("%s: frame %q", r.Phase, f)
			}
		}
	}
	if framed < len(rows)/2 {
		t.Errorf("son frames in %d rows of %d", framed, len(rows))
	}
	if len(prof.data) == 0 {
		t.Error("no heap profile at gcm's largest")
	}
	want := "build peephole sccp zerocheck cleanup gcm gvn outssa backend"
	if strings.Join(got, " ") != want {
		t.Errorf("passes %q, want %q", strings.Join(got, " "), want)
	}
}

// TestSource rejects what is neither a shape nor one file.
func TestSource(t *testing.T) {
	for _, c := range []struct {
		shape string
		size  int
		args  []string
		err   string
	}{
		{"nosuch", 10, nil, `no shape "nosuch"`},
		{"and", 0, nil, "-size must be positive"},
		{"", 10, nil, "want either -shape or one program file"},
		{"and", 10, []string{"x.smp"}, "want either -shape or one program file"},
		{"", 10, []string{"a", "b"}, "want either -shape or one program file"},
	} {
		_, _, err := source(c.shape, c.size, c.args)
		if err == nil || err.Error() != c.err {
			t.Errorf("source(%q, %d, %q) = %v, want %s", c.shape, c.size, c.args, err, c.err)
		}
	}
}
