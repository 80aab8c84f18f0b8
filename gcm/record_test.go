package gcm

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"son/cfg"
	"son/son"
)

// TestRecordGraphIsTheGraph: the record Check reads is the graph, node by
// node (op, position, Aux, inputs by ID; none where the table holds
// none), its control users turned around from the inputs are each
// control node's users that are control nodes or projections, Stop
// excepted, and its live walk lists Graph.Live's nodes in its order: on
// the test programs and the hostile shapes.
func TestRecordGraphIsTheGraph(t *testing.T) {
	n := 0
	for name, src := range testPrograms(t, 5000) {
		g, err := optimize(src)
		if err != nil {
			continue // a program the front end rejects
		}
		r := RecordGraph(g)
		if r.MaxID() != g.MaxID() {
			t.Fatalf("%s: MaxID %d, want %d", name, r.MaxID(), g.MaxID())
		}
		_, seen := r.live(false)
		at, users := r.controlUsers(seen)
		for id := 0; id < g.MaxID(); id++ {
			x, rx := g.Node(id), r.at(id)
			if x == nil {
				if rx.id != 0 {
					t.Fatalf("%s: the record has %v at ID %d, where the graph has none", name, rx, id)
				}
				continue
			}
			if rx.id != int32(id) || rx.op != x.Op || r.posOf(rx) != x.Pos || r.aux(rx) != x.Aux {
				t.Fatalf("%s: the record has %v at %v, Aux %d for %v at %v, Aux %d", name, rx, r.posOf(rx), r.aux(rx), x, x.Pos, x.Aux)
			}
			var in []int32
			for _, y := range x.In {
				in = append(in, idOf(y))
			}
			if got := r.in(rx); !slices.Equal(got, in) {
				t.Fatalf("%s: %v's inputs recorded %v, want %v", name, x, got, in)
			}
			if !x.IsControl() || !seen[id] {
				if at[id] != at[id+1] {
					t.Fatalf("%s: %v, a data node or not live, has control users %v", name, x, users[at[id]:at[id+1]])
				}
				continue
			}
			var want []int32
			for _, u := range x.Out {
				if seen[u.ID] && (u.IsControl() && u.Op != son.OpStop || u.Op == son.OpProj) {
					want = append(want, idOf(u))
				}
			}
			slices.Sort(want)
			if got := users[at[id]:at[id+1]]; !slices.Equal(got, want) {
				t.Fatalf("%s: %v's control users %v, want %v", name, x, got, want)
			}
		}
		live, listedSeen := r.live(true)
		if !slices.Equal(listedSeen, seen) {
			t.Fatalf("%s: the live set differs with and without the list", name)
		}
		var ids, want []int32
		for _, x := range live {
			ids = append(ids, x.id)
		}
		for _, x := range g.Live() {
			want = append(want, idOf(x))
			if !seen[x.ID] {
				t.Fatalf("%s: %v is live, not in the record's live set", name, x)
			}
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("%s: the record's live walk %v, want Graph.Live's %v", name, ids, want)
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d programs recorded", n)
	}
}

// TestCheckRecordReadsTheRecord: CheckRecord judges the function against
// the record, not the graph: once recorded, a constant changed in the
// graph does not change the verdict (the function computes the recorded
// graph), and the function changed to compute the changed graph is
// rejected, the constant read from the record; so is a branch whose
// successors are swapped, its sides found from the recorded If's
// projections (the inputs turned around).
func TestCheckRecordReadsTheRecord(t *testing.T) {
	g := optimized(t, "if (arg < 3) return arg * 41; return arg + 1;")
	r := schedule(t, g)
	rec := RecordGraph(g)
	c := constNode(t, g, 41)
	c.Aux = 42 // in place, after the record: the graph is no longer the one recorded
	if err := CheckRecord(rec, r.Func); err != nil {
		t.Fatalf("the record's function rejected: %v", err)
	}
	for _, b := range r.Func.Blocks {
		for _, in := range b.Instrs {
			if in.Op == cfg.OpConst && in.Aux == 41 {
				in.Aux = 42
			}
		}
	}
	want := "does not compute Constant#"
	if err := CheckRecord(rec, r.Func); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error saying %q", err, want)
	}

	g = optimized(t, "if (arg < 3) return arg * 41; return arg + 1;")
	r = schedule(t, g)
	rec = RecordGraph(g)
	entry := r.Func.Blocks[0]
	s := entry.Succs()
	entry.SetSuccs(s[1], s[0])
	// The true side's projection, matched with the false side's block,
	// leads to the other Return.
	want = "b2: term: ends with a return (node "
	if err := CheckRecord(rec, r.Func); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error saying %q", err, want)
	}
}

// TestCheckRecordIgnoresNodesNotLive: son.Verify does not look at the
// inputs of a node that is not live, so one may hold an edge its input
// does not list among its users. The record's control users must not see
// it: here a detached true projection of an If, its input written back by
// hand, and a Return under it that is not live; the schedule is the
// graph's and is accepted, and a function that claims the detached Return
// for the true side (and returns arg, not arg + 1) is rejected. The
// review of gcm15 found the record, turning every node's inputs around,
// accepting that function and rejecting the right one.
func TestCheckRecordIgnoresNodesNotLive(t *testing.T) {
	g := optimized(t, "if (arg < 3) return arg + 1; return arg * 5;")
	var iff, ret *son.Node
	for _, n := range g.Live() {
		if n.Op == son.OpIf {
			iff = n
		}
	}
	p := iff.Proj(0)
	for _, n := range g.Live() {
		if n.Op == son.OpReturn && n.In[0] == p {
			ret = n
		}
	}
	if ret == nil {
		t.Fatalf("no Return on the true side of %v", iff)
	}
	arg := ret.In[1].In[1] // arg of arg + 1
	// A second true projection takes over; the first is detached, then
	// its input written back by hand (no user edge), and a Return of arg
	// under it, its value edge by hand too.
	g.Keep(p)
	g.SetIn(ret, 0, g.NewNode(son.OpCProj, 0, iff))
	g.SetIn(p, 0, nil)
	p.In[0] = iff
	garbage := g.Keep(g.NewNode(son.OpReturn, 0, p, ret.In[1]))
	g.SetIn(garbage, 1, nil)
	garbage.In[1] = arg
	garbage.Pos = ret.Pos
	if err := son.Verify(g); err != nil {
		t.Fatalf("son.Verify rejects the graph: %v", err)
	}
	res, err := Schedule(g)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Func
	if err := CheckRecord(RecordGraph(g), f); err != nil {
		t.Fatalf("the graph's own schedule rejected: %v", err)
	}
	claimed := false
	for _, b := range f.Blocks {
		if b.Term.Kind == cfg.TermReturn && b.Term.Node == ret.ID {
			b.Term.Node, b.Term.Reg = garbage.ID, cfg.Reg(arg.ID)
			claimed = true
		}
	}
	if !claimed {
		t.Fatalf("no block returns %v:\n%s", ret, cfg.Print(f))
	}
	err = CheckRecord(RecordGraph(g), f)
	if err == nil || !strings.Contains(err.Error(), "ends with a return (node "+strconv.Itoa(garbage.ID)) {
		t.Fatalf("a function returning through %v, not live: got %v, want its return rejected", garbage, err)
	}
}

// TestCheckRecordTooMany: a graph the record cannot number is reported,
// with or without a function, and nothing else is read.
func TestCheckRecordTooMany(t *testing.T) {
	r := &GraphRecord{tooMany: "the graph has 2147483648 node IDs"}
	want := "the schedule does not hold:\n\tfunc: block: the graph has 2147483648 node IDs, more than the checker's record numbers"
	for _, f := range []*cfg.Func{nil, {}} {
		if err := CheckRecord(r, f); err == nil || err.Error() != want {
			t.Errorf("CheckRecord(%v): got %v, want %q", f, err, want)
		}
	}
}
