/* Runs a libFuzzer harness over files and directories of inputs without
   libFuzzer (any compiler): the committed seeds of tests/fuzz/corpus, and
   every input a campaign found and a fix added there, become ordinary
   tests.  A wrong result aborts, as under the fuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) exit(2);
            buf = nb;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0) break;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 1;
}

static long run_path(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(sb.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        exit(2);
    }
    long n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        n += run_path(sub);
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    long n = 0;
    for (int i = 1; i < argc; i++) n += run_path(argv[i]);
    printf("%s: %ld inputs, no wrong result\n", argv[0], n);
    return n > 0 ? 0 : 1;
}
