package cfg

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"son/syntax"
)

// canonical drops a case's full-line comments and blank lines, which
// Print does not write.
func canonical(text string) string {
	var s strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t == "" || t[0] == ';' {
			continue
		}
		s.WriteString(l)
		s.WriteByte('\n')
	}
	return s.String()
}

func TestPrintGolden(t *testing.T) {
	for _, c := range readCases(t, "testdata/print.txt") {
		want := canonical(c.text)
		if got := Print(mustParse(t, c.text)); got != want {
			t.Errorf("testdata/print.txt:%d: %s: Print(Parse(text)) =\n%s\nwant:\n%s", c.line, c.name, got, want)
		}
	}
}

// TestRoundTrip parses every function of the testdata, prints it, parses
// that back, and checks that the two functions are the same and print the
// same.
func TestRoundTrip(t *testing.T) {
	for _, c := range allCases(t) {
		f := mustParse(t, c.text)
		text := Print(f)
		g := mustParse(t, text)
		if again := Print(g); again != text {
			t.Errorf("%s: Print(Parse(Print(f))) =\n%s\nwant:\n%s", c.name, again, text)
		}
		if d := diffFuncs(f, g); d != "" {
			t.Errorf("%s: Parse(Print(f)) differs from f: %s", c.name, d)
		}
	}
}

// diffFuncs describes the first difference between a and b that the text
// form keeps: everything but Node and the column of positions. Blocks are
// compared by position.
func diffFuncs(a, b *Func) string {
	if a.Name != b.Name || a.Level != b.Level || len(a.Blocks) != len(b.Blocks) {
		return fmt.Sprintf("func %q %v with %d blocks vs %q %v with %d", a.Name, a.Level, len(a.Blocks), b.Name, b.Level, len(b.Blocks))
	}
	pa, pb := positions(a), positions(b)
	sameBlocks := func(x, y []*Block) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if pa.at(x[i]) != pb.at(y[i]) {
				return false
			}
		}
		return true
	}
	line := func(p syntax.Pos) int32 { return p.Line }
	for i := range a.Blocks {
		x, y := a.Blocks[i], b.Blocks[i]
		if x.ID != y.ID || x.LoopDepth != y.LoopDepth || !sameBlocks(x.Preds, y.Preds) || !sameBlocks(x.Succs(), y.Succs()) ||
			len(x.Phis) != len(y.Phis) || len(x.Instrs) != len(y.Instrs) ||
			x.Term.Kind != y.Term.Kind || x.Term.Reg != y.Term.Reg || line(x.Term.Pos) != line(y.Term.Pos) {
			return fmt.Sprintf("block %d: %v vs %v", i, x, y)
		}
		for k := range x.Phis {
			p, q := x.Phis[k], y.Phis[k]
			if p.String() != q.String() || line(p.Pos) != line(q.Pos) {
				return fmt.Sprintf("%v phi %d: %v vs %v", x, k, p, q)
			}
		}
		for k := range x.Instrs {
			p, q := x.Instrs[k], y.Instrs[k]
			if p.Op != q.Op || p.Dst != q.Dst || p.Aux != q.Aux || fmt.Sprint(p.Args) != fmt.Sprint(q.Args) || line(p.Pos) != line(q.Pos) {
				return fmt.Sprintf("%v instr %d: %v vs %v", x, k, p, q)
			}
		}
	}
	return ""
}

// TestParseLenient checks what Parse accepts beyond Print's exact form:
// spacing, comments, headers without comments, columns, CRLF.
func TestParseLenient(t *testing.T) {
	in := "; a comment first\r\n" +
		"  func   f   level   RTL  ; trailing\r\n" +
		"\r\n" +
		"b5:\r\n" +
		"v1   =   Arg ; line 3:7, whatever\r\n" +
		"    Check v1 ;line 4\r\n" +
		"\tv2 = Const +12 ; the line count, depth of field\r\n" +
		"\treturn v2 ; line 5:1\r\n" +
		"b6: ; depth 2, preds b99\r\n" +
		"\treturn v1\r\n"
	want := `func f level RTL
b5:  ; entry, depth 0
	v1 = Arg                 ; line 3
	check v1                 ; line 4
	v2 = Const 12
	return v2                ; line 5
b6:  ; no preds, depth 2
	return v1
`
	f, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := Print(f); got != want {
		t.Errorf("Print =\n%s\nwant:\n%s", got, want)
	}
	if p := f.Blocks[0].Instrs[0].Pos; p != (syntax.Pos{Line: 3, Col: 7}) {
		t.Errorf("Pos = %v, want 3:7", p)
	}
}

func TestParseErrors(t *testing.T) {
	const head = "func f level SSA\nb1:\n"
	tests := []struct {
		text string
		want string // the whole error
	}{
		{"", `line 1: no "func NAME level SSA" line`},
		{"; only a comment\n", `line 1: no "func NAME level SSA" line`},
		{"b1:\n\treturn v1\n", `line 1: expected "func NAME level SSA" first`},
		{"func f\n", `line 1: expected "level SSA" after the function name`},
		{"func f level LLVM\n", `line 1: expected "level SSA" after the function name`},
		{`func "f level SSA` + "\n", "line 1: bad quoted function name"},
		{head + "\tv1 = Frob v2\n", `line 3: unknown op "Frob"`},
		{head + "\tv1 = add v2 v3\n", `line 3: unknown op "add"`},
		{head + "\tv1 = Add v2\n", "line 3: Add takes 2 arguments, has 1"},
		{head + "\tv1 = Neg v2 v3\n", "line 3: Neg takes 1 arguments, has 2"},
		{head + "\tv1 = Arg v2\n", "line 3: Arg takes 0 arguments, has 1"},
		{head + "\tv1 = Const\n", "line 3: Const takes 1 value, has 0"},
		{head + "\tv1 = Const 99999999999999999999\n", `line 3: bad constant "99999999999999999999"`},
		{head + "\tv1 = Const x\n", `line 3: bad constant "x"`},
		{head + "\tv1 = Check v2\n", "line 3: check defines no register"},
		{head + "\tcheck v1 v2\n", "line 3: check takes 1 argument, has 2"},
		{head + "\tv1 = Add v2 x3\n", `line 3: bad register "x3"`},
		{head + "\tv-1 = Arg\n", `line 3: bad register "v-1"`},
		{head + "\tv1 = Add v2 v99999999999\n", `line 3: bad register "v99999999999"`},
		{head + "\tv1 = Phi v2 b3\n", `line 3: bad register "b3"`},
		{head + "\tjump b7\n", "line 3: undefined block b7"},
		{head + "\tbranch v1 b1 b8\n", "line 3: undefined block b8"},
		{head + "\tjump\n", "line 3: jump takes 1 operands, has 0"},
		{head + "\tbranch v1 b1\n", "line 3: branch takes 3 operands, has 2"},
		{head + "\treturn\n", "line 3: return takes 1 operands, has 0"},
		{head + "\treturn b1\n", `line 3: bad register "b1"`},
		{head + "\tjump v1\n", `line 3: bad block name "v1"`},
		{head + "\treturn v1\n\tv2 = Arg\n", `line 4: "v2 = Arg" after the terminator of b1`},
		{head + "\tv1 = Arg\n\tv2 = Phi v1\n", "line 4: a Phi after the instructions of b1"},
		{"func f level SSA\n\tv1 = Arg\n", `line 2: "v1 = Arg" outside a block`},
		{head + "\treturn v1\nb1:\n\treturn v1\n", "line 4: block b1 declared twice"},
		{head + "\treturn v1\nbx:\n", `line 4: bad block name "bx"`},
		{head + "\treturn v1\nb2: b3\n", "line 4: text after the block name b2:"},
		{head + "\tv1 = Arg ; line 0\n", `line 3: bad position "0"`},
		{head + "\tv1 = Arg ; line 3:x\n", `line 3: bad position "3:x"`},
		{"func f level SSA\nb1: ; depth 1x\n", `line 2: bad loop depth "1x"`},
		{head + "\tfrob v1\n", `line 3: cannot parse "frob v1"`},
		{head + "func g level SSA\n", "line 3: a second func line"},
		// Several errors, in line order.
		{head + "\tv1 = Frob\n\tjump b9\n\tv2 = Arg\n", "line 3: unknown op \"Frob\"\nline 4: undefined block b9\nline 5: \"v2 = Arg\" after the terminator of b1"},
	}
	for _, tt := range tests {
		f, err := Parse(tt.text)
		var pe ParseErrors
		if f != nil || !errors.As(err, &pe) || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want the error %q", tt.text, f, err, tt.want)
		}
	}
}

func TestParseErrorsCapped(t *testing.T) {
	text := "func f level SSA\nb1:\n" + strings.Repeat("\tv1 = Frob\n", 15)
	_, err := Parse(text)
	var pe ParseErrors
	if !errors.As(err, &pe) || len(pe) != 15 || pe[14].Line != 17 || !strings.HasSuffix(err.Error(), "\n... and 5 more") {
		t.Errorf("Parse = %v", err)
	}
}

// TestPrintPreds checks the order of predecessors: a function whose Preds
// are not in block order prints in block order, its Phi arguments
// permuted to match, and SortPreds makes it so.
func TestPrintPreds(t *testing.T) {
	text := caseText(t, "testdata/run.txt", "rotate three: parallel Phis")
	f := mustParse(t, text)
	want := Print(f)
	header := f.Blocks[1]
	reverse := func(x []Reg) { // the same function, edges the other way round
		for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
			x[i], x[j] = x[j], x[i]
		}
	}
	header.Preds[0], header.Preds[1] = header.Preds[1], header.Preds[0]
	for _, p := range header.Phis {
		reverse(p.Args)
	}
	if err := Verify(f); err != nil {
		t.Fatal(err)
	}
	if got := runResult(f, 2, Limits{}); got != "312" {
		t.Errorf("with Preds reversed, Run = %s, want 312", got)
	}
	if got := Print(f); got != want {
		t.Errorf("with Preds reversed, Print =\n%s\nwant:\n%s", got, want)
	}
	if header.Phis[0].String() != "v7 = Phi v8 v2" {
		t.Errorf("Phi = %v, want its own order", header.Phis[0])
	}
	SortPreds(f)
	if header.Preds[0] != f.Blocks[0] || header.Phis[0].String() != "v7 = Phi v2 v8" {
		t.Errorf("after SortPreds: preds %v, %v", header.Preds, header.Phis[0])
	}
	if got := Print(f); got != want {
		t.Errorf("after SortPreds, Print =\n%s\nwant:\n%s", got, want)
	}
}

// TestPrintBroken checks that Print copes with what Verify rejects.
func TestPrintBroken(t *testing.T) {
	b1 := &Block{ID: 1}
	b2 := &Block{ID: 2, Preds: []*Block{b1}, Phis: []*Phi{nil, {Dst: 4, Args: []Reg{1, 2}}}}
	b1.SetSuccs(b2)
	b1.Term = Term{Kind: TermJump}
	b2.Instrs = []*Instr{nil, {Op: OpCheck, Dst: 3, Args: []Reg{0}}, {Op: 200}}
	b2.Term = Term{Kind: 9, Reg: 1}
	f := &Func{Name: "", Level: 5, Blocks: []*Block{b1, nil, b2}}
	want := `func "" level SSA
b1:  ; entry, depth 0
	jump b2
; nil block
b2:  ; preds b1, depth 0
	; nil phi
	v4 = Phi v1 v2
	; nil instruction
	v3 = check v0
	Op?
	term9
`
	if got := Print(f); got != want {
		t.Errorf("Print =\n%s\nwant:\n%s", got, want)
	}
	if err := Verify(f); err == nil {
		t.Error("Verify accepts it")
	}
}

// FuzzParse checks that Parse never panics, and that a function it
// accepts and Verify accepts prints, parses back the same, and runs
// without an internal error other than a division that no Check guards.
func FuzzParse(f *testing.F) {
	for _, c := range allCases(f) {
		f.Add(c.text)
	}
	f.Add("func f level SSA\nb1:\n\tv1 = Arg\n\treturn v1\n")
	f.Fuzz(func(t *testing.T, text string) {
		fn, err := Parse(text)
		if err != nil {
			if fn != nil {
				t.Fatal("a function and an error")
			}
			return
		}
		printed := Print(fn)
		_ = DOT(fn, "fuzz")
		if Verify(fn) != nil {
			return
		}
		g, err := Parse(printed)
		if err != nil {
			t.Fatalf("Parse(Print(f)): %v\n%s", err, printed)
		}
		if again := Print(g); again != printed {
			t.Fatalf("Print(Parse(Print(f))) =\n%s\nwant:\n%s", again, printed)
		}
		if d := diffFuncs(fn, g); d != "" {
			t.Fatalf("Parse(Print(f)) differs: %s", d)
		}
		if err := Verify(g); err != nil {
			t.Fatalf("Verify(Parse(Print(f))): %v", err)
		}
		_, err = Run(fn, 3, Limits{Steps: 1000})
		var re *RuntimeError
		if err != nil && !errors.As(err, &re) && !strings.Contains(err.Error(), "no Check stopped") {
			if fn.Level == SSA || !strings.Contains(err.Error(), "has no value") {
				t.Fatalf("Run of a verified function: %v\n%s", err, printed)
			}
		}
	})
}
