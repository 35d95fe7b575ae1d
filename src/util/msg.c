/*
 * msg.c - "copyscope: <message>" on stderr (see msg.h).
 */
#include "util/msg.h"

#include <stdio.h>

void msg_verror(const char *fmt, va_list ap)
{
	fputs("copyscope: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_verror(fmt, ap);
	va_end(ap);
}
