// Package types is the lattice of values the Sea of Nodes computes over:
// Top (no value yet), integer ranges with constants as one-value ranges,
// each with the bits known to be 0 or 1 beside it (bits.go), reachable and
// unreachable control, tuples for multi-output nodes, and Bottom (any
// value). It is Click's lattice from "Combining Analyses, Combining
// Optimizations" (paper 001), with Simple's integer ranges.
//
// Order: a type higher in the lattice stands for fewer run-time values.
// Top is above everything, Bottom below everything; Meet is the greatest
// lower bound (the union of the values); a.IsA(b) means a is at or above b,
// so every value of a is a value of b.
//
//	           Top
//	 /          |          \
//	... -1 0 1 ...  XCtrl   [t1 t2 ...]
//	 [lo..hi] ranges  |      tuples, elementwise
//	    int           Ctrl
//	 \          |          /
//	         Bottom
package types

import (
	"fmt"
	"math"
	"strings"
)

// Kind is the shape of a Type.
type Kind uint8

const (
	KTop    Kind = iota // no value: undefined, or computed in unreachable code
	KInt                // an integer in [Lo, Hi]
	KXCtrl              // control that never arrives
	KCtrl               // control that may arrive
	KTuple              // one type per output of a multi-output node
	KBottom             // any value of any kind
)

// Type is a lattice element. It is a small value; compare with Equal.
type Type struct {
	kind   Kind
	lo, hi int64 // KInt: inclusive bounds, lo <= hi
	// KInt: the bits every value has 0 (zeros) and 1 (ones); disjoint,
	// and holding at least the bits the range implies (reduce).
	zeros, ones uint64
	tup         *[]Type // KTuple: the elements
}

var (
	Top    = Type{kind: KTop}
	Bottom = Type{kind: KBottom}
	Ctrl   = Type{kind: KCtrl}
	XCtrl  = Type{kind: KXCtrl}
	// Int is every 64-bit integer: the type of arg and of unknown values.
	Int = Type{kind: KInt, lo: math.MinInt64, hi: math.MaxInt64}
	// Bool is {0, 1}: the type of comparisons and of !x.
	Bool  = Range(0, 1)
	Zero  = Const(0)
	One   = Const(1)
	True  = One
	False = Zero
)

// Const is the integer constant v.
func Const(v int64) Type { return Type{kind: KInt, lo: v, hi: v, zeros: ^uint64(v), ones: uint64(v)} }

// Range is the integers from lo to hi inclusive; lo > hi is Top (empty).
func Range(lo, hi int64) Type {
	if lo > hi {
		return Top
	}
	return reduce(lo, hi, 0, 0)
}

// Tuple is the type of a multi-output node.
func Tuple(elems ...Type) Type {
	e := append([]Type(nil), elems...)
	return Type{kind: KTuple, tup: &e}
}

// Kind returns the shape of t.
func (t Type) Kind() Kind { return t.kind }

func (t Type) IsTop() bool    { return t.kind == KTop }
func (t Type) IsBottom() bool { return t.kind == KBottom }
func (t Type) IsInt() bool    { return t.kind == KInt }
func (t Type) IsTuple() bool  { return t.kind == KTuple }

// IsCtrl reports whether t is reachable control.
func (t Type) IsCtrl() bool { return t.kind == KCtrl }

// IsXCtrl reports whether t is unreachable control.
func (t Type) IsXCtrl() bool { return t.kind == KXCtrl }

// IsConst reports whether t is a single integer.
func (t Type) IsConst() bool { return t.kind == KInt && t.lo == t.hi }

// Value is the integer of a constant type.
func (t Type) Value() int64 {
	if !t.IsConst() {
		panic("types: Value of non-constant " + t.String())
	}
	return t.lo
}

// Lo and Hi are the bounds of an integer type.
func (t Type) Lo() int64 { return t.lo }
func (t Type) Hi() int64 { return t.hi }

// Len is the number of elements of a tuple.
func (t Type) Len() int {
	if t.kind != KTuple {
		return 0
	}
	return len(*t.tup)
}

// Elem is the i-th element of a tuple.
func (t Type) Elem(i int) Type { return (*t.tup)[i] }

// Contains reports whether the integer v is a value of t.
func (t Type) Contains(v int64) bool {
	switch t.kind {
	case KInt:
		return t.lo <= v && v <= t.hi && uint64(v)&t.zeros == 0 && ^uint64(v)&t.ones == 0
	case KBottom:
		return true
	}
	return false
}

// ExcludesZero reports whether t is an integer type without 0: a divisor
// of this type needs no zero check.
func (t Type) ExcludesZero() bool { return t.kind == KInt && !t.Contains(0) }

// Equal reports whether t and u are the same lattice element.
func (t Type) Equal(u Type) bool {
	if t.kind != u.kind {
		return false
	}
	switch t.kind {
	case KInt:
		return t.lo == u.lo && t.hi == u.hi && t.zeros == u.zeros && t.ones == u.ones
	case KTuple:
		if t.Len() != u.Len() {
			return false
		}
		for i := range *t.tup {
			if !t.Elem(i).Equal(u.Elem(i)) {
				return false
			}
		}
	}
	return true
}

// Meet is the greatest lower bound of t and u: the least type holding every
// value of both.
func Meet(t, u Type) Type {
	switch {
	case t.kind == KTop:
		return u
	case u.kind == KTop:
		return t
	case t.kind == KBottom || u.kind == KBottom:
		return Bottom
	}
	switch t.kind {
	case KInt:
		if u.kind == KInt {
			return reduce(min(t.lo, u.lo), max(t.hi, u.hi), t.zeros&u.zeros, t.ones&u.ones)
		}
	case KXCtrl:
		if u.kind == KXCtrl || u.kind == KCtrl {
			return u
		}
	case KCtrl:
		if u.kind == KXCtrl || u.kind == KCtrl {
			return Ctrl
		}
	case KTuple:
		if u.kind == KTuple && t.Len() == u.Len() {
			e := make([]Type, t.Len())
			for i := range e {
				e[i] = Meet(t.Elem(i), u.Elem(i))
			}
			return Type{kind: KTuple, tup: &e}
		}
	}
	return Bottom
}

// IsA reports whether t is at or above u in the lattice: every value t
// stands for is also a value of u.
func (t Type) IsA(u Type) bool { return Meet(t, u).Equal(u) }

// String formats t the way the printers show it: Top, Bot, Ctrl, XCtrl,
// int, bool, 42, [0..9], [Ctrl, int].
func (t Type) String() string {
	switch t.kind {
	case KTop:
		return "Top"
	case KBottom:
		return "Bot"
	case KCtrl:
		return "Ctrl"
	case KXCtrl:
		return "XCtrl"
	case KInt:
		switch {
		case t.lo == t.hi:
			return fmt.Sprint(t.lo)
		}
		r, b := fmt.Sprintf("[%d..%d]", t.lo, t.hi), t.bitsString()
		blo, bhi := bitsBounds(t.zeros, t.ones)
		switch {
		case t.lo == math.MinInt64 && t.hi == math.MaxInt64, b != "" && t.lo == blo && t.hi == bhi && t.lo < 0 && t.hi >= 0:
			r = "int" // no bound but the bits' own, which the bits show
		case t.lo == 0 && t.hi == 1:
			r = "bool"
		}
		return r + b
	case KTuple:
		s := make([]string, t.Len())
		for i := range s {
			s[i] = t.Elem(i).String()
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	return "?"
}

// Join is the least upper bound of t and u: the values both stand for.
// Two nodes found equal by value numbering keep the join of their types.
func Join(t, u Type) Type {
	switch {
	case t.kind == KBottom:
		return u
	case u.kind == KBottom:
		return t
	case t.kind == KTop || u.kind == KTop:
		return Top
	}
	switch t.kind {
	case KInt:
		if u.kind == KInt {
			if t.lo > u.hi || u.lo > t.hi {
				return Top
			}
			return reduce(max(t.lo, u.lo), min(t.hi, u.hi), t.zeros|u.zeros, t.ones|u.ones)
		}
	case KXCtrl, KCtrl:
		if u.kind == KXCtrl || u.kind == KCtrl {
			if t.kind == KXCtrl || u.kind == KXCtrl {
				return XCtrl
			}
			return Ctrl
		}
	case KTuple:
		if u.kind == KTuple && t.Len() == u.Len() {
			e := make([]Type, t.Len())
			for i := range e {
				e[i] = Join(t.Elem(i), u.Elem(i))
			}
			return Type{kind: KTuple, tup: &e}
		}
	}
	return Top
}
