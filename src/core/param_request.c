/*
 * param_request.c - a sweep request: "key=value[,value...]" assignments
 * applied over a workload's defaults (with a suggestion for a misspelt
 * key), its size checked, and its cartesian product walked one
 * configuration at a time.  The values themselves are parsed by
 * param_value.c.
 */
#include "core/param.h"

#include <stdio.h>
#include <string.h>

#include "core/param_priv.h"
#include "util/msg.h"

int param_request_init(struct param_request *req,
		       const struct param_def *defs, size_t ndefs,
		       char *err, size_t errlen)
{
	char inner[256], assign[PARAM_VALUE_MAX];
	struct msg m;
	size_t i;

	msg_init(&m, err, errlen);
	memset(req, 0, sizeof(*req));
	if (ndefs > PARAM_MAX) {
		msg_add(&m, "%zu parameters; at most %d are supported", ndefs,
			PARAM_MAX);
		return -1;
	}
	req->defs = defs;
	req->ndefs = ndefs;
	for (i = 0; i < ndefs; i++) {
		if (!defs[i].name || !defs[i].def) {
			msg_add(&m, "parameter %zu (%s) has no name or default",
				i, defs[i].name ? defs[i].name : "?");
			return -1;
		}
		/* A default may itself be a list: a sweep by default. */
		if (strlen(defs[i].name) + strlen(defs[i].def) + 2 >
		    sizeof(assign)) {
			msg_add(&m, "bad default: %s: too long", defs[i].name);
			return -1;
		}
		snprintf(assign, sizeof(assign), "%s=%s", defs[i].name,
			 defs[i].def);
		if (param_request_apply(req, NULL, assign, inner,
					sizeof(inner)) < 0) {
			msg_add(&m, "bad default: %s", inner);
			return -1;
		}
		req->user_set[i] = false;
	}
	return 0;
}

/* "unknown parameter 'k' for w; did you mean ..." or the list of names. */
static void unknown_key(const struct param_request *req, const char *workload,
			const char *key, struct msg *m)
{
	const char *names[PARAM_MAX];
	const char *hint;
	size_t i;

	for (i = 0; i < req->ndefs; i++)
		names[i] = req->defs[i].name;
	msg_add(m, "unknown parameter '%s'", msg_quote(key));
	if (workload)
		msg_add(m, " for %s", workload);
	hint = param_suggest(key, names, req->ndefs);
	if (hint) {
		msg_add(m, "; did you mean '%s'?", hint);
		return;
	}
	if (req->ndefs == 0) {
		msg_add(m, " (it takes no parameters)");
		return;
	}
	msg_add(m, " (parameters: ");
	for (i = 0; i < req->ndefs; i++)
		msg_add(m, "%s%s", i ? ", " : "", names[i]);
	msg_add(m, ")");
}

int param_request_apply(struct param_request *req, const char *workload,
			const char *assignment, char *err, size_t errlen)
{
	int64_t vals[PARAM_MAX_LIST];
	char key[PARAM_VALUE_MAX], value[PARAM_VALUE_MAX];
	const char *eq, *p;
	const struct param_def *def;
	size_t keylen, nvals = 0;
	struct msg m;
	int idx;

	msg_init(&m, err, errlen);
	if (!assignment) {
		msg_add(&m, "no assignment");
		return -1;
	}
	eq = strchr(assignment, '=');
	if (!eq) {
		msg_add(&m, "'%s' is not key=value", assignment);
		return -1;
	}
	keylen = (size_t)(eq - assignment);
	if (keylen == 0) {
		msg_add(&m, "'%s': no parameter name before '='", assignment);
		return -1;
	}
	if (keylen >= sizeof(key)) {
		msg_add(&m, "'%.*s...': parameter name too long", 32,
			assignment);
		return -1;
	}
	memcpy(key, assignment, keylen);
	key[keylen] = '\0';
	idx = param_find(req->defs, req->ndefs, key);
	if (idx < 0) {
		unknown_key(req, workload, key, &m);
		return -1;
	}
	def = &req->defs[idx];

	p = eq + 1;
	for (;;) {
		const char *end = strchr(p, def->type == PARAM_STRING ? ';'
								     : ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == 0) {
			msg_add(&m, "%s: empty value in '%s'", def->name,
				eq + 1);
			return -1;
		}
		if (n >= sizeof(value)) {
			msg_add(&m, "%s: value '%.*s...' is too long",
				def->name, 32, p);
			return -1;
		}
		if (nvals == PARAM_MAX_LIST) {
			msg_add(&m, "%s: too many values (at most %d)",
				def->name, PARAM_MAX_LIST);
			return -1;
		}
		memcpy(value, p, n);
		value[n] = '\0';
		if (param_parse_value(def, value, &vals[nvals], err,
				      errlen) < 0)
			return -1;
		nvals++;
		if (!end)
			break;
		p = end + 1;
	}

	/* Commit only once every value is good; a repeat replaces. */
	memcpy(req->vals[idx], vals, nvals * sizeof(vals[0]));
	req->nvals[idx] = nvals;
	req->user_set[idx] = true;
	return 0;
}

size_t param_request_count(const struct param_request *req)
{
	size_t i, count = 1;

	for (i = 0; i < req->ndefs; i++) {
		size_t n = req->nvals[i];

		if (n == 0)
			return 0;
		if (count > SIZE_MAX / n)
			return SIZE_MAX;
		count *= n;
	}
	return count;
}

int param_request_check(const struct param_request *req, char *err,
			size_t errlen)
{
	size_t i, count = param_request_count(req);
	bool first = true;
	struct msg m;

	msg_init(&m, err, errlen);
	if (count <= PARAM_MAX_SWEEP)
		return 0;
	if (count == SIZE_MAX)
		msg_add(&m, "the sweep has too many configurations");
	else
		msg_add(&m, "the sweep has %zu configurations", count);
	msg_add(&m, " (at most %d):", PARAM_MAX_SWEEP);
	for (i = 0; i < req->ndefs; i++) {
		if (req->nvals[i] < 2)
			continue;
		msg_add(&m, "%s %s: %zu values", first ? "" : " x",
			req->defs[i].name, req->nvals[i]);
		first = false;
	}
	return -1;
}

void param_request_get(const struct param_request *req, size_t idx,
		       struct param_set *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = req->ndefs; i-- > 0;) {
		size_t n = req->nvals[i];

		if (n == 0)
			continue;
		out->v[i] = req->vals[i][idx % n];
		idx /= n;
	}
}
