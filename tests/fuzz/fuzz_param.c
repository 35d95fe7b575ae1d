/*
 * fuzz_param.c - libFuzzer harness for the parameter parser
 * (src/core/param_value.c, param_request.c): the input's first byte
 * picks a workload, the rest is one command-line assignment
 * ("key=value[,value...]") and also one value for each of its parameters.
 *
 * Checked beyond "no crash, no sanitizer report": a refusal always comes
 * with a message; an accepted sweep expands within its limit into
 * configurations whose values format and parse back to themselves (the
 * canonical text is the identity of a configuration in the store).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "core/workload.h"
#include "workloads/workloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* format(v) parses back to v. */
static void check_round_trip(const struct param_def *d, int64_t v)
{
	char text[PARAM_TEXT_MAX], err[512];
	int64_t back;

	param_format_value(d, v, text, sizeof(text));
	if (param_parse_value(d, text, &back, err, sizeof(err)) != 0 ||
	    back != v) {
		fprintf(stderr, "%s: %lld formats as '%s', which parses %s\n",
			d->name, (long long)v, text, err);
		abort();
	}
}

static void check_refusal(const char *err)
{
	if (!err[0]) {
		fprintf(stderr, "refused without a message\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct workload *wl;
	struct param_request req;
	char *text, err[512];
	size_t i, k, n;

	if (size < 1 || size > 4096)
		return 0;
	wl = workload_table[data[0] % workload_count];
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (param_request_init(&req, wl->params, wl->nparams, err,
			       sizeof(err)) != 0)
		abort();	/* the defaults are checked at start-up */
	err[0] = '\0';
	if (param_request_apply(&req, wl->name, text, err, sizeof(err)) != 0) {
		check_refusal(err);
	} else if (param_request_check(&req, err, sizeof(err)) == 0) {
		n = param_request_count(&req);
		if (n < 1 || n > PARAM_MAX_SWEEP)
			abort();
		for (k = 0; k < n && k < 64; k++) {
			struct param_set ps;
			char *json;

			param_request_get(&req, k, &ps);
			for (i = 0; i < wl->nparams; i++)
				check_round_trip(&wl->params[i], ps.v[i]);
			json = param_set_json(wl->params, wl->nparams, &ps);
			free(json);
		}
	}
	for (i = 0; i < wl->nparams; i++) {
		int64_t v;

		err[0] = '\0';
		if (param_parse_value(&wl->params[i], text, &v, err,
				      sizeof(err)) == 0)
			check_round_trip(&wl->params[i], v);
		else
			check_refusal(err);
	}
	free(text);
	return 0;
}
