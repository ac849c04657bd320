/*
 * test_api: status strings; names of backends, modmul kinds and variants
 * (round trips, case-insensitivity, NTT_EINVAL for unknown names);
 * backend availability and the NTT_BACKEND environment override of AUTO;
 * unavailable backends answer NTT_EUNSUPPORTED; available non-scalar
 * backends agree bit for bit with the scalar one; plan queries;
 * ntt_plan_destroy(NULL); ntt_coeffs_fwrite's format.
 */
#include "test_common.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void test_status_strings(void)
{
    const char *seen[9];
    for (int s = 0; s <= 8; s++) {
        const char *t = ntt_status_string((ntt_status)s);
        CHECK(t != NULL, "ntt_status_string(%d) is NULL", s);
        if (!t) t = "";
        CHECK(t[0] != '\0', "ntt_status_string(%d) is empty", s);
        for (int k = 0; k < s; k++)
            CHECK(strcmp(seen[k], t) != 0, "ntt_status_string(%d) == ntt_status_string(%d) = \"%s\"", s, k, t);
        seen[s] = t;
    }
    static const int unknown[] = {9, 10, 99, -1, 1 << 30};
    for (size_t i = 0; i < COUNT(unknown); i++) {
        const char *t = ntt_status_string((ntt_status)unknown[i]);
        CHECK(t != NULL && t[0] != '\0', "ntt_status_string(%d) is NULL or empty", unknown[i]);
    }
}

static void upper(char *d, const char *s)
{
    for (; *s; s++, d++) *d = (*s >= 'a' && *s <= 'z') ? (char)(*s - 'a' + 'A') : *s;
    *d = '\0';
}

static void test_names(void)
{
    static const char *const bn[] = {"auto", "scalar", "avx2", "openmp", "cuda", "avx512"};
    static const char *const mn[] = {"default", "naive", "barrett", "montgomery", "shoup"};
    static const char *const vn[] = {"fast", "baseline", "gpu-table", "gpu-async", "gpu-shared"};
    char up[64];
    for (int i = 0; i < NTT_BACKEND_COUNT; i++) {
        const char *name = ntt_backend_name((ntt_backend)i);
        CHECK(name && strcmp(name, bn[i]) == 0, "ntt_backend_name(%d) = \"%s\", expected \"%s\"", i, name ? name : "(null)", bn[i]);
        ntt_backend b = (ntt_backend)77;
        CHECK_STATUS(NTT_OK, ntt_backend_from_name(bn[i], &b), "ntt_backend_from_name(\"%s\")", bn[i]);
        CHECK_EQ(i, b, "ntt_backend_from_name(\"%s\")", bn[i]);
        upper(up, bn[i]);
        b = (ntt_backend)77;
        CHECK_STATUS(NTT_OK, ntt_backend_from_name(up, &b), "ntt_backend_from_name(\"%s\")", up);
        CHECK_EQ(i, b, "ntt_backend_from_name(\"%s\") (case-insensitive)", up);
    }
    for (int i = 0; i < 5; i++) {
        const char *name = ntt_modmul_name((ntt_modmul)i);
        CHECK(name && strcmp(name, mn[i]) == 0, "ntt_modmul_name(%d) = \"%s\", expected \"%s\"", i, name ? name : "(null)", mn[i]);
        ntt_modmul m = (ntt_modmul)77;
        CHECK_STATUS(NTT_OK, ntt_modmul_from_name(mn[i], &m), "ntt_modmul_from_name(\"%s\")", mn[i]);
        CHECK_EQ(i, m, "ntt_modmul_from_name(\"%s\")", mn[i]);
        upper(up, mn[i]);
        m = (ntt_modmul)77;
        CHECK_STATUS(NTT_OK, ntt_modmul_from_name(up, &m), "ntt_modmul_from_name(\"%s\")", up);
        CHECK_EQ(i, m, "ntt_modmul_from_name(\"%s\") (case-insensitive)", up);

        name = ntt_variant_name((ntt_variant)i);
        CHECK(name && strcmp(name, vn[i]) == 0, "ntt_variant_name(%d) = \"%s\", expected \"%s\"", i, name ? name : "(null)", vn[i]);
        ntt_variant v = (ntt_variant)77;
        CHECK_STATUS(NTT_OK, ntt_variant_from_name(vn[i], &v), "ntt_variant_from_name(\"%s\")", vn[i]);
        CHECK_EQ(i, v, "ntt_variant_from_name(\"%s\")", vn[i]);
        upper(up, vn[i]);
        v = (ntt_variant)77;
        CHECK_STATUS(NTT_OK, ntt_variant_from_name(up, &v), "ntt_variant_from_name(\"%s\")", up);
        CHECK_EQ(i, v, "ntt_variant_from_name(\"%s\") (case-insensitive)", up);
    }
    /* out-of-range values have a name too */
    static const int bad[] = {NTT_BACKEND_COUNT, 99, -1};
    for (size_t i = 0; i < COUNT(bad); i++) {
        const char *b = ntt_backend_name((ntt_backend)bad[i]), *m = ntt_modmul_name((ntt_modmul)bad[i]),
                   *v = ntt_variant_name((ntt_variant)bad[i]);
        CHECK(b && strcmp(b, "unknown") == 0, "ntt_backend_name(%d) = \"%s\"", bad[i], b ? b : "(null)");
        CHECK(m && strcmp(m, "unknown") == 0, "ntt_modmul_name(%d) = \"%s\"", bad[i], m ? m : "(null)");
        CHECK(v && strcmp(v, "unknown") == 0, "ntt_variant_name(%d) = \"%s\"", bad[i], v ? v : "(null)");
    }
    /* unknown names */
    static const char *const junk[] = {"", "unknown", "scalar ", " scalar", "scalarx", "gpu", "avx", "naiv", "gpu_table",
                                       "fastest", "mont", "0", "1"};
    for (size_t i = 0; i < COUNT(junk); i++) {
        ntt_backend b = (ntt_backend)77;
        ntt_modmul m = (ntt_modmul)77;
        ntt_variant v = (ntt_variant)77;
        CHECK_STATUS(NTT_EINVAL, ntt_backend_from_name(junk[i], &b), "ntt_backend_from_name(\"%s\")", junk[i]);
        CHECK_EQ(77, b, "ntt_backend_from_name(\"%s\") wrote its output on failure", junk[i]);
        CHECK_STATUS(NTT_EINVAL, ntt_modmul_from_name(junk[i], &m), "ntt_modmul_from_name(\"%s\")", junk[i]);
        CHECK_EQ(77, m, "ntt_modmul_from_name(\"%s\") wrote its output on failure", junk[i]);
        CHECK_STATUS(NTT_EINVAL, ntt_variant_from_name(junk[i], &v), "ntt_variant_from_name(\"%s\")", junk[i]);
        CHECK_EQ(77, v, "ntt_variant_from_name(\"%s\") wrote its output on failure", junk[i]);
    }
    ntt_backend b;
    ntt_modmul m;
    ntt_variant v;
    CHECK_STATUS(NTT_EINVAL, ntt_backend_from_name(NULL, &b), "ntt_backend_from_name(NULL)");
    CHECK_STATUS(NTT_EINVAL, ntt_modmul_from_name(NULL, &m), "ntt_modmul_from_name(NULL)");
    CHECK_STATUS(NTT_EINVAL, ntt_variant_from_name(NULL, &v), "ntt_variant_from_name(NULL)");
    CHECK_STATUS(NTT_EINVAL, ntt_backend_from_name("scalar", NULL), "ntt_backend_from_name(\"scalar\", NULL)");
    CHECK_STATUS(NTT_EINVAL, ntt_modmul_from_name("naive", NULL), "ntt_modmul_from_name(\"naive\", NULL)");
    CHECK_STATUS(NTT_EINVAL, ntt_variant_from_name("fast", NULL), "ntt_variant_from_name(\"fast\", NULL)");
}

/* ---- backends ------------------------------------------------------------------------- */

static void check_backend_against_scalar(ntt_backend be)
{
    /* plan-level products and ntt_polymul_mod, bit for bit */
    static const struct { ntt_width w; uint64_t p; } P[] = {{NTT_U32, 998244353}, {NTT_U64, 4611685941117976577ull}};
    for (size_t k = 0; k < COUNT(P); k++) {
        for (unsigned logn = 1; logn <= 12; logn += 1) {
            const size_t n = (size_t)1 << logn;
            ntt_plan *ps = NULL, *pb = NULL;
            test_opts o = {0};
            CHECK_STATUS(NTT_OK, test_plan_create(&ps, n, P[k].p, P[k].w, NTT_BACKEND_SCALAR, &o), "scalar plan");
            ntt_status s = test_plan_create(&pb, n, P[k].p, P[k].w, be, &o);
            CHECK_STATUS(NTT_OK, s, "%s plan n=%zu", ntt_backend_name(be), n);
            if (s == NTT_OK && ps) {
                CHECK_EQ(be, ntt_plan_backend(pb), "ntt_plan_backend");
                uint64_t *a = xmalloc(n * 8), *b = xmalloc(n * 8), *c1 = xmalloc(n * 8), *c2 = xmalloc(n * 8);
                rnd_fill64(a, n, P[k].p);
                rnd_fill64(b, n, P[k].p);
                if (P[k].w == NTT_U64) {
                    CHECK_STATUS(NTT_OK, ntt_polymul_u64(ps, c1, a, b), "scalar polymul");
                    CHECK_STATUS(NTT_OK, ntt_polymul_u64(pb, c2, a, b), "%s polymul", ntt_backend_name(be));
                    CHECK_ARR64(c1, c2, n, "%s polymul vs scalar n=%zu", ntt_backend_name(be), n);
                    memcpy(c1, a, n * 8);
                    memcpy(c2, a, n * 8);
                    CHECK_STATUS(NTT_OK, ntt_forward_u64(ps, c1), "scalar forward");
                    CHECK_STATUS(NTT_OK, ntt_forward_u64(pb, c2), "%s forward", ntt_backend_name(be));
                    CHECK_ARR64(c1, c2, n, "%s forward vs scalar n=%zu", ntt_backend_name(be), n);
                } else {
                    uint32_t *A = xmalloc(n * 4), *B = xmalloc(n * 4), *C1 = xmalloc(n * 4), *C2 = xmalloc(n * 4);
                    for (size_t i = 0; i < n; i++) A[i] = (uint32_t)a[i], B[i] = (uint32_t)b[i];
                    CHECK_STATUS(NTT_OK, ntt_polymul_u32(ps, C1, A, B), "scalar polymul");
                    CHECK_STATUS(NTT_OK, ntt_polymul_u32(pb, C2, A, B), "%s polymul", ntt_backend_name(be));
                    CHECK_ARR32(C1, C2, n, "%s polymul vs scalar n=%zu", ntt_backend_name(be), n);
                    memcpy(C1, A, n * 4);
                    memcpy(C2, A, n * 4);
                    CHECK_STATUS(NTT_OK, ntt_forward_u32(ps, C1), "scalar forward");
                    CHECK_STATUS(NTT_OK, ntt_forward_u32(pb, C2), "%s forward", ntt_backend_name(be));
                    CHECK_ARR32(C1, C2, n, "%s forward vs scalar n=%zu", ntt_backend_name(be), n);
                    free(A), free(B), free(C1), free(C2);
                }
                free(a), free(b), free(c1), free(c2);
            }
            ntt_plan_destroy(ps);
            ntt_plan_destroy(pb);
        }
    }
    uint64_t a[300], b[200], c1[499], c2[499];
    rnd_fill64(a, 300, 1000000007);
    rnd_fill64(b, 200, 1000000007);
    CHECK_STATUS(NTT_OK, ntt_polymul_mod(c1, a, 300, b, 200, 1000000007, NTT_BACKEND_SCALAR), "scalar polymul_mod");
    CHECK_STATUS(NTT_OK, ntt_polymul_mod(c2, a, 300, b, 200, 1000000007, be), "%s polymul_mod", ntt_backend_name(be));
    CHECK_ARR64(c1, c2, 499, "%s ntt_polymul_mod vs scalar", ntt_backend_name(be));
}

static void test_backends(void)
{
    CHECK_EQ(1, ntt_backend_available(NTT_BACKEND_AUTO), "ntt_backend_available(AUTO)");
    CHECK_EQ(1, ntt_backend_available(NTT_BACKEND_SCALAR), "ntt_backend_available(SCALAR)");
    CHECK_EQ(0, ntt_backend_available((ntt_backend)99), "ntt_backend_available(99)");
    CHECK_EQ(0, ntt_backend_available((ntt_backend)NTT_BACKEND_COUNT), "ntt_backend_available(NTT_BACKEND_COUNT)");
    int unavailable = 0;
    for (int i = NTT_BACKEND_AVX2; i < NTT_BACKEND_COUNT; i++) {
        const ntt_backend be = (ntt_backend)i;
        int av = ntt_backend_available(be);
        CHECK(av == 0 || av == 1, "ntt_backend_available(%s) = %d", ntt_backend_name(be), av);
        printf("backend %s: %savailable\n", ntt_backend_name(be), av ? "" : "not ");
        if (av) {
            check_backend_against_scalar(be);
            continue;
        }
        unavailable++;
        ntt_plan *pl = (ntt_plan *)&unavailable; /* must be reset to NULL */
        CHECK_STATUS(NTT_EUNSUPPORTED, test_plan_create(&pl, 16, 998244353, NTT_U32, be, NULL),
                     "ntt_plan_create on unavailable backend %s", ntt_backend_name(be));
        CHECK(pl == NULL, "ntt_plan_create(%s) failed but *plan is not NULL", ntt_backend_name(be));
        uint64_t mods[2] = {998244353, 469762049};
        pl = (ntt_plan *)&unavailable;
        CHECK_STATUS(NTT_EUNSUPPORTED, test_plan_create_rns(&pl, 16, mods, 2, NTT_U64, be, NULL),
                     "ntt_plan_create_rns on unavailable backend %s", ntt_backend_name(be));
        CHECK(pl == NULL, "ntt_plan_create_rns(%s) failed but *plan is not NULL", ntt_backend_name(be));
        /* short (schoolbook) and long (transform) products alike */
        static const size_t lens[] = {1, 3, 100, 1000};
        for (size_t k = 0; k < COUNT(lens); k++) {
            const size_t l = lens[k];
            uint64_t *a = xmalloc(l * 8), *c = xmalloc(2 * l * 8), *c0 = xmalloc(2 * l * 8);
            rnd_fill64(a, l, 998244353); /* below both moduli used */
            for (size_t j = 0; j < 2 * l; j++) c[j] = c0[j] = 42 + j;
            CHECK_STATUS(NTT_EUNSUPPORTED, ntt_polymul_mod(c, a, l, a, l, 1000000007, be),
                         "ntt_polymul_mod(la=lb=%zu) on unavailable backend %s", l, ntt_backend_name(be));
            CHECK_ARR64(c0, c, 2 * l, "ntt_polymul_mod on unavailable backend %s wrote c", ntt_backend_name(be));
            CHECK_STATUS(NTT_EUNSUPPORTED, test_polymul_mod_ex(c, a, l, a, l, 998244353, be, NULL),
                         "ntt_polymul_mod_ex(la=lb=%zu) on unavailable backend %s", l, ntt_backend_name(be));
            free(a), free(c), free(c0);
        }
    }
    if (!unavailable) printf("note: every backend is available; the unavailable-backend checks did not run\n");
}

/* ---- NTT_BACKEND environment override ----------------------------------------------------- */

static void test_env_override(void)
{
    unsetenv("NTT_BACKEND");
    const ntt_backend def = ntt_backend_resolve_auto();
    CHECK(def != NTT_BACKEND_AUTO, "ntt_backend_resolve_auto() returned AUTO");
    CHECK_EQ(1, ntt_backend_available(def), "ntt_backend_resolve_auto() = %s is not available", ntt_backend_name(def));

    setenv("NTT_BACKEND", "scalar", 1);
    CHECK_EQ(NTT_BACKEND_SCALAR, ntt_backend_resolve_auto(), "NTT_BACKEND=scalar: ntt_backend_resolve_auto");
    ntt_plan *pl = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&pl, 64, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL), "AUTO plan with NTT_BACKEND=scalar");
    if (pl) CHECK_EQ(NTT_BACKEND_SCALAR, ntt_plan_backend(pl), "NTT_BACKEND=scalar: AUTO plan's backend");
    ntt_plan_destroy(pl);
    setenv("NTT_BACKEND", "SCALAR", 1);
    CHECK_EQ(NTT_BACKEND_SCALAR, ntt_backend_resolve_auto(), "NTT_BACKEND=SCALAR (case-insensitive)");

    /* Unset, empty or "auto": no override. */
    static const char *const none[] = {"", "auto", "AUTO"};
    for (size_t i = 0; i < COUNT(none); i++) {
        setenv("NTT_BACKEND", none[i], 1);
        CHECK_EQ(def, ntt_backend_resolve_auto(), "NTT_BACKEND=\"%s\" is not the default", none[i]);
    }
    /* Any other name is refused (issue 62.8): AUTO does not resolve, and
       every call asked for AUTO fails with a detail naming the value. */
    static const char *const bogus[] = {"bogus", "99", "scalar2", " scalar", "avx-512", "\x1b[2J"};
    uint64_t x[8] = {1, 2, 3}, y[15];
    for (size_t i = 0; i < COUNT(bogus); i++) {
        setenv("NTT_BACKEND", bogus[i], 1);
        char shown[NTT_ESCAPE_CAP], want[128];
        (void)ntt_escape_bytes(shown, sizeof shown, bogus[i], strlen(bogus[i]));
        snprintf(want, sizeof want, "NTT_BACKEND=\"%s\" names no backend", shown);
        CHECK_EQ(NTT_BACKEND_AUTO, ntt_backend_resolve_auto(), "NTT_BACKEND=\"%s\" is ignored", shown);
        ntt_plan *bp = NULL;
        CHECK_STATUS(NTT_EINVAL, ntt_plan_create(&bp, 64, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL),
                     "AUTO plan with NTT_BACKEND=\"%s\"", shown);
        CHECK(bp == NULL, "a refused plan is not NULL");
        CHECK(strstr(ntt_error_detail(), want) != NULL, "plan detail \"%s\" lacks \"%s\"",
              ntt_error_detail(), want);
        CHECK_STATUS(NTT_EINVAL, ntt_polymul_mod(y, x, 8, x, 8, 65537, NTT_BACKEND_AUTO),
                     "ntt_polymul_mod AUTO with NTT_BACKEND=\"%s\"", shown);
        CHECK(strstr(ntt_error_detail(), want) != NULL, "polymul_mod detail \"%s\" lacks \"%s\"",
              ntt_error_detail(), want);
        for (const char *d = ntt_error_detail(); *d; d++)
            CHECK(*d >= 0x20 && *d < 0x7f, "detail byte 0x%02x is not printable ASCII", (unsigned char)*d);
        /* A backend named by the caller does not read the variable. */
        CHECK_STATUS(NTT_OK, test_plan_create(&bp, 64, 998244353, NTT_U32, NTT_BACKEND_SCALAR, NULL),
                     "SCALAR plan with NTT_BACKEND=\"%s\"", shown);
        ntt_plan_destroy(bp);
    }
    /* a known but unavailable backend is passed over (one setting serves
       machines with and without a GPU) */
    for (int i = NTT_BACKEND_AVX2; i < NTT_BACKEND_COUNT; i++) {
        setenv("NTT_BACKEND", ntt_backend_name((ntt_backend)i), 1);
        ntt_backend r = ntt_backend_resolve_auto();
        if (ntt_backend_available((ntt_backend)i))
            CHECK_EQ(i, r, "NTT_BACKEND=%s (available)", ntt_backend_name((ntt_backend)i));
        else
            CHECK_EQ(def, r, "NTT_BACKEND=%s (not available) is not ignored", ntt_backend_name((ntt_backend)i));
    }
    setenv("NTT_BACKEND", "scalar", 1);
    uint64_t a[20], c[39], e[39];
    rnd_fill64(a, 20, 65537);
    t_schoolbook(e, a, 20, a, 20, 65537);
    uint64_t b[20];
    memcpy(b, a, sizeof b);
    CHECK_STATUS(NTT_OK, ntt_polymul_mod(c, a, 20, b, 20, 65537, NTT_BACKEND_AUTO), "ntt_polymul_mod with NTT_BACKEND=scalar");
    CHECK_ARR64(e, c, 39, "ntt_polymul_mod with NTT_BACKEND=scalar");
    unsetenv("NTT_BACKEND");
    CHECK_EQ(def, ntt_backend_resolve_auto(), "NTT_BACKEND unset again");
}

/* ---- plan queries --------------------------------------------------------------------------- */

static void test_queries(void)
{
    static const struct { ntt_width w; uint64_t p; } P[] = {{NTT_U32, 7340033}, {NTT_U64, 1337006139375617ull}};
    for (size_t k = 0; k < COUNT(P); k++) {
        for (int m = 0; m <= NTT_MODMUL_SHOUP; m++) {
            for (int v = 0; v <= 1; v++) {
                for (int be = 0; be <= 1; be++) {
                    test_opts o = {.modmul = (ntt_modmul)m, .variant = (ntt_variant)v, .flags = NTT_FLAG_NATURAL_ORDER};
                    ntt_plan *pl = NULL;
                    ntt_status s = test_plan_create(&pl, 256, P[k].p, P[k].w, (ntt_backend)be, &o);
                    const bool ok = v == NTT_VARIANT_FAST || m == NTT_MODMUL_DEFAULT || m == NTT_MODMUL_NAIVE;
                    CHECK_STATUS(ok ? NTT_OK : NTT_EUNSUPPORTED, s, "ntt_plan_create(u%d, %s, %s, %s)", (int)P[k].w,
                                 ntt_modmul_name(o.modmul), ntt_variant_name(o.variant), ntt_backend_name((ntt_backend)be));
                    if (s != NTT_OK) {
                        CHECK(pl == NULL, "failed ntt_plan_create left *plan set");
                        continue;
                    }
                    CHECK_EQ(256, ntt_plan_size(pl), "ntt_plan_size");
                    CHECK_EQ(P[k].w, ntt_plan_width(pl), "ntt_plan_width");
                    ntt_backend b = ntt_plan_backend(pl);
                    CHECK(b != NTT_BACKEND_AUTO, "ntt_plan_backend returned AUTO");
                    if (be == NTT_BACKEND_SCALAR) CHECK_EQ(NTT_BACKEND_SCALAR, b, "ntt_plan_backend");
                    else CHECK_EQ(ntt_backend_resolve_auto(), b, "ntt_plan_backend of an AUTO plan");
                    ntt_modmul pm = ntt_plan_modmul(pl);
                    CHECK(pm != NTT_MODMUL_DEFAULT, "ntt_plan_modmul returned DEFAULT");
                    CHECK(pm >= NTT_MODMUL_NAIVE && pm <= NTT_MODMUL_SHOUP, "ntt_plan_modmul = %d", (int)pm);
                    if (m != NTT_MODMUL_DEFAULT) CHECK_EQ(m, pm, "ntt_plan_modmul (asked for %s)", ntt_modmul_name(o.modmul));
                    if (v == NTT_VARIANT_BASELINE) CHECK_EQ(NTT_MODMUL_NAIVE, pm, "the baseline's modmul");
                    CHECK_EQ(v, ntt_plan_variant(pl), "ntt_plan_variant");
                    const uint64_t *mods = NULL;
                    CHECK_EQ(1, ntt_plan_moduli(pl, &mods), "ntt_plan_moduli count");
                    CHECK(mods && mods[0] == P[k].p, "ntt_plan_moduli value");
                    CHECK_EQ(1, ntt_plan_moduli(pl, NULL), "ntt_plan_moduli(plan, NULL)");
                    ntt_plan_destroy(pl);
                }
            }
        }
    }
    /* RNS */
    const uint64_t mods[4] = {998244353, 469762049, 7340033, 104857601};
    ntt_plan *pl = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create_rns(&pl, 1024, mods, 4, NTT_U32, NTT_BACKEND_SCALAR, NULL), "rns plan");
    if (pl) {
        const uint64_t *got = NULL;
        CHECK_EQ(4, ntt_plan_moduli(pl, &got), "ntt_plan_moduli count (RNS)");
        for (size_t i = 0; got && i < 4; i++) CHECK_EQ(mods[i], got[i], "ntt_plan_moduli[%zu]", i);
        CHECK_EQ(1024, ntt_plan_size(pl), "ntt_plan_size (RNS)");
        CHECK_EQ(NTT_VARIANT_FAST, ntt_plan_variant(pl), "default variant");
    }
    ntt_plan_destroy(pl);
    ntt_plan_destroy(NULL);
    CHECK(1, "ntt_plan_destroy(NULL) returned");
}

/* ---- ntt_coeffs_fwrite format ------------------------------------------------------------------- */

static void test_fwrite(void)
{
    FILE *f = tmpfile();
    if (!f) {
        CHECK(0, "tmpfile() failed");
        return;
    }
    const uint64_t v[5] = {0, 1, 18446744073709551615ull, 42, 9223372036854775807ull};
    CHECK_STATUS(NTT_OK, ntt_coeffs_fwrite(f, v, 5), "ntt_coeffs_fwrite");
    CHECK_STATUS(NTT_OK, ntt_coeffs_fwrite(f, NULL, 0), "ntt_coeffs_fwrite(len 0)");
    rewind(f);
    char buf[256] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    const char *want = "0 1 18446744073709551615 42 9223372036854775807\n\n";
    CHECK(got == strlen(want) && memcmp(buf, want, got) == 0, "ntt_coeffs_fwrite wrote \"%s\", expected \"%s\"", buf, want);
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_fwrite(NULL, v, 5), "ntt_coeffs_fwrite(NULL file)");
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_fwrite(f, NULL, 3), "ntt_coeffs_fwrite(NULL data, len 3)");
    fclose(f);
}

int main(void)
{
    test_init("test_api");
    CHECK(NTT_VERSION_MAJOR >= 0 && NTT_VERSION_MINOR >= 0 && NTT_VERSION_PATCH >= 0, "version macros");
    CHECK_EQ(NTT_VERSION_MAJOR * 10000u + NTT_VERSION_MINOR * 100u + NTT_VERSION_PATCH, ntt_version(),
             "ntt_version() against the header's macros");
    CHECK_EQ((size_t)1 << NTT_MAX_LOG2_N, NTT_POLYMUL_MAX_LEN, "NTT_POLYMUL_MAX_LEN");
    test_status_strings();
    test_names();
    test_backends();
    test_env_override();
    test_queries();
    test_fwrite();
    return test_finish();
}
