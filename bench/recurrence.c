// A linear congruential recurrence with divisions.
// Same algorithm as bench/recurrence.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t x = 1;
    int64_t s = 0;
    for (int64_t i = 1; i <= arg; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        s += x / (i % 1000 + 1) + s % 7;
    }
    printf("%lld\n", (long long)s);
    return 0;
}
