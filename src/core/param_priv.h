/*
 * param_priv.h - what the two parsers of parameter text share
 * (param_value.c, one value; param_request.c, the assignments of a
 * sweep): the bounded message both write their errors into, and the
 * longest single value param_request.c lets an assignment carry.
 * Private to src/core/ (param_set.c parses nothing and needs neither).
 */
#ifndef COPYSCOPE_PARAM_PRIV_H
#define COPYSCOPE_PARAM_PRIV_H

#include <stdarg.h>
#include <stdio.h>

/* Longest single value (between commas) param_request_apply accepts:
   room for pipe.mix's longest mix text (MIX_MAX_TEXT, 1024). */
#define PARAM_VALUE_MAX 1040

/* A bounded message under construction; never overruns, always ends. */
struct msg {
	char *buf;
	size_t len;
	size_t pos;
};

static inline void msg_init(struct msg *m, char *buf, size_t len)
{
	m->buf = buf;
	m->len = buf ? len : 0;
	m->pos = 0;
	if (m->len)
		m->buf[0] = '\0';
}

__attribute__((format(printf, 2, 3)))
static inline void msg_add(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->pos + 1 >= m->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->pos, m->len - m->pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		m->buf[m->pos] = '\0';
	else if ((size_t)n >= m->len - m->pos)
		m->pos = m->len - 1;	/* truncated; vsnprintf ended it */
	else
		m->pos += (size_t)n;
}

#endif
