/*
 * test_observation.c - unit tests of an observation (results/
 * observation.c, observation_mix.c): the size classes' edges, the JSON
 * form written and read back to the same figures (each lock caller with
 * its wait histogram, or without in a record stored before them;
 * malformed JSON refused with what is wrong), and the histogram as pipe.mix's mix text
 * (one range per log2 bucket, weights the counts, merged down to 16
 * entries, parsed by pipe.mix's own parser to the same shares).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/observation.h"
#include "workloads/mix.h"

static void test_classes(void **state)
{
	(void)state;
	assert_int_equal(observation_class_of(0), 0);
	assert_int_equal(observation_class_of(127), 0);
	assert_int_equal(observation_class_of(128), 1);
	assert_int_equal(observation_class_of(4095), 1);
	assert_int_equal(observation_class_of(4096), 2);
	assert_int_equal(observation_class_of(16383), 3);
	assert_int_equal(observation_class_of(65535), 5);
	assert_int_equal(observation_class_of(65536), 6);
	assert_int_equal(observation_class_of(131071), 6);
	assert_int_equal(observation_class_of(131072), 7);
	assert_int_equal(observation_class_of(UINT64_MAX), 7);
}

static void fill(struct observation *o)
{
	memset(o, 0, sizeof(*o));
	o->asked = OBSERVE_ALL;
	o->ran = OBSERVE_PIPE_WRITES | OBSERVE_LOCK;
	o->duration_ns = 2000000000;
	snprintf(o->comm_filter, sizeof(o->comm_filter), "obs*");
	snprintf(o->pipe_source, sizeof(o->pipe_source), "fexit x");
	o->pipe_writes = 1010;
	o->pipe_bytes = 1000 * 100 + 10 * 65536;
	o->pipe_cls[0] = 1000;
	o->pipe_cls[6] = 10;
	o->pipe_log2[6] = 1000;
	o->pipe_log2[16] = 10;
	o->comms = calloc(1, sizeof(*o->comms));
	o->ncomms = 1;
	snprintf(o->comms[0].comm, sizeof(o->comms[0].comm), "obswriter");
	o->comms[0].writes = 1010;
	o->comms[0].log2[6] = 1000;
	o->comms[0].log2[16] = 10;
	o->comms[0].cls[6] = 10;
	o->locks = calloc(1, sizeof(*o->locks));
	o->nlocks = 1;
	snprintf(o->locks[0].caller, sizeof(o->locks[0].caller),
		 "anon_pipe_write");
	snprintf(o->locks[0].type, sizeof(o->locks[0].type), "mutex");
	o->locks[0].count = 7;
	o->locks[0].max_wait_ns = 9000;
	o->locks[0].log2[12] = 7;
	o->lock_hists = true;
	o->pipe_mutex_log2[12] = 7;
	o->drops[1] = 3;
	assert_int_equal(observation_note(o, "first %d", 1), 0);
	assert_int_equal(observation_note(o, "second"), 0);
}

static void test_json_round_trip(void **state)
{
	struct observation o, back;
	char err[256], *text;
	json_t *j;

	(void)state;
	fill(&o);
	j = observation_to_json(&o);
	assert_non_null(j);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	assert_int_equal(observation_from_text(text, &back, err,
					       sizeof(err)), 0);
	assert_int_equal(back.ran, o.ran);
	assert_int_equal(back.asked, o.asked);
	assert_int_equal(back.duration_ns, o.duration_ns);
	assert_string_equal(back.comm_filter, "obs*");
	assert_string_equal(back.pipe_source, "fexit x");
	assert_memory_equal(back.pipe_cls, o.pipe_cls, sizeof(o.pipe_cls));
	assert_memory_equal(back.pipe_log2, o.pipe_log2, sizeof(o.pipe_log2));
	assert_int_equal(back.ncomms, 1);
	assert_string_equal(back.comms[0].comm, "obswriter");
	assert_memory_equal(back.comms[0].log2, o.comms[0].log2,
			    sizeof(o.comms[0].log2));
	assert_int_equal(back.nlocks, 1);
	assert_string_equal(back.locks[0].caller, "anon_pipe_write");
	assert_int_equal(back.locks[0].max_wait_ns, 9000);
	assert_true(back.lock_hists);
	assert_memory_equal(back.locks[0].log2, o.locks[0].log2,
			    sizeof(o.locks[0].log2));
	assert_int_equal(back.pipe_mutex_log2[12], 7);
	assert_int_equal(back.drops[1], 3);
	assert_string_equal(back.notes, "first 1\nsecond\n");
	observation_free(&back);
	free(text);
	assert_int_equal(observation_from_text("{\"asked\": 3}", &back, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "'asked' is missing or of the wrong "
			       "type"));
	assert_int_equal(observation_from_text("[", &back, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "not JSON"));
	observation_free(&o);
}

/*
 * A record stored before the callers had wait histograms (no "log2" per
 * caller) still reads, saying it has none, and is written back without.
 */
static void test_json_old_callers(void **state)
{
	struct observation o, back;
	char err[256], *text;
	json_t *j, *callers;

	(void)state;
	fill(&o);
	j = observation_to_json(&o);
	assert_non_null(j);
	callers = json_object_get(json_object_get(j, "lock"), "callers");
	assert_non_null(json_object_get(json_array_get(callers, 0), "log2"));
	json_object_del(json_array_get(callers, 0), "log2");
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	assert_int_equal(observation_from_text(text, &back, err,
					       sizeof(err)), 0);
	free(text);
	assert_false(back.lock_hists);
	assert_int_equal(back.locks[0].count, 7);
	assert_int_equal(back.pipe_mutex_log2[12], 7);
	j = observation_to_json(&back);
	callers = json_object_get(json_object_get(j, "lock"), "callers");
	assert_null(json_object_get(json_array_get(callers, 0), "log2"));
	json_decref(j);
	observation_free(&back);
	observation_free(&o);
}

static void test_mix_text(void **state)
{
	struct observation o;
	struct mix m;
	char buf[600], err[256];

	(void)state;
	fill(&o);
	assert_int_equal(observation_mix_text(&o, NULL, buf, sizeof(buf), err,
					      sizeof(err)), 0);
	assert_string_equal(buf, "64-127:1000+65536-131071:10");
	assert_int_equal(mix_parse(buf, &m, err, sizeof(err)), 0);
	assert_true(mix_class_share(&m, 0) > 0.99009 &&
		    mix_class_share(&m, 0) < 0.9901);
	assert_int_equal(observation_mix_text(&o, "obswriter", buf,
					      sizeof(buf), err, sizeof(err)),
			 0);
	assert_string_equal(buf, "64-127:1000+65536-131071:10");
	assert_int_equal(observation_mix_text(&o, "nosuch", buf, sizeof(buf),
					      err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no pipe writes by comm 'nosuch'"));
	/* every bucket: capped at 1 MiB, merged to 16 entries, parseable */
	for (size_t b = 0; b < OBSERVATION_NLOG2; b++)
		o.pipe_log2[b] = 1000 + b;
	assert_int_equal(observation_mix_text(&o, NULL, buf, sizeof(buf), err,
					      sizeof(err)), 0);
	assert_int_equal(mix_parse(buf, &m, err, sizeof(err)), 0);
	assert_int_equal(m.n, 16);
	assert_int_equal(m.max_bytes, 1u << 20);
	assert_int_equal(observation_mix_text(&o, NULL, buf, 10, err,
					      sizeof(err)), -1);
	memset(o.pipe_log2, 0, sizeof(o.pipe_log2));
	assert_int_equal(observation_mix_text(&o, NULL, buf, sizeof(buf), err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "holds no pipe writes"));
	observation_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_old_callers),
		cmocka_unit_test(test_mix_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
