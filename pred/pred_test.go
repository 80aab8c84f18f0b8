package pred

import (
	"testing"

	"son/cfg"
)

func TestEvalThreeValued(t *testing.T) {
	// r1 = 5 defined and true, r2 = 0 defined and false, r3 undefined.
	env := func(r cfg.Reg) (int64, bool) {
		switch r {
		case 1:
			return 5, true
		case 2:
			return 0, true
		}
		return 0, false
	}
	a, b, u := Cond(1), Cond(2), Cond(3)
	tests := []struct {
		p    *Pred
		want Val
	}{
		{a, V1}, {b, V0}, {u, VHalf},
		{NewNot(a), V0}, {NewNot(u), VHalf},
		{NewAnd(a, u), VHalf}, {NewAnd(b, u), V0}, {NewAnd(), V1},
		{NewOr(a, u), V1}, {NewOr(b, u), VHalf}, {NewOr(), V0},
		{Const(Undef), VHalf}, {NewOr(NewAnd(a, NewNot(b)), u), V1},
	}
	for _, tt := range tests {
		if got := Eval(tt.p, env); got != tt.want {
			t.Errorf("Eval(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	p := NewOr(NewAnd(Cond(1), NewNot(Cond(12))), Const(False))
	if got, want := p.String(), "(r1 ∧ ¬(r12)) ∨ False"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := Size(p); got != 6 {
		t.Errorf("Size = %d, want 6", got)
	}
}
