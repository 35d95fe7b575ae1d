/*
 * fuzz_mix.c - libFuzzer harness for pipe.mix's write-size mix parser
 * (src/workloads/mix.c).
 *
 * Checked beyond "no crash, no sanitizer report": a refusal comes with a
 * message; an accepted mix has 1 .. MIX_MAX_ENTRIES entries with sizes in
 * 1 .. MIX_MAX_SIZE, positive weights, class shares that sum to 1, and a
 * size table whose every size lies in some entry's range.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/mix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TABLE 256

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t sizes[TABLE];
	char text[MIX_MAX_TEXT * 2], err[512] = "";
	double share = 0;
	struct mix m;
	size_t i, e;
	int c;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (mix_parse(text, &m, err, sizeof(err)) != 0) {
		check(err[0] != '\0', "a refusal without a message");
		return 0;
	}
	check(m.n >= 1 && m.n <= MIX_MAX_ENTRIES, "entry count");
	for (e = 0; e < m.n; e++) {
		check(m.e[e].lo_bytes >= 1 && m.e[e].lo_bytes <=
		      m.e[e].hi_bytes, "entry range");
		check(m.e[e].hi_bytes <= MIX_MAX_SIZE, "entry size");
		check(m.e[e].weight > 0 && isfinite(m.e[e].weight), "weight");
	}
	for (c = 0; c < MIX_NCLASSES; c++)
		share += mix_class_share(&m, c);
	check(fabs(share - 1.0) < 1e-6, "class shares sum to 1");
	check(mix_fill_table(&m, 42, sizes, TABLE) == 0, "size table");
	for (i = 0; i < TABLE; i++) {
		bool in = false;

		for (e = 0; e < m.n && !in; e++)
			in = sizes[i] >= m.e[e].lo_bytes &&
			     sizes[i] <= m.e[e].hi_bytes;
		check(in, "a size outside every entry");
	}
	return 0;
}
