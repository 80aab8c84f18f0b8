// Sums gcds by Euclid's algorithm.
// Same algorithm as bench/gcdsum.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t s = 0;
    int64_t m = 3 * arg + 1;
    for (int64_t i = 1; i <= arg; i++) {
        int64_t a = i;
        int64_t b = m;
        while (b != 0) {
            int64_t t = a % b;
            a = b;
            b = t;
        }
        s += a;
        a = i * i + 1;
        b = i + 7;
        while (b != 0) {
            int64_t t = a % b;
            a = b;
            b = t;
        }
        s += a;
    }
    printf("%lld\n", (long long)s);
    return 0;
}
