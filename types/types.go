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
// Five words: its kind is a pointer to a shared descriptor (nil for Top,
// so that the zero Type is Top), and a tuple's descriptor holds its
// elements; then a range and its known bits. Every node and instruction
// holds a Type: a separate kind field would make it six words.
type Type struct {
	d      *desc // kind, and a tuple's elements; nil: Top
	lo, hi int64 // KInt: inclusive bounds, lo <= hi
	// KInt: the bits every value has 0 (zeros) and 1 (ones); disjoint,
	// and holding at least the bits the range implies (reduce).
	zeros, ones uint64
}

// desc is what a Type is beyond an integer range.
type desc struct {
	kind  Kind
	elems []Type // KTuple: the elements
}

// kinds are the descriptors of every kind but KTop and KTuple.
var kinds = [...]desc{KInt: {kind: KInt}, KXCtrl: {kind: KXCtrl}, KCtrl: {kind: KCtrl}, KBottom: {kind: KBottom}}

// of is the Type of kind k (not KTop, not KTuple) with bounds lo, hi.
func of(k Kind, lo, hi int64) Type { return Type{d: &kinds[k], lo: lo, hi: hi} }

var (
	Top    = Type{}
	Bottom = of(KBottom, 0, 0)
	Ctrl   = of(KCtrl, 0, 0)
	XCtrl  = of(KXCtrl, 0, 0)
	// Int is every 64-bit integer: the type of arg and of unknown values.
	Int = of(KInt, math.MinInt64, math.MaxInt64)
	// Bool is {0, 1}: the type of comparisons and of !x.
	Bool  = Range(0, 1)
	Zero  = Const(0)
	One   = Const(1)
	True  = One
	False = Zero
)

// Const is the integer constant v.
func Const(v int64) Type {
	return Type{d: &kinds[KInt], lo: v, hi: v, zeros: ^uint64(v), ones: uint64(v)}
}

// Range is the integers from lo to hi inclusive; lo > hi is Top (empty).
func Range(lo, hi int64) Type {
	if lo > hi {
		return Top
	}
	return reduce(lo, hi, 0, 0)
}

// Tuple is the type of a multi-output node.
func Tuple(elems ...Type) Type {
	return Type{d: &desc{kind: KTuple, elems: append([]Type(nil), elems...)}}
}

// Kind returns the shape of t.
func (t Type) Kind() Kind {
	if t.d == nil {
		return KTop
	}
	return t.d.kind
}

func (t Type) IsTop() bool    { return t.d == nil }
func (t Type) IsBottom() bool { return t.d == &kinds[KBottom] }
func (t Type) IsInt() bool    { return t.d == &kinds[KInt] }
func (t Type) IsTuple() bool  { return t.d != nil && t.d.kind == KTuple }

// IsCtrl reports whether t is reachable control.
func (t Type) IsCtrl() bool { return t.d == &kinds[KCtrl] }

// IsXCtrl reports whether t is unreachable control.
func (t Type) IsXCtrl() bool { return t.d == &kinds[KXCtrl] }

// IsConst reports whether t is a single integer.
func (t Type) IsConst() bool { return t.IsInt() && t.lo == t.hi }

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
	if t.Kind() != KTuple {
		return 0
	}
	return len(t.d.elems)
}

// Elem is the i-th element of a tuple.
func (t Type) Elem(i int) Type { return t.d.elems[i] }

// Contains reports whether the integer v is a value of t.
func (t Type) Contains(v int64) bool {
	switch t.Kind() {
	case KInt:
		return t.lo <= v && v <= t.hi && uint64(v)&t.zeros == 0 && ^uint64(v)&t.ones == 0
	case KBottom:
		return true
	}
	return false
}

// ExcludesZero reports whether t is an integer type without 0: a divisor
// of this type needs no zero check.
func (t Type) ExcludesZero() bool { return t.Kind() == KInt && !t.Contains(0) }

// Equal reports whether t and u are the same lattice element.
func (t Type) Equal(u Type) bool {
	if t.Kind() != u.Kind() {
		return false
	}
	switch t.Kind() {
	case KInt:
		return t.lo == u.lo && t.hi == u.hi && t.zeros == u.zeros && t.ones == u.ones
	case KTuple:
		if t.Len() != u.Len() {
			return false
		}
		for i := range t.d.elems {
			if !t.Elem(i).Equal(u.Elem(i)) {
				return false
			}
		}
	}
	return true
}

// Same reports whether *t == *u, comparing the words one by one, inlined
// where == on a Type is a call of runtime.memequal (son's builder compares
// a node's type with a new one about four times a node).
func (t *Type) Same(u *Type) bool {
	return t.lo == u.lo && t.hi == u.hi && t.zeros == u.zeros && t.ones == u.ones && t.d == u.d
}

// Meet is the greatest lower bound of t and u: the least type holding every
// value of both.
func Meet(t, u Type) Type {
	switch {
	case t.Kind() == KTop:
		return u
	case u.Kind() == KTop:
		return t
	case t.Kind() == KBottom || u.Kind() == KBottom:
		return Bottom
	}
	switch t.Kind() {
	case KInt:
		if u.Kind() == KInt {
			switch {
			case t.within(u): // a Phi's meet is most often one of its values
				return u
			case u.within(t):
				return t
			}
			return reduce(min(t.lo, u.lo), max(t.hi, u.hi), t.zeros&u.zeros, t.ones&u.ones)
		}
	case KXCtrl:
		if u.Kind() == KXCtrl || u.Kind() == KCtrl {
			return u
		}
	case KCtrl:
		if u.Kind() == KXCtrl || u.Kind() == KCtrl {
			return Ctrl
		}
	case KTuple:
		if u.Kind() == KTuple && t.Len() == u.Len() {
			return elementwise(t, u, Meet)
		}
	}
	return Bottom
}

// within reports whether the integer type t is a subset of the integer
// type u by its components: its range inside u's, and every bit u knows
// known alike in t. Both reduced (reduce, Const, Int), Meet(t, u) is then
// u and Join(t, u) is t, which reduce would make again.
func (t *Type) within(u Type) bool {
	return u.lo <= t.lo && t.hi <= u.hi && u.zeros&^t.zeros == 0 && u.ones&^t.ones == 0
}

// IsA reports whether t is at or above u in the lattice: every value t
// stands for is also a value of u.
func (t Type) IsA(u Type) bool { return Meet(t, u).Equal(u) }

// String formats t the way the printers show it: Top, Bot, Ctrl, XCtrl,
// int, bool, 42, [0..9], [Ctrl, int].
func (t Type) String() string {
	switch t.Kind() {
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
	case t.Kind() == KBottom:
		return u
	case u.Kind() == KBottom:
		return t
	case t.Kind() == KTop || u.Kind() == KTop:
		return Top
	}
	switch t.Kind() {
	case KInt:
		if u.Kind() == KInt {
			switch {
			case t.lo > u.hi || u.lo > t.hi:
				return Top
			case t.within(u): // a fact that narrows nothing
				return t
			case u.within(t):
				return u
			}
			return reduce(max(t.lo, u.lo), min(t.hi, u.hi), t.zeros|u.zeros, t.ones|u.ones)
		}
	case KXCtrl, KCtrl:
		if u.Kind() == KXCtrl || u.Kind() == KCtrl {
			if t.Kind() == KXCtrl || u.Kind() == KXCtrl {
				return XCtrl
			}
			return Ctrl
		}
	case KTuple:
		if u.Kind() == KTuple && t.Len() == u.Len() {
			return elementwise(t, u, Join)
		}
	}
	return Top
}

// elementwise applies f to the elements of tuples t and u of one length.
// When the result is t or u it returns that tuple itself, allocating
// nothing: IsA meets every If's tuple with its stored type on each check,
// and that meet is nearly always one of the two.
func elementwise(t, u Type, f func(a, b Type) Type) Type {
	isT, isU := true, true
	for i := range t.d.elems {
		e := f(t.Elem(i), u.Elem(i))
		isT = isT && e.Equal(t.Elem(i))
		isU = isU && e.Equal(u.Elem(i))
	}
	switch {
	case isT:
		return t
	case isU:
		return u
	}
	e := make([]Type, t.Len())
	for i := range e {
		e[i] = f(t.Elem(i), u.Elem(i))
	}
	return Type{d: &desc{kind: KTuple, elems: e}}
}
