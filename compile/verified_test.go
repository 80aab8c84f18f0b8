package compile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"son/internal/hostile"
	"son/son"
)

// TestSealedGraphVerifiedOnce: under DropGraph the graph son.Verify
// accepted after cleanup is sealed with that fingerprint, and gcm (its
// schedule and its checker) leaves it as it was, so that son.Verify is
// not run on it again (verifiedAsIs); a node's field written in place,
// around son's API, or an edge moved by hand, makes it run again.
func TestSealedGraphVerifiedOnce(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.smp")
	more, _ := filepath.Glob("../testdata/*.smp")
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("%d programs", len(files))
	}
	srcs := map[string][]byte{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs[file] = src
	}
	for _, s := range hostile.Shapes {
		srcs[s.Name+".smp"] = []byte(s.Program(5000))
	}
	for file, src := range srcs {
		u, err := Compile(file, src, Options{Check: true, DropGraph: true, StopAfter: "cleanup"})
		if err != nil {
			continue // a program that does not compile: nothing to seal
		}
		if !u.Graph.Sealed() || u.verified == 0 {
			t.Fatalf("%s: sealed %v, fingerprint %#x after cleanup", file, u.Graph.Sealed(), u.verified)
		}
		if err := schedule(u); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := checkSchedule(u); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !verifiedAsIs(u) {
			t.Errorf("%s: the sealed graph's fingerprint changed in gcm", file)
		}
		var con, bin *son.Node
		for _, n := range u.Graph.Live() {
			switch {
			case n.Op == son.OpConstant && con == nil:
				con = n
			case len(n.In) == 3 && n.In[1] != nil && n.In[2] != nil && n.In[1] != n.In[2] && bin == nil:
				bin = n
			}
		}
		if con != nil {
			con.Aux++
			if verifiedAsIs(u) {
				t.Errorf("%s: constant %d changed in place, fingerprint the same", file, con.ID)
			}
			con.Aux--
		}
		if bin != nil {
			bin.In[1], bin.In[2] = bin.In[2], bin.In[1]
			if verifiedAsIs(u) {
				t.Errorf("%s: inputs of %d swapped in place, fingerprint the same", file, bin.ID)
			}
			bin.In[1], bin.In[2] = bin.In[2], bin.In[1]
		}
		if !verifiedAsIs(u) {
			t.Errorf("%s: the graph restored, fingerprint not", file)
		}
	}
}

// TestSealedGraphEditedAfterVerify: an edit made around son's API after
// cleanup was verified, before the seal (in AfterPass), changes the
// fingerprint, so that son.Verify runs after gcm and reports it.
func TestSealedGraphEditedAfterVerify(t *testing.T) {
	src := []byte("int a = arg * 3; int b = arg + 7; return a - b;")
	swapped := 0
	_, err := Compile("sub.smp", src, Options{Check: true, DropGraph: true, AfterPass: func(u *Unit, pass string) error {
		if pass != "cleanup" {
			return nil
		}
		for _, n := range u.Graph.Live() {
			if n.Op == son.OpSub {
				n.In[1], n.In[2] = n.In[2], n.In[1] // the users' edge positions now wrong
				swapped++
			}
		}
		return nil
	}})
	if swapped != 1 {
		t.Fatalf("%d subtractions swapped", swapped)
	}
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Pass != "gcm" || ce.Guard != GuardSon {
		t.Fatalf("got %v, want son.Verify's error after gcm", err)
	}
}
