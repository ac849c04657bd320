/* The CUDA tuning switches (src/core/cuda_tuning.h): defaults, the range of
   every field (a refused set changes nothing), NULL restoring the defaults,
   the settings seen from several threads at once, and the environment
   reader the tests and ntt-bench use (cuda_tuning_env.h) against the old
   NTT_CUDA_* semantics.  Runs with or without the CUDA backend. */
#include "cuda_tuning.h"
#include "cuda_tuning_env.h"
#include "test_common.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int same(const ntt_cuda_tuning *a, const ntt_cuda_tuning *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* field i of t, in declaration order */
static int *field(ntt_cuda_tuning *t, int i)
{
    int *f[] = {&t->fp64, &t->cap, &t->stw, &t->rho, &t->logc, &t->bottom, &t->compact_log,
                &t->carveout};
    return f[i];
}

static void ranges(void)
{
    ntt_cuda_tuning d, t, g;
    ntt_cuda_tuning_default(&d);
    for (int i = 0; i < 8; i++) CHECK_EQ(NTT_CUDA_AUTO, *field(&d, i), "default field %d", i);
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(NULL), "defaults");
    ntt_cuda_tuning_get(&g);
    CHECK(same(&d, &g), "get after set(NULL)");
    /* per field: the lowest and highest accepted values, and the nearest refused ones */
    static const struct {
        int lo, hi, bad_lo, bad_hi;
    } R[8] = {{0, 1, -2, 2},   {4, 4, 3, 5},  {0, 1, -2, 2},  {0, 1, -2, 2},
              {0, 8, -2, 9},   {1, 14, 0, 15}, {1, 31, 0, 32}, {0, 100, -2, 101}};
    for (int i = 0; i < 8; i++) {
        const int ok[2] = {R[i].lo, R[i].hi}, bad[2] = {R[i].bad_lo, R[i].bad_hi};
        for (int k = 0; k < 2; k++) {
            t = d;
            *field(&t, i) = ok[k];
            CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(&t), "field %d = %d", i, ok[k]);
            ntt_cuda_tuning_get(&g);
            CHECK(same(&t, &g), "field %d = %d read back", i, ok[k]);
            ntt_cuda_tuning s = g;
            *field(&t, i) = bad[k];
            CHECK_STATUS(NTT_EINVAL, ntt_cuda_tuning_set(&t), "field %d = %d", i, bad[k]);
            ntt_cuda_tuning_get(&g);
            CHECK(same(&s, &g), "refused field %d = %d changed the settings", i, bad[k]);
        }
    }
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(NULL), "defaults");
    ntt_cuda_tuning_get(&g);
    CHECK(same(&d, &g), "set(NULL) restores the defaults");
}

/* Two settings set and read from four threads: every read is one of them, whole. */
static ntt_cuda_tuning A, B;
static void *hammer(void *arg)
{
    long torn = 0;
    for (int i = 0; i < 20000; i++) {
        if ((i + (int)(size_t)arg) % 3 == 0) {
            if (ntt_cuda_tuning_set(i % 2 ? &A : &B) != NTT_OK) torn++;
        } else {
            ntt_cuda_tuning g;
            ntt_cuda_tuning_get(&g);
            if (!same(&g, &A) && !same(&g, &B)) torn++;
        }
    }
    return (void *)(size_t)torn;
}

static void threads(void)
{
    ntt_cuda_tuning_default(&A);
    ntt_cuda_tuning_default(&B);
    A.stw = 1, A.logc = 3, A.bottom = 9, A.carveout = 50;
    B.fp64 = 0, B.cap = 4, B.rho = 0, B.compact_log = 12;
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(&A), "A");
    pthread_t th[4];
    for (size_t i = 0; i < 4; i++) CHECK(pthread_create(&th[i], NULL, hammer, (void *)i) == 0, "thread");
    for (size_t i = 0; i < 4; i++) {
        void *r = NULL;
        pthread_join(th[i], &r);
        CHECK(r == NULL, "thread %zu saw %zu torn or refused settings", i, (size_t)r);
    }
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(NULL), "defaults");
}

/* The reader against what the library did with NTT_CUDA_* before it stopped
   reading them. */
static void env(void)
{
    static const char *const names[8] = {"FP64", "CAP", "STW", "RHO", "LOGC", "BOTTOM",
                                         "COMPACT_LOG", "CARVEOUT"};
    static const struct {
        int i;
        const char *value;
        int want;  /* -99: refused */
    } C[] = {
        {0, "0", 0},     {0, "1", NTT_CUDA_AUTO}, {0, "7", NTT_CUDA_AUTO},
        {1, "4", 4},     {1, "8", NTT_CUDA_AUTO}, {2, "0", 0},
        {2, "1", 1},     {2, "5", 1},             {3, "0", 0},
        {3, "1", 1},     {4, "0", 0},             {4, "8", 8},
        {4, "-1", NTT_CUDA_AUTO}, {4, "9", -99},  {5, "14", 14},
        {5, "0", NTT_CUDA_AUTO}, {5, "15", NTT_CUDA_AUTO}, {6, "12", 12},
        {6, "0", 1},     {6, "99", 31},           {7, "0", 0},
        {7, "100", 100}, {7, "-1", NTT_CUDA_AUTO}, {7, "101", -99},
        {2, "x", -99},   {6, "12x", -99},         {5, "", NTT_CUDA_AUTO},
    };
    char key[64];
    for (size_t c = 0; c < sizeof C / sizeof C[0]; c++) {
        snprintf(key, sizeof key, "NTT_TEST_TUNING_%s", names[C[c].i]);
        setenv(key, C[c].value, 1);
        ntt_cuda_tuning t, d;
        ntt_cuda_tuning_default(&d);
        const char *bad = NULL;
        const ntt_status s = ntt_cuda_tuning_from_env(&t, "NTT_TEST_TUNING_", &bad);
        if (C[c].want == -99) {
            CHECK_STATUS(NTT_EINVAL, s, "%s=%s", key, C[c].value);
            CHECK(bad && strcmp(bad, names[C[c].i]) == 0, "%s=%s: named %s", key, C[c].value,
                  bad ? bad : "nothing");
            CHECK(same(&t, &d), "%s=%s: defaults after a refusal", key, C[c].value);
        } else {
            CHECK_STATUS(NTT_OK, s, "%s=%s", key, C[c].value);
            CHECK_EQ(C[c].want, *field(&t, C[c].i), "%s=%s", key, C[c].value);
            *field(&d, C[c].i) = C[c].want;
            CHECK(same(&t, &d), "%s=%s: only its field", key, C[c].value);
            CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(&t), "%s=%s accepted by set", key, C[c].value);
        }
        unsetenv(key);
    }
    /* every variable at once, under the benchmark's default prefix */
    const char *vals[8] = {"0", "4", "1", "1", "3", "14", "15", "25"};
    for (int i = 0; i < 8; i++) {
        snprintf(key, sizeof key, "NTT_CUDA_%s", names[i]);
        setenv(key, vals[i], 1);
    }
    ntt_cuda_tuning t;
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_from_env(&t, NULL, NULL), "NTT_CUDA_*");
    const ntt_cuda_tuning want = {0, 4, 1, 1, 3, 14, 15, 25};
    CHECK(same(&t, &want), "NTT_CUDA_* read as %d %d %d %d %d %d %d %d", t.fp64, t.cap, t.stw,
          t.rho, t.logc, t.bottom, t.compact_log, t.carveout);
    for (int i = 0; i < 8; i++) {
        snprintf(key, sizeof key, "NTT_CUDA_%s", names[i]);
        unsetenv(key);
    }
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(NULL), "defaults");
}

int main(void)
{
    test_init("test_cuda_tuning");
    ranges();
    threads();
    env();
    return test_finish();
}
