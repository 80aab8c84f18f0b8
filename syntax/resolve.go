package syntax

import (
	"fmt"
	"slices"
)

// resolve binds every name of f to its *Var, numbers the variables, gives
// them stack slots, computes the Assigned sets of loops and checks the rules
// that are not grammar: scoping, final variables, break and continue
// placement, initializers, one-armed declarations and unreachable code. It
// returns the errors found, sorted. f must come from the parser that made
// a, whose names have ids below numIDs; argID is the id of arg.
func resolve(f *File, a *arena, numIDs int, argID int32) ErrorList {
	r := &resolver{file: f.Name, arena: a, top: make([]int32, numIDs)}
	f.Arg = r.declare("arg", argID, DeclInt, Pos{}) // the outermost scope
	r.openScope()                                   // the program body
	r.stmtList(f.Body.List)
	r.closeScope()
	f.NumVars = r.numVars
	r.errs.Sort()
	return r.errs
}

// binding is a name in scope. The bindings in scope form a stack, innermost
// last, whose length is the next variable's slot.
type binding struct {
	v     *Var
	id    int32 // the name's id
	scope int32 // depth of the declaring scope
	prev  int32 // the binding it shadows, as an index into binds plus 1; 0 if none
}

// tracker collects the variables assigned inside an if or a loop that
// were declared outside it.
type tracker struct {
	firstID  int    // variables with a smaller ID are declared outside
	serial   int32  // this tracker's number, for resolver.noted
	assigned []*Var // those of them assigned inside so far, perhaps twice
}

// resolver keeps its scopes in slices indexed by name id, not maps: a name's
// innermost binding is top[id], and closing a scope pops the binding stack.
type resolver struct {
	file    string
	errs    ErrorList
	arena   *arena
	top     []int32   // innermost binding of each name id, as an index into binds plus 1
	binds   []binding // the bindings in scope, innermost last
	marks   []int     // len(binds) at each open scope
	numVars int
	track   []tracker // enclosing ifs and loops, innermost last (entries above keep their buffers)
	serials int32     // trackers opened so far
	noted   []int32   // by Var.ID: serial of the tracker that noted it last
	ys      []Expr    // scratch stack of right operands for expr
	loops   int       // number of enclosing loops
}

func (r *resolver) errorf(pos Pos, format string, args ...any) {
	r.errs.Add(r.file, pos, format, args...)
}

func (r *resolver) openScope() { r.marks = append(r.marks, len(r.binds)) }

func (r *resolver) closeScope() {
	mark := r.marks[len(r.marks)-1]
	r.marks = r.marks[:len(r.marks)-1]
	for i := len(r.binds) - 1; i >= mark; i-- {
		b := &r.binds[i]
		r.top[b.id] = b.prev
	}
	clear(r.binds[mark:])
	r.binds = r.binds[:mark]
}

// declare makes a new variable, named name of id id, in the current scope.
func (r *resolver) declare(name string, id int32, kind DeclKind, pos Pos) *Var {
	scope := int32(len(r.marks))
	old := r.top[id]
	if old != 0 && r.binds[old-1].scope == scope {
		r.errorf(pos, "redefining name '%s' (declared at %s)", name, r.binds[old-1].v.Pos)
	}
	v := r.arena.vars.new()
	*v = Var{
		ID:    r.numVars,
		Name:  name,
		Kind:  kind,
		Bool:  kind == DeclBool,
		Final: kind == DeclVal,
		Pos:   pos,
		Slot:  len(r.binds),
	}
	r.numVars++
	r.noted = append(r.noted, 0)
	r.binds = append(r.binds, binding{v: v, id: id, scope: scope, prev: old})
	r.top[id] = int32(len(r.binds))
	return v
}

func (r *resolver) lookup(name string, id int32, pos Pos) *Var {
	if b := r.top[id]; b != 0 {
		return r.binds[b-1].v
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
			spec.Var = r.declare(spec.Name, spec.id, s.Kind, spec.NamePos)
		}
	case *AssignStmt:
		if s.Value != nil {
			r.expr(s.Value)
		}
		s.Var = r.lookup(s.Name, s.id, s.NamePos)
		if s.Var == nil {
			return
		}
		if s.Var.Final {
			r.errorf(s.NamePos, "cannot reassign final '%s'", s.Name)
		}
		if n := len(r.track); n > 0 && s.Var.ID < r.track[n-1].firstID {
			r.note(n-1, s.Var)
		}
	case *ExprStmt:
		r.expr(s.X)
	case *IfStmt:
		r.expr(s.Cond)
		r.open()
		r.body(s.Then)
		if s.Else != nil {
			r.body(s.Else)
		}
		s.Assigned = r.close()
	case *WhileStmt:
		r.open()
		r.loops++
		r.expr(s.Cond)
		r.body(s.Body)
		r.loops--
		s.Assigned = r.close()
	case *ForStmt:
		// The Init runs once, before the loop: its variables are outside
		// the loop (the loop head needs a Phi for them if the loop
		// assigns them), and its own assignments belong to the enclosing
		// loop, if any.
		r.openScope()
		if s.Init != nil {
			r.stmt(s.Init)
		}
		r.open()
		r.loops++
		if s.Cond != nil {
			r.expr(s.Cond)
		}
		r.body(s.Body)
		if s.Next != nil {
			r.stmt(s.Next)
		}
		r.loops--
		s.Assigned = r.close()
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
// declared so far. The tracker reuses the buffer of the last one at its
// depth.
func (r *resolver) open() {
	n := len(r.track)
	if n < cap(r.track) {
		r.track = r.track[:n+1]
	} else {
		r.track = append(r.track, tracker{})
	}
	r.serials++
	t := &r.track[n]
	t.firstID, t.serial, t.assigned = r.numVars, r.serials, t.assigned[:0]
}

// close ends tracking the innermost if or loop, passes its outside
// variables that are also outside the enclosing if or loop on to it, and
// returns them sorted by slot.
func (r *resolver) close() []*Var {
	n := len(r.track) - 1
	t := &r.track[n]
	r.track = r.track[:n]
	if len(t.assigned) == 0 {
		return nil
	}
	slices.SortFunc(t.assigned, func(a, b *Var) int {
		if a.Slot != b.Slot {
			return a.Slot - b.Slot
		}
		return a.ID - b.ID
	})
	vars := r.arena.varLists.copy(slices.Compact(t.assigned))
	clear(t.assigned)
	if n > 0 {
		for _, v := range vars {
			if v.ID < r.track[n-1].firstID {
				r.note(n-1, v)
			}
		}
	}
	return vars
}

// note records that the tracker at depth i saw an assignment to v. The
// noted marks keep a variable assigned again and again in one if or loop
// from filling its list; one passed up from a nested tracker may still come
// twice, which close removes.
func (r *resolver) note(i int, v *Var) {
	t := &r.track[i]
	if r.noted[v.ID] == t.serial {
		return
	}
	r.noted[v.ID] = t.serial
	t.assigned = append(t.assigned, v)
}

// expr resolves the names of an expression. The left operands of a binary
// chain are walked with a loop, so a long sum needs no deep recursion.
func (r *resolver) expr(x Expr) {
	for {
		switch e := x.(type) {
		case *IntLit, *BoolLit:
		case *Name:
			e.Var = r.lookup(e.Name, e.id, e.NamePos)
		case *UnaryExpr:
			x = e.X
			continue
		case *BinaryExpr:
			// The right operands wait on r.ys above start; the nested
			// calls push theirs above and pop them again.
			start := len(r.ys)
			for {
				r.ys = append(r.ys, e.Y)
				left, ok := e.X.(*BinaryExpr)
				if !ok {
					break
				}
				e = left
			}
			r.expr(e.X)
			for i := len(r.ys) - 1; i >= start; i-- {
				y := r.ys[i]
				r.ys[i] = nil
				r.ys = r.ys[:i]
				r.expr(y)
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
