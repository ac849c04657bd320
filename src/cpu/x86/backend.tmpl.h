/*
 * TEMPLATE backend.tmpl.h: the ops-table pieces of an x86 backend (which
 * kernels a plan runs, the plan's init), instantiated once by each ISA's
 * translation unit (avx2.c, avx512.c), the only files compiled with that
 * ISA's flags.  Both run the same kernels; the AVX-512 unit has 32 vector
 * registers instead of 16, masked shuffles where AVX2 needs a shift and a
 * blend (u32x8_hi_halves), and adds the 512-bit widths: the wide levels
 * and (from n = 1024) the u32 leaves on 16 lanes, the FP64 kernels on 8.
 *
 * Expects  X86_AVX512    1 to pick the 512-bit widths too, else 0;
 *          X86_NAME(n)   the name under which the unit exports n
 *                        (ntt_avx2_##n);
 *          the kernel tables of kernels_u32.tmpl.h and kernels_f64.tmpl.h,
 *          included before it.
 * Defines  X86_NAME(kernel_choice)  the kernels per plan and modulus, which
 *                                   the threaded driver runs too (the
 *                                   registry lists them);
 *          x86_supports, x86_plan_init  (static) for the unit's ops table.
 */

/* As the scalar backend: the kinds the vector kernels do not take run the
   shared scalar code, so that every CPU backend offers every kind. */
static int x86_supports(ntt_modmul m) { return ntt_scalar_ops.supports(m); }

static const kern_u32 *pick32(const ntt_plan *plan, const ntt_modulus *m)
{
    (void)m;
#if X86_AVX512
    /* 512-bit leaves where the transform holds them (see U32_LEAVES). */
    if (plan->n >= kernels_shoup16.min_n) {
        if (plan->modmul == NTT_MODMUL_SHOUP) return &kernels_shoup16;
        if (plan->modmul == NTT_MODMUL_MONTGOMERY) return &kernels_mont16;
    }
#endif
    if (plan->modmul == NTT_MODMUL_SHOUP) return &kernels_shoup8;
    if (plan->modmul == NTT_MODMUL_MONTGOMERY) return &kernels_mont8;
    return ntt_scalar_kernels_u32(plan->modmul);
}

/* The rule (plan->k64 NTT_K64_RULE): IFMA below 2^52 where the CPU has
   it; else FP64 below 2^51 and the 64-bit lanes (AVX-512) up to 2^62.  A
   family the planner holds the plan to (plan->k64) where it applies,
   else the scalar kernels. */
static const kern_u64 *pick64(const ntt_plan *plan, const ntt_modulus *m)
{
    const unsigned f = plan->k64;
    const bool rule = f == NTT_K64_RULE;
#if X86_AVX512 && defined(NTT_HAVE_IFMA)
    const kern_u64 *ki = rule || f == NTT_K64_IFMA ? ntt_ifma_kernels_u64(plan, m) : NULL;
    if (ki && plan->n >= ki->min_n) return ki;
#endif
    if ((rule || f == NTT_K64_FP64) && plan->modmul == NTT_MODMUL_SHOUP &&
        m->p < ((uint64_t)1 << 51)) {
#if X86_AVX512
        if (plan->n >= kernels_f64_8.min_n) return &kernels_f64_8;
#endif
        return &kernels_f64_4;
    }
#if X86_AVX512
    const kern_u64 *k = rule || f == NTT_K64_LANES64 ? ntt_lanes64_kernels_u64(plan, m) : NULL;
    if (k && plan->n >= k->min_n) return k;
#endif
    return ntt_scalar_kernels_u64(plan->modmul);
}

const ntt_cpu_kernel_choice X86_NAME(kernel_choice) = {pick32, pick64};

static ntt_status x86_plan_init(ntt_plan *plan)
{
    return ntt_cpu_plan_init(plan, &X86_NAME(kernel_choice), 1);
}
