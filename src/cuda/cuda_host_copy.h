// Host-side copies between a caller's items (stride apart, uint64_t where
// a u32 plan's product has io64) and a pinned staging buffer (items n
// apart, the plan's width): the host-pointer calls of the CUDA backend
// (cuda_staging.cpp) and of the course ladder (src/course).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nttc {

// Copies count items of len elements (item stride `stride` in src, n in the
// pinned buffer), converting from uint64_t when src64.
inline void stage_in(void *dst, const void *src, bool src64, size_t elem, size_t len, size_t count,
              size_t stride, size_t n)
{
    for (size_t it = 0; it < count; it++) {
        char *d = static_cast<char *>(dst) + it * n * elem;
        if (src64 && elem == 4) {
            const uint64_t *s = static_cast<const uint64_t *>(src) + it * stride;
            uint32_t *o = reinterpret_cast<uint32_t *>(d);
            for (size_t i = 0; i < len; i++) o[i] = (uint32_t)s[i];
        } else {
            memcpy(d, static_cast<const char *>(src) + it * stride * elem, len * elem);
        }
    }
}

inline void stage_out(void *dst, const void *src, bool dst64, size_t elem, size_t len, size_t count,
               size_t stride, size_t n)
{
    for (size_t it = 0; it < count; it++) {
        const char *s = static_cast<const char *>(src) + it * n * elem;
        if (dst64 && elem == 4) {
            const uint32_t *v = reinterpret_cast<const uint32_t *>(s);
            uint64_t *o = static_cast<uint64_t *>(dst) + it * stride;
            for (size_t i = 0; i < len; i++) o[i] = v[i];
        } else {
            memcpy(static_cast<char *>(dst) + it * stride * elem, s, len * elem);
        }
    }
}

}  // namespace nttc
