/*
 * sort.c - qsort comparators (see sort.h).
 */
#include "util/sort.h"

int util_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}
