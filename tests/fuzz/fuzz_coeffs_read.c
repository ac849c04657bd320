/* libFuzzer: ntt_coeffs_read on arbitrary bytes.  What it accepts must come
   back unchanged through ntt_coeffs_write and a second read (the writer is
   exercised on every accepted list). */
#include "fuzz_file.h"
#include "fuzz_input.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    uint64_t *c = (uint64_t *)&c;
    size_t len = 12345;
    ntt_io_error err;
    ntt_status st = ntt_coeffs_read(path, &c, &len, &err);
    FUZZ_EXPECT(memchr(err.message, '\0', sizeof err.message) != NULL, "message not terminated");
    /* Input bytes reach messages escaped: a terminal gets printable ASCII. */
    for (const char *q = err.message; *q; q++)
        FUZZ_EXPECT(*q >= 0x20 && *q < 0x7f, "byte 0x%02x in the message",
                    (unsigned)(unsigned char)*q);
    if (st != NTT_OK) {
        FUZZ_EXPECT(st == NTT_EFORMAT || st == NTT_EIO || st == NTT_ENOMEM, "status %d", (int)st);
        FUZZ_EXPECT(c == NULL && len == 0, "outputs not cleared on failure");
        FUZZ_EXPECT(err.message[0] != '\0', "failure without a message");
        return 0;
    }
    FUZZ_EXPECT(2 * len <= size + 1, "%zu values from %zu bytes", len, size);
    st = ntt_coeffs_write(path, c, len, &err);
    FUZZ_EXPECT(st == NTT_OK, "write: %s", err.message);
    uint64_t *d = NULL;
    size_t dlen = 0;
    st = ntt_coeffs_read(path, &d, &dlen, &err);
    FUZZ_EXPECT(st == NTT_OK, "re-read: %s", err.message);
    FUZZ_EXPECT(dlen == len, "round trip: %zu values, then %zu", len, dlen);
    for (size_t i = 0; i < len; i++)
        FUZZ_EXPECT(c[i] == d[i], "round trip: value %zu differs", i);
    free(c);
    free(d);
    return 0;
}
