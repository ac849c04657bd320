/* Status strings and the names of backends and modmul kinds. */
#include "internal.h"

#include <strings.h>

unsigned ntt_version(void) { return NTT_VERSION_CODE; }

const char *ntt_status_string(ntt_status s)
{
    switch (s) {
    case NTT_OK: return "success";
    case NTT_EINVAL: return "invalid argument";
    case NTT_EMODULUS: return "unsuitable modulus (not prime, out of range, or no root of unity of the needed order)";
    case NTT_ERANGE: return "input coefficient out of range (must be < p)";
    case NTT_ENOMEM: return "out of memory";
    case NTT_EUNSUPPORTED: return "backend or variant not available";
    case NTT_EBACKEND: return "backend run-time failure";
    case NTT_EIO: return "input/output error";
    case NTT_EFORMAT: return "malformed input";
    case NTT_EMACHINE: return "wisdom made on another machine or library version";
    }
    return "unknown status";
}

static const char *const backend_names[NTT_BACKEND_COUNT] = {"auto",   "scalar", "avx2",
                                                              "openmp", "cuda",   "avx512"};
static const char *const modmul_names[] = {"default", "naive", "barrett", "montgomery", "shoup"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int lookup(const char *const *names, size_t count, const char *name)
{
    if (!name) return -1;
    for (size_t i = 0; i < count; i++)
        if (strcasecmp(names[i], name) == 0) return (int)i;
    return -1;
}

const char *ntt_backend_name(ntt_backend b)
{
    return (unsigned)b < NTT_BACKEND_COUNT ? backend_names[b] : "unknown";
}

ntt_status ntt_backend_from_name(const char *name, ntt_backend *b)
{
    int i = lookup(backend_names, COUNT(backend_names), name);
    if (i < 0 || !b) return NTT_EINVAL;
    *b = (ntt_backend)i;
    return NTT_OK;
}

const char *ntt_modmul_name(ntt_modmul m)
{
    return (unsigned)m < COUNT(modmul_names) ? modmul_names[m] : "unknown";
}

ntt_status ntt_modmul_from_name(const char *name, ntt_modmul *m)
{
    int i = lookup(modmul_names, COUNT(modmul_names), name);
    if (i < 0 || !m) return NTT_EINVAL;
    *m = (ntt_modmul)i;
    return NTT_OK;
}
