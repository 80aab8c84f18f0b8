package syntax

import (
	"fmt"
	"math"
)

const (
	maxErrors  = 10    // errors reported before giving up with "too many errors"
	maxNesting = 10000 // nested blocks, statements, parentheses and operators
)

// Parse parses the Simple program src and, if it has no syntax error,
// resolves its names. It returns the File, or nil and an ErrorList, sorted by
// position, of every error found.
func Parse(filename string, src []byte) (*File, error) {
	p := &parser{file: filename, arena: new(arena)}
	body, errs := p.parse(src)
	if len(errs) > 0 {
		return nil, errs
	}
	if errs := p.res.errs; len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return &File{Name: filename, Body: body, Arg: p.arg, NumVars: p.res.numVars}, nil
}

// parse parses and resolves src. It returns the program's body, or the
// sorted syntax errors; the resolver's errors, in p.res.errs, count only
// without syntax errors.
func (p *parser) parse(src []byte) (*BlockStmt, ErrorList) {
	body := p.parseFile(src)
	if len(p.errs) > 0 {
		p.errs.Sort()
		if p.tooMany != nil {
			// The error that was one too many may lie before the last
			// reported one (a bad character inside a literal is reported
			// past the literal's start); keep the list sorted.
			if last := p.errs[len(p.errs)-1].Pos; p.tooMany.Pos.Before(last) {
				p.tooMany.Pos = last
			}
			p.errs = append(p.errs, p.tooMany)
		}
		return nil, p.errs
	}
	return body, nil
}

// parser is a recursive descent parser for Simple. Binary operators are
// parsed with loops, so long operator chains need no deep recursion; every
// construct that does recurse counts towards maxNesting.
type parser struct {
	scanner
	file    string
	errs    ErrorList
	tooMany *Error // the final "too many errors", added after sorting
	depth   int    // current nesting, checked against maxNesting
	header  bool   // inside the parentheses of a for header

	arena *arena   // where the tree's nodes and slices are made
	res   resolver // called as each construct is parsed
	arg   *Var     // the predeclared variable arg
	// Scratch stacks for lists being parsed (the statements of the open
	// blocks, a declaration's specs, a ?: chain), copied into the arena
	// when complete. Each user remembers where its part starts, so nested
	// and abandoned lists leave no trace.
	stmts    []Stmt
	specs    []*VarSpec
	conds    []*CondExpr
	chainX   []Expr  // a comparison chain's operands,
	chainOps []Token // operators
	chainPos []Pos   // and their positions
}

// syntaxError unwinds the parse of the current statement after a syntax
// error has been reported; stmtList recovers from it.
type syntaxError struct{}

// bailout abandons the whole parse (too many errors, nesting too deep).
type bailout struct{}

// parseFile parses a whole program. It returns nil if it had to bail out.
func (p *parser) parseFile(src []byte) (body *BlockStmt) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			body = nil
		}
	}()
	p.init(src, p.errorAt)
	p.res.file, p.res.arena = p.file, p.arena
	p.arg = p.res.declare("arg", p.words.intern([]byte("arg"), hashString("arg")), DeclInt, Pos{}) // the outermost scope
	p.res.openScope()                                                                              // the program body
	b := p.arena.blocks.new()
	b.List = p.stmtList(false)
	p.res.closeScope()
	return b
}

// errorAt records an error. An error at the position of the previous one
// adds nothing (it is almost always a consequence of it); the error after
// the first maxErrors ends the parse.
func (p *parser) errorAt(pos Pos, msg string) {
	p.res.off = true
	if n := len(p.errs); n > 0 && p.errs[n-1].Pos == pos {
		return
	}
	if len(p.errs) >= maxErrors {
		p.tooMany = &Error{File: p.file, Pos: pos, Msg: "too many errors"}
		panic(bailout{})
	}
	p.errs.Add(p.file, pos, "%s", msg)
}

// syntaxErrorExpected reports that the current token is not what was
// expected, and abandons the current statement.
func (p *parser) syntaxErrorExpected(what string) {
	switch p.tok {
	case ILLEGAL:
		// The scanner has reported it.
	case RESERVED:
		p.errorAt(p.pos, fmt.Sprintf("'%s' is reserved in Simple but not supported by son", p.lit()))
	default:
		p.errorAt(p.pos, fmt.Sprintf("syntax error: unexpected %s, expected %s", p.tokDesc(), what))
	}
	panic(syntaxError{})
}

// tokDesc describes the current token for an error message.
func (p *parser) tokDesc() string {
	switch {
	case p.tok == EOF:
		return "end of file"
	case p.tok == IDENT:
		return "name '" + p.lit() + "'"
	case p.tok == INT:
		return "integer literal " + p.intText()
	case p.tok.IsKeyword():
		return "keyword '" + p.tok.String() + "'"
	}
	return "'" + p.tok.String() + "'"
}

// want consumes a token of kind tok, or reports a syntax error.
func (p *parser) want(tok Token) Pos {
	pos := p.pos
	if p.tok != tok {
		p.syntaxErrorExpected("'" + tok.String() + "'")
	}
	p.next()
	return pos
}

// enter notes one more level of nesting at pos, the token that opens it,
// and stops the parse when the nesting gets too deep.
func (p *parser) enter(pos Pos) {
	p.depth++
	if p.depth > maxNesting {
		p.errorAt(pos, fmt.Sprintf("nesting too deep (limit %d)", maxNesting))
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

// ---- Statements ----

// stmtList parses statements up to the end of the file or, inBlock, up to
// the '}' that closes the block. A statement with a syntax error is dropped
// and the parse resumes after it.
func (p *parser) stmtList(inBlock bool) []Stmt {
	start, n := len(p.stmts), 0
	var reach reachable
	for p.tok != EOF && !(inBlock && p.tok == RBRACE) {
		slot := p.res.before(&reach, p.tok == SEMI)
		if s := p.stmtOrSkip(inBlock); s != nil {
			p.stmts = append(p.stmts[:start+n], s)
			n++
			p.res.after(&reach, s, slot)
		}
	}
	list := p.arena.stmtLists.copy(p.stmts[start : start+n])
	clear(p.stmts[start:]) // let the garbage collector have abandoned statements
	p.stmts = p.stmts[:start]
	return list
}

// stmtOrSkip parses one statement. After a syntax error in it, it skips up
// to and including the next ';' at the same brace depth, or up to a '}' that
// closes the current block (inBlock) or past a stray '}' (at top level), and
// returns nil. An error inside a for header skips to the header's ')'
// instead, so that the header's own ';' do not start new statements.
func (p *parser) stmtOrSkip(inBlock bool) Stmt {
	depth := p.depth
	s, r := p.tryStmt()
	switch r.(type) {
	case nil:
		return s
	case syntaxError:
		p.depth = depth
		if p.header {
			p.header = false
			p.skipHeader()
		} else {
			p.skip(inBlock)
		}
		return nil
	}
	// Panic afresh rather than from tryStmt's deferred call: a panic
	// raised while another is being recovered keeps that one alive, and
	// the chain would grow with every level of nesting.
	panic(r)
}

// tryStmt parses one statement, returning what unwound it if anything did.
func (p *parser) tryStmt() (s Stmt, r any) {
	defer func() {
		if r = recover(); r != nil {
			s = nil
		}
	}()
	return p.stmt(), nil
}

// skipHeader skips the rest of a for header: up to and including its ')',
// or up to a brace, which no header contains.
func (p *parser) skipHeader() {
	parens := 0
	for {
		switch p.tok {
		case EOF, LBRACE, RBRACE:
			return
		case LPAREN:
			parens++
		case RPAREN:
			if parens == 0 {
				p.next()
				return
			}
			parens--
		}
		p.next()
	}
}

// skip skips the rest of a statement after a syntax error, as stmtOrSkip
// describes. It always consumes a token unless it stops at the end of the
// file or at a block's closing '}', so the statement loops make progress.
func (p *parser) skip(inBlock bool) {
	braces := 0
	for {
		switch p.tok {
		case EOF:
			return
		case SEMI:
			p.next()
			if braces == 0 {
				return
			}
		case LBRACE:
			braces++
			p.next()
		case RBRACE:
			if braces == 0 {
				if !inBlock {
					p.next()
				}
				return
			}
			braces--
			p.next()
		default:
			p.next()
		}
	}
}

// stmt parses one statement.
func (p *parser) stmt() Stmt {
	switch p.tok {
	case LBRACE:
		return p.block()
	case INTTYPE, BOOLTYPE, VAR, VAL:
		d := p.decl()
		p.want(SEMI)
		return d
	case IF:
		return p.ifStmt()
	case WHILE:
		return p.whileStmt()
	case FOR:
		return p.forStmt()
	case BREAK:
		s := p.arena.breaks.new()
		s.Break = p.pos
		p.res.jump(BREAK, p.pos)
		p.next()
		p.want(SEMI)
		return s
	case CONTINUE:
		s := p.arena.continues.new()
		s.Continue = p.pos
		p.res.jump(CONTINUE, p.pos)
		p.next()
		p.want(SEMI)
		return s
	case RETURN:
		s := p.arena.returns.new()
		s.Return = p.pos
		p.next()
		s.Value = p.expr()
		p.want(SEMI)
		return s
	case SHOWGRAPH:
		s := &ShowGraphStmt{Hash: p.pos}
		p.next()
		p.want(SEMI)
		return s
	case SEMI:
		s := p.arena.empties.new()
		s.Semi = p.pos
		p.next()
		return s
	case IDENT, INT, TRUE, FALSE, LPAREN, SUB, NOT, INC, DEC:
		s := p.simpleStmt()
		p.want(SEMI)
		return s
	}
	p.syntaxErrorExpected("statement")
	return nil
}

// body parses the direct body of if, else, while or for, where a lone
// declaration is not allowed: it is reported and given a scope of its own.
func (p *parser) body() Stmt {
	switch p.tok {
	case INTTYPE, BOOLTYPE, VAR, VAL:
		if !p.res.off {
			p.res.errorf(p.pos, "declaration not allowed here; put it in a block")
		}
		p.res.openScope()
		s := p.stmt()
		p.res.closeScope()
		return s
	}
	return p.stmt()
}

// block parses { stmts }.
func (p *parser) block() *BlockStmt {
	b := p.arena.blocks.new()
	b.Lbrace = p.pos
	p.enter(p.pos)
	p.next()
	p.res.openScope()
	b.List = p.stmtList(true)
	p.res.closeScope()
	b.Rbrace = p.want(RBRACE)
	p.leave()
	return b
}

// decl parses a declaration without its ';'.
func (p *parser) decl() *DeclStmt {
	d := p.arena.decls.new()
	d.TypePos = p.pos
	switch p.tok {
	case INTTYPE:
		d.Kind = DeclInt
	case BOOLTYPE:
		d.Kind = DeclBool
	case VAR:
		d.Kind = DeclVar
	case VAL:
		d.Kind = DeclVal
	}
	p.next()
	start := len(p.specs)
	for {
		spec := p.arena.specs.new()
		spec.NamePos, spec.id = p.pos, p.id
		spec.Name = p.name()
		if p.tok == ASSIGN {
			p.next()
			spec.Init = p.expr()
		}
		p.res.spec(d.Kind, spec)
		p.specs = append(p.specs, spec)
		if p.tok != COMMA {
			d.Specs = p.arena.specLists.copy(p.specs[start:])
			clear(p.specs[start:])
			p.specs = p.specs[:start]
			return d
		}
		p.next()
	}
}

// name consumes an identifier and returns it.
func (p *parser) name() string {
	if p.tok != IDENT {
		p.syntaxErrorExpected("name")
	}
	name := p.lit()
	p.next()
	return name
}

// simpleStmt parses an assignment, increment, decrement or expression
// statement, without its ';'.
func (p *parser) simpleStmt() Stmt {
	switch p.tok {
	case INC, DEC:
		s := p.arena.assigns.new()
		s.Op, s.OpPos = p.tok, p.pos
		p.next()
		s.NamePos, s.id = p.pos, p.id
		s.Name = p.name()
		p.res.assign(s)
		return s
	case IDENT:
		namePos, name, id := p.pos, p.lit(), p.id
		p.next()
		switch p.tok {
		case ASSIGN, ADD_ASSIGN, SUB_ASSIGN, MUL_ASSIGN, QUO_ASSIGN, REM_ASSIGN,
			AND_ASSIGN, OR_ASSIGN, XOR_ASSIGN, SHL_ASSIGN, SHR_ASSIGN, USHR_ASSIGN:
			s := p.arena.assigns.new()
			*s = AssignStmt{NamePos: namePos, Name: name, Op: p.tok, OpPos: p.pos, id: id}
			p.next()
			s.Value = p.expr()
			p.res.assign(s)
			return s
		case INC, DEC:
			s := p.arena.assigns.new()
			*s = AssignStmt{NamePos: namePos, Name: name, Op: p.tok, OpPos: p.pos, id: id}
			p.next()
			p.res.assign(s)
			return s
		}
		x := p.arena.names.new()
		*x = Name{NamePos: namePos, Name: name, id: id}
		x.Var = p.res.lookup(name, id, namePos)
		s := p.arena.exprStmts.new()
		s.X = p.exprFrom(x)
		return s
	}
	s := p.arena.exprStmts.new()
	s.X = p.expr()
	return s
}

// ifStmt parses if (cond) stmt [else stmt]; an else belongs to the nearest
// if.
func (p *parser) ifStmt() *IfStmt {
	s := p.arena.ifs.new()
	s.If = p.pos
	p.enter(p.pos)
	p.next()
	p.want(LPAREN)
	s.Cond = p.expr()
	p.want(RPAREN)
	p.res.open()
	s.Then = p.body()
	if p.tok == ELSE {
		p.next()
		s.Else = p.body()
	}
	s.Assigned = p.res.close()
	p.leave()
	return s
}

func (p *parser) whileStmt() *WhileStmt {
	s := p.arena.whiles.new()
	s.While = p.pos
	p.enter(p.pos)
	p.next()
	p.want(LPAREN)
	p.res.open()
	p.res.loops++
	s.Cond = p.expr()
	p.want(RPAREN)
	s.Body = p.body()
	p.res.loops--
	s.Assigned = p.res.close()
	p.leave()
	return s
}

// forStmt parses for ([init]; [cond]; [next]) stmt.
func (p *parser) forStmt() *ForStmt {
	s := p.arena.fors.new()
	s.For = p.pos
	p.enter(p.pos)
	p.next()
	p.want(LPAREN)
	p.header = true
	// The Init runs once, before the loop: its variables are outside the
	// loop, in a scope that encloses it, and its own assignments belong
	// to the enclosing if or loop, if any.
	p.res.openScope()
	switch p.tok {
	case SEMI:
	case INTTYPE, BOOLTYPE, VAR, VAL:
		s.Init = p.decl()
	default:
		s.Init = p.simpleStmt()
	}
	p.want(SEMI)
	p.res.open()
	p.res.loops++
	if p.tok != SEMI {
		s.Cond = p.expr()
	}
	p.want(SEMI)
	if p.tok != RPAREN {
		s.Next = p.simpleStmt()
	}
	p.want(RPAREN)
	p.header = false
	s.Body = p.body()
	p.res.loops--
	s.Assigned = p.res.close()
	p.res.closeScope()
	p.leave()
	return s
}

// ---- Expressions ----

// Binary operator precedences; 0 is not a binary operator.
const (
	precLowest = 1 // ||
	precRel    = 7 // < <= > >=
	precUnary  = 11
)

func precedence(t Token) int {
	switch t {
	case LOR:
		return 1
	case LAND:
		return 2
	case OR:
		return 3
	case XOR:
		return 4
	case AND:
		return 5
	case EQL, NEQ:
		return 6
	case LSS, LEQ, GTR, GEQ:
		return precRel
	case SHL, SHR, USHR:
		return 8
	case ADD, SUB:
		return 9
	case MUL, QUO, REM:
		return 10
	}
	return 0
}

func (p *parser) expr() Expr { return p.exprFrom(nil) }

// exprFrom parses an expression whose first operand x has already been
// parsed (nil if it has not): binary operators, then an optional ?:. A
// chain of conditionals in the else position, c1 ? x1 : c2 ? x2 : ... : y
// (the expression form of else if), is parsed with a loop and does not
// count as nesting; a conditional in the then position does.
func (p *parser) exprFrom(x Expr) Expr {
	x = p.binaryExpr(x, precLowest)
	if p.tok != QUEST {
		return x
	}
	start, n := len(p.conds), 0
	for p.tok == QUEST {
		c := p.arena.conds.new()
		c.Cond, c.Question = x, p.pos
		p.enter(p.pos)
		p.next()
		c.Then = p.expr()
		p.leave()
		p.want(COLON)
		p.conds = append(p.conds[:start+n], c)
		n++
		x = p.binaryExpr(nil, precLowest)
	}
	for i := start + n - 1; i >= start; i-- {
		p.conds[i].Else = x
		x = p.conds[i]
	}
	clear(p.conds[start:])
	p.conds = p.conds[:start]
	return x
}

// binaryExpr parses operators of precedence prec1 or more, by precedence
// climbing: a loop per level, recursing only to a higher level. x is the
// first operand if already parsed. Two or more relational operators in a row
// make one ChainExpr.
func (p *parser) binaryExpr(x Expr, prec1 int) Expr {
	if x == nil {
		x = p.unaryExpr()
	}
	for {
		op, opPos := p.tok, p.pos
		prec := precedence(op)
		if prec < prec1 || prec == 0 {
			return x
		}
		p.next()
		y := p.binaryExpr(nil, prec+1)
		if prec == precRel && precedence(p.tok) == precRel {
			x = p.chain(x, op, opPos, y)
			continue
		}
		b := p.arena.binaries.new()
		*b = BinaryExpr{X: x, OpPos: opPos, Op: op, Y: y}
		x = b
	}
}

// chain parses the rest of a comparison chain whose first comparison, x op
// y, has been parsed, and whose next token is a relational operator. The
// lists are gathered on scratch stacks above start (an operand may hold a
// chain of its own in parentheses, which pushes and pops above) and copied
// into the arena.
func (p *parser) chain(x Expr, op Token, opPos Pos, y Expr) *ChainExpr {
	start, n := len(p.chainX), 2
	p.chainX = append(p.chainX, x, y)
	startOps := len(p.chainOps)
	p.chainOps = append(p.chainOps, op)
	p.chainPos = append(p.chainPos, opPos)
	for precedence(p.tok) == precRel {
		p.chainOps = append(p.chainOps[:startOps+n-1], p.tok)
		p.chainPos = append(p.chainPos[:startOps+n-1], p.pos)
		p.next()
		y := p.binaryExpr(nil, precRel+1)
		p.chainX = append(p.chainX[:start+n], y)
		n++
	}
	c := p.arena.chains.new()
	c.X = p.arena.exprLists.copy(p.chainX[start : start+n])
	c.Ops = p.arena.tokLists.copy(p.chainOps[startOps : startOps+n-1])
	c.OpPos = p.arena.posLists.copy(p.chainPos[startOps : startOps+n-1])
	clear(p.chainX[start:])
	p.chainX = p.chainX[:start]
	p.chainOps = p.chainOps[:startOps]
	p.chainPos = p.chainPos[:startOps]
	return c
}

// unaryExpr parses - and ! prefixes. A minus directly before the literal
// 9223372036854775808 folds with it into the IntLit MinInt64.
func (p *parser) unaryExpr() Expr {
	if p.tok != SUB && p.tok != NOT {
		return p.primaryExpr()
	}
	u := p.arena.unaries.new()
	u.OpPos, u.Op = p.pos, p.tok
	p.enter(p.pos)
	p.next()
	if u.Op == SUB && p.tok == INT && p.rng == litMinInt {
		p.next()
		p.leave()
		x := p.arena.intLits.new()
		x.ValuePos, x.Value = u.OpPos, math.MinInt64
		return x
	}
	u.X = p.unaryExpr()
	p.leave()
	return u
}

func (p *parser) primaryExpr() Expr {
	switch p.tok {
	case INT:
		x := p.arena.intLits.new()
		x.ValuePos, x.Value = p.pos, p.val
		if p.rng != litInRange {
			p.errorAt(p.pos, "integer literal out of range: "+p.intText())
		}
		p.next()
		return x
	case TRUE, FALSE:
		x := p.arena.boolLits.new()
		x.ValuePos, x.Value = p.pos, p.tok == TRUE
		p.next()
		return x
	case IDENT:
		x := p.arena.names.new()
		x.NamePos, x.Name, x.id = p.pos, p.lit(), p.id
		x.Var = p.res.lookup(x.Name, x.id, x.NamePos)
		p.next()
		return x
	case LPAREN:
		p.enter(p.pos)
		p.next()
		x := p.expr()
		p.want(RPAREN)
		p.leave()
		return x
	}
	p.syntaxErrorExpected("expression")
	return nil
}
