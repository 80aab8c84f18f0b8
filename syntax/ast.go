package syntax

// The abstract syntax tree of a Simple program. Every node knows its
// position; names are bound to their declarations (*Var) by the resolver, so
// later stages never look a name up again.

// Node is any node of the tree.
type Node interface {
	Pos() Pos // position of the node's first token
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// File is a parsed and resolved program: a sequence of statements run as the
// body of a function of one int argument, arg.
type File struct {
	Name    string     // file name used in positions
	Body    *BlockStmt // the program's statements (Lbrace/Rbrace are unknown)
	Arg     *Var       // the predeclared variable arg (ID 0, Slot 0)
	NumVars int        // number of Vars, including arg: Var.ID is in [0, NumVars)
}

// DeclKind is the type keyword a declaration starts with.
type DeclKind uint8

const (
	DeclInt  DeclKind = iota // int x = e;
	DeclBool                 // bool b = e;
	DeclVar                  // var x = e;  (type inferred, may be reassigned)
	DeclVal                  // val x = e;  (type inferred, final)
)

func (k DeclKind) String() string {
	switch k {
	case DeclInt:
		return "int"
	case DeclBool:
		return "bool"
	case DeclVar:
		return "var"
	case DeclVal:
		return "val"
	}
	return "?"
}

// Var is one declared variable (or arg). The resolver makes one per
// declaration and points every use and assignment at it.
type Var struct {
	ID    int      // dense index, 0 for arg
	Name  string   //
	Kind  DeclKind // how it was declared (arg is DeclInt)
	Bool  bool     // declared bool: every value stored is masked to its low bit, as Simple's u1
	Final bool     // declared val: cannot be assigned after its declaration
	Pos   Pos      // position of the name in its declaration (unknown for arg)
	// Slot is the variable's index in the stack of live variables at its
	// declaration: arg is 0, and a variable declared when k variables are
	// in scope has slot k. Slots are reused by sibling scopes, so a builder
	// can keep the current value of every live variable in a slice.
	Slot int
}

// ---- Statements ----

// BlockStmt is { List } and opens a scope.
type BlockStmt struct {
	Lbrace Pos
	List   []Stmt
	Rbrace Pos
}

// DeclStmt is "int a = 1, b;": one or more variables of one declared kind.
type DeclStmt struct {
	TypePos Pos
	Kind    DeclKind
	Specs   []*VarSpec
}

// VarSpec is one declarator of a DeclStmt.
type VarSpec struct {
	NamePos Pos
	Name    string
	Init    Expr  // nil: the default value 0 (only int and bool may omit it)
	Var     *Var  // set by the resolver
	id      int32 // the parser's interned id of Name, for the resolver
}

// AssignStmt is x = e, x op= e, x++, x--, ++x or --x.
type AssignStmt struct {
	NamePos Pos
	Name    string
	Op      Token // ASSIGN, ADD_ASSIGN ... SHR_ASSIGN, INC or DEC
	OpPos   Pos
	Value   Expr  // nil for INC and DEC
	Var     *Var  // set by the resolver
	id      int32 // the parser's interned id of Name, for the resolver
}

// ExprStmt is an expression evaluated for its effect (a division may trap).
type ExprStmt struct {
	X Expr
}

// IfStmt is if (Cond) Then [else Else].
type IfStmt struct {
	If   Pos
	Cond Expr
	Then Stmt
	Else Stmt // nil when there is no else
	// Assigned lists the variables declared outside the if that either
	// arm assigns, ordered by Slot: the ones that may need a Phi where
	// the arms meet. Set by the resolver.
	Assigned []*Var
}

// WhileStmt is while (Cond) Body.
type WhileStmt struct {
	While Pos
	Cond  Expr
	Body  Stmt
	// Assigned lists the variables declared outside the loop that are
	// assigned inside it, ordered by Slot: the ones that need a Phi at the
	// loop head. Set by the resolver.
	Assigned []*Var
}

// ForStmt is for (Init; Cond; Next) Body. Its Init opens a scope that
// encloses the whole loop.
type ForStmt struct {
	For      Pos
	Init     Stmt // nil, *DeclStmt, *AssignStmt or *ExprStmt
	Cond     Expr // nil means true
	Next     Stmt // nil, *AssignStmt or *ExprStmt
	Body     Stmt
	Assigned []*Var // as WhileStmt.Assigned: outer variables assigned in Cond, Body or Next
}

// BreakStmt is break;
type BreakStmt struct{ Break Pos }

// ContinueStmt is continue;
type ContinueStmt struct{ Continue Pos }

// ReturnStmt is return Value;
type ReturnStmt struct {
	Return Pos
	Value  Expr
}

// ShowGraphStmt is #showGraph; which prints the graph as built so far.
type ShowGraphStmt struct{ Hash Pos }

// EmptyStmt is a lone ;
type EmptyStmt struct{ Semi Pos }

// ---- Expressions ----

// IntLit is an integer literal, decimal or 0x hex. A literal may only be
// 9223372036854775808 as the operand of unary minus; the parser folds
// that pair into one IntLit of value MinInt64.
type IntLit struct {
	ValuePos Pos
	Value    int64
}

// BoolLit is true or false.
type BoolLit struct {
	ValuePos Pos
	Value    bool
}

// Name is a use of a variable (including arg).
type Name struct {
	NamePos Pos
	Name    string
	Var     *Var  // set by the resolver
	id      int32 // the parser's interned id of Name, for the resolver
}

// UnaryExpr is -X or !X.
type UnaryExpr struct {
	OpPos Pos
	Op    Token // SUB or NOT
	X     Expr
}

// BinaryExpr is X Op Y for every binary operator: arithmetic, bitwise,
// shifts, a single comparison, and the short-circuit LAND and LOR.
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    Token
	Y     Expr
}

// ChainExpr is a chain of two or more relational comparisons,
// X[0] Ops[0] X[1] Ops[1] X[2] ..., meaning
// X[0] Ops[0] X[1] && X[1] Ops[1] X[2] && ..., each operand evaluated at
// most once, left to right, stopping at the first false comparison.
type ChainExpr struct {
	X     []Expr  // len(Ops)+1 operands
	Ops   []Token // LSS, LEQ, GTR or GEQ
	OpPos []Pos
}

// CondExpr is Cond ? Then : Else.
type CondExpr struct {
	Cond     Expr
	Question Pos
	Then     Expr
	Else     Expr
}

func (s *BlockStmt) Pos() Pos { return s.Lbrace }
func (s *DeclStmt) Pos() Pos  { return s.TypePos }
func (s *AssignStmt) Pos() Pos {
	if s.OpPos.Before(s.NamePos) { // ++x, --x
		return s.OpPos
	}
	return s.NamePos
}
func (s *ExprStmt) Pos() Pos      { return s.X.Pos() }
func (s *IfStmt) Pos() Pos        { return s.If }
func (s *WhileStmt) Pos() Pos     { return s.While }
func (s *ForStmt) Pos() Pos       { return s.For }
func (s *BreakStmt) Pos() Pos     { return s.Break }
func (s *ContinueStmt) Pos() Pos  { return s.Continue }
func (s *ReturnStmt) Pos() Pos    { return s.Return }
func (s *ShowGraphStmt) Pos() Pos { return s.Hash }
func (s *EmptyStmt) Pos() Pos     { return s.Semi }

func (*BlockStmt) stmtNode()     {}
func (*DeclStmt) stmtNode()      {}
func (*AssignStmt) stmtNode()    {}
func (*ExprStmt) stmtNode()      {}
func (*IfStmt) stmtNode()        {}
func (*WhileStmt) stmtNode()     {}
func (*ForStmt) stmtNode()       {}
func (*BreakStmt) stmtNode()     {}
func (*ContinueStmt) stmtNode()  {}
func (*ReturnStmt) stmtNode()    {}
func (*ShowGraphStmt) stmtNode() {}
func (*EmptyStmt) stmtNode()     {}

func (x *IntLit) Pos() Pos     { return x.ValuePos }
func (x *BoolLit) Pos() Pos    { return x.ValuePos }
func (x *Name) Pos() Pos       { return x.NamePos }
func (x *UnaryExpr) Pos() Pos  { return x.OpPos }
func (x *BinaryExpr) Pos() Pos { return leftPos(x) }
func (x *ChainExpr) Pos() Pos  { return leftPos(x) }
func (x *CondExpr) Pos() Pos   { return leftPos(x) }

// leftPos is the position of x's first operand, found with a loop: the
// left spine of a long chain is as deep as the chain is long.
func leftPos(x Expr) Pos {
	for {
		switch e := x.(type) {
		case *BinaryExpr:
			x = e.X
		case *ChainExpr:
			x = e.X[0]
		case *CondExpr:
			x = e.Cond
		default:
			return x.Pos()
		}
	}
}

func (*IntLit) exprNode()     {}
func (*BoolLit) exprNode()    {}
func (*Name) exprNode()       {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*ChainExpr) exprNode()  {}
func (*CondExpr) exprNode()   {}
