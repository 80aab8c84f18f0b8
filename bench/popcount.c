// Sums one bits, clearing the lowest at each step.
// Same algorithm as bench/popcount.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t s = 0;
    for (int64_t i = 1; i <= arg; i++) {
        int64_t x = i * (int64_t)0x9E3779B97F4A7C15ULL;
        while (x != 0) {
            x = x & (x - 1);
            s++;
        }
    }
    printf("%lld\n", (long long)s);
    return 0;
}
