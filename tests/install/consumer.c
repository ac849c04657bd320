/* A program built against an installed ntt, through pkg-config and through
   find_package(ntt): it must compile, link and compute a known product. */
#include <ntt.h>
#include <stdio.h>

int main(void)
{
    const uint64_t a[4] = {4, 1, 5, 2}, b[4] = {1, 5, 5, 4}, want[7] = {4, 21, 30, 48, 39, 30, 8};
    uint64_t c[7];
    ntt_status s = ntt_polymul_mod(c, a, 4, b, 4, 7340033, NTT_BACKEND_AUTO);
    if (s != NTT_OK) {
        fprintf(stderr, "ntt_polymul_mod: %s\n", ntt_status_string(s));
        return 1;
    }
    for (int i = 0; i < 7; i++)
        if (c[i] != want[i]) {
            fprintf(stderr, "c[%d] = %llu, want %llu\n", i, (unsigned long long)c[i],
                    (unsigned long long)want[i]);
            return 1;
        }
    ntt_cache_clear();
    puts("ok");
    return 0;
}
