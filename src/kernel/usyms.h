/*
 * usyms.h - the profile's user frames named (kernel/kprof.c): a sample
 * that interrupted user mode is named by the function of this binary
 * that holds its IP (the ELF symbol table of /proc/self/exe, read with
 * libelf, placed where /proc/self/maps says the binary is loaded), or by
 * the file of the mapping it lies in ("libc.so.6", "[vdso]") when it is
 * not in this binary.  The workers are this process's threads or its
 * forked children, whose mappings fork keeps, so one table read in the
 * measuring process names every worker's user IPs.
 */
#ifndef COPYSCOPE_USYMS_H
#define COPYSCOPE_USYMS_H

#include <stddef.h>
#include <stdint.h>

struct usyms;

/*
 * This process's executable mappings and the binary's function symbols
 * (of a stripped binary its dynamic symbols: then most of its frames are
 * named by the file, "copyscope").  NULL with the reason in err.
 */
struct usyms *usyms_load(char *err, size_t errlen);

/*
 * The name of the user frame at ip: a function of this binary, else the
 * file of the mapping that holds ip, else NULL.  The text lives as long
 * as u.
 */
const char *usyms_name(const struct usyms *u, uint64_t ip);

void usyms_free(struct usyms *u);

#endif
