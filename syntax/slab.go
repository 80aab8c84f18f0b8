package syntax

// Slabs: the parser and the resolver make their nodes, variables and short
// slices from chunks allocated a few hundred at a time rather than one by
// one, which takes the allocation count of a parse from about one per node
// to a few per thousand, and the garbage collector's work with it. A chunk
// lives as long as any value in it; a tree lives as long as its File, so
// nothing is kept longer than before.

// slabMin and slabMax bound a chunk's length: chunks start small, so that a
// one-line program does not pay for a large one, and double up to slabMax.
const (
	slabMin = 8
	slabMax = 512
)

// slab hands out *T from chunks of T.
type slab[T any] struct {
	free []T // the unused rest of the current chunk
	next int // length of the next chunk
}

// new returns a pointer to a zero T.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.next = min(max(2*s.next, slabMin), slabMax)
		s.free = make([]T, s.next)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// sliceSlab hands out copies of short slices from shared chunks of T.
type sliceSlab[T any] struct {
	free []T
	next int
}

// copy returns a copy of src whose capacity is its length, so that an
// append to it reallocates rather than writes over the next slice of the
// chunk. An empty src gives nil, as appending to a nil slice would.
func (s *sliceSlab[T]) copy(src []T) []T {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > len(s.free) {
		s.next = min(max(2*s.next, slabMin), slabMax)
		if n > s.next/4 {
			// A long slice gets an allocation of its own, so that the
			// chunk's tail is not wasted.
			return append([]T(nil), src...)
		}
		s.free = make([]T, s.next)
	}
	dst := s.free[:n:n]
	s.free = s.free[n:]
	copy(dst, src)
	return dst
}

// arena holds the slabs of one parse: every node of the tree, every Var,
// and the tree's short slices.
type arena struct {
	blocks    slab[BlockStmt]
	decls     slab[DeclStmt]
	specs     slab[VarSpec]
	assigns   slab[AssignStmt]
	exprStmts slab[ExprStmt]
	ifs       slab[IfStmt]
	whiles    slab[WhileStmt]
	fors      slab[ForStmt]
	returns   slab[ReturnStmt]
	breaks    slab[BreakStmt]
	continues slab[ContinueStmt]
	empties   slab[EmptyStmt]
	intLits   slab[IntLit]
	boolLits  slab[BoolLit]
	names     slab[Name]
	unaries   slab[UnaryExpr]
	binaries  slab[BinaryExpr]
	conds     slab[CondExpr]
	chains    slab[ChainExpr]
	vars      slab[Var]

	stmtLists sliceSlab[Stmt]
	specLists sliceSlab[*VarSpec]
	varLists  sliceSlab[*Var]
	exprLists sliceSlab[Expr]
	tokLists  sliceSlab[Token]
	posLists  sliceSlab[Pos]
}
