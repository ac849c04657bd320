/*
 * The readers take a path: each fuzz input is written to one scratch file
 * per process (in /dev/shm where it exists, so no disk is touched), removed
 * at exit.
 */
#ifndef NTT_FUZZ_FILE_H
#define NTT_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_path[256];

static void fuzz_file_remove(void)
{
    if (fuzz_path[0]) unlink(fuzz_path);
}

/* The scratch file's path, holding exactly data[0 .. size-1]. */
static const char *fuzz_file(const uint8_t *data, size_t size)
{
    if (!fuzz_path[0]) {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(fuzz_path, sizeof fuzz_path, "%s/ntt-fuzz-XXXXXX", dir);
        int fd = mkstemp(fuzz_path);
        if (fd < 0) {
            perror("fuzz: mkstemp");
            abort();
        }
        close(fd);
        atexit(fuzz_file_remove);
    }
    FILE *f = fopen(fuzz_path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("fuzz: writing the scratch file");
        abort();
    }
    return fuzz_path;
}

#endif
