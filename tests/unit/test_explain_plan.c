/*
 * test_explain_plan.c - unit tests of the --explain planning
 * (src/session/explain_plan.c): the floor jobs planned for pipe.bw (the
 * libc copy at its sizes, the ring at its sizes, capacity, mode and
 * place) and for the file workloads (mem.copy libc and movsb, shared by
 * two workloads at the same sizes), a floor the user already named not
 * planned twice, and the refusals (a pipe.bw that does not make two
 * copies, no workload with a recipe, too many jobs) with their words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "session/explain_plan.h"
#include "workloads/workloads.h"

#define MAX 16

/* jobs[(*n)++] = workload name with the NULL-ended assignments. */
static void job(struct session_job *jobs, size_t *n, const char *name,
		const char *const *assign)
{
	const struct workload *wl = workload_find(name);
	char err[256];

	assert_non_null(wl);
	jobs[*n].wl = wl;
	assert_int_equal(param_request_init(&jobs[*n].req, wl->params,
					    wl->nparams, err, sizeof(err)), 0);
	for (; assign && *assign; assign++)
		if (param_request_apply(&jobs[*n].req, name, *assign, err,
					sizeof(err)) != 0)
			fail_msg("%s %s: %s", name, *assign, err);
	(*n)++;
}

/* The values of parameter key of j as text, comma-separated. */
static const char *values(const struct session_job *j, const char *key)
{
	static char buf[256];
	int i = param_find(j->wl->params, j->wl->nparams, key);
	size_t k, used = 0;

	assert_true(i >= 0);
	buf[0] = '\0';
	for (k = 0; k < j->req.nvals[i]; k++) {
		char v[64];

		param_format_value(&j->wl->params[i], j->req.vals[i][k], v,
				   sizeof(v));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s%s", k ? "," : "", v);
	}
	return buf;
}

static void test_pipe_bw(void **state)
{
	static const char *const a[] = { "size=4k,64k", "rsize=1k",
					 "pipe_size=1M", "mode=thread",
					 "place=same", NULL };
	struct session_job jobs[MAX];
	size_t n = 0;
	char err[512];

	(void)state;
	job(jobs, &n, "pipe.bw", a);
	assert_int_equal(explain_plan_add_floors(jobs, &n, MAX, err,
						 sizeof(err)), 0);
	assert_int_equal(n, 3);
	/* the copy floor: one libc copy of each size */
	assert_string_equal(jobs[1].wl->name, "mem.copy");
	assert_string_equal(values(&jobs[1], "engine"), "libc");
	assert_string_equal(values(&jobs[1], "size"), "4k,64k");
	/* the ring: the pipe's sizes, capacity, mode and place */
	assert_string_equal(jobs[2].wl->name, "ring.bw");
	assert_string_equal(values(&jobs[2], "size"), "4k,64k");
	assert_string_equal(values(&jobs[2], "rsize"), "1k");
	assert_string_equal(values(&jobs[2], "pipe_size"), "1M");
	assert_string_equal(values(&jobs[2], "mode"), "thread");
	assert_string_equal(values(&jobs[2], "place"), "same");
	/* the ring's own parameter keeps its default */
	assert_string_equal(values(&jobs[2], "spin"), "1000");
	/* the explained job is untouched */
	assert_string_equal(jobs[0].wl->name, "pipe.bw");
	assert_string_equal(values(&jobs[0], "size"), "4k,64k");
}

static void test_file_shared_floors(void **state)
{
	static const char *const a[] = { "target=memfd", "size=4k,64k",
					 NULL };
	static const char *const b[] = { "size=4k,64k", NULL };
	static const char *const c[] = { "size=1M", NULL };
	struct session_job jobs[MAX];
	size_t n = 0;
	char err[512];

	(void)state;
	job(jobs, &n, "file.rw", a);
	job(jobs, &n, "sys.null", NULL);	/* nothing to explain */
	job(jobs, &n, "file.copy", b);
	job(jobs, &n, "file.splice", c);
	assert_int_equal(explain_plan_add_floors(jobs, &n, MAX, err,
						 sizeof(err)), 0);
	/* libc and movsb at 4k,64k once for file.rw and file.copy, then at
	   1M for file.splice */
	assert_int_equal(n, 8);
	assert_string_equal(jobs[4].wl->name, "mem.copy");
	assert_string_equal(values(&jobs[4], "engine"), "libc");
	assert_string_equal(values(&jobs[4], "size"), "4k,64k");
	assert_string_equal(jobs[5].wl->name, "mem.copy");
	assert_string_equal(values(&jobs[5], "engine"), "movsb");
	assert_string_equal(values(&jobs[5], "size"), "4k,64k");
	assert_string_equal(values(&jobs[6], "engine"), "libc");
	assert_string_equal(values(&jobs[6], "size"), "1M");
	assert_string_equal(values(&jobs[7], "engine"), "movsb");
	assert_string_equal(values(&jobs[7], "size"), "1M");
}

static void test_floor_already_named(void **state)
{
	static const char *const p[] = { "size=4k", NULL };
	static const char *const m[] = { "engine=libc", "size=4k", NULL };
	struct session_job jobs[MAX];
	size_t n = 0;
	char err[512];

	(void)state;
	job(jobs, &n, "mem.copy", m);
	job(jobs, &n, "pipe.bw", p);
	assert_int_equal(explain_plan_add_floors(jobs, &n, MAX, err,
						 sizeof(err)), 0);
	/* the user's mem.copy is the copy floor: only the ring is added */
	assert_int_equal(n, 3);
	assert_string_equal(jobs[2].wl->name, "ring.bw");
	assert_string_equal(values(&jobs[2], "size"), "4k");
}

static void test_refusals(void **state)
{
	static const char *const vm[] = { "io=vmsplice", NULL };
	static const char *const both[] = { "io=write,vmsplice", NULL };
	struct session_job jobs[MAX];
	size_t n = 0;
	char err[512];

	(void)state;
	job(jobs, &n, "pipe.bw", vm);
	assert_int_equal(explain_plan_add_floors(jobs, &n, MAX, err,
						 sizeof(err)), 2);
	assert_string_equal(err, "--explain explains pipe.bw only with "
			    "io=write and reader=read");
	/* a sweep that includes one configuration outside the recipe */
	n = 0;
	job(jobs, &n, "pipe.bw", both);
	assert_int_equal(explain_plan_add_floors(jobs, &n, MAX, err,
						 sizeof(err)), 2);
	assert_string_equal(err, "--explain explains pipe.bw only with "
			    "io=write and reader=read");

	n = 0;
	job(jobs, &n, "sys.null", NULL);
	assert_int_equal(explain_plan_add_floors(jobs, &n, MAX, err,
						 sizeof(err)), 2);
	assert_int_equal(n, 1);
	assert_string_equal(err, "--explain explains pipe.bw, file.rw, "
			    "file.splice, file.sendfile, file.copy: name one "
			    "of them (copyscope run pipe.bw --explain)");

	/* room for the copy floor but not the ring */
	n = 0;
	job(jobs, &n, "pipe.bw", NULL);
	assert_int_equal(explain_plan_add_floors(jobs, &n, 2, err,
						 sizeof(err)), 2);
	assert_string_equal(err, "too many workloads (at most 2)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_bw),
		cmocka_unit_test(test_file_shared_floors),
		cmocka_unit_test(test_floor_already_named),
		cmocka_unit_test(test_refusals),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
