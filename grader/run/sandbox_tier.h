/* sandbox_tier.h - what the tier probe found (the sandbox's third layer,
 * above sandbox_argv.h; run/sandbox.h has sandbox_tier() itself): the
 * paths and the choice the view needs. Valid once sandbox_tier() has
 * returned SANDBOX_BWRAP or SANDBOX_UID. */
#ifndef CUGRADE_SANDBOX_TIER_H
#define CUGRADE_SANDBOX_TIER_H

const char *tier_bwrap_path(void); /* bubblewrap, absolute (first tier) */
const char *tier_jail_path(void);  /* bin/cugrade-jail, absolute */
int tier_jail_userns(void);        /* root in bubblewrap: the jail makes a user namespace */

/* 1 if this bwrap has --unsetenv (0.5 and later); probed once. */
int tier_bwrap_unsets(void);

#endif
