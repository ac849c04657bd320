#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the benchmarks need,
# skipping those already present.  Needs root (or sudo) only when something
# is missing.
set -euo pipefail
pkgs=(cmake make gcc g++ pkg-config libgmp-dev libflint-dev libntl-dev gnuplot-nox python3)
# hook: the Python package's tests (issue 48): numpy, pytest, sympy (the
# independent reference), pip and setuptools (the offline install test)
pkgs+=(python3-numpy python3-pytest python3-sympy python3-pip python3-setuptools)
# The documented Python install (python/README.md): a virtual environment
# (python3-venv), and wheel, which Debian 12's setuptools (66, older than
# 70) needs to build the package without build isolation.
pkgs+=(python3-venv python3-wheel)
# MPI (issue 49): libntt_mpi, ntt-mpi and the tests of label mpi.
pkgs+=(libopenmpi-dev openmpi-bin)
# CC=clang builds take clang and its OpenMP runtime.
case "${CC:-}" in *clang*) pkgs+=(clang libomp-dev) ;; esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null; then
  SUDO=(sudo)
else
  echo "error: need root to install ${missing[*]} (apt-get)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
