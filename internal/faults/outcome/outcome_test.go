package outcome

import (
	"bytes"
	"strings"
	"testing"
)

func TestClassifyPrefersGuards(t *testing.T) {
	ps := []Program{
		{Name: "a", Diff: Differential, DiffDetail: "arg 1: son.Run after sccp: got 2, want 1"},
		{Name: "b"},
		{Name: "c", Guard: Pass, GuardDetail: "pass after gcm: x"},
		{Name: "d", Guard: Checker, GuardDetail: "checker after gcm: y", Diff: Differential, DiffDetail: "arg 0: cfg.Run after gcm: z"},
		{Name: "e", Guard: Verifier, GuardDetail: "son.Verify after build: w"},
		{Name: "f", Guard: Crash, GuardDetail: "panic", Diff: Crash, DiffDetail: "panic"},
	}
	v := Classify(ps)
	if v.First != Checker || v.Program != "d" || v.Detail != "checker after gcm: y" {
		t.Errorf("first catch %v on %q (%q), want the checker's on d", v.First, v.Program, v.Detail)
	}
	want := map[Kind]int{Differential: 2, Pass: 1, Checker: 1, Verifier: 1, Crash: 1}
	for k, n := range want {
		if v.Counts[k] != n {
			t.Errorf("count of %q: %d, want %d", k, v.Counts[k], n)
		}
	}
	if len(v.Counts) != len(want) || v.Programs != len(ps) {
		t.Errorf("counts %v of %d programs, want %v of %d", v.Counts, v.Programs, want, len(ps))
	}
}

func TestClassifyWithoutGuards(t *testing.T) {
	for _, c := range []struct {
		ps      []Program
		first   Kind
		program string
	}{
		{[]Program{{Name: "a"}, {Name: "b"}}, None, ""},
		{[]Program{{Name: "a", Diff: Differential}, {Name: "b", Diff: Hang}}, Hang, "b"},
		{[]Program{{Name: "a", Diff: Hang}, {Name: "b", Guard: Crash}}, Crash, "b"},
		{[]Program{{Name: "a", Guard: Crash}, {Name: "b", Guard: Pass}}, Pass, "b"},
		{[]Program{{Name: "a", Diff: Differential}, {Name: "b", Diff: Differential}}, Differential, "a"},
		{[]Program{{Name: "a", Guard: Verifier}, {Name: "b", Guard: Checker}}, Verifier, "a"},
	} {
		v := Classify(c.ps)
		if v.First != c.first || v.Program != c.program {
			t.Errorf("%+v: first %q on %q, want %q on %q", c.ps, v.First, v.Program, c.first, c.program)
		}
	}
}

func TestReadWrite(t *testing.T) {
	var b bytes.Buffer
	in := []Program{{Name: "testdata/x.smp", Guard: Verifier, GuardDetail: "son.Verify after sccp: bad", Millis: 3}, {Name: "gen/seed1"}}
	for _, p := range in {
		if err := Write(&b, p); err != nil {
			t.Fatal(err)
		}
	}
	Write(&b, Done{Done: true, Programs: 2, Stopped: "hang on gen/seed1"})
	ps, done, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0] != in[0] || ps[1] != in[1] {
		t.Errorf("read %+v, want %+v", ps, in)
	}
	if done == nil || done.Programs != 2 || done.Stopped != "hang on gen/seed1" {
		t.Errorf("done line %+v", done)
	}

	// A probe that died: no done line.
	ps, done, err = Read(strings.NewReader(`{"program":"a","ms":1}` + "\n"))
	if err != nil || len(ps) != 1 || done != nil {
		t.Errorf("got %v, %v, %v; want one program, no done line", ps, done, err)
	}
	if _, _, err := Read(strings.NewReader("{\"program\":\"a\"}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("malformed line: got %v, want an error naming line 2", err)
	}
}
