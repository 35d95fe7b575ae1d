/*
 * common_params.c - the choices of the shared mode and place rows of
 * common_params.h, in the order of enum wl_mode and enum wl_place.  The
 * core defines them beside their declaration: workload.c checks that a
 * mode or place row names these very arrays.
 */
#include "core/common_params.h"

const char *const wl_mode_choices[] = { "thread", "proc", NULL };
const char *const wl_place_choices[] = { "split", "same", "none", NULL };
