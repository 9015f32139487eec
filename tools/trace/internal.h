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

/* Hand a record made by trace_rec_new to t->sink, if one waits. */
void trace_sink_flush(struct trace *t);

/* The importers line by line (common.c's stream feeds them). */
struct iolog_state;
struct st;
struct iolog_state *trace_iolog_begin(const char *name, const char *text,
				      size_t len,
				      const struct trace_options *opt,
				      struct trace *t,
				      struct trace_error *err);
int trace_iolog_feed(struct iolog_state *s, const char *line, size_t n);
void trace_iolog_end(struct iolog_state *s);
struct st *trace_strace_begin(const char *name,
			      const struct trace_options *opt,
			      struct trace *t, struct trace_error *err);
int trace_strace_feed(struct st *s, const char *line, size_t n);
int trace_strace_end(struct st *s, int rc);

#endif /* WPSIM_TOOLS_TRACE_INTERNAL_H */
