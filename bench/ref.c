/* The reference libraries behind one interface (ref.h): the libraries the
   build found are dispatched to, the others report themselves missing, so
   that callers need no #ifdef. */
#include "ref.h"

static const ref_ops *const libs[REF_COUNT] = {
#ifdef NTT_HAVE_FLINT
    [REF_FLINT] = &ref_flint_ops,
#endif
#ifdef NTT_HAVE_NTL
    [REF_NTL] = &ref_ntl_ops,
#endif
};

static const ref_ops *ops(ref_lib lib) { return (unsigned)lib < REF_COUNT ? libs[lib] : NULL; }

const char *ref_name(ref_lib lib) { return ops(lib) ? ops(lib)->name : NULL; }

const char *ref_unprepared(ref_lib lib)
{
    return lib == REF_NTL ? "unavailable (modulus beyond NTL's single precision)"
                          : "FAILED (could not prepare)";
}

ref_job *ref_prepare(ref_lib lib, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                     uint64_t p)
{
    return ops(lib) ? ops(lib)->prepare(a, la, b, lb, p) : NULL;
}

void ref_run(ref_lib lib, ref_job *j) { ops(lib)->run(j); }

void ref_result(ref_lib lib, ref_job *j, uint64_t *c) { ops(lib)->result(j, c); }

void ref_free(ref_lib lib, ref_job *j)
{
    if (j) ops(lib)->free(j);
}
