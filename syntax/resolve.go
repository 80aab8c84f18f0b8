package syntax

import (
	"fmt"
	"sort"
)

// resolve binds every name of f to its *Var, numbers the variables, gives
// them stack slots, computes the Assigned sets of loops and checks the rules
// that are not grammar: scoping, final variables, break and continue
// placement, initializers, one-armed declarations and unreachable code. It
// returns the errors found, sorted.
func resolve(f *File) ErrorList {
	r := &resolver{file: f.Name, names: make(map[string]*binding)}
	f.Arg = r.declare("arg", DeclInt, Pos{}) // the outermost scope
	r.openScope()                            // the program body
	r.stmtList(f.Body.List)
	r.closeScope()
	f.NumVars = r.numVars
	r.errs.Sort()
	return r.errs
}

// binding is a name in scope; prev is the binding it shadows.
type binding struct {
	v     *Var
	scope int // depth of the declaring scope
	prev  *binding
}

// tracker collects the variables assigned inside an if or a loop that
// were declared outside it.
type tracker struct {
	firstID  int           // variables with a smaller ID are declared outside
	assigned map[*Var]bool // those of them assigned inside so far
}

type resolver struct {
	file    string
	errs    ErrorList
	names   map[string]*binding // innermost binding of each name
	live    []string            // names in scope, innermost last: len(live) is the next slot
	marks   []int               // len(live) at each open scope
	numVars int
	track   []*tracker // enclosing ifs and loops, innermost last
	loops   int        // number of enclosing loops
}

func (r *resolver) errorf(pos Pos, format string, args ...any) {
	r.errs.Add(r.file, pos, format, args...)
}

func (r *resolver) openScope() { r.marks = append(r.marks, len(r.live)) }

func (r *resolver) closeScope() {
	mark := r.marks[len(r.marks)-1]
	r.marks = r.marks[:len(r.marks)-1]
	for i := len(r.live) - 1; i >= mark; i-- {
		name := r.live[i]
		if b := r.names[name].prev; b != nil {
			r.names[name] = b
		} else {
			delete(r.names, name)
		}
	}
	r.live = r.live[:mark]
}

// declare makes a new variable in the current scope.
func (r *resolver) declare(name string, kind DeclKind, pos Pos) *Var {
	scope := len(r.marks)
	old := r.names[name]
	if old != nil && old.scope == scope {
		r.errorf(pos, "redefining name '%s' (declared at %s)", name, old.v.Pos)
	}
	v := &Var{
		ID:    r.numVars,
		Name:  name,
		Kind:  kind,
		Bool:  kind == DeclBool,
		Final: kind == DeclVal,
		Pos:   pos,
		Slot:  len(r.live),
	}
	r.numVars++
	r.names[name] = &binding{v: v, scope: scope, prev: old}
	r.live = append(r.live, name)
	return v
}

func (r *resolver) lookup(name string, pos Pos) *Var {
	if b := r.names[name]; b != nil {
		return b.v
	}
	r.errorf(pos, "undefined name '%s'", name)
	return nil
}

// stmtList resolves a statement list and reports the first statement, if
// any, that directly follows a return, break or continue.
func (r *resolver) stmtList(list []Stmt) {
	var jump string // the jump just seen, "" if none
	reported := false
	for _, s := range list {
		if _, ok := s.(*EmptyStmt); !ok && jump != "" && !reported {
			r.errorf(s.Pos(), "unreachable code after %s", jump)
			reported = true
		}
		switch s.(type) {
		case *ReturnStmt:
			jump = "return"
		case *BreakStmt:
			jump = "break"
		case *ContinueStmt:
			jump = "continue"
		case *EmptyStmt:
		default:
			jump = ""
		}
		r.stmt(s)
	}
}

// body resolves the direct body of if, else, while or for, where a lone
// declaration is not allowed.
func (r *resolver) body(s Stmt) {
	if d, ok := s.(*DeclStmt); ok {
		r.errorf(d.TypePos, "declaration not allowed here; put it in a block")
		r.openScope()
		r.stmt(s)
		r.closeScope()
		return
	}
	r.stmt(s)
}

func (r *resolver) stmt(s Stmt) {
	switch s := s.(type) {
	case *BlockStmt:
		r.openScope()
		r.stmtList(s.List)
		r.closeScope()
	case *DeclStmt:
		for _, spec := range s.Specs {
			if spec.Init != nil {
				r.expr(spec.Init)
			} else if s.Kind == DeclVar || s.Kind == DeclVal {
				r.errorf(spec.NamePos, "'%s' declaration of '%s' needs an initializer", s.Kind, spec.Name)
			}
			spec.Var = r.declare(spec.Name, s.Kind, spec.NamePos)
		}
	case *AssignStmt:
		if s.Value != nil {
			r.expr(s.Value)
		}
		s.Var = r.lookup(s.Name, s.NamePos)
		if s.Var == nil {
			return
		}
		if s.Var.Final {
			r.errorf(s.NamePos, "cannot reassign final '%s'", s.Name)
		}
		if n := len(r.track); n > 0 {
			if t := r.track[n-1]; s.Var.ID < t.firstID {
				t.note(s.Var)
			}
		}
	case *ExprStmt:
		r.expr(s.X)
	case *IfStmt:
		r.expr(s.Cond)
		t := r.open()
		r.body(s.Then)
		if s.Else != nil {
			r.body(s.Else)
		}
		s.Assigned = r.close(t)
	case *WhileStmt:
		t := r.open()
		r.loops++
		r.expr(s.Cond)
		r.body(s.Body)
		r.loops--
		s.Assigned = r.close(t)
	case *ForStmt:
		// The Init runs once, before the loop: its variables are outside
		// the loop (the loop head needs a Phi for them if the loop
		// assigns them), and its own assignments belong to the enclosing
		// loop, if any.
		r.openScope()
		if s.Init != nil {
			r.stmt(s.Init)
		}
		t := r.open()
		r.loops++
		if s.Cond != nil {
			r.expr(s.Cond)
		}
		r.body(s.Body)
		if s.Next != nil {
			r.stmt(s.Next)
		}
		r.loops--
		s.Assigned = r.close(t)
		r.closeScope()
	case *BreakStmt:
		if r.loops == 0 {
			r.errorf(s.Break, "break outside a loop")
		}
	case *ContinueStmt:
		if r.loops == 0 {
			r.errorf(s.Continue, "continue outside a loop")
		}
	case *ReturnStmt:
		r.expr(s.Value)
	case *ShowGraphStmt, *EmptyStmt:
	default:
		panic(fmt.Sprintf("syntax: unexpected statement %T", s))
	}
}

// open starts tracking an if or loop whose outside variables are those
// declared so far.
func (r *resolver) open() *tracker {
	t := &tracker{firstID: r.numVars}
	r.track = append(r.track, t)
	return t
}

// close ends tracking t, passes its outside variables that are also
// outside the enclosing if or loop on to it, and returns them sorted by
// slot.
func (r *resolver) close(t *tracker) []*Var {
	r.track = r.track[:len(r.track)-1]
	if len(t.assigned) == 0 {
		return nil
	}
	vars := make([]*Var, 0, len(t.assigned))
	for v := range t.assigned {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool {
		if vars[i].Slot != vars[j].Slot {
			return vars[i].Slot < vars[j].Slot
		}
		return vars[i].ID < vars[j].ID
	})
	if n := len(r.track); n > 0 {
		outer := r.track[n-1]
		for _, v := range vars {
			if v.ID < outer.firstID {
				outer.note(v)
			}
		}
	}
	return vars
}

func (t *tracker) note(v *Var) {
	if t.assigned == nil {
		t.assigned = make(map[*Var]bool)
	}
	t.assigned[v] = true
}

// expr resolves the names of an expression. The left operands of a binary
// chain are walked with a loop, so a long sum needs no deep recursion.
func (r *resolver) expr(x Expr) {
	for {
		switch e := x.(type) {
		case *IntLit, *BoolLit:
		case *Name:
			e.Var = r.lookup(e.Name, e.NamePos)
		case *UnaryExpr:
			x = e.X
			continue
		case *BinaryExpr:
			var ys []Expr
			for {
				ys = append(ys, e.Y)
				left, ok := e.X.(*BinaryExpr)
				if !ok {
					break
				}
				e = left
			}
			r.expr(e.X)
			for i := len(ys) - 1; i >= 0; i-- {
				r.expr(ys[i])
			}
		case *ChainExpr:
			for _, y := range e.X {
				r.expr(y)
			}
		case *CondExpr:
			r.expr(e.Cond)
			r.expr(e.Then)
			x = e.Else
			continue
		default:
			panic(fmt.Sprintf("syntax: unexpected expression %T", x))
		}
		return
	}
}
