/*
 * codec_params.c - a configuration's parameters (see codec.h): the
 * canonical JSON object read into typed records, each value parsed once
 * by its definition.
 */
#include "results/codec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "core/workload.h"
#include "results/codec_priv.h"

/*
 * The value of text: parsed by def when there is one and it accepts the
 * text (def kept), else the integer the text spells (def dropped).
 */
static void param_value_decode(struct result_param *p,
			       const struct param_def *def)
{
	char err[160], *end;
	long long ll;

	p->def = NULL;
	p->has_v = false;
	if (def && param_parse_value(def, p->value, &p->v, err,
				     sizeof(err)) == 0) {
		p->def = def;
		p->has_v = true;
		return;
	}
	errno = 0;
	ll = strtoll(p->value, &end, 10);
	if (errno == 0 && end != p->value && *end == '\0') {
		p->v = (int64_t)ll;
		p->has_v = true;
	} else {
		p->v = 0;
	}
}

/* Add parameter name = val (a JSON string) to c.  0, or -1 on ENOMEM. */
static int param_add(struct result_config *c, const char *name, json_t *val,
		     const struct param_def *def)
{
	struct result_param *p = &c->params[c->nparams];

	p->name = strdup(name);
	p->value = codec_dup_str(val);
	if (!p->name || !p->value)
		return -1;
	param_value_decode(p, def);
	c->nparams++;
	return 0;
}

int result_params_decode(struct result_config *c, const char *params_json)
{
	json_t *p = json_loads(params_json, 0, NULL), *val;
	size_t n, i;
	void *it;
	int rc = -1;

	if (!json_is_object(p))
		goto out;
	for (it = json_object_iter(p); it; it = json_object_iter_next(p, it))
		if (!json_is_string(json_object_iter_value(it)))
			goto out;
	n = json_object_size(p);
	c->params = calloc(n ? n : 1, sizeof(*c->params));
	c->params_json = strdup(params_json);
	if (!c->params || !c->params_json)
		goto out;
	/* declared order first, then anything this build does not know */
	for (i = 0; c->wl && i < c->wl->nparams; i++) {
		const struct param_def *def = &c->wl->params[i];

		val = json_object_get(p, def->name);
		if (val && param_add(c, def->name, val, def) != 0)
			goto out;
	}
	for (it = json_object_iter(p); it; it = json_object_iter_next(p, it)) {
		const char *key = json_object_iter_key(it);

		if (!result_param(c, key) &&
		    param_add(c, key, json_object_iter_value(it), NULL) != 0)
			goto out;
	}
	rc = 0;
out:
	json_decref(p);
	return rc;
}

char *result_params_without(const char *params_json,
			    const char *const *keys, size_t nkeys)
{
	json_t *p = json_loads(params_json, 0, NULL);
	char *s = NULL;
	size_t k;

	if (!json_is_object(p)) {
		json_decref(p);
		return NULL;
	}
	for (k = 0; k < nkeys; k++)
		json_object_del(p, keys[k]);
	s = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(p);
	return s;
}

int result_params_list(const char *params_json, struct result_param **out,
		       size_t *n)
{
	struct result_config c;

	memset(&c, 0, sizeof(c));
	*out = NULL;
	*n = 0;
	if (result_params_decode(&c, params_json) != 0) {
		result_params_free(c.params, c.nparams);
		free(c.params_json);
		return -1;
	}
	free(c.params_json);
	*out = c.params;
	*n = c.nparams;
	return 0;
}

void result_params_free(struct result_param *p, size_t n)
{
	size_t i;

	for (i = 0; p && i < n; i++) {
		free(p[i].name);
		free(p[i].value);
	}
	free(p);
}
