/*
 * msg.h - error messages on stderr in copyscope's one form,
 * "copyscope: <message>", for the parts below the command line (the run
 * session) and the command line itself (cli_error).
 */
#ifndef COPYSCOPE_MSG_H
#define COPYSCOPE_MSG_H

#include <stdarg.h>

void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_verror(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

#endif
