/* The field module's layouts and its kernel table (src/field).  Not
   installed. */
#ifndef NTT_FIELD_INTERNAL_H
#define NTT_FIELD_INTERNAL_H

#include "ntt_field.h"
#include "field_arith.h"
#include "../pool/pool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ntt_field {
    field_mod m;
    unsigned bits;       /* bit length of p */
    unsigned s;          /* 2-adicity: 2^s | p - 1 */
    uint64_t z;          /* smallest quadratic non-residue */
    uint64_t g;          /* coset generator (ntt_field_create) */
    uint64_t omega[NTT_FIELD_MAX_WORDS]; /* z^((p-1)/2^s), Montgomery form */
};

/*
 * The transform kernels of one word count (field_kernels.c), over element
 * arrays of m->w words each.  The tree: node 1 is the whole array; the
 * node of twiddle index k at a level of half-size h owns 2h elements and
 * its butterflies pair element j with j + h (j < h); its children have
 * indices 2k and 2k + 1.  tw[k] = r^brv(k) (log2 n - 1 bits), so every
 * level's twiddles are a prefix of one table; itw[k] = tw[k]^-1; both in
 * Montgomery form.
 */
typedef struct field_kern {
    const char *name;
    /* Forward (Cooley-Tukey) butterflies j0 <= j < j1 of a node whose
       block starts at a: x + y wk, x - y wk. */
    void (*fwd_node)(const field_mod *m, uint64_t *a, size_t h, const uint64_t *wk, size_t j0,
                     size_t j1);
    /* Node 1 (twiddle 1), its inputs first multiplied by g[j] where g is
       not NULL. */
    void (*fwd_top)(const field_mod *m, uint64_t *a, size_t h, const uint64_t *g, size_t j0,
                    size_t j1);
    /* Inverse (Gentleman-Sande): x + y, (x - y) wk^-1. */
    void (*inv_node)(const field_mod *m, uint64_t *a, size_t h, const uint64_t *iwk, size_t j0,
                     size_t j1);
    /* Node 1's inverse butterflies, outputs j and j + h multiplied by
       s[j * ss] and s[(j + h) * ss] (ss 0: one constant; 1: a table). */
    void (*inv_top)(const field_mod *m, uint64_t *a, size_t h, const uint64_t *s, size_t ss,
                    size_t j0, size_t j1);
    /* The whole subtree of the node of twiddle index k (half-size h) at a,
       depth first. */
    void (*fwd_tree)(const field_mod *m, uint64_t *a, size_t h, size_t k, const uint64_t *tw);
    void (*inv_tree)(const field_mod *m, uint64_t *a, size_t h, size_t k, const uint64_t *itw);
    /* c[i] = a[i] b[i] R^-1, then times post R^-1 where post is not NULL,
       for i0 <= i < i1. */
    void (*pointwise)(const field_mod *m, uint64_t *c, const uint64_t *a, const uint64_t *b,
                      const uint64_t *post, size_t i0, size_t i1);
} field_kern;

/* The kernels for the prime p of w words: the unrolled instances for 4,
   6, 8 and 16 words, the generic one otherwise, each with the no-carry
   product where p has a spare top bit (fa_nc_ok); the one place the choice
   is made. */
const field_kern *field_kern_for(const uint64_t *p, size_t w);

/* Montgomery product, exponentiation, conversions for set-up code (one
   call per element, run-time w). */
void field_mul(const field_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *b);
/* r = a^e (Montgomery form in and out), e of ew words. */
void field_pow(const field_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *e, size_t ew);
/* r = x R mod p for a small integer x. */
void field_from_small(const field_mod *m, uint64_t *r, uint64_t x);
/* Index of the first of count elements >= p, count if none. */
size_t field_first_geq(const field_mod *m, const uint64_t *a, size_t count);

#endif /* NTT_FIELD_INTERNAL_H */
