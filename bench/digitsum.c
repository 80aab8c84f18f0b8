// Sums the decimal digits of every number in 1..arg.
// Same algorithm as bench/digitsum.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t s = 0;
    for (int64_t i = 1; i <= arg; i++) {
        int64_t n = i;
        while (n != 0) {
            s += n % 10;
            n = n / 10;
        }
    }
    printf("%lld\n", (long long)s);
    return 0;
}
