/*
 * msg.h - error messages on stderr in copyscope's one form,
 * "copyscope: <message>", for the parts below the command line (the run
 * session) and the command line itself (cli_error).  Every message is
 * written with control bytes (but its newlines), DEL, C1 controls and
 * bytes that are not UTF-8 as \xNN, so text from outside in it can send
 * no escape sequence to a terminal; msg_quote() also escapes the
 * newlines of one piece of outside text.
 */
#ifndef COPYSCOPE_MSG_H
#define COPYSCOPE_MSG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_verror(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * prefix, then fmt formatted with ap and escaped as above, onto f (no
 * newline added).  For messages of another form (cli_usage).
 */
void msg_vprint(FILE *f, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* How many messages msg_vprint() (so msg_error, cli_error, cli_usage)
   has written in this process. */
unsigned long msg_printed(void);

/*
 * s[0..len-1] into out (outlen bytes, always NUL-ended when outlen > 0)
 * with control bytes (newline too, unless keep_newline), DEL, C1
 * controls and bytes that are not UTF-8 written as \xNN.  Returns the
 * bytes written (cut at outlen - 1, never inside an escape).
 */
size_t msg_escape(const char *s, size_t len, bool keep_newline, char *out,
		  size_t outlen);

/*
 * s escaped as msg_escape() does, newlines included, for a "%s" of
 * outside text in a message: msg_error("no run '%s'", msg_quote(arg)).
 * The text lives in one of 8 static buffers (1023 bytes, longer text is
 * cut), so up to 8 may be used in one message; not thread-safe.
 */
const char *msg_quote(const char *s);

#endif
