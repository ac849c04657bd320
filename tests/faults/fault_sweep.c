#include "fault_sweep.h"

#include "test_common.h"

#include <stdlib.h>

/* A call that makes more failure points than this is taken to be looping. */
#define MAX_POINTS 100000

long fault_sweep(const fault_source *src, const fault_trial *t)
{
    for (long k = 1; k <= MAX_POINTS; k++) {
        const long live0 = src->live();
        if (t->reset) t->reset(t->arg);
        src->arm(k);
        const ntt_status st = t->call(t->arg);
        const bool fired = src->fired();
        const char *point = fired ? src->point() : "none";
        const ntt_status want = fired ? src->expected() : NTT_OK;
        src->arm(0);
        CHECK_STATUS(want, st, "%s: %s point %ld (%s)", t->name, src->name, k, point);
        if (fired && t->intact)
            CHECK(t->intact(t->arg), "%s: %s point %ld (%s) changed the caller's data", t->name,
                  src->name, k, point);
        if (t->release) t->release(t->arg);
        CHECK_EQ(live0, src->live(), "%s: live resources after %s point %ld (%s)", t->name,
                 src->name, k, point);
        if (!fired) {
            if (getenv("NTT_FAULT_VERBOSE")) printf("%s: %ld %s points\n", t->name, k - 1, src->name);
            return k - 1;
        }
    }
    CHECK(false, "%s: more than %d %s points", t->name, MAX_POINTS, src->name);
    return MAX_POINTS;
}
