#!/bin/sh
# unavailable_backend.sh NTT DATA
# A backend `ntt info` reports as not available must be refused by `ntt mul`
# with exit status 7 and a message saying so.  Skips (77) when every backend
# is available here.
set -u
ntt=$1 data=$2
missing=$("$ntt" info | sed -n 's/^  \([a-z0-9]*\)  *not available$/\1/p' | head -n 1)
if [ -z "$missing" ]; then
    echo "every backend is available here: nothing to test"
    exit 77
fi
exec sh "$(dirname "$0")/expect_exit.sh" 7 --stderr "backend '$missing' is not available" \
    -- "$ntt" mul "$data/0.in" --backend "$missing"
