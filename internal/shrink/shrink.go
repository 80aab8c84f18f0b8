// Package shrink reduces a failing Simple program to a small one that
// still fails: a test-case reducer in the manner of delta debugging, but on
// the syntax tree rather than on lines, so that every candidate it tries is
// a program that parses and resolves.
//
// Shrink starts from the failing source and tries edits one at a time,
// greedily: an edit is kept when the program it gives still fails and is
// smaller than the best so far (shorter; or as long, with fewer uses of
// variables or smaller integer literals); passes over all the edits repeat
// until none helps. The edits, tried in this order in every pass:
//
//  1. delete statements from a statement list (the program's body or any
//     block): first runs of many statements, halving the run length down
//     to single statements, as delta debugging does; empty the body of an
//     if, else or loop (it becomes {}); delete one declarator of a
//     declaration of several;
//  2. replace an if by its then-branch or by its else-branch, or drop its
//     else;
//  3. replace a while by its body, a for by its body (in a block after the
//     for's Init, which keeps its scope), or a loop's condition by 0;
//  4. splice a block into the statement list around it, or replace a body
//     block of one statement by that statement; replace an assignment, a
//     return or a declaration of one variable by its expression alone
//     (x = e; return e; int x = e; become e;);
//  5. replace an expression by 0, 1, arg, or one of its own operands (of a
//     binary, unary, chained or conditional expression), outermost first;
//  6. replace an integer literal by a smaller one: 0, 1, half of it.
//
// Edit sites are numbered by a deterministic walk of the tree of the best
// program, in source order. The k-th edit is applied in place to that
// tree, the tree printed with syntax.Format, and the edit undone; the
// printed candidate is parsed again, and one that does not parse or
// resolve (a use of a deleted variable, a break out of its loop,
// unreachable code) is skipped without calling the predicate. When an edit
// is kept, the new best program is parsed afresh and the walk goes on from
// the same index.
//
// The work is bounded so that shrinking always ends, and in reasonable
// time: at most MaxCalls calls of the predicate (a candidate already tried
// is remembered and never tried twice), and at most MaxBytes bytes of
// candidate programs printed in all, counting those skipped without a call
// (about 1,600 candidates of a 2,000-statement program of 160 kB, 65,000 of
// a 50-statement one). When the budget runs out, Shrink returns the best
// program found so far, which still fails.
package shrink

import (
	"crypto/sha256"
	"math"

	"son/syntax"
)

const (
	// MaxCalls bounds the calls of the predicate by one Shrink, the first
	// one (on the input) included.
	MaxCalls = 4000
	// MaxBytes bounds the total size of the edited programs Shrink
	// prints and considers, including those it skips without calling the
	// predicate (they do not parse, or are not smaller): each costs a
	// print and a parse.
	MaxBytes = 256 << 20
)

// Stats describes the work of one shrink.
type Stats struct {
	Calls      int // calls of the predicate
	Candidates int // edited programs considered
	Bytes      int // their total size
	Kept       int // edits kept
	Passes     int // passes over all the edits
}

// Shrink returns a program smaller than src on which fails still holds,
// or src itself if src does not fail, does not parse, or cannot be made
// smaller. The result is in the canonical layout of syntax.Format (its
// comments are gone). fails must be deterministic; Shrink does not catch
// its panics.
func Shrink(src string, fails func(src string) bool) string {
	out, _ := ShrinkStats(src, fails)
	return out
}

// ShrinkStats is Shrink that also reports the work done.
func ShrinkStats(src string, fails func(src string) bool) (string, Stats) {
	s := &shrinker{fails: fails, tried: map[[32]byte]bool{}}
	if !s.call(src) {
		return src, s.st
	}
	f, err := parse(src)
	if err != nil {
		return src, s.st
	}
	s.best, s.bestCost = src, costOf(src, f)
	// Start from the canonical layout, which every candidate has, even if
	// it is longer than src (the input's own layout may be terser):
	// candidates are then compared with a program of their own layout.
	if canon := syntax.Format(f); canon != src && s.call(canon) {
		s.best, s.bestCost = canon, costOf(canon, f)
	}

	for s.budgetLeft() {
		s.st.Passes++
		kept := s.st.Kept
		for _, p := range s.passes() {
			s.run(p)
		}
		if s.st.Kept == kept {
			break
		}
	}
	if len(s.best) > len(src) {
		return src, s.st // only the layout changed, and it grew
	}
	return s.best, s.st
}

// cost orders programs: shorter is smaller; at equal length, fewer uses of
// variables other than arg (so that replacing x by 0 or v12 by arg counts
// as progress), then smaller literals (7 by 3). The order is well founded,
// which with the budget makes every shrink end.
type cost struct {
	bytes int
	names int    // uses of variables other than arg
	lits  uint64 // sum of the literals' magnitudes, saturated
}

func (c cost) less(d cost) bool {
	if c.bytes != d.bytes {
		return c.bytes < d.bytes
	}
	if c.names != d.names {
		return c.names < d.names
	}
	return c.lits < d.lits
}

// costOf is the cost of src, whose tree is f.
func costOf(src string, f *syntax.File) cost {
	c := cost{bytes: len(src)}
	walkExprs(f.Body, func(x syntax.Expr) {
		switch x := x.(type) {
		case *syntax.Name:
			if x.Name != "arg" {
				c.names++
			}
		case *syntax.IntLit:
			m := uint64(x.Value)
			if x.Value < 0 {
				m = -m
			}
			if c.lits += m; c.lits < m {
				c.lits = math.MaxUint64
			}
		}
	})
	return c
}

type shrinker struct {
	fails    func(string) bool
	best     string
	bestCost cost
	tried    map[[32]byte]bool // sha256 of a candidate → whether it failed
	st       Stats
}

func (s *shrinker) budgetLeft() bool {
	return s.st.Calls < MaxCalls && s.st.Bytes < MaxBytes
}

// call runs the predicate on src, or recalls its answer if src was tried
// before. Past the budget, a program not tried before counts as not
// failing.
func (s *shrinker) call(src string) bool {
	key := sha256.Sum256([]byte(src))
	if r, ok := s.tried[key]; ok {
		return r
	}
	if s.st.Calls >= MaxCalls {
		return false
	}
	s.st.Calls++
	r := s.fails(src)
	s.tried[key] = r
	return r
}

// try makes cand the best program if it is smaller, parses, and fails.
func (s *shrinker) try(cand string) bool {
	s.st.Candidates++
	s.st.Bytes += len(cand)
	if len(cand) > s.bestCost.bytes {
		return false
	}
	f, err := parse(cand)
	if err != nil {
		return false
	}
	c := costOf(cand, f)
	if !c.less(s.bestCost) || !s.call(cand) {
		return false
	}
	s.best, s.bestCost = cand, c
	s.st.Kept++
	return true
}

// pass is one family of edits: cat, and for deletions the length of the
// runs of statements deleted.
type pass struct {
	cat category
	run int
}

type category int

const (
	catDelete category = iota
	catIf
	catLoop
	catFlatten
	catExpr
	catLit
)

// passes lists the edit families of one pass over the current best
// program: deletions of runs of statements, from half the longest list
// down to single statements, then the other edits in order.
func (s *shrinker) passes() []pass {
	f, err := parse(s.best)
	if err != nil {
		return nil // cannot happen: the best program always parses
	}
	longest := 0
	walkLists(f.Body, func(l []syntax.Stmt) { longest = max(longest, len(l)) })
	var ps []pass
	for n := 1; n <= longest/2; n *= 2 {
		ps = append([]pass{{catDelete, n}}, ps...)
	}
	if len(ps) == 0 {
		ps = append(ps, pass{catDelete, 1})
	}
	for _, c := range []category{catIf, catLoop, catFlatten, catExpr, catLit} {
		ps = append(ps, pass{cat: c})
	}
	return ps
}

// run tries every edit of family p on the best program, in order. After
// an edit is kept, the sites are those of the new best program and the
// walk goes on at the same index, which now names the site after the
// edited one (or a site inside the edited code).
func (s *shrinker) run(p pass) {
	f, err := parse(s.best)
	if err != nil {
		return
	}
	sites := collect(f, p)
	for k := 0; k < len(sites) && s.budgetLeft(); {
		undo := sites[k]()
		cand := syntax.Format(f)
		undo()
		if !s.try(cand) {
			k++
			continue
		}
		if f, err = parse(s.best); err != nil {
			return
		}
		sites = collect(f, p)
	}
}

func parse(src string) (*syntax.File, error) {
	return syntax.Parse("shrink.smp", []byte(src))
}
