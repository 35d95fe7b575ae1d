/*
 * sample_flags.h - why a kept sample was flagged as disturbed: the bits
 * the runner sets (runner/interference.c decides them) and the results
 * model stores, decodes and prints.
 */
#ifndef COPYSCOPE_SAMPLE_FLAGS_H
#define COPYSCOPE_SAMPLE_FLAGS_H

#define INTERF_FLAG_OTHER 1u	/* other CPU time above the threshold */
#define INTERF_FLAG_STEAL 2u	/* steal time above the threshold */
#define INTERF_FLAG_CANARY 4u	/* the canary loop ran slow */
#define INTERF_FLAG_OFFCPU 8u	/* a worker did not run for part of the
				   window (preempted, waiting for a CPU)
				   and the figures carry that time */

/* The share of a sample's window (%) its workers may not run before the
   sample is flagged offcpu, or its on-CPU figures are noted. */
#define SAMPLE_OFFCPU_PCT 5.0

#endif
