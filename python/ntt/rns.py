"""ntt.rns: RNS bases and the CKKS stages of include/ntt_rns.h (issue 46).

Reserved: the C module is being written, and this package binds it once it
is in the library (the same way as ntt.Plan binds include/ntt.h).  Until
then, importing ntt.rns fails rather than offering calls that do nothing.
RNS *plans* (a batch of limbs, each under its own prime) are already
ntt.Plan(n, [q0, q1, ...]).
"""

raise ImportError("ntt.rns is not bound yet: it will wrap include/ntt_rns.h (issue 46). "
                  "For batched transforms over RNS limbs use ntt.Plan(n, [q0, q1, ...]).")
