/*
 * msg.c - "copyscope: <message>" on stderr (see msg.h), with the text
 * made safe for a terminal: control bytes, DEL, C1 controls and bytes
 * that are not UTF-8 are written as \xNN wherever they come from.
 */
#include "util/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Bytes of the valid UTF-8 sequence at s (at most n bytes there): 1 for
 * ASCII, 2 to 4 for a sequence that is not overlong, no surrogate and at
 * most U+10FFFF (RFC 3629); 0 when s does not start one.
 */
static size_t utf8_at(const unsigned char *s, size_t n)
{
	size_t k, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return k;
}

size_t msg_escape(const char *s, size_t len, bool keep_newline, char *out,
		  size_t outlen)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;

	while (i < len) {
		size_t k = utf8_at(p + i, len - i);
		char esc[5];
		size_t w;

		if (k == 1 && ((p[i] < 0x20 && !(keep_newline &&
						  p[i] == '\n')) ||
			       p[i] == 0x7f))
			k = 0;
		/* U+0080..U+009F: C1 controls (0x9b is CSI) */
		if (k == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)
			k = 0;
		if (k) {
			w = k;
			if (o + w < outlen)
				memcpy(out + o, s + i, w);
			i += k;
		} else {
			w = (size_t)snprintf(esc, sizeof(esc), "\\x%02x",
					     p[i]);
			if (o + w < outlen)
				memcpy(out + o, esc, w);
			i++;
		}
		if (o + w >= outlen)
			break;
		o += w;
	}
	if (outlen)
		out[o < outlen ? o : outlen - 1] = '\0';
	return o;
}

const char *msg_quote(const char *s)
{
	/* a few at once: one message may quote several texts */
	static char bufs[8][1024];
	static unsigned next;
	char *b = bufs[next++ % 8];

	msg_escape(s ? s : "", s ? strlen(s) : 0, false, b, sizeof(bufs[0]));
	return b;
}

/* Messages written so far (msg_printed()). */
static unsigned long printed;

unsigned long msg_printed(void)
{
	return printed;
}

void msg_vprint(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char stackbuf[1024], *text = stackbuf, *clean;
	va_list again;
	int n;

	printed++;
	va_copy(again, ap);
	n = vsnprintf(stackbuf, sizeof(stackbuf), fmt, ap);
	if (n >= (int)sizeof(stackbuf)) {
		text = malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, again);
		else
			text = stackbuf;	/* cut short, not lost */
	}
	va_end(again);
	if (n < 0)
		stackbuf[0] = '\0';
	n = (int)strlen(text);
	clean = malloc((size_t)n * 4 + 1);
	fputs(prefix, f);
	if (clean) {
		msg_escape(text, (size_t)n, true, clean, (size_t)n * 4 + 1);
		fputs(clean, f);
	} else {
		fputs("(message lost: out of memory)", f);
	}
	free(clean);
	if (text != stackbuf)
		free(text);
}

void msg_verror(const char *fmt, va_list ap)
{
	msg_vprint(stderr, "copyscope: ", fmt, ap);
	fputc('\n', stderr);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_verror(fmt, ap);
	va_end(ap);
}
