/* libFuzzer: ntt_course_read on arbitrary bytes.  Whatever it accepts must
   obey the format's rules; whatever it refuses must leave *in zeroed and a
   terminated message. */
#include "fuzz_file.h"
#include "fuzz_input.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    ntt_course_input in;
    ntt_io_error err;
    memset(&in, 0xA5, sizeof in);
    ntt_status st = ntt_course_read(path, &in, &err);
    FUZZ_EXPECT(memchr(err.message, '\0', sizeof err.message) != NULL, "message not terminated");
    /* Input bytes reach messages escaped: a terminal gets printable ASCII. */
    for (const char *q = err.message; *q; q++)
        FUZZ_EXPECT(*q >= 0x20 && *q < 0x7f, "byte 0x%02x in the message",
                    (unsigned)(unsigned char)*q);
    if (st != NTT_OK) {
        FUZZ_EXPECT(st == NTT_EFORMAT || st == NTT_ERANGE || st == NTT_EIO || st == NTT_ENOMEM,
                    "status %d", (int)st);
        FUZZ_EXPECT(in.n == 0 && in.p == 0 && !in.a && !in.b, "*in not zeroed on failure");
        FUZZ_EXPECT(err.message[0] != '\0', "failure without a message");
        return 0;
    }
    FUZZ_EXPECT(in.n >= 1 && in.n <= ((size_t)1 << 29), "n = %zu", in.n);
    FUZZ_EXPECT(in.p >= 2 && in.p < ((uint64_t)1 << 63), "p = %llu", (unsigned long long)in.p);
    FUZZ_EXPECT(in.a && in.b, "arrays missing");
    /* Every coefficient is a decimal token of the input, below p: at least
       2 bytes each (digit and separator), less the last separator. */
    FUZZ_EXPECT(2 * in.n * 2 - 1 <= size, "more coefficients (%zu) than the bytes hold", 2 * in.n);
    for (size_t i = 0; i < in.n; i++)
        FUZZ_EXPECT(in.a[i] < in.p && in.b[i] < in.p, "coefficient %zu not below p", i);
    ntt_course_free(&in);
    FUZZ_EXPECT(!in.a && !in.b && in.n == 0, "ntt_course_free left fields");
    return 0;
}
