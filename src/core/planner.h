/* The planner (planner.c) and the wisdom store (wisdom.c): plans chosen by
   timing the candidates the backend registry offers, and the answers kept
   as text keyed by the machine.  Core-internal; docs/PLANNER.md. */
#ifndef NTT_PLANNER_H
#define NTT_PLANNER_H

#include "internal.h"

/* A plan creation's checked arguments (plan.c validates them). */
typedef struct ntt_plan_request {
    size_t n;
    const uint64_t *moduli;
    size_t count;
    ntt_width width;
    ntt_backend asked;  /* resolved: never AUTO */
    bool auto_free;     /* asked AUTO, NTT_BACKEND unset: the CPU row is the planner's */
    ntt_plan_options o; /* batch >= 1 */
} ntt_plan_request;

/* One candidate: what a plan runs. */
typedef struct ntt_plan_config {
    ntt_backend backend;
    ntt_modmul modmul;
    int threads; /* the option (0 or 1: one thread on a serial row) */
    unsigned k64; /* NTT_K64_* */
} ntt_plan_config;

/* A candidate other than the rule's wins only when it is this much faster
   (a median within the rule's spread is noise, and MEASURE must never be
   slower than ESTIMATE); polymul_mod's CRT sets too. */
#define NTT_PLANNER_MARGIN 0.97

/* plan.c: builds the plan of rq with cfg (no planning), its choice
   recorded as the rule's; *out NULL on failure, nothing left behind. */
ntt_status ntt_plan_build(ntt_plan **out, const ntt_plan_request *rq, const ntt_plan_config *cfg);

/* planner.c: the plan of rq in rq->o.mode (MEASURE, EXHAUSTIVE or
   WISDOM_ONLY): the wisdom's answer, else the fastest candidate.  All or
   nothing: on failure *out is NULL and the store as it was. */
ntt_status ntt_planner_create(ntt_plan **out, const ntt_plan_request *rq);

/* ---- wisdom.c ------------------------------------------------------------ */

/* What an answer answers: the problem class of a request. */
typedef struct ntt_wisdom_key {
    unsigned width, logn, bits, nmod, flags, work;
    size_t batch;
    int backend; /* asked; NTT_BACKEND_AUTO where auto_free */
    int modmul;  /* asked */
    int threads; /* asked */
} ntt_wisdom_key;

typedef struct ntt_wisdom_answer {
    int mode; /* the mode that made it: MEASURE or EXHAUSTIVE */
    ntt_plan_config cfg;
    char kernels[16]; /* the kernels it was timed on (modulus 0's) */
    double time_ns;
} ntt_wisdom_answer;

void ntt_wisdom_key_of(ntt_wisdom_key *k, const ntt_plan_request *rq);
/* The store's answer for k that serves mode (EXHAUSTIVE: an EXHAUSTIVE
   answer only; MEASURE, WISDOM_ONLY: either); false if none.  Reads the
   system wisdom first, once. */
bool ntt_wisdom_lookup(const ntt_wisdom_key *k, ntt_plan_mode mode, ntt_wisdom_answer *a);
/* Adds (or replaces) k's answer.  NTT_ENOMEM leaves the store as it was. */
ntt_status ntt_wisdom_add(const ntt_wisdom_key *k, const ntt_wisdom_answer *a);
/* The names of the NTT_K64_* families in the text. */
const char *ntt_k64_name(unsigned k64);

#endif /* NTT_PLANNER_H */
