/* SPDX-License-Identifier: MIT */
/*
 * tools/trace/internal.h - helpers the trace importers share
 * (tools/trace/common.c); not an interface outside tools/trace/.
 */
#ifndef WPSIM_TOOLS_TRACE_INTERNAL_H
#define WPSIM_TOOLS_TRACE_INTERNAL_H

#include "wpsim/trace.h"

/* A new record named @name (file -1, no duration), counted by caller. */
struct trace_rec *trace_rec_new(struct trace *t, const char *name);
/* The index of @path in t->files; added when @add, else -1. */
int32_t trace_file_find(struct trace *t, const char *path, bool add);
/* File @f is named @path from now on (unlink, rename). */
void trace_file_rename(struct trace *t, int32_t f, const char *path);
uint32_t trace_thread_find(struct trace *t, uint64_t pid);
/* Set *err to "name:line:col: error: <fmt>"; return -1. */
/* The whole of @f, which it closes; its length in *@lenp; never NULL. */
char *trace_slurp(FILE *f, size_t *lenp);
int trace_error_at(struct trace_error *err, const char *name, uint32_t line,
		   uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* @s[0..n) quoted for an error's "found" part ("end of line" if n 0). */
void trace_found(char *buf, size_t len, const char *s, size_t n);

#endif /* WPSIM_TOOLS_TRACE_INTERNAL_H */
