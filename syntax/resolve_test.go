package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// bindings lists, in source order, every declaration as "name#ID@slot" and
// every use or assignment as "name->ID".
func bindings(f *File) string {
	var out []string
	ref := func(name string, v *Var) {
		if v == nil {
			out = append(out, name+"->nil")
			return
		}
		out = append(out, fmt.Sprintf("%s->%d", name, v.ID))
	}
	var expr func(Expr)
	expr = func(x Expr) {
		switch x := x.(type) {
		case *Name:
			ref(x.Name, x.Var)
		case *UnaryExpr:
			expr(x.X)
		case *BinaryExpr:
			expr(x.X)
			expr(x.Y)
		case *ChainExpr:
			for _, y := range x.X {
				expr(y)
			}
		case *CondExpr:
			expr(x.Cond)
			expr(x.Then)
			expr(x.Else)
		}
	}
	var stmt func(Stmt)
	stmt = func(s Stmt) {
		switch s := s.(type) {
		case *BlockStmt:
			for _, t := range s.List {
				stmt(t)
			}
		case *DeclStmt:
			for _, spec := range s.Specs {
				if spec.Init != nil {
					expr(spec.Init)
				}
				out = append(out, fmt.Sprintf("%s#%d@%d", spec.Name, spec.Var.ID, spec.Var.Slot))
			}
		case *AssignStmt:
			if s.Value != nil {
				expr(s.Value)
			}
			ref(s.Name, s.Var)
		case *ExprStmt:
			expr(s.X)
		case *IfStmt:
			expr(s.Cond)
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *WhileStmt:
			expr(s.Cond)
			stmt(s.Body)
		case *ForStmt:
			if s.Init != nil {
				stmt(s.Init)
			}
			if s.Cond != nil {
				expr(s.Cond)
			}
			stmt(s.Body)
			if s.Next != nil {
				stmt(s.Next)
			}
		case *ReturnStmt:
			expr(s.Value)
		}
	}
	stmt(f.Body)
	return strings.Join(out, " ")
}

// loops lists the Assigned set of every loop in source order, as
// "while[a b]" or "for[i]".
func loops(f *File) string {
	var out []string
	var stmt func(Stmt)
	list := func(kind string, vars []*Var) {
		var names []string
		for _, v := range vars {
			names = append(names, fmt.Sprintf("%s@%d", v.Name, v.Slot))
		}
		out = append(out, kind+"["+strings.Join(names, " ")+"]")
	}
	stmt = func(s Stmt) {
		switch s := s.(type) {
		case *BlockStmt:
			for _, t := range s.List {
				stmt(t)
			}
		case *IfStmt:
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *WhileStmt:
			list("while", s.Assigned)
			stmt(s.Body)
		case *ForStmt:
			list("for", s.Assigned)
			stmt(s.Body)
		}
	}
	stmt(f.Body)
	return strings.Join(out, " ")
}

func TestResolveBindings(t *testing.T) {
	tests := []struct {
		name, src, want string
		numVars         int
	}{
		{"arg", "return arg;", "arg->0", 1},
		{"shadow arg", "int arg = arg + 1; return arg;", "arg->0 arg#1@1 arg->1", 2},
		{"slots and reuse",
			"int a = 1; { int b = 2; int a = a; } int c = 3; { bool d; { int e = d; } } return c;",
			"a#1@1 b#2@2 a->1 a#3@3 c#4@2 d#5@3 d->5 e#6@4 c->4", 7},
		{"one declaration, in order", "int a = 1, b = a, c = b;", "a#1@1 a->1 b#2@2 b->2 c#3@3", 4},
		{"initializer sees the outer name", "int x = 1; { int x = x + 1; x = x; }", "x#1@1 x->1 x#2@2 x->2 x->2", 3},
		{"for scope",
			"int n = 0; for (int i = 0, j = i; i < n; i++) { int k = i; n += k; } int m = n;",
			"n#1@1 i#2@2 i->2 j#3@3 i->2 n->1 i->2 k#4@4 k->4 n->1 i->2 n->1 m#5@2", 6},
		{"siblings in if and else", "if (arg) { int a = 1; } else { int b = 2; int c = b; }",
			"arg->0 a#1@1 b#2@1 b->2 c#3@2", 4},
	}
	for _, tt := range tests {
		f, err := Parse("t", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := bindings(f); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, got, tt.want)
		}
		if f.NumVars != tt.numVars {
			t.Errorf("%s: NumVars %d, want %d", tt.name, f.NumVars, tt.numVars)
		}
	}
}

func TestResolveVars(t *testing.T) {
	f, err := Parse("t", []byte("int i = 1; bool b = true; var v = 2; val w = 3;"))
	if err != nil {
		t.Fatal(err)
	}
	a := f.Arg
	if a == nil || a.ID != 0 || a.Slot != 0 || a.Name != "arg" || a.Kind != DeclInt || a.Bool || a.Final || a.Pos.IsKnown() {
		t.Errorf("arg: %+v", a)
	}
	want := []Var{
		{ID: 1, Name: "i", Kind: DeclInt, Pos: Pos{1, 5}, Slot: 1},
		{ID: 2, Name: "b", Kind: DeclBool, Bool: true, Pos: Pos{1, 17}, Slot: 2},
		{ID: 3, Name: "v", Kind: DeclVar, Pos: Pos{1, 31}, Slot: 3},
		{ID: 4, Name: "w", Kind: DeclVal, Final: true, Pos: Pos{1, 42}, Slot: 4},
	}
	for i, s := range f.Body.List {
		if got := *s.(*DeclStmt).Specs[0].Var; got != want[i] {
			t.Errorf("var %d: got %+v, want %+v", i, got, want[i])
		}
	}
	if f.NumVars != 5 || f.Name != "t" {
		t.Errorf("NumVars %d, Name %q", f.NumVars, f.Name)
	}
}

func TestResolveAssigned(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"nothing assigned", "while (arg) {}", "while[]"},
		{"arg", "while (arg) arg = arg - 1;", "while[arg@0]"},
		{"nested whiles",
			`int i = 0; int s = 0; int t = 0;
			while (i < 10) {
				int k = 0;
				k = k + 1;
				while (k < 3) { s = s + k; k++; }
				i++;
				t;
			}`,
			"while[i@1 s@2] while[s@2 k@4]"},
		{"sorted by slot, deduplicated",
			"int a; int b; int c; while (arg) { c = 1; a = 2; c = 3; a++; }",
			"while[a@1 c@3]"},
		{"for init variables are included",
			"int n = 0; for (int j = 0; j < 10; j++) { n += j; }",
			"for[n@1 j@2]"},
		{"assigned only in next", "for (int j = 0; j < 10; j++) {}", "for[j@1]"},
		{"for init assignment is outside the loop", "int n; for (n = 0; n < 3; ) { }", "for[]"},
		{"for init assignment belongs to the enclosing loop",
			"int n; while (arg) { for (n = 0; ; ) { break; } arg = 0; }",
			"while[arg@0 n@1] for[]"},
		{"for in for",
			`int t = 0;
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++) {
					int x = i * j;
					t += x;
				}`,
			"for[t@1 i@2] for[t@1 j@3]"},
		{"inner loop variables stay inside",
			"while (arg) { int a = 0; while (a < 3) { a++; int b = 0; while (b) b = 0; } }",
			"while[] while[a@1] while[b@2]"},
		{"variables assigned after a nested loop",
			"int x; while (arg) { while (arg) { } x = 1; }",
			"while[x@1] while[]"},
		{"shadowed name", "int x; while (arg) { int x = 0; x = 1; }", "while[]"},
	}
	for _, tt := range tests {
		f, err := Parse("t", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := loops(f); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
