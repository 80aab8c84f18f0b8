package ref

import (
	"errors"
	"fmt"

	"son/syntax"
)

// DefaultSteps is the step budget when Limits.Steps is 0.
const DefaultSteps = 100_000_000

// Limits bounds a run.
type Limits struct {
	Steps int64 // steps (see the package doc) before "step limit exceeded"; 0 means DefaultSteps
}

// RuntimeError is a failure of the program: a division by zero, at the
// position of its operator, or running out of steps (Pos unknown).
type RuntimeError struct {
	Pos syntax.Pos
	Msg string // "division by zero" or "step limit exceeded (N steps)"
}

func (e *RuntimeError) Error() string { return "runtime error: " + e.Msg }

// Run executes the program f, as parsed and resolved by syntax.Parse,
// with the argument arg, and returns the value it returns. A runtime
// error of the program is a *RuntimeError; any other error means f is not
// a resolved program.
func Run(f *syntax.File, arg int64, lim Limits) (int64, error) {
	if f == nil || f.Body == nil || f.Arg == nil {
		return 0, errors.New("ref.Run: not a resolved program")
	}
	limit := lim.Steps
	if limit <= 0 {
		limit = DefaultSteps
	}
	in := &interp{vars: make([]int64, f.NumVars), limit: limit}
	if err := in.checkVar(f.Arg); err != nil {
		return 0, err
	}
	in.vars[f.Arg.ID] = arg
	fl, err := in.block(f.Body.List)
	switch {
	case err != nil:
		return 0, err
	case fl == flowReturn:
		return in.result, nil
	case fl != flowNext:
		return 0, fmt.Errorf("ref.Run: %v outside a loop", fl)
	}
	return 0, nil // fell off the end
}

// flow is how a statement ends: normally, or by leaving its enclosing
// constructs.
type flow uint8

const (
	flowNext     flow = iota // go on with the next statement
	flowBreak                // leave the innermost loop
	flowContinue             // go on with the innermost loop's next iteration
	flowReturn               // end the program with interp.result
)

func (f flow) String() string {
	return [...]string{"next", "break", "continue", "return"}[f]
}

// interp is the state of one run: the value of every variable, by Var.ID.
type interp struct {
	vars   []int64
	result int64 // the value of the return that ended the run
	steps  int64 // steps taken
	limit  int64
	spine  []syntax.Expr // left spines being evaluated (see expr)
}

// step takes one step, or fails if that would exceed the limit.
func (in *interp) step() error {
	if in.steps >= in.limit {
		return &RuntimeError{Msg: fmt.Sprintf("step limit exceeded (%d steps)", in.limit)}
	}
	in.steps++
	return nil
}

// checkVar makes sure v has a place among the variables: a resolved
// program's always do.
func (in *interp) checkVar(v *syntax.Var) error {
	if v == nil || v.ID < 0 || v.ID >= len(in.vars) {
		return fmt.Errorf("ref.Run: unresolved variable %v", v)
	}
	return nil
}

// store assigns x to v, keeping only the low bit for a bool.
func (in *interp) store(v *syntax.Var, x int64) {
	if v.Bool {
		x &= 1
	}
	in.vars[v.ID] = x
}

// block runs a list of statements.
func (in *interp) block(list []syntax.Stmt) (flow, error) {
	for _, s := range list {
		if fl, err := in.stmt(s); err != nil || fl != flowNext {
			return fl, err
		}
	}
	return flowNext, nil
}

// stmt runs one statement. It recurses once per level of statement
// nesting, which the parser bounds.
func (in *interp) stmt(s syntax.Stmt) (flow, error) {
	if err := in.step(); err != nil {
		return 0, err
	}
	switch s := s.(type) {
	case *syntax.BlockStmt:
		return in.block(s.List)
	case *syntax.DeclStmt:
		for _, spec := range s.Specs {
			if err := in.checkVar(spec.Var); err != nil {
				return 0, err
			}
			var x int64
			if spec.Init != nil {
				var err error
				if x, err = in.expr(spec.Init); err != nil {
					return 0, err
				}
			}
			in.store(spec.Var, x)
		}
		return flowNext, nil
	case *syntax.AssignStmt:
		return flowNext, in.assign(s)
	case *syntax.ExprStmt:
		_, err := in.expr(s.X)
		return flowNext, err
	case *syntax.IfStmt:
		c, err := in.expr(s.Cond)
		switch {
		case err != nil:
			return 0, err
		case c != 0:
			return in.stmt(s.Then)
		case s.Else != nil:
			return in.stmt(s.Else)
		}
		return flowNext, nil
	case *syntax.WhileStmt:
		return in.loop(s.Cond, s.Body, nil)
	case *syntax.ForStmt:
		if s.Init != nil {
			if _, err := in.stmt(s.Init); err != nil {
				return 0, err
			}
		}
		return in.loop(s.Cond, s.Body, s.Next)
	case *syntax.BreakStmt:
		return flowBreak, nil
	case *syntax.ContinueStmt:
		return flowContinue, nil
	case *syntax.ReturnStmt:
		v, err := in.expr(s.Value)
		if err != nil {
			return 0, err
		}
		in.result = v
		return flowReturn, nil
	case *syntax.ShowGraphStmt, *syntax.EmptyStmt:
		return flowNext, nil
	}
	return 0, fmt.Errorf("ref.Run: unexpected statement %T", s)
}

// loop runs while (cond) { body; next; }, where a continue in body still
// runs next, and a nil cond is true.
func (in *interp) loop(cond syntax.Expr, body, next syntax.Stmt) (flow, error) {
	for {
		if cond != nil {
			c, err := in.expr(cond)
			if err != nil {
				return 0, err
			}
			if c == 0 {
				return flowNext, nil
			}
		}
		fl, err := in.stmt(body)
		switch {
		case err != nil:
			return 0, err
		case fl == flowBreak:
			return flowNext, nil
		case fl == flowReturn:
			return fl, nil
		}
		if next != nil {
			if _, err := in.stmt(next); err != nil {
				return 0, err
			}
		}
	}
}

// assign runs x = e, x op= e, x++ and x--: x op= e is x = x op (e), and
// its division by zero is reported at the op=.
func (in *interp) assign(s *syntax.AssignStmt) error {
	v := s.Var
	if err := in.checkVar(v); err != nil {
		return err
	}
	if s.Op == syntax.ASSIGN {
		x, err := in.expr(s.Value)
		if err != nil {
			return err
		}
		in.store(v, x)
		return nil
	}
	y := int64(1) // ++ and --
	if s.Value != nil {
		var err error
		if y, err = in.expr(s.Value); err != nil {
			return err
		}
	}
	x, err := binary(s.Op.AssignOp(), in.vars[v.ID], y, s.OpPos)
	if err != nil {
		return err
	}
	in.store(v, x)
	return nil
}
