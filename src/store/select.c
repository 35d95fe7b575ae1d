/*
 * select.c - which runs a side of a comparison names (see store.h:
 * store_select_runs): run ids, tags, 'last', or a comma list of them.
 * Used by show, compare and check.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool have_id(const int64_t *ids, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static bool matches(const struct run_info *all, size_t nall, size_t i,
		    const char *item)
{
	if (strcmp(item, "last") == 0)
		return i == nall - 1;
	if (all_digits(item))
		return all[i].id == strtoll(item, NULL, 10);
	return strcmp(all[i].tag, item) == 0;
}

enum store_select_status store_select_runs(struct store *st,
					   const char *spec, int64_t **ids,
					   size_t *n, char *err,
					   size_t errlen)
{
	enum store_select_status rc = STORE_SELECT_OK;
	struct run_info *all = NULL;
	size_t nall = 0, nids = 0, i;
	char *copy = NULL, *item, *save = NULL;
	int64_t *v = NULL;

	*ids = NULL;
	*n = 0;
	if (!*spec || *spec == ',' || strstr(spec, ",,") ||
	    spec[strlen(spec) - 1] == ',') {
		db_set_err(err, errlen, "empty run id or tag in '%s'", spec);
		return STORE_SELECT_EMPTY_ITEM;
	}
	if (store_list_runs(st, &all, &nall, err, errlen) != 0)
		return STORE_SELECT_ERROR;
	copy = strdup(spec);
	v = calloc(nall ? nall : 1, sizeof(*v));
	if (!copy || !v) {
		db_set_err(err, errlen, "cannot select runs: %s",
			   strerror(ENOMEM));
		rc = STORE_SELECT_ERROR;
		goto out;
	}
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		size_t found = 0;

		for (i = 0; i < nall; i++) {
			if (!matches(all, nall, i, item))
				continue;
			found++;
			if (!have_id(v, nids, all[i].id))
				v[nids++] = all[i].id;
		}
		if (!found) {
			db_set_err(err, errlen, "'%s' is neither a stored run "
				   "id nor a tag", item);
			rc = STORE_SELECT_NO_MATCH;
			goto out;
		}
	}
	*ids = v;
	*n = nids;
	v = NULL;
out:
	free(v);
	free(copy);
	store_free_runs(all, nall);
	return rc;
}
