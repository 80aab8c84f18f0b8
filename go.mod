module son

go 1.24.0

require golang.org/x/arch v0.24.0

require github.com/crillab/gophersat v1.4.0
