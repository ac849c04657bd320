/*
 * test_planner: the planning modes and wisdom (ntt.h, docs/PLANNER.md).
 * A MEASURE, EXHAUSTIVE and an imported-wisdom plan give the words of the
 * ESTIMATE plan, on every width and prime size whose kernels differ;
 * zero options keep the rules; fixed options stay fixed; the choice is
 * reported; wisdom round-trips through text and files; malformed,
 * truncated and foreign wisdom is refused with its status and the store
 * left as it was; an answer this build cannot follow is planned anew.
 * (Allocation failures while planning: tests/faults/test_alloc_faults.c.)
 * Prints the time of a MEASURE plan of 2^16 (a figure, not a check).
 */
#include "test_common.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *export_now(void)
{
    char *t = NULL;
    CHECK_STATUS(NTT_OK, ntt_wisdom_export_to_string(&t), "export");
    return t;
}

static ntt_plan *make(size_t n, uint64_t p, ntt_width w, ntt_backend b, const ntt_plan_options *o)
{
    ntt_plan *plan = NULL;
    ntt_status s = ntt_plan_create(&plan, n, p, w, b, o);
    CHECK_STATUS(NTT_OK, s, "plan n=%zu p=%llu w=%d mode=%d: %s", n, (unsigned long long)p, w,
                 o ? (int)o->mode : 0, ntt_error_detail());
    return plan;
}

static ntt_plan_choice_info choice_of(const ntt_plan *plan)
{
    ntt_plan_choice_info c;
    memset(&c, 0, sizeof c);
    CHECK_STATUS(NTT_OK, ntt_plan_choice(plan, &c), "ntt_plan_choice");
    return c;
}

/* The forward, inverse and product words of plan equal those of ref, on
   random inputs below p. */
static void same_words(ntt_plan *ref, ntt_plan *plan, size_t n, uint64_t p, ntt_width w,
                       const char *what)
{
    uint64_t *a = xmalloc(n * 8), *b = xmalloc(n * 8), *x = xmalloc(n * 8), *y = xmalloc(n * 8);
    rnd_fill64(a, n, p);
    rnd_fill64(b, n, p);
    if (w == NTT_U32) {
        uint32_t *a32 = xmalloc(n * 4), *b32 = xmalloc(n * 4), *x32 = xmalloc(n * 4),
                 *y32 = xmalloc(n * 4);
        for (size_t i = 0; i < n; i++) a32[i] = (uint32_t)a[i], b32[i] = (uint32_t)b[i];
        memcpy(x32, a32, n * 4);
        memcpy(y32, a32, n * 4);
        CHECK_STATUS(NTT_OK, ntt_forward_u32(ref, x32), "%s: forward", what);
        CHECK_STATUS(NTT_OK, ntt_forward_u32(plan, y32), "%s: forward", what);
        CHECK_ARR32(x32, y32, n, "%s: forward words", what);
        CHECK_STATUS(NTT_OK, ntt_inverse_u32(plan, y32), "%s: inverse", what);
        CHECK_ARR32(a32, y32, n, "%s: inverse(forward)", what);
        CHECK_STATUS(NTT_OK, ntt_polymul_u32(ref, x32, a32, b32), "%s: polymul", what);
        CHECK_STATUS(NTT_OK, ntt_polymul_u32(plan, y32, a32, b32), "%s: polymul", what);
        CHECK_ARR32(x32, y32, n, "%s: polymul words", what);
        free(a32), free(b32), free(x32), free(y32);
    } else {
        memcpy(x, a, n * 8);
        memcpy(y, a, n * 8);
        CHECK_STATUS(NTT_OK, ntt_forward_u64(ref, x), "%s: forward", what);
        CHECK_STATUS(NTT_OK, ntt_forward_u64(plan, y), "%s: forward", what);
        CHECK_ARR64(x, y, n, "%s: forward words", what);
        CHECK_STATUS(NTT_OK, ntt_inverse_u64(plan, y), "%s: inverse", what);
        CHECK_ARR64(a, y, n, "%s: inverse(forward)", what);
        CHECK_STATUS(NTT_OK, ntt_polymul_u64(ref, x, a, b), "%s: polymul", what);
        CHECK_STATUS(NTT_OK, ntt_polymul_u64(plan, y, a, b), "%s: polymul", what);
        CHECK_ARR64(x, y, n, "%s: polymul words", what);
    }
    free(a), free(b), free(x), free(y);
}

typedef struct {
    const char *name;
    unsigned bits; /* 0: the u32 prime */
} prime_case;

static const prime_case primes[] = {{"u32", 0}, {"50-bit", 50}, {"51-bit", 51},
                                    {"52-bit", 52}, {"60-bit", 60}};

static uint64_t prime_of(const prime_case *pc, ntt_width *w)
{
    *w = pc->bits ? NTT_U64 : NTT_U32;
    if (!pc->bits) return 998244353;
    uint64_t p = 0;
    CHECK_STATUS(NTT_OK, ntt_find_prime(pc->bits, 20, 0, &p), "find_prime %u", pc->bits);
    return p;
}

/* Zero options, NULL options and ESTIMATE are today's rules, reported so. */
static void test_estimate(void)
{
    ntt_plan_options zero;
    memset(&zero, 0, sizeof zero);
    ntt_plan *a = make(1024, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL);
    ntt_plan *b = make(1024, 998244353, NTT_U32, NTT_BACKEND_AUTO, &zero);
    if (!a || !b) return;
    const ntt_plan_choice_info ca = choice_of(a), cb = choice_of(b);
    CHECK_EQ(NTT_PLAN_ESTIMATE, ca.mode, "NULL options: mode");
    CHECK_EQ(NTT_CHOSEN_BY_RULE, ca.source, "NULL options: source");
    CHECK_EQ(ntt_backend_resolve_auto(), ca.backend, "NULL options: AUTO's backend");
    CHECK_EQ(ntt_plan_backend(a), cb.backend, "zero options: backend");
    CHECK_EQ(ntt_plan_modmul(a), cb.modmul, "zero options: modmul");
    CHECK_EQ(1, cb.threads, "zero options: one thread");
    CHECK(ca.time_ns == 0 && ca.candidates == 0, "the rule times nothing");
    CHECK(strcmp(ca.kernels, cb.kernels) == 0 && ca.kernels[0], "kernels \"%s\"", ca.kernels);
    ntt_plan_choice_info c;
    CHECK_STATUS(NTT_EINVAL, ntt_plan_choice(NULL, &c), "choice of NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_plan_choice(a, NULL), "choice into NULL");
    ntt_plan_destroy(a);
    ntt_plan_destroy(b);
    /* ESTIMATE never reads nor writes wisdom. */
    char *before = export_now();
    ntt_plan_options o = {.mode = NTT_PLAN_ESTIMATE, .time_limit = 1};
    ntt_plan_destroy(make(256, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o));
    char *after = export_now();
    CHECK(before && after && strcmp(before, after) == 0, "ESTIMATE changed the store");
    free(before), free(after);
}

static void test_bad_options(void)
{
    const struct {
        ntt_plan_options o;
        const char *what;
    } bad[] = {{{.mode = (ntt_plan_mode)4}, "mode 4"},
               {{.mode = (ntt_plan_mode)-1}, "mode -1"},
               {{.mode = NTT_PLAN_MEASURE, .time_limit = -1}, "time_limit -1"},
               {{.mode = NTT_PLAN_MEASURE, .time_limit = NAN}, "time_limit NaN"},
               {{.work = (ntt_plan_work)4}, "work 4"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ntt_plan *plan = (ntt_plan *)&plan;
        CHECK_STATUS(NTT_EINVAL, ntt_plan_create(&plan, 64, 998244353, NTT_U32, NTT_BACKEND_AUTO,
                                                 &bad[i].o),
                     "%s", bad[i].what);
        CHECK(plan == NULL, "%s: *plan not NULL", bad[i].what);
    }
}

/* MEASURE and EXHAUSTIVE plans of every prime size and work give the
   rule's words; the second MEASURE plan of a class is the wisdom's. */
static void test_measure_words(void)
{
    const ntt_plan_work works[] = {NTT_WORK_TRANSFORMS, NTT_WORK_FORWARD, NTT_WORK_POLYMUL};
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        ntt_width w;
        const uint64_t p = prime_of(&primes[i], &w);
        const size_t n = 4096;
        ntt_plan *ref = make(n, p, w, NTT_BACKEND_AUTO, NULL);
        for (size_t k = 0; k < sizeof works / sizeof works[0]; k++) {
            char what[96];
            snprintf(what, sizeof what, "%s, work %d", primes[i].name, (int)works[k]);
            ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = works[k]};
            ntt_plan *m = make(n, p, w, NTT_BACKEND_AUTO, &o);
            if (!ref || !m) continue;
            const ntt_plan_choice_info c = choice_of(m);
            CHECK_EQ(NTT_PLAN_MEASURE, c.mode, "%s: mode", what);
            CHECK(c.source == NTT_CHOSEN_BY_MEASURE || c.source == NTT_CHOSEN_BY_WISDOM,
                  "%s: source %d", what, (int)c.source);
            if (c.source == NTT_CHOSEN_BY_MEASURE)
                CHECK(c.candidates >= 1 && c.time_ns > 0 && c.rule_ns > 0 &&
                          c.time_ns <= c.rule_ns && !c.time_limited,
                      "%s: %u candidates, %.0f ns, rule %.0f ns", what, c.candidates, c.time_ns,
                      c.rule_ns);
            CHECK_EQ(ntt_plan_backend(m), c.backend, "%s: backend reported", what);
            CHECK_EQ(1, c.threads, "%s: threads 0 is one thread, MEASURE or not", what);
            CHECK_EQ(ntt_plan_modmul(m), c.modmul, "%s: modmul reported", what);
            same_words(ref, m, n, p, w, what);
            /* The same class again: the store's answer, no timing. */
            ntt_plan *again = make(n, p, w, NTT_BACKEND_AUTO, &o);
            if (again) {
                const ntt_plan_choice_info d = choice_of(again);
                CHECK_EQ(NTT_CHOSEN_BY_WISDOM, d.source, "%s: second plan from wisdom", what);
                CHECK(d.backend == c.backend && d.modmul == c.modmul &&
                          d.threads == c.threads && strcmp(d.kernels, c.kernels) == 0,
                      "%s: wisdom's choice %s/%s/%d/%s, measured %s/%s/%d/%s", what,
                      ntt_backend_name(d.backend), ntt_modmul_name(d.modmul), d.threads,
                      d.kernels, ntt_backend_name(c.backend), ntt_modmul_name(c.modmul),
                      c.threads, c.kernels);
                same_words(ref, again, n, p, w, what);
            }
            ntt_plan_destroy(again);
            ntt_plan_destroy(m);
        }
        /* EXHAUSTIVE is not answered by MEASURE wisdom, and gives the same words. */
        ntt_plan_options e = {.mode = NTT_PLAN_EXHAUSTIVE, .work = NTT_WORK_FORWARD};
        ntt_plan *x = make(n, p, w, NTT_BACKEND_AUTO, &e);
        if (x && ref) {
            CHECK_EQ(NTT_CHOSEN_BY_MEASURE, choice_of(x).source, "%s: EXHAUSTIVE measures",
                     primes[i].name);
            same_words(ref, x, n, p, w, primes[i].name);
        }
        ntt_plan_destroy(x);
        ntt_plan_destroy(ref);
    }
}

/* What the caller fixes stays fixed; a time limit stops after the rule's
   candidate and leaves no answer behind. */
static void test_fixed_and_limited(void)
{
    ntt_wisdom_forget();
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .modmul = NTT_MODMUL_MONTGOMERY, .threads = 1};
    ntt_plan *m = make(2048, 998244353, NTT_U32, NTT_BACKEND_SCALAR, &o);
    if (m) {
        const ntt_plan_choice_info c = choice_of(m);
        CHECK_EQ(NTT_BACKEND_SCALAR, c.backend, "a named backend is kept");
        CHECK_EQ(NTT_MODMUL_MONTGOMERY, c.modmul, "a modmul asked for is kept");
        CHECK_EQ(1, c.threads, "threads asked for are kept");
        CHECK_EQ(1, c.candidates, "nothing else to time");
    }
    ntt_plan_destroy(m);
    /* threads bounds the counts timed. */
    ntt_plan_options b = {.mode = NTT_PLAN_EXHAUSTIVE, .threads = 2, .work = NTT_WORK_FORWARD};
    ntt_plan *tb = make(16384, 998244353, NTT_U32, NTT_BACKEND_AUTO, &b);
    if (tb) {
        const ntt_plan_choice_info c = choice_of(tb);
        CHECK(c.threads >= 1 && c.threads <= 2, "threads bound 2: %d", c.threads);
    }
    ntt_plan_destroy(tb);
    ntt_wisdom_forget();
    char *before = export_now();
    ntt_plan_options l = {.mode = NTT_PLAN_MEASURE, .time_limit = 1e-9};
    ntt_plan *t = make(2048, 998244353, NTT_U32, NTT_BACKEND_AUTO, &l);
    if (t) {
        const ntt_plan_choice_info c = choice_of(t);
        CHECK(c.time_limited == 1 && c.candidates == 1, "limited: %d, %u candidates",
              c.time_limited, c.candidates);
        CHECK_EQ(ntt_backend_resolve_auto(), c.backend, "limited: the rule's backend");
    }
    ntt_plan_destroy(t);
    char *after = export_now();
    CHECK(before && after && strcmp(before, after) == 0, "a limited plan left an answer");
    free(before), free(after);
}

/* Wisdom through text and a file, WISDOM_ONLY with and without it. */
static void test_roundtrip(void)
{
    ntt_wisdom_forget();
    ntt_width w;
    const uint64_t p = prime_of(&primes[1], &w);
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_FORWARD};
    ntt_plan *m = make(8192, p, w, NTT_BACKEND_AUTO, &o);
    ntt_plan *ref = make(8192, p, w, NTT_BACKEND_AUTO, NULL);
    char *text = export_now();
    if (!m || !ref || !text) goto out;
    CHECK(strstr(text, "ntt-wisdom 1\nmachine ") == text && strstr(text, "\nend\n"),
          "the text's frame: %s", text);
    const ntt_plan_choice_info c = choice_of(m);
    ntt_wisdom_forget();
    ntt_plan_options wo = {.mode = NTT_PLAN_WISDOM_ONLY, .work = NTT_WORK_FORWARD};
    ntt_plan *r = make(8192, p, w, NTT_BACKEND_AUTO, &wo);
    if (r) CHECK_EQ(NTT_CHOSEN_BY_RULE, choice_of(r).source, "WISDOM_ONLY without wisdom");
    ntt_plan_destroy(r);
    CHECK_STATUS(NTT_OK, ntt_wisdom_import_from_string(text), "import");
    ntt_plan *iw = make(8192, p, w, NTT_BACKEND_AUTO, &wo);
    if (iw) {
        const ntt_plan_choice_info d = choice_of(iw);
        CHECK_EQ(NTT_CHOSEN_BY_WISDOM, d.source, "WISDOM_ONLY with imported wisdom");
        CHECK(d.backend == c.backend && d.modmul == c.modmul && d.threads == c.threads &&
                  strcmp(d.kernels, c.kernels) == 0 && fabs(d.time_ns - c.time_ns) < 0.06,
              "imported choice differs");
        same_words(ref, iw, 8192, p, w, "imported wisdom");
    }
    ntt_plan_destroy(iw);
    /* Files. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/ntt_test_planner_%ld.wisdom", (long)getpid());
    CHECK_STATUS(NTT_OK, ntt_wisdom_export_to_file(path), "export to %s", path);
    ntt_wisdom_forget();
    CHECK_STATUS(NTT_OK, ntt_wisdom_import_from_file(path), "import from %s", path);
    char *again = export_now();
    CHECK(again && strcmp(again, text) == 0, "file round trip");
    free(again);
    unlink(path);
    CHECK_STATUS(NTT_EIO, ntt_wisdom_import_from_file(path), "import from a missing file");
    CHECK_STATUS(NTT_EINVAL, ntt_wisdom_import_from_file(NULL), "import from NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_wisdom_export_to_file(NULL), "export to NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_wisdom_import_from_string(NULL), "import NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_wisdom_export_to_string(NULL), "export to NULL");
out:
    free(text);
    ntt_plan_destroy(m);
    ntt_plan_destroy(ref);
}

/* Bad text changes nothing. */
static void expect_refused(ntt_status want, const char *bad, const char *what)
{
    char *before = export_now();
    CHECK_STATUS(want, ntt_wisdom_import_from_string(bad), "%s", what);
    char *after = export_now();
    CHECK(before && after && strcmp(before, after) == 0, "%s: the store changed", what);
    free(before), free(after);
}

/* text with the first occurrence of `from` replaced by `to` (malloc'd). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CHECK(at != NULL, "\"%s\" not in the text", from);
    if (!at) at = text + strlen(text), from = "";
    const size_t head = (size_t)(at - text), fl = strlen(from), tl = strlen(to);
    char *s = xmalloc(strlen(text) - fl + tl + 1);
    memcpy(s, text, head);
    memcpy(s + head, to, tl);
    strcpy(s + head + tl, at + fl);
    return s;
}

static void test_refused(void)
{
    /* A store holding one answer, and a text with a second (another size). */
    ntt_wisdom_forget();
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_FORWARD};
    ntt_plan_destroy(make(1024, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o));
    ntt_plan_destroy(make(512, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o));
    char *text = export_now();
    ntt_wisdom_forget();
    ntt_plan_destroy(make(256, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o));
    if (!text) return;
    const char *plan_line = strstr(text, "\nplan ");
    CHECK(plan_line != NULL, "no plan line in %s", text);
    if (!plan_line) goto out;
    const size_t len = strlen(text);
    /* Truncated anywhere: before "end\n" is complete, nothing is taken. */
    for (size_t cut = 0; cut + 1 < len; cut++) {
        char *t = xmalloc(cut + 1);
        memcpy(t, text, cut);
        t[cut] = 0;
        char what[80];
        snprintf(what, sizeof what, "truncated at %zu of %zu", cut, len);
        expect_refused(NTT_EFORMAT, t, what);
        free(t);
    }
    const struct {
        const char *from, *to, *what;
    } edits[] = {
        {"ntt-wisdom 1", "ntt-wisdom 2", "another format version"},
        {"ntt-wisdom 1\n", "", "no header"},
        {"\nmachine ", "\nmachina ", "no machine line"},
        {" w=", " width=", "a misnamed field"},
        {" logn=", " logn=x", "a number that is not"},
        {" logn=", " logn=-", "a sign"},
        {" logn=", " logn=99", "logn out of range"},
        {" bits=", " bits=9999999999999999999999", "an overflowing number"},
        {" backend=", " backend=gpu9", "an unknown backend"},
        {" -> mode=", " -> mode=estimate", "an answer not made by timing"},
        {" k64=", " k64=avx9", "an unknown kernel family"},
        {" time=", " time=nan", "a time that is not a number"},
        {" time=", " time=-", "a negative time"},
        {"\nplan ", "\nplan  ", "a doubled space"},
        {"\nplan ", "\nplot ", "an unknown line"},
        {"\nend\n", "\nend\ngarbage\n", "text after end"},
        {"\nend\n", "\n", "no end"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char *t = replace(text, edits[i].from, edits[i].to);
        expect_refused(NTT_EFORMAT, t, edits[i].what);
        free(t);
    }
    {
        /* A field appended to a plan line's end. */
        char *t = replace(text, "\nend\n", " extra=1\nend\n");
        expect_refused(NTT_EFORMAT, t, "a field too many");
        free(t);
    }
    /* Another machine, or this one with another library version. */
    {
        const char *m = strstr(text, "machine ") + 8;
        const char *nl = strchr(m, '\n');
        char fp[600];
        snprintf(fp, sizeof fp, "%.*s", (int)(nl - m), m);
        char *t = replace(text, fp, "cpu=Some Other CPU; features=; cpus=64; gpu=none; ntt=0.2.0");
        expect_refused(NTT_EMACHINE, t, "another machine");
        free(t);
        char *v = strstr(fp, "; ntt=");
        CHECK(v != NULL, "no version in the fingerprint %s", fp);
        if (v) {
            char other[600];
            snprintf(other, sizeof other, "%.*s; ntt=99.0.0", (int)(v - fp), fp);
            t = replace(text, fp, other);
            expect_refused(NTT_EMACHINE, t, "another library version");
            free(t);
        }
    }
    /* The unedited text is taken (the test's edits are what fail). */
    CHECK_STATUS(NTT_OK, ntt_wisdom_import_from_string(text), "the unedited text");
    {
        char *all = export_now();
        CHECK(all && strstr(all, "logn=8 ") && strstr(all, "logn=9 ") && strstr(all, "logn=10 "),
              "import adds to the store: %s", all ? all : "");
        free(all);
    }
out:
    free(text);
}

/* An answer this build cannot follow (kernels it would not run) is
   planned anew, never followed blindly. */
static void test_unfollowable(void)
{
    ntt_wisdom_forget();
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_FORWARD};
    ntt_plan_destroy(make(2048, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o));
    char *text = export_now();
    if (!text) return;
    const char *k = strstr(text, " kernels=");
    CHECK(k != NULL, "no kernels field");
    if (k) {
        const char *e = strchr(k + 1, ' ');
        char old[64];
        snprintf(old, sizeof old, "%.*s", (int)(e - k), k);
        char *t = replace(text, old, " kernels=bogus");
        ntt_wisdom_forget();
        CHECK_STATUS(NTT_OK, ntt_wisdom_import_from_string(t), "import an answer with kernels=bogus");
        ntt_plan *m = make(2048, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o);
        if (m) CHECK_EQ(NTT_CHOSEN_BY_MEASURE, choice_of(m).source, "bogus kernels are re-planned");
        ntt_plan_destroy(m);
        free(t);
    }
    /* An answer with more threads than the plan allows is not followed. */
    const char *th = strstr(text, " -> mode=measure backend=");
    th = th ? strstr(th, " threads=") : NULL;
    CHECK(th != NULL, "no answer's threads in %s", text);
    if (th) {
        /* The answer's field (the key has one too): replaced in place. */
        const char *end = strchr(th + 1, ' ');
        const size_t head = (size_t)(th - text);
        char *t = xmalloc(strlen(text) + 16);
        snprintf(t, strlen(text) + 16, "%.*s threads=2%s", (int)head, text, end);
        ntt_wisdom_forget();
        CHECK_STATUS(NTT_OK, ntt_wisdom_import_from_string(t), "import an answer with 2 threads");
        ntt_plan *m = make(2048, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o);
        if (m) CHECK_EQ(1, choice_of(m).threads, "an answer beyond the threads bound was followed");
        ntt_plan_destroy(m);
        free(t);
    }
    free(text);
}

/* ntt_polymul_mod with MEASURE options (its plans planned, the CRT set
   timed) gives the ESTIMATE words for a u32 prime, 50- and 60-bit NTT
   primes and a modulus that goes through CRT. */
static void test_polymul_mod(void)
{
    uint64_t p50 = 0, p60 = 0;
    CHECK_STATUS(NTT_OK, ntt_find_prime(50, 20, 0, &p50), "p50");
    CHECK_STATUS(NTT_OK, ntt_find_prime(60, 20, 0, &p60), "p60");
    const uint64_t mods[] = {998244353, p50, p60, (1ull << 61) - 1, 1000000007};
    const size_t l = 1500;
    uint64_t *a = xmalloc(l * 8), *b = xmalloc(l * 8), *c1 = xmalloc(2 * l * 8),
             *c2 = xmalloc(2 * l * 8);
    const ntt_plan_mode modes[] = {NTT_PLAN_MEASURE, NTT_PLAN_MEASURE, NTT_PLAN_WISDOM_ONLY,
                                   NTT_PLAN_EXHAUSTIVE};
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
        rnd_fill64(a, l, mods[i]);
        rnd_fill64(b, l, mods[i]);
        CHECK_STATUS(NTT_OK, ntt_polymul_mod(c1, a, l, b, l, mods[i], NTT_BACKEND_AUTO),
                     "polymul_mod p=%llu", (unsigned long long)mods[i]);
        for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
            ntt_plan_options o = {.mode = modes[k]};
            memset(c2, 0, 2 * l * 8);
            CHECK_STATUS(NTT_OK, ntt_polymul_mod_ex(c2, a, l, b, l, mods[i], NTT_BACKEND_AUTO, &o),
                         "polymul_mod mode %d p=%llu: %s", (int)modes[k],
                         (unsigned long long)mods[i], ntt_error_detail());
            CHECK_ARR64(c1, c2, 2 * l - 1, "polymul_mod mode %d p=%llu", (int)modes[k],
                        (unsigned long long)mods[i]);
        }
    }
    free(a), free(b), free(c1), free(c2);
}

/* Plans made, exported, imported and forgotten from several threads at
   once (the store's mutex; run under TSan in the tsan build). */
static void *worker(void *arg)
{
    const size_t id = (size_t)arg;
    for (int r = 0; r < 4; r++) {
        ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_FORWARD};
        ntt_plan *plan = NULL;
        if (ntt_plan_create(&plan, (size_t)256 << (id % 3), 998244353, NTT_U32, NTT_BACKEND_AUTO,
                            &o) != NTT_OK)
            return (void *)1;
        ntt_plan_destroy(plan);
        char *t = NULL;
        if (ntt_wisdom_export_to_string(&t) != NTT_OK) return (void *)1;
        const ntt_status s = ntt_wisdom_import_from_string(t);
        free(t);
        if (s != NTT_OK) return (void *)1;
        if (id == 0 && r == 2) ntt_wisdom_forget();
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t t[4];
    for (size_t i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    for (size_t i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        CHECK(r == NULL, "thread %zu failed", i);
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The planning time of 2^16, printed for the record. */
static void figure_2p16(void)
{
    ntt_wisdom_forget();
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_FORWARD};
    const double t0 = now_ms();
    ntt_plan *m = make(65536, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o);
    const double t1 = now_ms();
    if (m) {
        const ntt_plan_choice_info c = choice_of(m);
        printf("MEASURE plan of 2^16 (u32 forward): %.1f ms, %u candidates, chose %s/%s/%d "
               "threads/%s at %.1f us (rule %.1f us)\n",
               t1 - t0, c.candidates, ntt_backend_name(c.backend), ntt_modmul_name(c.modmul),
               c.threads, c.kernels, c.time_ns / 1e3, c.rule_ns / 1e3);
    }
    ntt_plan_destroy(m);
}

int main(void)
{
    /* No system wisdom: the tests start from an empty store. */
    setenv("NTT_WISDOM", "off", 1);
    test_init("test_planner");
    test_estimate();
    test_bad_options();
    test_measure_words();
    test_fixed_and_limited();
    test_roundtrip();
    test_refused();
    test_unfollowable();
    test_polymul_mod();
    test_threads();
    figure_2p16();
    ntt_wisdom_forget();
    return test_finish();
}
