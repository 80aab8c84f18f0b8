package syntax

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file: 1-based line and column, the column
// counted in bytes. The zero Pos is unknown.
type Pos struct {
	Line, Col int32
}

// IsKnown reports whether p is a real position.
func (p Pos) IsKnown() bool { return p.Line > 0 }

// Before reports whether p comes before q in the file.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

// String formats p as line:col, or "?" when unknown.
func (p Pos) String() string {
	if !p.IsKnown() {
		return "?"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Error is one source error.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error formats e as file:line:col: message.
func (e *Error) Error() string {
	if !e.Pos.IsKnown() {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is the errors of one file, reported together.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(file string, pos Pos, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by position, keeping the order of errors at the same
// position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Before(l[j].Pos) })
}

// Error joins the errors, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil if it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
