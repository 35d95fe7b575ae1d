/*
 * env_arm64.h - the arm64 CPU's part of the environment (env_arm64.c).
 */
#ifndef COPYSCOPE_ENV_ARM64_H
#define COPYSCOPE_ENV_ARM64_H

#include "env/env.h"

/*
 * On an arm64 build: set cpu.model (implementer and part from the MIDR),
 * cpu.microcode, cpu.flags (the copy-relevant HWCAP features) and the
 * cpu.arm64.* keys (midr_source, hwcap, pac, bti, sve_vector_length,
 * pan, kpti), replacing what /proc/cpuinfo gave.  Elsewhere nothing.
 * Returns 0, or -1 on ENOMEM.
 */
int env_arm64_capture(struct env *env);

#endif
