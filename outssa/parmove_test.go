package outssa

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"son/cfg"
)

// moves parses "1=2 3=#7": v1 gets v2, v3 gets the constant 7.
func moves(t *testing.T, text string) []Move {
	t.Helper()
	var ms []Move
	for _, f := range strings.Fields(text) {
		d, s, _ := strings.Cut(f, "=")
		dst, err := strconv.Atoi(d)
		if err != nil {
			t.Fatalf("bad move %q", f)
		}
		m := Move{Dst: cfg.Reg(dst)}
		if k, ok := strings.CutPrefix(s, "#"); ok {
			m.Const, err = strconv.ParseInt(k, 10, 64)
		} else {
			var src int
			src, err = strconv.Atoi(s)
			m.Src = cfg.Reg(src)
		}
		if err != nil {
			t.Fatalf("bad move %q", f)
		}
		ms = append(ms, m)
	}
	return ms
}

// text writes moves as moves parses them.
func text(ms []Move) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		if m.Src == 0 {
			s[i] = fmt.Sprintf("%d=#%d", m.Dst, m.Const)
		} else {
			s[i] = fmt.Sprintf("%d=%d", m.Dst, m.Src)
		}
	}
	return strings.Join(s, " ")
}

// parallel runs par at once on the registers regs; sequential runs seq one
// move after the other.
func parallel(par []Move, regs map[cfg.Reg]int64) map[cfg.Reg]int64 {
	out := make(map[cfg.Reg]int64, len(regs))
	for r, v := range regs {
		out[r] = v
	}
	for _, m := range par {
		if m.Src == 0 {
			out[m.Dst] = m.Const
		} else {
			out[m.Dst] = regs[m.Src]
		}
	}
	return out
}

func sequential(seq []Move, regs map[cfg.Reg]int64) map[cfg.Reg]int64 {
	out := make(map[cfg.Reg]int64, len(regs))
	for r, v := range regs {
		out[r] = v
	}
	for _, m := range seq {
		if m.Src == 0 {
			out[m.Dst] = m.Const
		} else {
			out[m.Dst] = out[m.Src]
		}
	}
	return out
}

// agree reports the first register, the temporary excepted, on which the
// parallel and the sequential moves disagree, starting from register r
// holding 100*r.
func agree(par, seq []Move, tmp cfg.Reg) error {
	regs := map[cfg.Reg]int64{}
	for _, m := range append(append([]Move(nil), par...), seq...) {
		regs[m.Dst], regs[m.Src] = 100*int64(m.Dst), 100*int64(m.Src)
	}
	delete(regs, 0)
	want, got := parallel(par, regs), sequential(seq, regs)
	for r, v := range want {
		if r != tmp && got[r] != v {
			return fmt.Errorf("v%d = %d, want %d", r, got[r], v)
		}
	}
	return nil
}

// TestSequentialize: the exact sequence for each shape of parallel move,
// with 9 as the temporary, and the number of cycles broken.
func TestSequentialize(t *testing.T) {
	for _, c := range []struct {
		name, par, want string
		cycles          int
	}{
		{"empty", "", "", 0},
		{"self-moves dropped", "1=1 2=2", "", 0},
		{"independent", "1=2 3=4", "1=2 3=4", 0},
		{"chain: each read before it is overwritten", "1=2 2=3 3=4", "1=2 2=3 3=4", 0},
		{"chain given backwards", "3=4 2=3 1=2", "1=2 2=3 3=4", 0},
		{"swap", "1=2 2=1", "9=2 2=1 1=9", 1},
		{"3-cycle", "1=2 2=3 3=1", "9=2 2=3 3=1 1=9", 1},
		{"4-cycle", "1=2 2=3 3=4 4=1", "9=2 2=3 3=4 4=1 1=9", 1},
		{"two swaps, one temporary", "1=2 2=1 3=4 4=3", "9=2 2=1 1=9 9=4 4=3 3=9", 2},
		{"shared source", "1=3 2=3 4=3", "1=3 2=3 4=3", 0},
		{"shared source in a cycle", "1=2 2=1 3=1 4=2", "9=2 4=2 2=1 3=1 1=9", 1},
		{"a tree hanging off a cycle", "1=2 2=1 5=1 6=5", "9=2 2=1 6=5 5=1 1=9", 1},
		{"constants last", "1=#7 2=1 3=#-1", "2=1 1=#7 3=#-1", 0},
		{"constant into a cycle's register", "1=2 2=#5", "1=2 2=#5", 0},
		{"self-move among a cycle", "1=2 2=1 3=3", "9=2 2=1 1=9", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			par := moves(t, c.par)
			seq, cycles, err := Sequentialize(par, 9)
			if err != nil {
				t.Fatal(err)
			}
			if got := text(seq); got != c.want || cycles != c.cycles {
				t.Errorf("Sequentialize(%s) = %q, %d cycles; want %q, %d", c.par, got, cycles, c.want, c.cycles)
			}
			if err := agree(par, seq, 9); err != nil {
				t.Errorf("Sequentialize(%s) = %q: %v", c.par, text(seq), err)
			}
		})
	}
}

// TestSequentializeErrors: what is not a parallel move is refused.
func TestSequentializeErrors(t *testing.T) {
	for _, c := range []struct {
		par  []Move
		tmp  cfg.Reg
		want string
	}{
		{[]Move{{Dst: 1, Src: 2}, {Dst: 1, Src: 3}}, 9, "outssa: v1 is the destination of two moves of the parallel move"},
		// The first move at fault, in order, is reported.
		{[]Move{{Dst: 4, Src: 2}, {Dst: 3, Src: 2}, {Dst: 4, Src: 3}, {Dst: 3, Src: 5}, {Dst: 0, Src: 2}}, 9, "outssa: v4 is the destination of two moves of the parallel move"},
		{[]Move{{Dst: 1, Src: 2}, {Dst: 0, Src: 2}, {Dst: 1, Src: 3}}, 9, "outssa: move v0 = Copy v2: registers must be > 0"},
		{[]Move{{Dst: 1, Src: 9}}, 9, "outssa: move v1 = Copy v9 mentions the temporary v9"},
		{[]Move{{Dst: 0, Src: 2}}, 9, "outssa: move v0 = Copy v2: registers must be > 0"},
		{nil, 0, "outssa: temporary v0 is not a register > 0"},
	} {
		_, _, err := Sequentialize(c.par, c.tmp)
		if err == nil || err.Error() != c.want {
			t.Errorf("Sequentialize(%v) = %v, want %q", c.par, err, c.want)
		}
	}
}

// TestSequentializeRandom: random parallel moves over few registers (so
// that cycles and shared sources are common), and some over more (long
// cycles, many readers of a register), agree with their sequences, and
// take one extra move per cycle, no more.
func TestSequentializeRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := range 6000 {
		regs := 8
		if iter%6 == 0 {
			regs = 19
		}
		n := 1 + rng.Intn(regs)
		var par []Move
		for _, d := range rng.Perm(regs)[:rng.Intn(n+1)] {
			m := Move{Dst: cfg.Reg(d + 1)}
			if rng.Intn(6) == 0 {
				m.Const = rng.Int63n(100)
			} else {
				m.Src = cfg.Reg(1 + rng.Intn(regs))
			}
			par = append(par, m)
		}
		seq, cycles, err := Sequentialize(par, 20)
		if err != nil {
			t.Fatal(err)
		}
		if err := agree(par, seq, 20); err != nil {
			t.Fatalf("Sequentialize(%s) = %s: %v", text(par), text(seq), err)
		}
		real := 0
		for _, m := range par {
			if m.Src != m.Dst {
				real++
			}
		}
		if len(seq) != real+cycles {
			t.Fatalf("Sequentialize(%s) = %s: %d moves for %d and %d cycles", text(par), text(seq), len(seq), real, cycles)
		}
	}
}
