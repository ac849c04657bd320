#include <ntt.h>
#include <stdio.h>

int main(void)
{
    /* c = a * b mod p for any p in [2, 2^63): NTT primes go direct, others through CRT. */
    const uint64_t a[4] = {4, 1, 5, 2}, b[4] = {1, 5, 5, 4};
    uint64_t c[7];
    ntt_status s = ntt_polymul_mod(c, a, 4, b, 4, 7340033, NTT_BACKEND_AUTO);
    if (s != NTT_OK) {
        fprintf(stderr, "ntt_polymul_mod: %s: %s\n", ntt_status_string(s), ntt_error_detail());
        return 1;
    }
    for (int i = 0; i < 7; i++) printf("%llu ", (unsigned long long)c[i]);
    printf("\n"); /* 4 21 30 48 39 30 8 */
    return c[6] == 8 ? 0 : 1;
}
