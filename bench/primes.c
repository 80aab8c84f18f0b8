// Counts the primes up to arg by trial division.
// Same algorithm as bench/primes.smp; int64_t arithmetic
// that wraps, as Simple's does: build with -fwrapv (bench/run.sh does).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int64_t arg = argc > 1 ? strtoll(argv[1], 0, 10) : 0;
    int64_t s = 0;
    for (int64_t n = 2; n <= arg; n++) {
        int prime = 1;
        for (int64_t d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                prime = 0;
                break;
            }
        }
        if (prime)
            s++;
    }
    printf("%lld\n", (long long)s);
    return 0;
}
