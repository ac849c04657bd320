/* A product of a course file as `ntt mul` and `ntt cases` run it: the
   --backend, --modmul and --variant options, the call, and the text of a
   failure. */
#ifndef NTT_PRODUCT_H
#define NTT_PRODUCT_H

#include "cli.h"
#include "ntt.h"
#include "course.h" /* the course ladder (src/course, not installed) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The public plan options and the course-ladder variant. */
typedef struct {
    ntt_plan_options plan;
    ntt_variant variant;
} product_opts;

/* The values of --modmul and --variant, taken as cli_opt.take (cli.h):
   dest is an ntt_modmul * / ntt_variant *. */
int product_take_modmul(const char *cmd, FILE *err, const char *name, void *dest);
int product_take_variant(const char *cmd, FILE *err, const char *name, void *dest);
/* The --backend (its value into *bname, checked later by product_backend),
   --modmul and --variant entries of an option table (cli.h). */
#define PRODUCT_OPTIONS(bname, o)                                                  \
    {"--backend", NULL, CLI_TEXT, (bname), 0, 0, NULL},                            \
        {"--modmul", NULL, CLI_TEXT, &(o)->plan.modmul, 0, 0, product_take_modmul}, \
        {"--variant", NULL, CLI_TEXT, &(o)->variant, 0, 0, product_take_variant}
/* The backend named `name`: 0, or the exit code after printing why (2 for
   an unknown name, and for auto while NTT_BACKEND names no backend; 7 for
   a backend that cannot run here).  all_too: the
   message lists "all" among the valid names. */
int product_backend(const char *cmd, const char *name, bool all_too, ntt_backend *b);
/* c = the 2n-1 coefficients of the file's product. */
ntt_status product_run(const ntt_course_input *in, ntt_backend b, const product_opts *o,
                       uint64_t *c);
/* "PATH: product failed on backend B (modmul M, variant V): WHY: DETAIL",
   naming the backend that actually ran, so that it says which one lacks
   the variant or modmul; DETAIL is the library's ntt_error_detail() of the
   failed call, escaped by ntt_escape_bytes (left out when empty).  Call it
   right after the failure, before another library call.  len >=
   PRODUCT_FAILURE_LEN keeps the whole detail. */
#define PRODUCT_FAILURE_LEN 1536
void product_failure_text(char *buf, size_t len, const char *path, ntt_status st,
                          ntt_backend b, const product_opts *o);

#endif
