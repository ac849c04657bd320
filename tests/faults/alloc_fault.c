/* The --wrap wrappers behind alloc_fault.h. */
#include "alloc_fault.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void __real_free(void *p);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fdopen(int fd, const char *mode);
int __real_fclose(FILE *f);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t m, size_t n);
void *__wrap_realloc(void *p, size_t n);
int __wrap_posix_memalign(void **p, size_t a, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
void __wrap_free(void *p);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fdopen(int fd, const char *mode);
int __wrap_fclose(FILE *f);

/* Atomic: the OpenMP backend's threads allocate too. */
static atomic_long armed_at, calls, live;
static atomic_bool fired;
static const char *_Atomic failed_function;

void alloc_fault_arm(long k)
{
    atomic_store(&calls, 0);
    atomic_store(&fired, false);
    atomic_store(&failed_function, NULL);
    atomic_store(&armed_at, k);
}
long alloc_fault_calls(void) { return atomic_load(&calls); }
bool alloc_fault_fired(void) { return atomic_load(&fired); }
const char *alloc_fault_function(void) { return atomic_load(&failed_function); }
long alloc_fault_live(void) { return atomic_load(&live); }

static bool fail_here(const char *fn)
{
    long k = atomic_load(&armed_at);
    if (k <= 0) return false;
    if (atomic_fetch_add(&calls, 1) + 1 != k) return false;
    atomic_store(&failed_function, fn);
    atomic_store(&fired, true);
    errno = ENOMEM;
    return true;
}

static void *counted(void *p)
{
    if (p) atomic_fetch_add(&live, 1);
    return p;
}

void *__wrap_malloc(size_t n) { return fail_here("malloc") ? NULL : counted(__real_malloc(n)); }
void *__wrap_calloc(size_t m, size_t n)
{
    return fail_here("calloc") ? NULL : counted(__real_calloc(m, n));
}
void *__wrap_realloc(void *p, size_t n)
{
    if (fail_here("realloc")) return NULL;
    void *q = __real_realloc(p, n);
    if (!p && q) atomic_fetch_add(&live, 1);
    if (p && !q && n == 0) atomic_fetch_sub(&live, 1);
    return q;
}
int __wrap_posix_memalign(void **p, size_t a, size_t n)
{
    if (fail_here("posix_memalign")) return ENOMEM;
    int r = __real_posix_memalign(p, a, n);
    if (r == 0) atomic_fetch_add(&live, 1);
    return r;
}
void *__wrap_aligned_alloc(size_t a, size_t n)
{
    return fail_here("aligned_alloc") ? NULL : counted(__real_aligned_alloc(a, n));
}
void __wrap_free(void *p)
{
    if (p) atomic_fetch_sub(&live, 1);
    __real_free(p);
}
FILE *__wrap_fopen(const char *path, const char *mode)
{
    return fail_here("fopen") ? NULL : counted(__real_fopen(path, mode));
}
FILE *__wrap_fdopen(int fd, const char *mode)
{
    return fail_here("fdopen") ? NULL : counted(__real_fdopen(fd, mode));
}
int __wrap_fclose(FILE *f)
{
    if (f) atomic_fetch_sub(&live, 1);
    return __real_fclose(f);
}
