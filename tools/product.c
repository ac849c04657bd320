/* Options, call and failure text of a course file's product (product.h). */
#include "product.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void list_names(FILE *f, const char *(*name)(int), int count)
{
    for (int i = 0; i < count; i++) fprintf(f, "%s%s", i ? ", " : "", name(i));
}

static const char *backend_name_i(int i) { return ntt_backend_name((ntt_backend)i); }
static const char *modmul_name_i(int i) { return ntt_modmul_name((ntt_modmul)i); }
static const char *variant_name_i(int i) { return ntt_variant_name((ntt_variant)i); }

#define N_MODMUL (NTT_MODMUL_SHOUP + 1)

int product_backend(const char *cmd, const char *name, bool all_too, ntt_backend *b)
{
    if (ntt_backend_from_name(name, b) != NTT_OK) {
        fprintf(stderr, "%s: unknown backend '%s' (valid: ", cmd, cli_show(name).s);
        list_names(stderr, backend_name_i, NTT_BACKEND_COUNT);
        fprintf(stderr, "%s)\n", all_too ? ", all" : "");
        return EXIT_USAGE;
    }
    if (*b == NTT_BACKEND_AUTO && ntt_backend_resolve_auto() == NTT_BACKEND_AUTO) {
        /* The library would refuse AUTO (ntt.h): a setting as wrong as an
           unknown --backend, said before any input is read. */
        fprintf(stderr, "%s: NTT_BACKEND=\"%s\" names no backend (valid: ", cmd,
                cli_show(getenv("NTT_BACKEND")).s);
        list_names(stderr, backend_name_i, NTT_BACKEND_COUNT);
        fputs("; unset or empty: auto)\n", stderr);
        return EXIT_USAGE;
    }
    if (!ntt_backend_available(*b)) {
        fprintf(stderr, "%s: backend '%s' is not available on this machine (available:", cmd,
                ntt_backend_name(*b));
        for (int i = 0; i < NTT_BACKEND_COUNT; i++)
            if (ntt_backend_available((ntt_backend)i))
                fprintf(stderr, " %s", ntt_backend_name((ntt_backend)i));
        fputs(")\n", stderr);
        return EXIT_UNSUPPORTED;
    }
    return 0;
}

int product_take_modmul(const char *cmd, FILE *err, const char *name, void *dest)
{
    if (ntt_modmul_from_name(name, dest) == NTT_OK) return 0;
    fprintf(err, "%s: unknown modmul '%s' (valid: ", cmd, cli_show(name).s);
    list_names(err, modmul_name_i, N_MODMUL);
    fputs(")\n", err);
    return EXIT_USAGE;
}

int product_take_variant(const char *cmd, FILE *err, const char *name, void *dest)
{
    if (ntt_variant_from_name(name, dest) == NTT_OK) return 0;
    fprintf(err, "%s: unknown variant '%s' (valid: ", cmd, cli_show(name).s);
    list_names(err, variant_name_i, NTT_VARIANT_COUNT);
    fputs(")\n", err);
    return EXIT_USAGE;
}

ntt_status product_run(const ntt_course_input *in, ntt_backend b, const product_opts *o,
                       uint64_t *c)
{
    return ntt_polymul_mod_variant(c, in->a, in->n, in->b, in->n, in->p, b, &o->plan, o->variant);
}

void product_failure_text(char *buf, size_t len, const char *path, ntt_status st,
                          ntt_backend b, const product_opts *o)
{
    /* The detail holds user bytes (NTT_BACKEND's value) and is up to 255
       bytes; escaped, at most four characters a byte. */
    const char *detail = ntt_error_detail();
    char shown[4 * 256 + 4];
    (void)ntt_escape_bytes(shown, sizeof shown, detail, strlen(detail));
    const ntt_backend ran = b == NTT_BACKEND_AUTO ? ntt_backend_resolve_auto() : b;
    snprintf(buf, len, "%s: product failed on backend %s%s (modmul %s, variant %s): %s%s%s", path,
             b == NTT_BACKEND_AUTO && ran != b ? "auto = " : "", ntt_backend_name(ran),
             ntt_modmul_name(o->plan.modmul), ntt_variant_name(o->variant), ntt_status_string(st),
             shown[0] ? ": " : "", shown);
}
