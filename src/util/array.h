/*
 * array.h - ARRAY_SIZE(a): the number of elements of an array (not of a
 * pointer: gcc rejects a pointer argument at compile time).
 */
#ifndef COPYSCOPE_ARRAY_H
#define COPYSCOPE_ARRAY_H

/* 0 for an array, a compile-time error for a pointer. */
#define ARRAY_SIZE_MUST_BE_ARRAY(a)					\
	(sizeof(struct { int : (-!!__builtin_types_compatible_p(	\
		__typeof__(a), __typeof__(&(a)[0]))); }) * 0)

/* The number of elements of array a, a size_t constant expression. */
#define ARRAY_SIZE(a)							\
	(sizeof(a) / sizeof((a)[0]) + ARRAY_SIZE_MUST_BE_ARRAY(a))

#endif
