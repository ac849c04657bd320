#!/usr/bin/env bash
# gpu_variants.sh: A/B runs on the device machine, variants alternated round by round.
#   VARS="name@bundle:ENV=V,ENV2=V ..."  each variant: a bundle directory made by
#                                        scripts/device/gpu_bundle.sh (carried) and its environment
#                                        (may be empty: "base@build-gpub:")
#   SIZES="case:log[:count] ..."         profile-mode rows: NTT_PROFILE_CASE=case
#                                        NTT_PROFILE_LOG=log ntt-bench gpu --profile
#                                        (0 u32 forward, 1 u64 nega 2^log x count, 2 u32
#                                        product, 3 u64 forward, 4 u32 nega 2^log x count,
#                                        5 u64 product, 6 / 7 cases 1 / 4 with count
#                                        distinct primes (RNS), 8 case 6's inverse, the
#                                        u64 primes from NTT_PROFILE_BITS;
#                                        count 40 unless given; every row verified)
#   ROUNDS=r (default 2), HEADLINE=1     adds ntt-bench gpu --headline to every round
# Writes $OUT/summary-var.txt (the graph-warm and queued-warm rows, tagged name-round) and $OUT/var.tgz
# (every output and JSON file).
set -u
OUT=${OUT:-$PWD/gpu-out}
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$R/env.txt"
for run in $(seq 1 "${ROUNDS:-2}"); do
  for v in $VARS; do
    head=${v%%:*} name=${head%%@*} B=${head##*@}
    read -r -a E <<< "$(echo "${v#*:}" | tr ',' ' ')"
    tag=$name-$run
    lib=LD_LIBRARY_PATH="$PWD/$B/lib"
    if [ "${HEADLINE:-0}" = 1 ]; then
      env "$lib" "${E[@]}" "$B/ntt-bench" gpu --headline --json "$R/head-$tag.json" \
        > "$R/head-$tag.txt" 2>&1 || echo "headline $tag exit $?"
      grep -E "graph warm|queued warm|host to host" "$R/head-$tag.txt" | sed "s/^/$tag /" >> "$R/summary.txt"
    fi
    for s in ${SIZES:-}; do
      c=${s%%:*} rest=${s#*:}
      L=${rest%%:*} N=${rest#*:}
      [ "$N" = "$rest" ] && N=40
      f=$R/prof-$tag-$c-$L-$N
      env "$lib" "${E[@]}" NTT_PROFILE_CASE="$c" NTT_PROFILE_LOG="$L" NTT_PROFILE_COUNT="$N" \
        NTT_PROFILE_REPS=30 "$B/ntt-bench" gpu --profile --json "$f.json" \
        > "$f.txt" 2>&1 || echo "prof $tag $s exit $?"
      grep -E "graph warm|queued warm" "$f.txt" | sed "s/^/$tag  /" >> "$R/summary.txt"
    done
  done
done
cp "$R/summary.txt" "$OUT/summary-var.txt"
tar czf "$OUT/var.tgz" -C "$OUT" r && rm -rf "$R"
cat "$OUT/summary-var.txt"
