// Command gensrc writes one generated Simple program (internal/gen, mixed
// shape, KeepLive, as the scaling benchmark makes them) of about -lines
// lines, and the same function in C, for bench/compiletime.sh to time
// son build against gcc -O2 on.
//
// The C (cgen.go) is the same function statement for statement, with
// Simple's semantics: int64_t arithmetic that wraps (build it with
// -fwrapv), division and shifts by small inline functions that do what
// Simple does (a division by zero exits with status 1, MinInt / -1 is
// MinInt, shift counts are taken mod 64), comparison chains evaluating
// each operand once. So gcc cannot drop code as undefined behaviour, and
// both executables print the same result.
//
// Usage: go run ./bench/gensrc [-lines N] [-seed S] -o PREFIX
// writes PREFIX.smp and PREFIX.c.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"son/internal/gen"
)

func main() {
	lines := flag.Int("lines", 10000, "about how many lines the program has")
	seed := flag.Int64("seed", 1, "the generator's seed")
	out := flag.String("o", "", "write `PREFIX`.smp and PREFIX.c")
	flag.Parse()
	if *out == "" || *lines < 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gensrc [-lines N] [-seed S] -o PREFIX")
		os.Exit(2)
	}
	src := program(*seed, *lines)
	if err := os.WriteFile(*out+".smp", []byte(src), 0o666); err != nil {
		fmt.Fprintln(os.Stderr, "gensrc:", err)
		os.Exit(1)
	}
	c, err := toC(src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensrc:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out+".c", []byte(c), 0o666); err != nil {
		fmt.Fprintln(os.Stderr, "gensrc:", err)
		os.Exit(1)
	}
}

// program returns the generated program whose line count is nearest to
// lines, of the sizes tried: the lines per statement vary with the seed, so
// each try guesses the size from the one before.
func program(seed int64, lines int) string {
	best, size := "", lines/2
	for range 8 {
		src := gen.Program(gen.Config{Seed: seed, Size: size, KeepLive: true})
		n := strings.Count(src, "\n")
		if best == "" || abs(n-lines) < abs(strings.Count(best, "\n")-lines) {
			best = src
		}
		if 50*abs(n-lines) <= lines {
			break
		}
		size = max(1, size*lines/n)
	}
	return best
}

func abs(x int) int { return max(x, -x) }
