/* The wisdom store (ntt.h, planner.h): the planner's answers by problem
   class, as text keyed by a fingerprint of the machine.  One mutex guards
   the store; the system wisdom is read once, before the store's first use.

   The text, line by line (docs/PLANNER.md):
     ntt-wisdom 1
     machine <fingerprint>
     plan w=64 logn=16 bits=50 nmod=1 flags=0 batch=1 work=forward backend=auto
          modmul=default threads=0 -> mode=measure backend=avx512 modmul=shoup
          threads=1 k64=rule kernels=ifma time=61234.5      (one line)
     end
   Every plan line is checked whole before anything is taken in. */
#include "cpu_features.h"
#include "planner.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NTT_SYSTEM_WISDOM
#define NTT_SYSTEM_WISDOM "/etc/ntt/wisdom"
#endif

#define HEADER "ntt-wisdom 1"

typedef struct {
    ntt_wisdom_key key;
    ntt_wisdom_answer ans;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *store;
static size_t used, cap;

/* ---- names ------------------------------------------------------------------- */

static const char *const work_names[] = {"transforms", "forward", "inverse", "polymul"};
static const char *const mode_names[] = {"estimate", "measure", "exhaustive", "wisdom-only"};
static const char *const k64_names[NTT_K64_COUNT] = {"rule", "scalar", "fp64", "lanes64", "ifma"};

const char *ntt_k64_name(unsigned k64) { return k64 < NTT_K64_COUNT ? k64_names[k64] : "?"; }

static int name_index(const char *const *names, size_t count, const char *s)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(names[i], s) == 0) return (int)i;
    return -1;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the machine ------------------------------------------------------------- */

static char fingerprint[512];
static pthread_once_t fp_once = PTHREAD_ONCE_INIT;

/* Printable ASCII without the separators, runs of spaces as one (the CPU
   pads its model string). */
static void append_clean(char *dst, size_t cap_, const char *src)
{
    size_t k = strlen(dst);
    for (; *src && k + 1 < cap_; src++) {
        char ch = *src;
        if (ch < 0x20 || ch > 0x7e || ch == ';') ch = '?';
        if (ch == ' ' && (k == 0 || dst[k - 1] == ' ' || dst[k - 1] == '=')) continue;
        dst[k++] = ch;
    }
    while (k > 0 && dst[k - 1] == ' ') k--;
    dst[k] = 0;
}

/* What makes timings of one machine not another's: the CPU's model and the
   features the kernels ask for, the CPUs threads may take, the GPU the
   CUDA backend would run on, and the library's version. */
static void make_fingerprint(void)
{
    char *f = fingerprint;
    const size_t fc = sizeof fingerprint;
    snprintf(f, fc, "cpu=");
    append_clean(f, fc, *ntt_cpu_brand() ? ntt_cpu_brand() : "unknown");
    const ntt_cpu_features *x = ntt_cpu_features_get();
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t k = strlen(f);
    k += (size_t)snprintf(f + k, fc - k, "; features=%s%s%s%s%s%s%s%s; cpus=%ld",
                          x->avx2 ? "avx2," : "", x->fma ? "fma," : "", x->bmi2 ? "bmi2," : "",
                          x->avx512f ? "avx512f," : "", x->avx512vl ? "avx512vl," : "",
                          x->avx512bw ? "avx512bw," : "", x->avx512dq ? "avx512dq," : "",
                          x->avx512ifma ? "avx512ifma," : "", cpus);
    ntt_cuda_info g;
    if (ntt_backend_available(NTT_BACKEND_CUDA) && ntt_cuda_get_info(&g) == NTT_OK) {
        snprintf(f + k, fc - k, "; gpu=");
        append_clean(f, fc, g.name);
        k = strlen(f);
        k += (size_t)snprintf(f + k, fc - k, " sm=%d cc=%d.%d", g.sm_count, g.cc_major,
                              g.cc_minor);
    } else {
        k += (size_t)snprintf(f + k, fc - k, "; gpu=none");
    }
    if (k < fc)
        snprintf(f + k, fc - k, "; ntt=%u.%u.%u", ntt_version() / 10000, ntt_version() / 100 % 100,
                 ntt_version() % 100);
}

static const char *machine(void)
{
    (void)pthread_once(&fp_once, make_fingerprint);
    return fingerprint;
}

/* ---- the store ---------------------------------------------------------------- */

void ntt_wisdom_key_of(ntt_wisdom_key *k, const ntt_plan_request *rq)
{
    uint64_t top = 0;
    for (size_t i = 0; i < rq->count; i++)
        if (rq->moduli[i] > top) top = rq->moduli[i];
    unsigned bits = 0;
    while (bits < 64 && (top >> bits)) bits++;
    *k = (ntt_wisdom_key){.width = (unsigned)rq->width, .logn = ntt_log2(rq->n), .bits = bits,
                         .nmod = (unsigned)rq->count,
                         .flags = rq->o.flags & NTT_FLAG_NATURAL_ORDER,
                         .work = (unsigned)rq->o.work, .batch = rq->o.batch,
                         .backend = rq->auto_free ? NTT_BACKEND_AUTO : (int)rq->asked,
                         .modmul = (int)rq->o.modmul, .threads = rq->o.threads};
}

static bool key_eq(const ntt_wisdom_key *a, const ntt_wisdom_key *b)
{
    return a->width == b->width && a->logn == b->logn && a->bits == b->bits &&
           a->nmod == b->nmod && a->flags == b->flags && a->work == b->work &&
           a->batch == b->batch && a->backend == b->backend && a->modmul == b->modmul &&
           a->threads == b->threads;
}

static entry *find(const ntt_wisdom_key *k)
{
    for (size_t i = 0; i < used; i++)
        if (key_eq(&store[i].key, k)) return &store[i];
    return NULL;
}

/* Room for `more` entries (lock held). */
static bool reserve(size_t more)
{
    if (used + more <= cap) return true;
    size_t c = cap ? cap : 16;
    while (c < used + more) c *= 2;
    entry *s = realloc(store, c * sizeof *s);
    if (!s) return false;
    store = s, cap = c;
    return true;
}

/* Adds or replaces, with room reserved (lock held). */
static void put(const ntt_wisdom_key *k, const ntt_wisdom_answer *a)
{
    entry *e = find(k);
    if (!e) e = &store[used++];
    e->key = *k;
    e->ans = *a;
}

/* The whole file at path, NUL-terminated, in *text (malloc'd).  Errors:
   NTT_EIO (cannot open or read), NTT_EFORMAT (a NUL inside: not text),
   NTT_ENOMEM. */
static ntt_status slurp(const char *path, char **text)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NTT_EIO;
    char *t = NULL;
    size_t len = 0, room = 0;
    ntt_status s = NTT_OK;
    for (;;) {
        if (len + 4096 + 1 > room) {
            room = room ? 2 * room : 8192;
            char *g = realloc(t, room);
            if (!g) {
                s = NTT_ENOMEM;
                break;
            }
            t = g;
        }
        const size_t got = fread(t + len, 1, room - len - 1, f);
        len += got;
        if (got == 0) break;
    }
    if (s == NTT_OK && ferror(f)) s = NTT_EIO;
    fclose(f);
    if (s == NTT_OK) {
        t[len] = 0;
        if (strlen(t) != len) s = NTT_EFORMAT;
    }
    if (s != NTT_OK) {
        free(t);
        return s;
    }
    *text = t;
    return NTT_OK;
}

static ntt_status import_text(const char *text);
static pthread_once_t system_once = PTHREAD_ONCE_INIT;

/* The system wisdom: NTT_WISDOM's file, "" or "off" none, unset the
   build's default path.  What cannot be read, or is not this machine's,
   is passed over: a plan never fails for it. */
static void read_system(void)
{
    const char *path = getenv("NTT_WISDOM");
    if (path && (!*path || strcmp(path, "off") == 0)) return;
    char *text;
    if (slurp(path ? path : NTT_SYSTEM_WISDOM, &text) != NTT_OK) return;
    (void)import_text(text);
    free(text);
}

static void system_wisdom(void) { (void)pthread_once(&system_once, read_system); }

bool ntt_wisdom_lookup(const ntt_wisdom_key *k, ntt_plan_mode mode, ntt_wisdom_answer *a)
{
    system_wisdom();
    pthread_mutex_lock(&lock);
    const entry *e = find(k);
    const bool hit = e && (mode != NTT_PLAN_EXHAUSTIVE || e->ans.mode == NTT_PLAN_EXHAUSTIVE);
    if (hit) *a = e->ans;
    pthread_mutex_unlock(&lock);
    return hit;
}

ntt_status ntt_wisdom_add(const ntt_wisdom_key *k, const ntt_wisdom_answer *a)
{
    system_wisdom();
    pthread_mutex_lock(&lock);
    const bool room = reserve(1);
    if (room) put(k, a);
    pthread_mutex_unlock(&lock);
    return room ? NTT_OK : NTT_ENOMEM;
}

void ntt_wisdom_forget(void)
{
    system_wisdom();
    pthread_mutex_lock(&lock);
    free(store);
    store = NULL;
    used = cap = 0;
    pthread_mutex_unlock(&lock);
}

/* ---- text out ---------------------------------------------------------------- */

static int format_entry(char *buf, size_t size, const entry *e)
{
    const ntt_wisdom_key *k = &e->key;
    const ntt_wisdom_answer *a = &e->ans;
    return snprintf(buf, size,
                    "plan w=%u logn=%u bits=%u nmod=%u flags=%u batch=%zu work=%s backend=%s "
                    "modmul=%s threads=%d -> mode=%s backend=%s modmul=%s threads=%d k64=%s "
                    "kernels=%s time=%.1f\n",
                    k->width, k->logn, k->bits, k->nmod, k->flags, k->batch,
                    work_names[k->work], ntt_backend_name((ntt_backend)k->backend),
                    ntt_modmul_name((ntt_modmul)k->modmul), k->threads, mode_names[a->mode],
                    ntt_backend_name(a->cfg.backend), ntt_modmul_name(a->cfg.modmul),
                    a->cfg.threads, ntt_k64_name(a->cfg.k64), a->kernels, a->time_ns);
}

ntt_status ntt_wisdom_export_to_string(char **text)
{
    if (!text) return NTT_EINVAL;
    *text = NULL;
    system_wisdom();
    const char *m = machine();
    pthread_mutex_lock(&lock);
    /* Two passes: the length, then the text into one block. */
    size_t len = strlen(HEADER) + 1 + strlen("machine ") + strlen(m) + 1 + strlen("end\n");
    for (size_t i = 0; i < used; i++) len += (size_t)format_entry(NULL, 0, &store[i]);
    char *s = malloc(len + 1);
    if (s) {
        size_t k = (size_t)snprintf(s, len + 1, "%s\nmachine %s\n", HEADER, m);
        for (size_t i = 0; i < used; i++) k += (size_t)format_entry(s + k, len + 1 - k, &store[i]);
        snprintf(s + k, len + 1 - k, "end\n");
    }
    pthread_mutex_unlock(&lock);
    if (!s) return NTT_ENOMEM;
    *text = s;
    return NTT_OK;
}

static ntt_status emit_text(FILE *f, const void *arg)
{
    const char *t = arg;
    const size_t len = strlen(t);
    if (fwrite(t, 1, len, f) != len || fflush(f) != 0) return NTT_EIO;
    return NTT_OK;
}

ntt_status ntt_wisdom_export_to_file(const char *path)
{
    if (!path || !*path) return NTT_EINVAL;
    char *t;
    ntt_status s = ntt_wisdom_export_to_string(&t);
    if (s != NTT_OK) return s;
    s = ntt_write_atomic(path, emit_text, t, NULL);
    free(t);
    return s;
}

/* ---- text in ----------------------------------------------------------------- */

/* The next space-separated token of *p, of the form key=value, into val
   (at most vcap - 1 bytes); false where it is not exactly that. */
static bool field(const char **p, const char *key, char *val, size_t vcap)
{
    const char *s = *p;
    const size_t kl = strlen(key);
    if (strncmp(s, key, kl) != 0 || s[kl] != '=') return false;
    s += kl + 1;
    size_t k = 0;
    while (*s && *s != ' ' && *s != '\n') {
        if (k + 1 >= vcap) return false;
        val[k++] = *s++;
    }
    val[k] = 0;
    if (k == 0) return false;
    if (*s == ' ') s++;
    *p = s;
    return true;
}

/* A decimal in [lo, hi], digits only. */
static bool field_uint(const char **p, const char *key, unsigned long long lo,
                       unsigned long long hi, unsigned long long *v)
{
    char b[24];
    if (!field(p, key, b, sizeof b)) return false;
    unsigned long long x = 0;
    for (const char *c = b; *c; c++) {
        if (*c < '0' || *c > '9' || x > (hi - (unsigned)(*c - '0')) / 10) return false;
        x = 10 * x + (unsigned)(*c - '0');
    }
    *v = x;
    return x >= lo;
}

static bool field_name(const char **p, const char *key, const char *const *names, size_t count,
                       int *v)
{
    char b[24];
    if (!field(p, key, b, sizeof b)) return false;
    *v = name_index(names, count, b);
    return *v >= 0;
}

static bool field_backend(const char **p, const char *key, int *v)
{
    char b[24];
    ntt_backend x;
    if (!field(p, key, b, sizeof b) || ntt_backend_from_name(b, &x) != NTT_OK) return false;
    *v = (int)x;
    return true;
}

static bool field_modmul(const char **p, const char *key, int *v)
{
    char b[24];
    ntt_modmul x;
    if (!field(p, key, b, sizeof b) || ntt_modmul_from_name(b, &x) != NTT_OK) return false;
    *v = (int)x;
    return true;
}

/* One plan line (without its newline) into *e; false where malformed. */
static bool parse_plan(const char *s, entry *e)
{
    unsigned long long w, logn, bits, nmod, flags, batch, th, ath;
    int work, backend, modmul, mode, abackend, amodmul, k64;
    char kernels[16], time[40];
    if (strncmp(s, "plan ", 5) != 0) return false;
    s += 5;
    if (!field_uint(&s, "w", 32, 64, &w) || (w != 32 && w != 64) ||
        !field_uint(&s, "logn", 1, NTT_MAX_LOG2_N, &logn) || !field_uint(&s, "bits", 2, 63, &bits) ||
        !field_uint(&s, "nmod", 1, 1u << 20, &nmod) || !field_uint(&s, "flags", 0, 3, &flags) ||
        !field_uint(&s, "batch", 1, 1ull << 40, &batch) ||
        !field_name(&s, "work", work_names, COUNT(work_names), &work) ||
        !field_backend(&s, "backend", &backend) || !field_modmul(&s, "modmul", &modmul) ||
        !field_uint(&s, "threads", 0, 1u << 16, &th))
        return false;
    if (strncmp(s, "-> ", 3) != 0) return false;
    s += 3;
    if (!field_name(&s, "mode", mode_names, COUNT(mode_names), &mode) ||
        (mode != NTT_PLAN_MEASURE && mode != NTT_PLAN_EXHAUSTIVE) ||
        !field_backend(&s, "backend", &abackend) || abackend == NTT_BACKEND_AUTO ||
        !field_modmul(&s, "modmul", &amodmul) || !field_uint(&s, "threads", 0, 1u << 16, &ath) ||
        !field_name(&s, "k64", k64_names, COUNT(k64_names), &k64) ||
        !field(&s, "kernels", kernels, sizeof kernels) || !field(&s, "time", time, sizeof time) ||
        *s)
        return false;
    char *end;
    errno = 0;
    const double t = strtod(time, &end);
    if (*end || errno || !isfinite(t) || t < 0) return false;
    *e = (entry){.key = {.width = (unsigned)w, .logn = (unsigned)logn, .bits = (unsigned)bits,
                         .nmod = (unsigned)nmod, .flags = (unsigned)flags, .work = (unsigned)work,
                         .batch = (size_t)batch, .backend = backend, .modmul = modmul,
                         .threads = (int)th},
                 .ans = {.mode = mode,
                         .cfg = {(ntt_backend)abackend, (ntt_modmul)amodmul, (int)ath,
                                 (unsigned)k64},
                         .time_ns = t}};
    snprintf(e->ans.kernels, sizeof e->ans.kernels, "%s", kernels);
    return true;
}

/* The line at *p (up to '\n' or the end) into buf; false where it is
   longer than cap - 1 or the text ends without a newline. */
static bool next_line(const char **p, char *buf, size_t cap_)
{
    const char *s = *p;
    const char *nl = strchr(s, '\n');
    if (!nl || (size_t)(nl - s) >= cap_) return false;
    memcpy(buf, s, (size_t)(nl - s));
    buf[nl - s] = 0;
    *p = nl + 1;
    return true;
}

/* All or nothing: the whole text is checked (format, then the machine)
   and its entries collected before the store is touched. */
static ntt_status import_text(const char *text)
{
    char line[600];
    const char *p = text;
    if (!next_line(&p, line, sizeof line) || strcmp(line, HEADER) != 0) return NTT_EFORMAT;
    if (!next_line(&p, line, sizeof line) || strncmp(line, "machine ", 8) != 0)
        return NTT_EFORMAT;
    const bool ours = strcmp(line + 8, machine()) == 0;
    size_t n = 0, room = 0;
    entry *got = NULL;
    ntt_status s = NTT_EFORMAT;
    while (next_line(&p, line, sizeof line)) {
        if (strcmp(line, "end") == 0) {
            /* Only blank space may follow. */
            while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
            s = *p ? NTT_EFORMAT : NTT_OK;
            break;
        }
        if (n == room) {
            room = room ? 2 * room : 16;
            entry *g = realloc(got, room * sizeof *g);
            if (!g) {
                s = NTT_ENOMEM;
                break;
            }
            got = g;
        }
        if (!parse_plan(line, &got[n])) break;
        n++;
    }
    if (s == NTT_OK && !ours) s = NTT_EMACHINE;
    if (s == NTT_OK) {
        pthread_mutex_lock(&lock);
        if (reserve(n))
            for (size_t i = 0; i < n; i++) put(&got[i].key, &got[i].ans);
        else
            s = NTT_ENOMEM;
        pthread_mutex_unlock(&lock);
    }
    free(got);
    return s;
}

ntt_status ntt_wisdom_import_from_string(const char *text)
{
    if (!text) return NTT_EINVAL;
    system_wisdom();
    return import_text(text);
}

ntt_status ntt_wisdom_import_from_file(const char *path)
{
    if (!path) return NTT_EINVAL;
    system_wisdom();
    char *text;
    ntt_status s = slurp(path, &text);
    if (s != NTT_OK) return s;
    s = import_text(text);
    free(text);
    return s;
}
