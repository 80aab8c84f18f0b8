package compile

import (
	"strconv"
	"testing"

	"son/internal/gen"
)

func TestZZBig(t *testing.T) {
	shapes := []gen.Shape{gen.Mixed, gen.Straight, gen.Branchy, gen.Loopy}
	for seed := 2400; seed < 4400; seed++ {
		src := gen.Program(gen.Config{Seed: int64(seed), Size: 50 + seed%300, Shape: shapes[seed%4], KeepLive: seed%2 == 0})
		u, err := Compile("gen.smp", []byte(src), Options{})
		if err != nil {
			continue
		}
		checkSelection(t, "seed "+strconv.Itoa(seed), u)
	}
}
