/* A product of a course file as `ntt mul` and `ntt cases` run it: the
   --backend, --modmul and --variant options, the call, and the text of a
   failure. */
#ifndef NTT_PRODUCT_H
#define NTT_PRODUCT_H

#include "ntt.h"
#include "course.h" /* the course ladder (src/course, not installed) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The public plan options and the course-ladder variant. */
typedef struct {
    ntt_plan_options plan;
    ntt_variant variant;
} product_opts;

/* --backend (its value into *bname, checked later by product_backend),
   --modmul or --variant at argv[*i]: 1 if it was one of them, 0 if not,
   -(exit code) after printing a usage error. */
int product_option(const char *cmd, int argc, char **argv, int *i, const char **bname,
                   product_opts *o);
/* The backend named `name`: 0, or the exit code after printing why (2 for
   an unknown name, 7 for a backend that cannot run here).  all_too: the
   message lists "all" among the valid names. */
int product_backend(const char *cmd, const char *name, bool all_too, ntt_backend *b);
/* c = the 2n-1 coefficients of the file's product. */
ntt_status product_run(const ntt_course_input *in, ntt_backend b, const product_opts *o,
                       uint64_t *c);
/* "PATH: product failed on backend B (modmul M, variant V): why", naming
   the backend that actually ran, so that it says which one lacks the
   variant or modmul. */
void product_failure_text(char *buf, size_t len, const char *path, ntt_status st,
                          ntt_backend b, const product_opts *o);

#endif
