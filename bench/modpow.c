// Sums modular powers by square and multiply.
// Same algorithm as bench/modpow.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t m = 1000000007;
    int64_t s = 0;
    for (int64_t i = 1; i <= arg; i++) {
        int64_t b = i % m;
        int64_t e = i + arg;
        int64_t r = 1;
        while (e > 0) {
            if (e & 1)
                r = r * b % m;
            b = b * b % m;
            e = e >> 1;
        }
        s = (s + r) % m;
    }
    printf("%lld\n", (long long)s);
    return 0;
}
