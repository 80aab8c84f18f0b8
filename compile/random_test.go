package compile

import (
	"os"
	"strconv"
	"testing"

	"son/internal/gen"
)

// TestRandomPrograms runs generated programs through every level and
// requires the same result everywhere, with every check on. SON_RANDOM=n
// runs n programs instead of the default few hundred.
func TestRandomPrograms(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	if s := os.Getenv("SON_RANDOM"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("SON_RANDOM=%q: want a number of programs", s)
		}
		n = v
	}
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := int64(0); seed < int64(n); seed++ {
		src := gen.Program(gen.Config{Seed: seed, Size: 10 + int(seed%40), Shape: shapes[seed%4]})
		checkLevelsAgree(t, []byte(src), []int64{0, 1, -7, seed}, 1_000_000)
	}
}
