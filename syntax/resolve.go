package syntax

import (
	"slices"
)

// The resolver binds every name to its *Var, numbers the variables, gives
// them stack slots, computes the Assigned sets of ifs and loops and checks
// the rules that are not grammar: scoping, final variables, break and
// continue placement, initializers, declarations as a lone body, and
// unreachable code. It runs inside the parse, called by the parser as each
// construct opens, is declared, used or closes: one pass over the source
// and none over the tree. Its errors are its own list, reported in full,
// sorted, when the file has no syntax error; the first syntax error turns
// it off, as a statement abandoned half way leaves its scopes unbalanced.

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
	off     bool // a syntax error came: nothing more is resolved
	errs    ErrorList
	arena   *arena
	top     []int32   // innermost binding of each name id, as an index into binds plus 1
	binds   []binding // the bindings in scope, innermost last
	marks   []int     // len(binds) at each open scope
	numVars int
	track   []tracker // enclosing ifs and loops, innermost last (entries above keep their buffers)
	serials int32     // trackers opened so far
	noted   []int32   // by Var.ID: serial of the tracker that noted it last
	loops   int       // number of enclosing loops
}

func (r *resolver) errorf(pos Pos, format string, args ...any) {
	r.errs.Add(r.file, pos, format, args...)
}

func (r *resolver) openScope() {
	if r.off {
		return
	}
	r.marks = append(r.marks, len(r.binds))
}

func (r *resolver) closeScope() {
	if r.off {
		return
	}
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
	if r.off {
		return nil
	}
	if int(id) >= len(r.top) {
		r.top = append(r.top, make([]int32, int(id)+1-len(r.top))...)
	}
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

// lookup returns the variable a use of name, of id id, refers to.
func (r *resolver) lookup(name string, id int32, pos Pos) *Var {
	if r.off {
		return nil
	}
	if int(id) < len(r.top) {
		if b := r.top[id]; b != 0 {
			return r.binds[b-1].v
		}
	}
	r.errorf(pos, "undefined name '%s'", name)
	return nil
}

// spec declares the variable of a declarator whose initializer, if any,
// has been resolved.
func (r *resolver) spec(kind DeclKind, s *VarSpec) {
	if r.off {
		return
	}
	if s.Init == nil && (kind == DeclVar || kind == DeclVal) {
		r.errorf(s.NamePos, "'%s' declaration of '%s' needs an initializer", kind, s.Name)
	}
	s.Var = r.declare(s.Name, s.id, kind, s.NamePos)
}

// assign binds an assignment whose value, if any, has been resolved.
func (r *resolver) assign(s *AssignStmt) {
	if r.off {
		return
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
}

// jump checks the placement of a break or continue.
func (r *resolver) jump(tok Token, pos Pos) {
	if r.off || r.loops > 0 {
		return
	}
	r.errorf(pos, "%s outside a loop", tok)
}

// open starts tracking an if or loop whose outside variables are those
// declared so far. The tracker reuses the buffer of the last one at its
// depth.
func (r *resolver) open() {
	if r.off {
		return
	}
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
	if r.off {
		return nil
	}
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

// reachable is the state of the check for unreachable code in one
// statement list: the return, break or continue just seen, and where the
// error about the statement after it waits for that statement's position.
type reachable struct {
	jump     string // the jump just seen, "" if none
	reported bool   // the list has had its error
}

// before is called as a statement of the list begins (empty is whether it
// is a lone ;). It returns the index of a reserved entry of r.errs for the
// error, to be filled by after with the statement's position, or -1: the
// error must come before any the statement itself causes at that position.
func (r *resolver) before(c *reachable, empty bool) int {
	if r.off || empty || c.jump == "" || c.reported {
		return -1
	}
	c.reported = true
	r.errs = append(r.errs, &Error{File: r.file, Msg: "unreachable code after " + c.jump})
	return len(r.errs) - 1
}

// after is called with each statement of the list parsed.
func (r *resolver) after(c *reachable, s Stmt, slot int) {
	if r.off {
		return
	}
	if slot >= 0 {
		r.errs[slot].Pos = s.Pos()
	}
	switch s.(type) {
	case *ReturnStmt:
		c.jump = "return"
	case *BreakStmt:
		c.jump = "break"
	case *ContinueStmt:
		c.jump = "continue"
	case *EmptyStmt:
	default:
		c.jump = ""
	}
}
