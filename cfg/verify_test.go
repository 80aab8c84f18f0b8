package cfg

import (
	"errors"
	"strings"
	"testing"

	"son/internal/dom"
)

func TestVerify(t *testing.T) {
	for _, c := range readCases(t, "testdata/verify.txt") {
		t.Run(c.name, func(t *testing.T) {
			f := mustParse(t, c.text)
			err := Verify(f)
			switch {
			case strings.HasPrefix(c.name, "ok:"):
				if err != nil {
					t.Fatalf("testdata/verify.txt:%d: %v", c.line, err)
				}
			case strings.HasPrefix(c.name, "bad:"):
				checkProblems(t, c, err, directives(c.text, "want"))
			default:
				t.Fatalf("testdata/verify.txt:%d: case name must start with ok: or bad:", c.line)
			}
		})
	}
}

// checkProblems checks that err is a *VerifyError whose every problem
// contains one of wants, and every want is in one of the problems.
func checkProblems(t *testing.T, c textCase, err error, wants []string) {
	t.Helper()
	if len(wants) == 0 {
		t.Fatalf("testdata/verify.txt:%d: a bad case with no want", c.line)
	}
	var ve *VerifyError
	if !errors.As(err, &ve) {
		t.Fatalf("testdata/verify.txt:%d: Verify = %v, want a *VerifyError", c.line, err)
	}
	found := make([]bool, len(wants))
	for _, p := range ve.Problems {
		matched := false
		for i, w := range wants {
			if strings.Contains(p.String(), w) {
				found[i], matched = true, true
			}
		}
		if !matched {
			t.Errorf("testdata/verify.txt:%d: unexpected problem %s", c.line, p)
		}
	}
	for i, w := range wants {
		if !found[i] {
			t.Errorf("testdata/verify.txt:%d: no problem contains %q; got:\n%v", c.line, w, err)
		}
	}
}

// TestVerifyRunCases checks that the functions the interpreter tests run
// are well formed.
func TestVerifyRunCases(t *testing.T) {
	for _, c := range readCases(t, "testdata/run.txt") {
		if err := Verify(mustParse(t, c.text)); err != nil {
			t.Errorf("testdata/run.txt:%d: %s: %v", c.line, c.name, err)
		}
	}
}

// diamondText is a well-formed function that TestVerifyStructure breaks
// in ways the text form cannot say.
const diamondText = `func f level SSA
b1:  ; entry, depth 0
	v1 = Arg
	v2 = Const 1
	branch v1 b2 b3
b2:  ; preds b1, depth 0
	v3 = Add v1 v2
	check v1
	jump b4
b3:  ; preds b1, depth 0
	jump b4
b4:  ; preds b2 b3, depth 0
	v4 = Phi v3 v2
	return v4
`

func TestVerifyStructure(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(f *Func)
		wants []string
	}{
		{"no blocks", func(f *Func) { f.Blocks = nil }, []string{"func: entry: the function has no blocks"}},
		{"unknown level", func(f *Func) { f.Level = 7 }, []string{"func: level: unknown level 7"}},
		{"nil block", func(f *Func) { f.Blocks = append(f.Blocks, nil) }, []string{"func: block: Blocks[4] is nil"}},
		{"block listed twice", func(f *Func) { f.Blocks = append(f.Blocks, f.Blocks[3]) },
			[]string{"b4: block: listed twice in Blocks, at 3 and 4"}},
		{"duplicate ID", func(f *Func) { f.Blocks[2].ID = 2 },
			[]string{"b2: block-id: its ID is also the ID of the block at position 1"}},
		{"negative ID", func(f *Func) { f.Blocks[2].ID = -3 }, []string{"b-3: block-id: a block ID must be ≥ 0"}},
		{"invalid op", func(f *Func) { f.Blocks[1].Instrs[0].Op = OpInvalid },
			[]string{"b2: instr 0 (v3 = Invalid v1 v2): instr: invalid op 0"}},
		{"op out of range", func(f *Func) { f.Blocks[1].Instrs[0].Op = numOps },
			[]string{"b2: instr 0 (v3 = Op? v1 v2): instr: invalid op"}},
		{"arity", func(f *Func) { f.Blocks[1].Instrs[0].Args = []Reg{1} },
			[]string{"b2: instr 0 (v3 = Add v1): instr: Add takes 2 arguments, has 1"}},
		{"no Dst", func(f *Func) { f.Blocks[1].Instrs[0].Dst = 0 },
			[]string{"b2: instr 0 (Add v1 v2): instr: Add defines a register, but Dst is not set", "b4: phi 0 (v4 = Phi v3 v2): undefined: v3"}},
		{"Check with a Dst", func(f *Func) { f.Blocks[1].Instrs[1].Dst = 9 },
			[]string{"b2: instr 1 (v9 = check v1): instr: Check defines no register, but Dst is v9"}},
		{"negative register", func(f *Func) { f.Blocks[1].Instrs[0].Args[1] = -2 },
			[]string{"b2: instr 0 (v3 = Add v1 v-2): instr: argument 1 must be a register > 0"}},
		{"Phi register 0", func(f *Func) { f.Blocks[3].Phis[0].Args[1] = 0 },
			[]string{"b4: phi 0 (v4 = Phi v3 v0): phi: argument 1 must be a register > 0"}},
		{"nil instruction", func(f *Func) { f.Blocks[1].Instrs[1] = nil },
			[]string{"b2: instr 1: instr: the instruction is nil"}},
		{"jump with two successors", func(f *Func) {
			b2, b3, b4 := f.Blocks[1], f.Blocks[2], f.Blocks[3]
			b2.AddSucc(b3)
			b3.Preds = append(b3.Preds, b2)
			_ = b4
		}, []string{"b2: term (jump b4 b3): term: a jump has 1 successors, but the block has 2",
			"b2: critical-edge: the edge b2 → b4 is critical", "b3: join-entry", "b2: critical-edge: the edge b2 → b3",
			"b1: critical-edge: the edge b1 → b3"}},
		{"return with a successor", func(f *Func) {
			b4, b1 := f.Blocks[3], f.Blocks[0]
			b4.SetSuccs(b1)
			b1.Preds = []*Block{b4}
		}, []string{"b4: term (return v4 b1): term: a return has 0 successors, but the block has 1", "b1: entry: the entry has predecessors b4"}},
		{"missing predecessor", func(f *Func) { f.Blocks[3].Preds = f.Blocks[3].Preds[:1] }, []string{
			"b3: edges: successor b4 does not list b3 among its predecessors",
			"b4: phi 0 (v4 = Phi v3 v2): phi-arity: 2 arguments for 1 predecessors"}},
		{"extra predecessor", func(f *Func) { f.Blocks[1].Preds = append(f.Blocks[1].Preds, f.Blocks[2]) }, []string{
			"b2: edges: b3 is listed 1 times among the predecessors, but b3 lists b2 0 times among its successors",
			"b2: join-entry: the block has 2 predecessors but is entered from b1 by a branch",
			"b1: critical-edge: the edge b1 → b2 is critical"}},
		{"predecessor twice", func(f *Func) { f.Blocks[1].Preds = append(f.Blocks[1].Preds, f.Blocks[0]) }, []string{
			"b2: edges: b1 is listed 2 times among the predecessors, but b1 lists b2 1 times among its successors",
			"b2: join-entry", "b1: critical-edge"}},
		{"successor outside the function", func(f *Func) {
			b4 := f.Blocks[3]
			out := &Block{ID: 99, Preds: []*Block{b4}, Term: Term{Kind: TermReturn, Reg: 1}}
			b4.Term = Term{Kind: TermJump}
			b4.SetSuccs(out)
		}, []string{"b4: edges: successor b99 is not a block of the function"}},
		{"nil successor", func(f *Func) { f.Blocks[1].Succs()[0] = nil }, []string{"b2: edges: a successor is nil",
			"b4: edges: b2 is listed 1 times among the predecessors, but b2 lists b4 0 times among its successors"}},
		{"jump with a register", func(f *Func) { f.Blocks[1].Term.Reg = 1 }, []string{"b2: term (jump b4): term: a jump has no register, but this one has v1"}},
		{"unknown terminator", func(f *Func) { f.Blocks[2].Term.Kind = 9 }, []string{"b3: term: unknown terminator kind 9",
			"b4: join-entry: the block has 2 predecessors but is entered from b3 by a terminator of kind 9, not a jump"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, diamondText)
			if err := Verify(f); err != nil {
				t.Fatalf("before the edit: %v", err)
			}
			tt.edit(f)
			checkProblems(t, textCase{name: tt.name}, Verify(f), tt.wants)
		})
	}
}

func TestVerifyErrorMessage(t *testing.T) {
	f := mustParse(t, `func "my func" level SSA
b1:  ; entry, depth 0
	return v1
`)
	err := Verify(f)
	want := "cfg: function \"my func\" is not well formed:\n\tb1: term (return v1): undefined: v1 is never defined"
	if err == nil || err.Error() != want {
		t.Errorf("Verify = %v, want %s", err, want)
	}
}

// TestVerifyManyProblems checks that the message is capped and problems
// come in block order.
func TestVerifyManyProblems(t *testing.T) {
	var text strings.Builder
	text.WriteString("func f level SSA\n")
	for i := 30; i >= 1; i-- {
		text.WriteString("b" + itoa(i) + ":\n\treturn v" + itoa(100+i) + "\n")
	}
	err := Verify(mustParse(t, text.String()))
	var ve *VerifyError
	if !errors.As(err, &ve) || len(ve.Problems) != 30+29 {
		t.Fatalf("Verify = %v", err)
	}
	if !strings.HasSuffix(err.Error(), "... and 39 more") {
		t.Errorf("message not capped: %v", err)
	}
	if !strings.HasPrefix(ve.Problems[0].String(), "b30: ") || !strings.HasPrefix(ve.Problems[58].String(), "b1: ") {
		t.Errorf("problems not in block order: %v ... %v", ve.Problems[0], ve.Problems[58])
	}
}

func itoa(i int) string { return Reg(i).String()[1:] }

// TestVerifyDominance: the dominance VerifyDominance returns for a
// function that passes answers every query as a dominator tree of its own
// blocks does, and a function that fails gets the error Verify gives.
func TestVerifyDominance(t *testing.T) {
	for _, c := range readCases(t, "testdata/run.txt") {
		f := mustParse(t, c.text)
		got, err := VerifyDominance(f)
		if err != nil {
			t.Fatalf("testdata/run.txt:%d: %v", c.line, err)
		}
		tree := dom.NewTree(dom.LengauerTarjanFlat(succIndex(f, positions(f))))
		for a := range f.Blocks {
			if got.Reachable(a) != tree.Reachable(a) {
				t.Fatalf("testdata/run.txt:%d: Reachable(%d) = %v", c.line, a, got.Reachable(a))
			}
			for b := range f.Blocks {
				if got.Dominates(a, b) != tree.Dominates(a, b) {
					t.Fatalf("testdata/run.txt:%d: Dominates(%d, %d) = %v", c.line, a, b, got.Dominates(a, b))
				}
			}
		}
	}
	f := mustParse(t, diamondText)
	f.Blocks[1].Instrs[0].Dst = 0
	_, err := VerifyDominance(f)
	if want := Verify(f); err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("VerifyDominance = %v, Verify = %v", err, want)
	}
}

// TestVerifyLargeIDs: block IDs too large for the index's array (it
// falls back on a map, and so do the ID rules) are no problem when they
// are unique, and two alike are still found.
func TestVerifyLargeIDs(t *testing.T) {
	f := mustParse(t, diamondText)
	f.Blocks[2].ID = 1_000_000
	if err := Verify(f); err != nil {
		t.Errorf("unique large IDs: %v", err)
	}
	f.Blocks[3].ID = 1_000_000
	checkProblems(t, textCase{name: "large IDs alike"}, Verify(f), []string{"b1000000: block-id: its ID is also the ID of the block at position 2"})
}
