/*
 * pipe_matrix_pressure.h - pipe.matrix's memory pressure (pressure=vm):
 * a stress-ng vm stressor holding part of the free memory while the
 * configuration runs.
 */
#ifndef COPYSCOPE_PIPE_MATRIX_PRESSURE_H
#define COPYSCOPE_PIPE_MATRIX_PRESSURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Start stress-ng's vm stressor with vm_pct% of MemAvailable, in its own
 * process group, killed with SIGTERM (which stress-ng passes on to its
 * stressors) should copyscope die first; wait (up to a minute) until it
 * holds most of its memory.  *stress_pid gets its pid while it runs (0
 * when it is not running).  Returns WL_OK with what it holds in note
 * (note_len bytes), or WL_EFAIL with the reason in err (errlen bytes).
 */
int pm_pressure_start(int64_t vm_pct, pid_t *stress_pid, char *err,
		      size_t errlen, char *note, size_t note_len);

/*
 * Stop the stressor *stress_pid (nothing if it is 0): SIGTERM to its
 * group, a wait, SIGKILL to what is left, reaped, then a wait while its
 * orphaned children give their memory back.  *stress_pid becomes 0.
 */
void pm_pressure_stop(pid_t *stress_pid);

#endif
