/*
 * bpf_msg.c - libbpf's last message, kept for the refusal a failed BPF
 * load prints (see bpf_msg.h).
 */
#include "kernel/bpf_msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef COPYSCOPE_NO_BPF

void kbpf_keep_messages(void)
{
}

void kbpf_clear_message(void)
{
}

const char *kbpf_message(void)
{
	return "";
}

#else

#include <bpf/libbpf.h>

static char last[256];

static int keep(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(last, sizeof(last), fmt, ap);
	n = strlen(last);
	while (n && (last[n - 1] == '\n' || last[n - 1] == ' '))
		last[--n] = '\0';
	if (getenv("COPYSCOPE_BPF_DEBUG"))
		fprintf(stderr, "libbpf: %s\n", last);
	return 0;
}

void kbpf_keep_messages(void)
{
	libbpf_set_print(keep);
}

void kbpf_clear_message(void)
{
	last[0] = '\0';
}

const char *kbpf_message(void)
{
	return last;
}

#endif
