/* Allocation-failure injection over the public API (issue 51): plan
   creation (MEASURE plans and the wisdom store too, issue 63), every
   transform, ntt_polymul_mod and its plan cache, the
   readers and the writer, the RNS context and its operations.  For every
   allocation point a call reaches (alloc_fault.h), that point fails in
   one run: the call must return NTT_ENOMEM (NTT_EIO where the failing
   point is fopen/fdopen: "cannot open"), leave the caller's arrays and
   files as they were and free what it had allocated.  Prints the number
   of points tried. */
#include "alloc_fault.h"
#include "fault_sweep.h"
#include "ntt_ckks.h"
#include "ntt_rns.h"
#include "test_common.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ntt_status alloc_expected(void)
{
    const char *fn = alloc_fault_function();
    return strcmp(fn, "fopen") == 0 || strcmp(fn, "fdopen") == 0 ? NTT_EIO : NTT_ENOMEM;
}

static const fault_source src = {"allocation", alloc_fault_arm, alloc_fault_fired,
                                 alloc_fault_function, alloc_fault_live, alloc_expected};

static long points, trials;

static void sweep(const fault_trial *t)
{
    points += fault_sweep(&src, t);
    trials++;
}

static ntt_backend backends[NTT_BACKEND_COUNT];
static int nbackends;

/* ---- plans ----------------------------------------------------------------- */

#define N 64
#define MAXW (3 * N)

typedef struct plan_case {
    ntt_plan *plan;
    ntt_backend backend;
    ntt_width width;
    unsigned flags;
    size_t nmod;
    uint64_t moduli[3];
    int op;
    uint64_t a[MAXW], b[MAXW], c[MAXW], keep[3][MAXW];
    uint32_t a32[MAXW], b32[MAXW], c32[MAXW], keep32[3][MAXW];
} plan_case;

static plan_case pc;

static ntt_status plan_create_call(void *arg)
{
    plan_case *x = arg;
    ntt_plan_options o = {.flags = x->flags};
    return ntt_plan_create_rns(&x->plan, N, x->moduli, x->nmod, x->width, x->backend, &o);
}
static bool plan_create_intact(void *arg) { return ((plan_case *)arg)->plan == NULL; }
static void plan_release(void *arg)
{
    plan_case *x = arg;
    ntt_plan_destroy(x->plan);
    x->plan = NULL;
}

static void exec_reset(void *arg)
{
    plan_case *x = arg;
    ntt_status st = plan_create_call(x);
    CHECK_STATUS(NTT_OK, st, "exec: unarmed plan_create");
    for (size_t i = 0; i < MAXW; i++) {
        uint64_t q = x->moduli[(i / N) % x->nmod];
        x->a[i] = rnd_below(q), x->b[i] = rnd_below(q), x->c[i] = i;
        x->a32[i] = (uint32_t)x->a[i], x->b32[i] = (uint32_t)x->b[i], x->c32[i] = (uint32_t)i;
    }
    memcpy(x->keep[0], x->a, sizeof x->a), memcpy(x->keep[1], x->b, sizeof x->b);
    memcpy(x->keep[2], x->c, sizeof x->c);
    memcpy(x->keep32[0], x->a32, sizeof x->a32), memcpy(x->keep32[1], x->b32, sizeof x->b32);
    memcpy(x->keep32[2], x->c32, sizeof x->c32);
}
static bool exec_intact(void *arg)
{
    plan_case *x = arg;
    return !memcmp(x->keep[0], x->a, sizeof x->a) && !memcmp(x->keep[1], x->b, sizeof x->b) &&
           !memcmp(x->keep[2], x->c, sizeof x->c) && !memcmp(x->keep32[0], x->a32, sizeof x->a32) &&
           !memcmp(x->keep32[1], x->b32, sizeof x->b32) &&
           !memcmp(x->keep32[2], x->c32, sizeof x->c32);
}

enum { OP_FORWARD, OP_INVERSE, OP_POINTWISE, OP_POLYMUL, OP_LINEAR, OP_FORWARD_BATCH,
       OP_POLYMUL_BATCH, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"forward", "inverse", "pointwise", "polymul",
                                               "polymul_linear", "forward_batch", "polymul_batch"};

static ntt_status exec_call(void *arg)
{
    plan_case *x = arg;
    ntt_plan *p = x->plan;
    const size_t cnt = x->nmod + 1;
    if (x->width == NTT_U32) {
        switch (x->op) {
        case OP_FORWARD: return ntt_forward_u32(p, x->a32);
        case OP_INVERSE: return ntt_inverse_u32(p, x->a32);
        case OP_POINTWISE: return ntt_pointwise_u32(p, x->c32, x->a32, x->b32);
        case OP_POLYMUL: return ntt_polymul_u32(p, x->c32, x->a32, x->b32);
        case OP_LINEAR: return ntt_polymul_linear_u32(p, x->c32, x->a32, N / 2, x->b32, N / 4);
        case OP_FORWARD_BATCH: return ntt_forward_batch_u32(p, x->a32, cnt, N);
        default: return ntt_polymul_batch_u32(p, x->c32, x->a32, x->b32, cnt, N);
        }
    }
    switch (x->op) {
    case OP_FORWARD: return ntt_forward_u64(p, x->a);
    case OP_INVERSE: return ntt_inverse_u64(p, x->a);
    case OP_POINTWISE: return ntt_pointwise_u64(p, x->c, x->a, x->b);
    case OP_POLYMUL: return ntt_polymul_u64(p, x->c, x->a, x->b);
    case OP_LINEAR: return ntt_polymul_linear_u64(p, x->c, x->a, N / 2, x->b, N / 4);
    case OP_FORWARD_BATCH: return ntt_forward_batch_u64(p, x->a, cnt, N);
    default: return ntt_polymul_batch_u64(p, x->c, x->a, x->b, cnt, N);
    }
}

static void plans(void)
{
    char name[160];
    for (int bi = 0; bi < nbackends; bi++)
        for (int w = 0; w < 2; w++)
            for (unsigned flags = 0; flags < 4; flags += 3)
                for (size_t nmod = 1; nmod <= 2; nmod++) {
                    memset(&pc, 0, sizeof pc);
                    pc.backend = backends[bi];
                    pc.width = w ? NTT_U64 : NTT_U32;
                    pc.flags = flags;
                    pc.nmod = nmod;
                    for (size_t i = 0; i < nmod; i++) {
                        ntt_status st = ntt_find_prime(w ? 62 : 30, 8, (unsigned)i, &pc.moduli[i]);
                        CHECK_STATUS(NTT_OK, st, "find_prime");
                    }
                    snprintf(name, sizeof name, "plan_create %s u%d flags %u moduli %zu",
                             ntt_backend_name(pc.backend), (int)pc.width, flags, nmod);
                    fault_trial t = {name, &pc, NULL, plan_create_call, plan_create_intact,
                                     plan_release};
                    sweep(&t);
                    for (pc.op = 0; pc.op < OP_COUNT; pc.op++) {
                        snprintf(name, sizeof name, "%s %s u%d flags %u moduli %zu",
                                 op_names[pc.op], ntt_backend_name(pc.backend), (int)pc.width,
                                 flags, nmod);
                        fault_trial e = {name, &pc, exec_reset, exec_call, exec_intact,
                                         plan_release};
                        sweep(&e);
                    }
                }
}

/* ---- ntt_polymul_mod and its cache ---------------------------------------- */

#define PM_MAX 300

typedef struct pm_case {
    uint64_t p;
    size_t la, lb;
    ntt_backend backend;
    bool warm; /* the same product ran before: its plans are cached */
    uint64_t a[PM_MAX], b[PM_MAX], c[2 * PM_MAX], want[2 * PM_MAX];
} pm_case;

static pm_case pm;

static void pm_reset(void *arg)
{
    pm_case *x = arg;
    for (size_t i = 0; i < 2 * PM_MAX; i++) x->c[i] = ~(uint64_t)i;
    if (x->warm) {
        uint64_t c[3];
        ntt_status st = ntt_polymul_mod(c, x->a, 2, x->b, 2, x->p, x->backend);
        CHECK_STATUS(NTT_OK, st, "polymul_mod warm-up");
        st = ntt_polymul_mod(x->want, x->a, x->la, x->b, x->lb, x->p, x->backend);
        CHECK_STATUS(NTT_OK, st, "polymul_mod warm-up");
    }
}
static ntt_status pm_call(void *arg)
{
    pm_case *x = arg;
    return ntt_polymul_mod(x->c, x->a, x->la, x->b, x->lb, x->p, x->backend);
}
static bool pm_intact(void *arg)
{
    pm_case *x = arg;
    for (size_t i = 0; i < 2 * PM_MAX; i++)
        if (x->c[i] != ~(uint64_t)i) return false;
    return true;
}
static void pm_release(void *arg)
{
    pm_case *x = arg;
    if (!pm_intact(x)) {
        uint64_t want[2 * PM_MAX];
        t_schoolbook(want, x->a, x->la, x->b, x->lb, x->p);
        CHECK_ARR64(want, x->c, x->la + x->lb - 1, "polymul_mod p %llu after faults",
                    (unsigned long long)x->p);
    }
    ntt_cache_clear();
}

static void polymul_mod(void)
{
    uint64_t big = 0;
    CHECK_STATUS(NTT_OK, ntt_find_prime(62, 20, 0, &big), "find_prime");
    const uint64_t ps[] = {7340033, big, 1000000007, ((uint64_t)1 << 63) - 25, 2};
    const size_t lens[][2] = {{5, 7}, {100, 60}, {PM_MAX, 33}};
    char name[160];
    for (int bi = 0; bi < nbackends; bi++)
        for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++)
            for (size_t li = 0; li < 3; li++)
                for (int warm = 0; warm < 2; warm++) {
                    pm.p = ps[pi], pm.la = lens[li][0], pm.lb = lens[li][1];
                    pm.backend = backends[bi], pm.warm = warm;
                    rnd_fill64(pm.a, PM_MAX, pm.p);
                    rnd_fill64(pm.b, PM_MAX, pm.p);
                    snprintf(name, sizeof name, "polymul_mod %s p %llu la %zu lb %zu%s",
                             ntt_backend_name(pm.backend), (unsigned long long)pm.p, pm.la, pm.lb,
                             warm ? " (warm cache)" : "");
                    fault_trial t = {name, &pm, pm_reset, pm_call, pm_intact, pm_release};
                    sweep(&t);
                }
}

/* ---- the planner and the wisdom store (issue 63) --------------------------- */

/* Planning is all or nothing: a MEASURE plan that fails leaves no plan
   and no answer in the store; a failed import leaves the store as it was. */
typedef struct plan_measure_case {
    ntt_plan *plan;
    uint64_t p;
    ntt_width width;
    bool from_wisdom; /* the store answers the call (reset plans it first) */
    char *text;       /* wisdom text for the import trials */
    char path[96];
    pm_case *pm;
} plan_measure_case;

static plan_measure_case pmc;

/* How many answers the store holds (unarmed). */
static int store_answers(void)
{
    char *t = NULL;
    if (ntt_wisdom_export_to_string(&t) != NTT_OK) return -1;
    int k = 0;
    for (const char *s = t; (s = strstr(s, "\nplan ")) != NULL; s++) k++;
    free(t);
    return k;
}

static ntt_status measure_create(plan_measure_case *x)
{
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_POLYMUL};
    return ntt_plan_create(&x->plan, 256, x->p, x->width, NTT_BACKEND_AUTO, &o);
}
static void measure_reset(void *arg)
{
    plan_measure_case *x = arg;
    if (!x->from_wisdom) return;
    CHECK_STATUS(NTT_OK, measure_create(x), "MEASURE plan, unarmed");
    ntt_plan_destroy(x->plan);
    x->plan = NULL;
}
static ntt_status measure_call(void *arg) { return measure_create(arg); }
static bool measure_intact(void *arg)
{
    plan_measure_case *x = arg;
    return x->plan == NULL && store_answers() == (x->from_wisdom ? 1 : 0);
}
static void measure_release(void *arg)
{
    plan_measure_case *x = arg;
    ntt_plan_destroy(x->plan);
    x->plan = NULL;
    ntt_wisdom_forget();
}

static ntt_status import_call(void *arg)
{
    return ntt_wisdom_import_from_string(((plan_measure_case *)arg)->text);
}
static ntt_status import_file_call(void *arg)
{
    return ntt_wisdom_import_from_file(((plan_measure_case *)arg)->path);
}
static bool store_empty(void *arg)
{
    (void)arg;
    return store_answers() == 0;
}
static void export_reset(void *arg)
{
    plan_measure_case *x = arg;
    CHECK_STATUS(NTT_OK, ntt_wisdom_import_from_string(x->text), "import, unarmed");
}
static ntt_status export_call(void *arg)
{
    char *t = (char *)arg; /* not NULL: export must set it NULL on failure */
    ntt_status s = ntt_wisdom_export_to_string(&t);
    if (s != NTT_OK && t != NULL) return NTT_EBACKEND;
    free(t);
    return s;
}
static ntt_status export_file_call(void *arg)
{
    return ntt_wisdom_export_to_file(((plan_measure_case *)arg)->path);
}
static void forget_release(void *arg)
{
    (void)arg;
    ntt_wisdom_forget();
}

static ntt_status pm_measure_call(void *arg)
{
    pm_case *x = arg;
    ntt_plan_options o = {.mode = NTT_PLAN_MEASURE};
    return ntt_polymul_mod_ex(x->c, x->a, x->la, x->b, x->lb, x->p, NTT_BACKEND_AUTO, &o);
}
static void pm_measure_release(void *arg)
{
    pm_release(arg);
    ntt_wisdom_forget();
}

static void planner(void)
{
    char name[160];
    uint64_t p50 = 0, p62 = 0;
    CHECK_STATUS(NTT_OK, ntt_find_prime(50, 10, 0, &p50), "find_prime");
    CHECK_STATUS(NTT_OK, ntt_find_prime(62, 10, 0, &p62), "find_prime");
    const struct {
        uint64_t p;
        ntt_width w;
    } cases[] = {{7340033, NTT_U32}, {p50, NTT_U64}, {p62, NTT_U64}};
    ntt_wisdom_forget();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int fw = 0; fw < 2; fw++) {
            memset(&pmc, 0, sizeof pmc);
            pmc.p = cases[i].p, pmc.width = cases[i].w, pmc.from_wisdom = fw;
            snprintf(name, sizeof name, "MEASURE plan_create u%d p %llu%s", (int)pmc.width,
                     (unsigned long long)pmc.p, fw ? " (answered by wisdom)" : "");
            fault_trial t = {name, &pmc, measure_reset, measure_call, measure_intact,
                             measure_release};
            sweep(&t);
        }
    /* Wisdom text of three answers, for the import and export trials. */
    memset(&pmc, 0, sizeof pmc);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pmc.p = cases[i].p, pmc.width = cases[i].w;
        CHECK_STATUS(NTT_OK, measure_create(&pmc), "MEASURE plan, unarmed");
        ntt_plan_destroy(pmc.plan);
        pmc.plan = NULL;
    }
    CHECK_STATUS(NTT_OK, ntt_wisdom_export_to_string(&pmc.text), "export, unarmed");
    snprintf(pmc.path, sizeof pmc.path, "/tmp/ntt_faults_wisdom_%ld", (long)getpid());
    CHECK_STATUS(NTT_OK, ntt_wisdom_export_to_file(pmc.path), "export to a file, unarmed");
    ntt_wisdom_forget();
    fault_trial imp = {"wisdom import from a string", &pmc, NULL, import_call, store_empty,
                       forget_release};
    sweep(&imp);
    fault_trial impf = {"wisdom import from a file", &pmc, NULL, import_file_call, store_empty,
                        forget_release};
    sweep(&impf);
    char *sentinel = (char *)&pmc;
    fault_trial exp = {"wisdom export to a string", sentinel, NULL, export_call, NULL,
                       forget_release};
    exp.reset = NULL;
    sweep(&exp);
    fault_trial expf = {"wisdom export to a file", &pmc, export_reset, export_file_call, NULL,
                        forget_release};
    sweep(&expf);
    unlink(pmc.path);
    free(pmc.text);
    /* ntt_polymul_mod planned: a direct prime and a modulus through CRT
       (the sets timed). */
    const uint64_t ps[] = {7340033, 1000000007};
    for (size_t i = 0; i < 2; i++) {
        pm.p = ps[i], pm.la = 100, pm.lb = 60, pm.backend = NTT_BACKEND_AUTO, pm.warm = false;
        rnd_fill64(pm.a, PM_MAX, pm.p);
        rnd_fill64(pm.b, PM_MAX, pm.p);
        snprintf(name, sizeof name, "polymul_mod MEASURE p %llu", (unsigned long long)pm.p);
        fault_trial t = {name, &pm, pm_reset, pm_measure_call, pm_intact, pm_measure_release};
        sweep(&t);
    }
}

/* ---- readers and writer ------------------------------------------------------ */

typedef struct io_case {
    char dir[64], in[96], out[96];
    ntt_course_input course;
    uint64_t *c;
    size_t len;
    uint64_t data[3000];
} io_case;

static io_case io;

static ntt_status course_call(void *arg)
{
    io_case *x = arg;
    return ntt_course_read(x->in, &x->course, NULL);
}
static bool course_intact(void *arg)
{
    io_case *x = arg;
    return x->course.n == 0 && !x->course.a && !x->course.b;
}
static void course_release(void *arg) { ntt_course_free(&((io_case *)arg)->course); }

static ntt_status coeffs_call(void *arg)
{
    io_case *x = arg;
    return ntt_coeffs_read(x->in, &x->c, &x->len, NULL);
}
static bool coeffs_intact(void *arg)
{
    io_case *x = arg;
    return x->c == NULL && x->len == 0;
}
static void coeffs_release(void *arg)
{
    io_case *x = arg;
    free(x->c);
    x->c = NULL;
}

static ntt_status write_call(void *arg)
{
    io_case *x = arg;
    return ntt_coeffs_write(x->out, x->data, 3000, NULL);
}
static void write_reset(void *arg)
{
    io_case *x = arg;
    FILE *f = fopen(x->out, "w");
    CHECK(f && fputs("7 7\n", f) >= 0 && fclose(f) == 0, "writing %s", x->out);
}
/* The old file is still there, whole, and no temporary file is left. */
static bool write_intact(void *arg)
{
    io_case *x = arg;
    char buf[16] = {0};
    FILE *f = fopen(x->out, "r");
    bool same = f && fread(buf, 1, sizeof buf - 1, f) == 4 && strcmp(buf, "7 7\n") == 0;
    if (f) fclose(f);
    DIR *d = opendir(x->dir);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));) entries += e->d_name[0] != '.';
    if (d) closedir(d);
    return same && entries == 2;
}

static void readers(void)
{
    snprintf(io.dir, sizeof io.dir, "/tmp/ntt-alloc-XXXXXX");
    CHECK(mkdtemp(io.dir) != NULL, "mkdtemp");
    snprintf(io.in, sizeof io.in, "%s/in.txt", io.dir);
    snprintf(io.out, sizeof io.out, "%s/out.txt", io.dir);
    /* n = 1500: the reader's array grows past its first 1024 words. */
    FILE *f = fopen(io.in, "w");
    CHECK(f != NULL, "creating %s", io.in);
    if (!f) return;
    fprintf(f, "1500 7340033\n");
    for (size_t i = 0; i < 3000; i++) {
        io.data[i] = rnd_below(7340033);
        fprintf(f, "%llu\n", (unsigned long long)io.data[i]);
    }
    fclose(f);
    fault_trial t1 = {"ntt_course_read", &io, NULL, course_call, course_intact, course_release};
    sweep(&t1);
    fault_trial t2 = {"ntt_coeffs_read", &io, NULL, coeffs_call, coeffs_intact, coeffs_release};
    sweep(&t2);
    fault_trial t3 = {"ntt_coeffs_write", &io, write_reset, write_call, write_intact, NULL};
    sweep(&t3);
    unlink(io.in);
    unlink(io.out);
    rmdir(io.dir);
}

/* ---- RNS ---------------------------------------------------------------------- */

#define RN 16
#define RQ 3
#define RP 2
#define RL (RQ + RP)

typedef struct rns_case {
    ntt_rns_params prm;
    uint64_t primes[RL];
    ntt_rns *ctx;
    int op;
    uint64_t in[2 * RL * RN], out0[2 * RL * RN], out1[RL * RN], key[2 * 2 * RL * RN];
    uint64_t keep[2 * RL * RN], keep0[2 * RL * RN], keep1[RL * RN];
} rns_case;

static rns_case rc;

static ntt_status rns_create_call(void *arg)
{
    rns_case *x = arg;
    return ntt_rns_create(&x->ctx, &x->prm);
}
static bool rns_create_intact(void *arg) { return ((rns_case *)arg)->ctx == NULL; }
static void rns_release(void *arg)
{
    rns_case *x = arg;
    ntt_rns_destroy(x->ctx);
    x->ctx = NULL;
}
static void rns_reset(void *arg)
{
    rns_case *x = arg;
    CHECK_STATUS(NTT_OK, rns_create_call(x), "rns: unarmed create");
    /* Limb k of every polynomial below prime k (layouts at level RQ-1 and
       the extended ones agree on that with Q then P). */
    for (size_t i = 0; i < 2 * RL * RN; i++) x->in[i] = rnd_below(x->primes[(i / RN) % RL]);
    for (size_t i = 0; i < 2 * 2 * RL * RN; i++) x->key[i] = rnd_below(x->primes[(i / RN) % RL]);
    for (size_t i = 0; i < 2 * RL * RN; i++) x->out0[i] = i;
    for (size_t i = 0; i < RL * RN; i++) x->out1[i] = i;
    memcpy(x->keep, x->in, sizeof x->in);
    memcpy(x->keep0, x->out0, sizeof x->out0);
    memcpy(x->keep1, x->out1, sizeof x->out1);
}
static bool rns_intact(void *arg)
{
    rns_case *x = arg;
    return !memcmp(x->keep, x->in, sizeof x->in) && !memcmp(x->keep0, x->out0, sizeof x->out0) &&
           !memcmp(x->keep1, x->out1, sizeof x->out1);
}

enum { R_FORWARD, R_BCONV, R_MODUP, R_MODDOWN, R_RESCALE, R_INNER, R_KEYSWITCH, R_COUNT };
static const char *const rop_names[R_COUNT] = {"forward", "fastbconv", "modup", "moddown",
                                               "rescale", "ks_inner", "keyswitch"};

static ntt_status rns_call(void *arg)
{
    rns_case *x = arg;
    const size_t L = RQ - 1, ext = L + 1 + RP, keyl = 2 * x->prm.dnum * RL;
    static const size_t limbs[RL] = {0, 1, 2, 3, 4}, to[2] = {3, 4};
    switch (x->op) {
    case R_FORWARD: return ntt_rns_forward(x->ctx, RN, limbs, RL, x->in);
    case R_BCONV: return ntt_rns_fastbconv(x->ctx, RN, limbs, RQ, x->in, to, 2, x->out0);
    case R_MODUP: {
        size_t first = 0, count = 0;
        ntt_status st = ntt_rns_digit_range(x->ctx, L, 0, &first, &count);
        if (st != NTT_OK) return st;
        return ntt_rns_modup(x->ctx, RN, L, 0, x->in, count, x->out0, ext);
    }
    case R_MODDOWN: return ntt_rns_moddown(x->ctx, RN, L, x->in, ext, x->out0, L + 1);
    case R_RESCALE: return ntt_rns_rescale(x->ctx, RN, L, x->in, L + 1, x->out0, L);
    case R_INNER:
        return ntt_rns_ks_inner(x->ctx, RN, L, x->in, ntt_rns_digits(x->ctx, L) * ext, x->key,
                                keyl, x->out0, x->out1, ext);
    default:
        return ntt_rns_keyswitch(x->ctx, RN, L, x->in, L + 1, x->key, keyl, x->out0, x->out1,
                                 L + 1);
    }
}

static void rns(void)
{
    char name[160];
    for (size_t i = 0; i < RL; i++) {
        ntt_status st = ntt_find_prime(50, 6, (unsigned)i, &rc.primes[i]);
        CHECK_STATUS(NTT_OK, st, "find_prime");
    }
    for (int bi = 0; bi < nbackends; bi++) {
        rc.prm = (ntt_rns_params){.n = RN, .q = rc.primes, .q_count = RQ, .p = rc.primes + RQ,
                                  .p_count = RP, .dnum = 2, .backend = backends[bi]};
        snprintf(name, sizeof name, "rns_create %s", ntt_backend_name(backends[bi]));
        fault_trial t = {name, &rc, NULL, rns_create_call, rns_create_intact, rns_release};
        sweep(&t);
        for (rc.op = 0; rc.op < R_COUNT; rc.op++) {
            snprintf(name, sizeof name, "rns_%s %s", rop_names[rc.op],
                     ntt_backend_name(backends[bi]));
            fault_trial e = {name, &rc, rns_reset, rns_call, rns_intact, rns_release};
            sweep(&e);
        }
    }
}

/* ---- CKKS: the context's creation fails cleanly at every point; the
   operations allocate nothing (ntt_ckks.h), so their sweeps find 0 points. */

#define CN 16

typedef struct ckks_case {
    ntt_rns *rns;
    ntt_ckks *ck;
    int op;
    int8_t s[CN];
    uint64_t rlk[2 * 2 * RL * CN], gk[2 * 2 * RL * CN];
    uint64_t a0[RQ * CN], a1[RQ * CN], o0[RQ * CN], o1[RQ * CN];
    uint64_t keep[4 * RQ * CN];
} ckks_case;

static ckks_case cc;

static ntt_status ckks_create_call(void *arg) { return ntt_ckks_create(&((ckks_case *)arg)->ck, ((ckks_case *)arg)->rns); }
static bool ckks_create_intact(void *arg) { return ((ckks_case *)arg)->ck == NULL; }
static void ckks_release(void *arg)
{
    ckks_case *x = arg;
    ntt_ckks_destroy(x->ck);
    x->ck = NULL;
}
static void ckks_snap(ckks_case *x, uint64_t *dst)
{
    memcpy(dst, x->a0, sizeof x->a0);
    memcpy(dst + RQ * CN, x->a1, sizeof x->a1);
    memcpy(dst + 2 * RQ * CN, x->o0, sizeof x->o0);
    memcpy(dst + 3 * RQ * CN, x->o1, sizeof x->o1);
}
static void ckks_reset(void *arg)
{
    ckks_case *x = arg;
    CHECK_STATUS(NTT_OK, ckks_create_call(x), "ckks: unarmed create");
    const size_t kl = ntt_ckks_key_limbs(x->ck);
    CHECK_STATUS(NTT_OK, ntt_ckks_secret_gen(x->ck, 1, x->s, CN), "secret");
    CHECK_STATUS(NTT_OK, ntt_ckks_keygen_relin(x->ck, x->s, CN, 2, x->rlk, kl), "relin key");
    CHECK_STATUS(NTT_OK, ntt_ckks_keygen_galois(x->ck, x->s, CN, 5, 3, x->gk, kl), "galois key");
    int64_t m[CN];
    for (size_t i = 0; i < CN; i++) m[i] = (int64_t)(i % 3) - 1;
    ntt_ckks_ct a = {x->a0, x->a1, CN, 0, RQ};
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(x->ck, x->s, CN, m, 1 << 20, RQ - 1, 4, &a), "encrypt");
    for (size_t i = 0; i < RQ * CN; i++) x->o0[i] = x->o1[i] = i;
    ckks_snap(x, x->keep);
}
static bool ckks_intact(void *arg)
{
    ckks_case *x = arg;
    uint64_t now[4 * RQ * CN];
    ckks_snap(x, now);
    return !memcmp(now, x->keep, sizeof now);
}

enum { C_MUL, C_MUL_RESCALE, C_ROTATE, C_HOISTED, C_SUM, C_RESCALE, C_COUNT };
static const char *const cop_names[C_COUNT] = {"mul", "mul+rescale", "rotate", "rotate_hoisted",
                                               "rotate_sum", "rescale"};

static ntt_status ckks_call(void *arg)
{
    ckks_case *x = arg;
    const size_t kl = ntt_ckks_key_limbs(x->ck);
    ntt_ckks_ct a = {x->a0, x->a1, CN, RQ - 1, RQ}, o = {x->o0, x->o1, CN, 0, RQ};
    const uint64_t g = 5;
    const uint64_t *const keys[1] = {x->gk};
    switch (x->op) {
    case C_MUL: return ntt_ckks_mul(x->ck, &a, &a, x->rlk, kl, 0, &o);
    case C_MUL_RESCALE: return ntt_ckks_mul(x->ck, &a, &a, x->rlk, kl, 1, &o);
    case C_ROTATE: return ntt_ckks_rotate(x->ck, &a, 1, x->gk, kl, &o);
    case C_HOISTED: return ntt_ckks_rotate_hoisted(x->ck, &a, &g, 1, keys, kl, &o);
    case C_SUM: {
        const uint64_t g2[2] = {5, 5};
        const uint64_t *const k2[2] = {x->gk, x->gk};
        return ntt_ckks_rotate_sum(x->ck, &a, g2, 2, k2, kl, &o);
    }
    default: return ntt_ckks_rescale(x->ck, &a, &o);
    }
}

static void ckks(void)
{
    char name[160];
    const uint64_t *pr = rc.primes; /* rns() made them: 2^6 | p - 1, enough for N = 16 */
    for (int bi = 0; bi < nbackends; bi++) {
        ntt_rns_params prm = {.n = CN, .q = pr, .q_count = RQ, .p = pr + RQ, .p_count = RP,
                              .dnum = 2, .backend = backends[bi]};
        CHECK_STATUS(NTT_OK, ntt_rns_create(&cc.rns, &prm), "ckks: rns");
        snprintf(name, sizeof name, "ckks_create %s", ntt_backend_name(backends[bi]));
        fault_trial t = {name, &cc, NULL, ckks_create_call, ckks_create_intact, ckks_release};
        sweep(&t);
        for (cc.op = 0; cc.op < C_COUNT; cc.op++) {
            snprintf(name, sizeof name, "ckks_%s %s", cop_names[cc.op],
                     ntt_backend_name(backends[bi]));
            fault_trial e = {name, &cc, ckks_reset, ckks_call, ckks_intact, ckks_release};
            CHECK_EQ(0, fault_sweep(&src, &e), "%s allocates (ntt_ckks.h: no allocation)", name);
            trials++;
        }
        ntt_rns_destroy(cc.rns);
        cc.rns = NULL;
    }
}

int main(void)
{
    test_init("test_alloc_faults");
    static const ntt_backend all[] = {NTT_BACKEND_SCALAR, NTT_BACKEND_AVX2, NTT_BACKEND_AVX512,
                                      NTT_BACKEND_OPENMP};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (ntt_backend_available(all[i])) backends[nbackends++] = all[i];
    /* No system wisdom: the planner's trials start from an empty store. */
    setenv("NTT_WISDOM", "off", 1);
    plans();
    polymul_mod();
    planner();
    readers();
    rns();
    ckks();
    printf("allocation failure points tried: %ld over %ld calls\n", points, trials);
    return test_finish();
}
