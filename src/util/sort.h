/*
 * sort.h - qsort comparators shared by every layer.
 */
#ifndef COPYSCOPE_SORT_H
#define COPYSCOPE_SORT_H

/*
 * qsort comparator for doubles, ascending: a and b point to doubles;
 * returns -1, 0 or 1.  NaNs compare equal to everything (callers sort
 * finite values).
 */
int util_cmp_double(const void *a, const void *b);

#endif
