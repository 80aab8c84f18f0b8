package compile

import (
	"fmt"
	"testing"

	"son/gvn"
	"son/outssa"
)

// BenchmarkCfgPasses times the parts of the gvn and outssa passes that
// leave their input alone, again and again on BenchmarkScaling's programs:
// gvn's numbering and its validator (gvn.Number, gvn.Validate, which the
// pass always runs, before Apply) on the function gcm made, and
// outssa.Translate on the one gvn left. No function is made again between
// runs, so many runs fit in the time Scaling/gvn takes for a few, for
// levers of these passes alone (the functions stay in the caches more
// than in the pass).
func BenchmarkCfgPasses(b *testing.B) {
	for _, target := range scalingNodes[1:3] {
		src, n := []byte(nil), 0
		for _, pass := range []string{"gvn", "outssa"} {
			b.Run(fmt.Sprintf("%s/%d", pass, target), func(b *testing.B) {
				if src == nil {
					src, n = scalingProgram(b, target)
				}
				stop := "gcm"
				if pass == "outssa" {
					stop = "gvn"
				}
				u, err := Compile("gen.smp", src, Options{StopAfter: stop})
				if err != nil {
					b.Fatal(err)
				}
				f := u.Func
				benchRepeated(b, n, func() error {
					if pass == "outssa" {
						_, err := outssa.Translate(f)
						return err
					}
					p, err := gvn.Number(f)
					if err == nil {
						_, err = gvn.Validate(f, p)
					}
					return err
				})
			})
		}
	}
}
