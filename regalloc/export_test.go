package regalloc

// MoveAfter makes the last n moves run before p's instruction run after
// it, first of its moves after.
func MoveAfter(p *Placed, n int) { p.nb, p.na = p.nb-int32(n), p.na+int32(n) }
