/* The reference libraries behind one interface (ref.h): the libraries the
   build found are dispatched to, the others report themselves missing, so
   that callers need no #ifdef. */
#include "ref.h"

const char *ref_name(ref_lib lib)
{
    switch (lib) {
#ifdef NTT_HAVE_FLINT
    case REF_FLINT: return ref_flint_name();
#endif
#ifdef NTT_HAVE_NTL
    case REF_NTL: return ref_ntl_name();
#endif
    default: return NULL;
    }
}

const char *ref_unprepared(ref_lib lib)
{
    return lib == REF_NTL ? "unavailable (modulus beyond NTL's single precision)"
                          : "FAILED (could not prepare)";
}

ref_job *ref_prepare(ref_lib lib, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                     uint64_t p)
{
    switch (lib) {
#ifdef NTT_HAVE_FLINT
    case REF_FLINT: return ref_flint_prepare(a, la, b, lb, p);
#endif
#ifdef NTT_HAVE_NTL
    case REF_NTL: return ref_ntl_prepare(a, la, b, lb, p);
#endif
    default: (void)a, (void)la, (void)b, (void)lb, (void)p; return NULL;
    }
}

void ref_run(ref_lib lib, ref_job *j)
{
    switch (lib) {
#ifdef NTT_HAVE_FLINT
    case REF_FLINT: ref_flint_run(j); break;
#endif
#ifdef NTT_HAVE_NTL
    case REF_NTL: ref_ntl_run(j); break;
#endif
    default: (void)j; break;
    }
}

void ref_result(ref_lib lib, ref_job *j, uint64_t *c)
{
    switch (lib) {
#ifdef NTT_HAVE_FLINT
    case REF_FLINT: ref_flint_result(j, c); break;
#endif
#ifdef NTT_HAVE_NTL
    case REF_NTL: ref_ntl_result(j, c); break;
#endif
    default: (void)j, (void)c; break;
    }
}

void ref_free(ref_lib lib, ref_job *j)
{
    if (!j) return;
    switch (lib) {
#ifdef NTT_HAVE_FLINT
    case REF_FLINT: ref_flint_free(j); break;
#endif
#ifdef NTT_HAVE_NTL
    case REF_NTL: ref_ntl_free(j); break;
#endif
    default: break;
    }
}
