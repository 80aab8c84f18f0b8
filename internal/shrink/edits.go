package shrink

import (
	"slices"

	"son/syntax"
)

// An edit changes one slot of a tree in place and returns the function that
// puts the slot back. Edits are collected by a walk of a freshly parsed
// tree; one is applied, the tree printed, and the edit undone before the
// next is tried, so every edit of a walk applies to the tree it was
// collected from.
type edit func() (undo func())

// collector walks a tree in source order, statements before the statements
// and expressions inside them, and collects the edits of one pass.
type collector struct {
	p     pass
	sites []edit
}

// collect returns the edits of family p on f, in the order of the walk.
func collect(f *syntax.File, p pass) []edit {
	c := &collector{p: p}
	c.list(&f.Body.List)
	return c.sites
}

func (c *collector) add(e edit) { c.sites = append(c.sites, e) }

func setStmt(slot *syntax.Stmt, s syntax.Stmt) edit {
	return func() func() {
		old := *slot
		*slot = s
		return func() { *slot = old }
	}
}

func setExpr(slot *syntax.Expr, x syntax.Expr) edit {
	return func() func() {
		old := *slot
		*slot = x
		return func() { *slot = old }
	}
}

// splice replaces (*lp)[i:j] by repl; the list is copied, not changed in
// place, so the undo only has to put the old slice back.
func splice(lp *[]syntax.Stmt, i, j int, repl []syntax.Stmt) edit {
	return func() func() {
		old := *lp
		l := make([]syntax.Stmt, 0, len(old)-(j-i)+len(repl))
		l = append(l, old[:i]...)
		l = append(l, repl...)
		*lp = append(l, old[j:]...)
		return func() { *lp = old }
	}
}

// list collects the edits of a statement list, then of its statements.
func (c *collector) list(lp *[]syntax.Stmt) {
	l := *lp
	switch c.p.cat {
	case catDelete:
		if n := c.p.run; len(l) >= n {
			for i := 0; i < len(l); i += n {
				c.add(splice(lp, i, min(i+n, len(l)), nil))
			}
		}
	case catFlatten:
		for i, s := range l {
			if b, ok := s.(*syntax.BlockStmt); ok {
				c.add(splice(lp, i, i+1, b.List))
			}
		}
	}
	for i := range l {
		c.stmt(&l[i], true)
	}
}

// stmt collects the edits of the statement in *sp (an element of a list
// if inList, else the body of an if, else or loop), then of the
// statements and expressions inside it.
func (c *collector) stmt(sp *syntax.Stmt, inList bool) {
	s := *sp
	switch c.p.cat {
	case catDelete:
		if c.p.run != 1 {
			break
		}
		if !inList && !isEmpty(s) {
			c.add(setStmt(sp, &syntax.BlockStmt{}))
		}
		switch s := s.(type) {
		case *syntax.DeclStmt:
			if len(s.Specs) > 1 {
				for i := range s.Specs {
					c.add(deleteSpec(s, i))
				}
			}
		case *syntax.ForStmt:
			if s.Init != nil {
				c.add(setStmt(&s.Init, nil))
			}
			if s.Next != nil {
				c.add(setStmt(&s.Next, nil))
			}
		}
	case catIf:
		if s, ok := s.(*syntax.IfStmt); ok {
			c.add(setStmt(sp, s.Then))
			if s.Else != nil {
				c.add(setStmt(sp, s.Else))
				c.add(setStmt(&s.Else, nil))
			}
		}
	case catLoop:
		switch s := s.(type) {
		case *syntax.WhileStmt:
			c.add(setStmt(sp, s.Body))
			if !isZero(s.Cond) {
				c.add(setExpr(&s.Cond, zero()))
			}
		case *syntax.ForStmt:
			if s.Init != nil {
				c.add(setStmt(sp, &syntax.BlockStmt{List: []syntax.Stmt{s.Init, s.Body}}))
			} else {
				c.add(setStmt(sp, s.Body))
			}
			if !isZero(s.Cond) {
				c.add(setExpr(&s.Cond, zero()))
			}
		}
	case catFlatten:
		switch s := s.(type) {
		case *syntax.BlockStmt:
			if !inList && len(s.List) == 1 {
				if _, decl := s.List[0].(*syntax.DeclStmt); !decl {
					c.add(setStmt(sp, s.List[0]))
				}
			}
		case *syntax.AssignStmt:
			if s.Value != nil {
				c.add(setStmt(sp, &syntax.ExprStmt{X: s.Value}))
			}
		case *syntax.ReturnStmt:
			c.add(setStmt(sp, &syntax.ExprStmt{X: s.Value}))
		case *syntax.DeclStmt:
			if len(s.Specs) == 1 && s.Specs[0].Init != nil {
				c.add(setStmt(sp, &syntax.ExprStmt{X: s.Specs[0].Init}))
			}
		}
	case catExpr, catLit:
		if d, ok := s.(*syntax.DeclStmt); ok && c.p.cat == catExpr && (d.Kind == syntax.DeclInt || d.Kind == syntax.DeclBool) {
			for _, spec := range d.Specs {
				if spec.Init != nil {
					c.add(setExpr(&spec.Init, nil))
				}
			}
		}
		for _, xp := range exprSlots(s) {
			c.expr(xp)
		}
	}

	switch s := s.(type) {
	case *syntax.BlockStmt:
		c.list(&s.List)
	case *syntax.IfStmt:
		c.stmt(&s.Then, false)
		if s.Else != nil {
			c.stmt(&s.Else, false)
		}
	case *syntax.WhileStmt:
		c.stmt(&s.Body, false)
	case *syntax.ForStmt:
		c.stmt(&s.Body, false)
	}
}

func deleteSpec(d *syntax.DeclStmt, i int) edit {
	return func() func() {
		old := d.Specs
		specs := make([]*syntax.VarSpec, 0, len(old)-1)
		specs = append(specs, old[:i]...)
		d.Specs = append(specs, old[i+1:]...)
		return func() { d.Specs = old }
	}
}

// exprSlots lists the expressions of s itself (not of the statements in
// its body), in source order; those of a for include its Init and Next.
func exprSlots(s syntax.Stmt) []*syntax.Expr {
	switch s := s.(type) {
	case *syntax.DeclStmt:
		var xs []*syntax.Expr
		for _, spec := range s.Specs {
			if spec.Init != nil {
				xs = append(xs, &spec.Init)
			}
		}
		return xs
	case *syntax.AssignStmt:
		if s.Value != nil {
			return []*syntax.Expr{&s.Value}
		}
	case *syntax.ExprStmt:
		return []*syntax.Expr{&s.X}
	case *syntax.IfStmt:
		return []*syntax.Expr{&s.Cond}
	case *syntax.WhileStmt:
		return []*syntax.Expr{&s.Cond}
	case *syntax.ForStmt:
		var xs []*syntax.Expr
		if s.Init != nil {
			xs = append(xs, exprSlots(s.Init)...)
		}
		if s.Cond != nil {
			xs = append(xs, &s.Cond)
		}
		if s.Next != nil {
			xs = append(xs, exprSlots(s.Next)...)
		}
		return xs
	case *syntax.ReturnStmt:
		return []*syntax.Expr{&s.Value}
	}
	return nil
}

// expr collects the edits of the expression in *xp, then of its operands.
func (c *collector) expr(xp *syntax.Expr) {
	x := *xp
	switch c.p.cat {
	case catExpr:
		if !isZero(x) {
			c.add(setExpr(xp, zero()))
		}
		if l, ok := x.(*syntax.IntLit); !ok || l.Value != 1 {
			c.add(setExpr(xp, &syntax.IntLit{Value: 1}))
		}
		if n, ok := x.(*syntax.Name); !ok || n.Name != "arg" {
			c.add(setExpr(xp, &syntax.Name{Name: "arg"}))
		}
		for _, y := range operands(x) {
			c.add(setExpr(xp, y))
		}
		if ch, ok := x.(*syntax.ChainExpr); ok {
			c.add(setExpr(xp, shorterChain(ch, 1)))           // without the first comparison
			c.add(setExpr(xp, shorterChain(ch, len(ch.X)-1))) // without the last
		}
	case catLit:
		if l, ok := x.(*syntax.IntLit); ok {
			for _, v := range smaller(l.Value) {
				c.add(setExpr(xp, &syntax.IntLit{Value: v}))
			}
		}
	}
	switch x := x.(type) {
	case *syntax.UnaryExpr:
		c.expr(&x.X)
	case *syntax.BinaryExpr:
		c.expr(&x.X)
		c.expr(&x.Y)
	case *syntax.ChainExpr:
		for i := range x.X {
			c.expr(&x.X[i])
		}
	case *syntax.CondExpr:
		c.expr(&x.Cond)
		c.expr(&x.Then)
		c.expr(&x.Else)
	}
}

// operands lists the direct operands of x.
func operands(x syntax.Expr) []syntax.Expr {
	switch x := x.(type) {
	case *syntax.UnaryExpr:
		return []syntax.Expr{x.X}
	case *syntax.BinaryExpr:
		return []syntax.Expr{x.X, x.Y}
	case *syntax.ChainExpr:
		return x.X
	case *syntax.CondExpr:
		return []syntax.Expr{x.Cond, x.Then, x.Else}
	}
	return nil
}

// shorterChain returns the chain ch without its operands from k on
// (k = len-1) or before k (k = 1), and the comparisons between them: a
// binary comparison when two operands are left.
func shorterChain(ch *syntax.ChainExpr, k int) syntax.Expr {
	xs, ops := ch.X[k:], ch.Ops[k:]
	if k == len(ch.X)-1 {
		xs, ops = ch.X[:k], ch.Ops[:k-1]
	}
	if len(xs) == 2 {
		return &syntax.BinaryExpr{X: xs[0], Op: ops[0], Y: xs[1]}
	}
	return &syntax.ChainExpr{X: xs, Ops: ops, OpPos: make([]syntax.Pos, len(ops))}
}

// smaller lists the literals tried in place of v: 0, 1 and v/2, those of
// them smaller in magnitude than v.
func smaller(v int64) []int64 {
	abs := func(v int64) uint64 {
		if v < 0 {
			return -uint64(v)
		}
		return uint64(v)
	}
	var out []int64
	for _, w := range []int64{0, 1, v / 2} {
		if abs(w) < abs(v) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func zero() syntax.Expr { return &syntax.IntLit{Value: 0} }

func isZero(x syntax.Expr) bool {
	l, ok := x.(*syntax.IntLit)
	return ok && l.Value == 0
}

// isEmpty reports whether s, as a body, does nothing: {} or ;.
func isEmpty(s syntax.Stmt) bool {
	switch s := s.(type) {
	case *syntax.BlockStmt:
		return len(s.List) == 0
	case *syntax.EmptyStmt:
		return true
	}
	return false
}

// walkLists calls fn on every statement list of the tree under s.
func walkLists(s syntax.Stmt, fn func([]syntax.Stmt)) {
	if b, ok := s.(*syntax.BlockStmt); ok {
		fn(b.List)
	}
	for _, t := range subStmts(s) {
		walkLists(t, fn)
	}
}

// subStmts lists the statements directly under s: a block's list, an if's
// branches, a loop's body.
func subStmts(s syntax.Stmt) []syntax.Stmt {
	switch s := s.(type) {
	case *syntax.BlockStmt:
		return s.List
	case *syntax.IfStmt:
		if s.Else != nil {
			return []syntax.Stmt{s.Then, s.Else}
		}
		return []syntax.Stmt{s.Then}
	case *syntax.WhileStmt:
		return []syntax.Stmt{s.Body}
	case *syntax.ForStmt:
		return []syntax.Stmt{s.Body}
	}
	return nil
}

// walkExprs calls fn on every expression of the tree under s, operands
// included.
func walkExprs(s syntax.Stmt, fn func(syntax.Expr)) {
	var expr func(x syntax.Expr)
	expr = func(x syntax.Expr) {
		fn(x)
		for _, y := range operands(x) {
			expr(y)
		}
	}
	for _, xp := range exprSlots(s) {
		expr(*xp)
	}
	for _, t := range subStmts(s) {
		walkExprs(t, fn)
	}
}
