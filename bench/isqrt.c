// Sums integer square roots by Newton's method.
// Same algorithm as bench/isqrt.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t s = 0;
    for (int64_t n = 1; n <= arg; n++) {
        int64_t x = n;
        int64_t y = (x + 1) / 2;
        while (y < x) {
            x = y;
            y = (x + n / x) / 2;
        }
        s += x;
    }
    printf("%lld\n", (long long)s);
    return 0;
}
