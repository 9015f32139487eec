/* SPDX-License-Identifier: MIT */
/*
 * litmus: the scenario-language front end (lexer, parser, AST, checks,
 * printer, expression evaluator).  The language is described in
 * docs/scenario-language.md.
 *
 * The front end knows the syntax and the rules that need no model (one
 * assignment per register, references to existing registers, no
 * duplicate keys).  What the model knows (its ops, the kinds and keys
 * of the initial state, the variant keys) comes in a struct
 * litmus_schema from the caller.
 *
 * Nothing here exits, aborts or prints unless asked to: errors come back
 * in a struct litmus_errors, one "file:line:col: error: ..." line each.
 * The parser uses malloc (it runs before executions, never inside one);
 * a scenario is released with litmus_free().
 */
#ifndef WPSIM_TOOLS_LITMUS_H
#define WPSIM_TOOLS_LITMUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Limits.  Each one, when exceeded, is an error naming it. */
#define LITMUS_SOURCE_BYTES_MAX	(1024 * 1024)	/* one scenario file */
#define LITMUS_NAME_LEN_MAX	63	/* identifiers and the scenario name */
#define LITMUS_STRING_LEN_MAX	255	/* quoted strings, after unescaping */
#define LITMUS_THREADS_MAX	16	/* P0..P15 */
#define LITMUS_STMTS_MAX	64	/* statements per thread */
#define LITMUS_REPEAT_MAX	1024	/* iterations of one repeat block */
#define LITMUS_ARGS_MAX		8	/* arguments per op call */
#define LITMUS_REGS_MAX		32	/* registers r0..r31 per thread */
#define LITMUS_FLAGS_MAX	16	/* members of one A|B|C flag set */
#define LITMUS_ITEMS_MAX	64	/* items in the initial-state block */
#define LITMUS_KEYVALS_MAX	32	/* key=value pairs per item */
#define LITMUS_PATH_SEGS_MAX	8	/* segments of a.b[1].c */
#define LITMUS_PATH_INDEX_MAX	(1 << 24)	/* largest [index] */
#define LITMUS_EXPR_DEPTH_MAX	64	/* nesting of an expression tree */
#define LITMUS_ALWAYS_MAX	32	/* always (...) invariants */
#define LITMUS_EXPECTS_MAX	32	/* expect lines */
#define LITMUS_ASSIGNS_MAX	8	/* key=value pairs per expect line */
#define LITMUS_ERRORS_MAX	8	/* errors kept per parse */
#define LITMUS_MESSAGE_MAX	512	/* one error message, bytes with NUL */

/* A place in the source: 1-based line and byte column. */
struct litmus_pos {
	uint32_t line;
	uint32_t col;
};

/* ------------------------------------------------------------------ */
/* Errors                                                              */

struct litmus_error {
	struct litmus_pos pos;
	char message[LITMUS_MESSAGE_MAX];	/* "expected X, found Y" */
	char text[LITMUS_MESSAGE_MAX + 128];	/* "f:l:c: error: message" */
};

struct litmus_errors {
	size_t count;			/* errors kept in list[] */
	bool truncated;			/* more errors than LITMUS_ERRORS_MAX */
	struct litmus_error list[LITMUS_ERRORS_MAX];
};

/* Print every kept error's text, one per line. */
void litmus_errors_print(FILE *out, const struct litmus_errors *errors);

/* ------------------------------------------------------------------ */
/* Values: initial-state values and op arguments                       */

/* Bit values, so that a schema can allow several kinds in one mask. */
enum litmus_value_kind {
	LITMUS_VALUE_INT = 1 << 0,	/* 16384, 0x5a, 16K, -3 (args only) */
	LITMUS_VALUE_IDENT = 1 << 1,	/* O_RDWR, v11, WUUWH */
	LITMUS_VALUE_FLAGS = 1 << 2,	/* A|B (two or more members) */
	LITMUS_VALUE_RANGE = 1 << 3,	/* 0-3 (values only) */
	LITMUS_VALUE_STRING = 1 << 4,	/* "text" (values only) */
	LITMUS_VALUE_ERRNO = 1 << 5,	/* -EAGAIN (args only) */
};
#define LITMUS_VALUE_ANY	0u	/* schema mask: no restriction */

struct litmus_value {
	enum litmus_value_kind kind;
	struct litmus_pos pos;
	int64_t number;		/* INT; ERRNO: the negative errno */
	int64_t range_first;	/* RANGE, inclusive */
	int64_t range_last;
	const char *text;	/* IDENT; STRING (unescaped); ERRNO: "EAGAIN" */
	const char *const *flags;	/* FLAGS members, in source order */
	size_t flags_count;
};

/* ------------------------------------------------------------------ */
/* Initial state                                                        */

struct litmus_keyval {
	struct litmus_pos pos;
	const char *key;
	struct litmus_value value;
};

/* "kind [name]: key=value, ...;"  e.g. "file f: size=16K;" */
struct litmus_item {
	struct litmus_pos pos;
	const char *kind;
	const char *name;		/* NULL when the item has none */
	const struct litmus_keyval *keyvals;
	size_t keyvals_count;
};

/* ------------------------------------------------------------------ */
/* Threads                                                              */

/*
 * "[LABEL:] [rK =] op(args);".  A "repeat N { s1 s2 ... }" block is kept
 * flat: its statements follow each other in the thread, and the first
 * one has repeat = N and repeat_len = the block's statement count (0 and
 * 0 elsewhere; blocks do not nest).
 */
struct litmus_stmt {
	struct litmus_pos pos;
	const char *label;		/* NULL when the statement has none */
	struct litmus_pos label_pos;
	unsigned repeat;		/* N on a block's first statement */
	unsigned repeat_len;
	struct litmus_pos repeat_pos;	/* of "repeat" */
	int reg;			/* K of rK, or -1 */
	const char *op;
	struct litmus_pos op_pos;
	const struct litmus_value *args;
	size_t args_count;
	int op_index;		/* into schema->ops once validated, else -1 */
};

struct litmus_thread {
	struct litmus_pos pos;
	int index;			/* N of PN */
	const struct litmus_stmt *stmts;
	size_t stmts_count;
};

/* ------------------------------------------------------------------ */
/* Expressions                                                          */

enum litmus_expr_kind {
	LITMUS_EXPR_INT,	/* number */
	LITMUS_EXPR_ERRNO,	/* number (negative), errno_name */
	LITMUS_EXPR_REG,	/* T:rK: reg_thread, reg */
	LITMUS_EXPR_PATH,	/* segs, segs_count */
	LITMUS_EXPR_COUNT,	/* count(left) */
	LITMUS_EXPR_OUTCOME,	/* outcome */
	LITMUS_EXPR_NOT,	/* ~left */
	LITMUS_EXPR_NEG,	/* -left */
	LITMUS_EXPR_AND,	/* left /\ right */
	LITMUS_EXPR_OR,		/* left \/ right */
	LITMUS_EXPR_EQ,		/* left == right */
	LITMUS_EXPR_NE,
	LITMUS_EXPR_LT,
	LITMUS_EXPR_LE,
	LITMUS_EXPR_GT,
	LITMUS_EXPR_GE,
	LITMUS_EXPR_ADD,
	LITMUS_EXPR_SUB,
	LITMUS_EXPR_AT,		/* at(label, left): left when label returned */
};

enum litmus_outcome {
	LITMUS_OUTCOME_DEADLOCK,	/* every thread blocked */
	LITMUS_OUTCOME_STUCK,		/* the step bound was reached */
	LITMUS_OUTCOME_VIOLATION,	/* a model check failed */
};

/* One segment of a reference path: "name" or "name[index]". */
struct litmus_path_seg {
	const char *name;
	int64_t index;			/* -1: no [index] */
};

struct litmus_expr {
	enum litmus_expr_kind kind;
	struct litmus_pos pos;
	unsigned depth;			/* 1 for a leaf */
	int64_t number;			/* INT, ERRNO */
	const char *errno_name;		/* ERRNO: "EAGAIN" */
	int reg_thread;			/* REG */
	int reg;
	const struct litmus_path_seg *segs;	/* PATH */
	size_t segs_count;
	enum litmus_outcome outcome;	/* OUTCOME */
	const struct litmus_expr *left;	/* unary operand, count body */
	const struct litmus_expr *right;
	const char *label;		/* AT: the statement's label */
	int at_thread, at_stmt;		/* AT: resolved by validation */
};

/* ------------------------------------------------------------------ */
/* Final clauses and expectations                                       */

enum litmus_quantifier {
	LITMUS_QUANT_NONE,		/* no condition given */
	LITMUS_QUANT_EXISTS,		/* herd7 Allow */
	LITMUS_QUANT_NOT_EXISTS,	/* herd7 Forbid */
	LITMUS_QUANT_FORALL,		/* herd7 Require */
};

struct litmus_condition {
	struct litmus_pos pos;
	enum litmus_quantifier quantifier;
	const struct litmus_expr *expr;	/* NULL with LITMUS_QUANT_NONE */
};

enum litmus_observation {
	LITMUS_OBS_NEVER,
	LITMUS_OBS_SOMETIMES,
	LITMUS_OBS_ALWAYS,
};

struct litmus_assign {
	struct litmus_pos pos;
	const char *key;
	const char *value;		/* identifier, or decimal number */
};

/* "expect [key=value, ...]: Never|Sometimes|Always" */
struct litmus_expect {
	struct litmus_pos pos;
	const struct litmus_assign *assigns;
	size_t assigns_count;		/* 0 for a plain "expect:" */
	enum litmus_observation observation;
};

/*
 * "claim [STRING] (a -> b -> c, d -> e)": a partial order the schedule
 * must honour (tools/wpsim/claims.c).  A point is a step of one thread:
 * the one in which it calls or returns from a kernel function or a
 * labelled statement, +N the thread's N-th step after that one.  A chain
 * a -> b -> c is kept as its edges (a, b), (b, c).
 */
#define LITMUS_CLAIM_EDGES_MAX	32

struct litmus_claim_point {
	struct litmus_pos pos;
	int thread;			/* Pn:, or -1 (a label's thread) */
	bool ret;			/* ret(...), else call(...) */
	const char *name;		/* a label or a kernel function */
	unsigned occurrence;		/* ret(f, 2): the second; 1 if none */
	unsigned after;			/* +N, else 0 */
};

struct litmus_claim_edge {
	struct litmus_claim_point from, to;
};

struct litmus_claim {
	struct litmus_pos pos;
	const char *text;		/* the quoted claim, or NULL */
	const struct litmus_claim_edge *edges;
	size_t edges_count;
};

struct litmus_pool;

struct litmus_scenario {
	const char *file;		/* as given to the parser */
	const char *name;		/* after "wpsim" */
	const char *description;
	struct litmus_pos pos;		/* of "wpsim" */
	const struct litmus_item *items;
	size_t items_count;
	const struct litmus_thread *threads;
	size_t threads_count;
	struct litmus_condition condition;
	const struct litmus_expr *const *always;
	const struct litmus_pos *always_pos;
	size_t always_count;
	const struct litmus_expect *expects;
	size_t expects_count;
	const struct litmus_claim *claim;	/* NULL: none */
	struct litmus_pool *pool;	/* private: owns all of the above */
};

/* ------------------------------------------------------------------ */
/* Schema: what the model accepts                                       */

struct litmus_schema_op {
	const char *name;
	unsigned args_min;
	unsigned args_max;
	const char *help;		/* one line */
	/* Allowed enum litmus_value_kind mask per argument; 0 = any. */
	unsigned arg_kinds[LITMUS_ARGS_MAX];
};

struct litmus_schema_key {
	const char *name;
	unsigned kinds;		/* enum litmus_value_kind mask; 0: any */
	const char *help;
};

enum litmus_name_rule {
	LITMUS_NAME_FORBIDDEN,		/* "device: ..." */
	LITMUS_NAME_REQUIRED,		/* "file f: ..." */
	LITMUS_NAME_OPTIONAL,
};

struct litmus_schema_kind {
	const char *name;
	enum litmus_name_rule name_rule;
	const struct litmus_schema_key *keys;
	size_t keys_count;
	const char *help;
};

/* A variant key ("dontcache") and the values it may take ("v11"). */
struct litmus_schema_variant {
	const char *key;
	const char *const *values;
	size_t values_count;
	const char *help;
};

struct litmus_schema {
	const struct litmus_schema_op *ops;
	size_t ops_count;
	const struct litmus_schema_kind *kinds;	/* "variant" is built in */
	size_t kinds_count;
	const struct litmus_schema_variant *variants;
	size_t variants_count;
	/*
	 * Optional: check a reference path of a condition.  in_count is
	 * true inside count(...).  Return 0 when it is fine, else nonzero
	 * with a message (no position) in why.
	 */
	int (*check_path)(const struct litmus_schema *schema,
			  const struct litmus_expr *path, bool in_count,
			  char *why, size_t why_size);
	void *ctx;			/* for check_path */
};

/* Print the ops, kinds and variants with their help, one per line. */
void litmus_schema_print(FILE *out, const struct litmus_schema *schema);

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

/*
 * Parse text[0..len) (NUL bytes included, no terminator needed) and,
 * when schema is not NULL, validate it.  file names the source in
 * messages.  Returns the scenario, or NULL with errors filled in
 * (errors may be NULL).  A syntax error stops the parse; semantic errors
 * are collected, up to LITMUS_ERRORS_MAX.
 */
struct litmus_scenario *litmus_parse(const char *file, const char *text,
				     size_t len,
				     const struct litmus_schema *schema,
				     struct litmus_errors *errors);

/* Read path (at most LITMUS_SOURCE_BYTES_MAX) and parse it. */
struct litmus_scenario *litmus_parse_file(const char *path,
					  const struct litmus_schema *schema,
					  struct litmus_errors *errors);

/*
 * Check a parsed scenario against schema (NULL: the schema-free rules
 * only).  Sets each statement's op_index.  Returns the number of errors
 * added to errors.
 */
size_t litmus_validate(struct litmus_scenario *scenario,
		       const struct litmus_schema *schema,
		       struct litmus_errors *errors);

void litmus_free(struct litmus_scenario *scenario);

/* ------------------------------------------------------------------ */
/* Printing and comparing                                               */

/* Normalized source that re-parses to an equal scenario. */
void litmus_print(FILE *out, const struct litmus_scenario *scenario);
void litmus_expr_print(FILE *out, const struct litmus_expr *expr);
void litmus_value_print(FILE *out, const struct litmus_value *value);

/* Same AST, positions and op_index ignored. */
bool litmus_equal(const struct litmus_scenario *a,
		  const struct litmus_scenario *b);
bool litmus_expr_equal(const struct litmus_expr *a,
		       const struct litmus_expr *b);

const char *litmus_observation_name(enum litmus_observation observation);
const char *litmus_outcome_name(enum litmus_outcome outcome);

/* ------------------------------------------------------------------ */
/* Looking things up                                                    */

/* The first item of that kind and name (name NULL: an unnamed one). */
const struct litmus_item *
litmus_find_item(const struct litmus_scenario *scenario, const char *kind,
		 const char *name);
const struct litmus_value *litmus_item_value(const struct litmus_item *item,
					     const char *key);
/* The scenario's default for a variant key, as text; NULL if none. */
const char *litmus_variant_default(const struct litmus_scenario *scenario,
				   const char *key, char *buf,
				   size_t buf_size);
/*
 * The expect line for a variant given as n key/value pairs: among the
 * lines whose every key=value is in the variant, the one with the most
 * pairs (the first on a tie).  NULL when none matches.
 */
const struct litmus_expect *
litmus_expect_find(const struct litmus_scenario *scenario,
		   const char *const *keys, const char *const *values,
		   size_t n);

/* Linux errno values: "EAGAIN" -> 11.  false when unknown. */
bool litmus_errno_value(const char *name, int *value);
/* 11 -> "EAGAIN"; NULL when unknown. */
const char *litmus_errno_name(int value);

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */

struct litmus_env;

/*
 * Callbacks return 0 and set *value, or nonzero on failure (after
 * litmus_eval_fail() when they have something to say).  count() is
 * given the COUNT node: it iterates its items, makes each current for
 * path() and adds litmus_eval(count->left, env) != 0.
 */
struct litmus_env {
	void *ctx;
	const char *file;		/* for error texts; may be NULL */
	int (*reg)(const struct litmus_env *env,
		   const struct litmus_expr *ref, int64_t *value);
	int (*path)(const struct litmus_env *env,
		    const struct litmus_expr *ref, int64_t *value);
	int (*count)(const struct litmus_env *env,
		     const struct litmus_expr *count, int64_t *value);
	int (*outcome)(const struct litmus_env *env,
		       enum litmus_outcome outcome, int64_t *value);
	/* at(L, e): e's value in the state when statement L returned. */
	int (*at)(const struct litmus_env *env, const struct litmus_expr *at,
		  int64_t *value);
	/* The first failure lands here; may be NULL.  Zero it first. */
	struct litmus_errors *errors;
};

/*
 * The value of expr: comparisons and logic give 0 or 1, /\ and \/
 * short-circuit, arithmetic overflow is an error.  After a failure
 * (litmus_eval_failed) the value is 0 and meaningless.
 */
int64_t litmus_eval(const struct litmus_expr *expr,
		    const struct litmus_env *env);
bool litmus_eval_failed(const struct litmus_env *env);
void litmus_eval_fail(const struct litmus_env *env,
		      const struct litmus_expr *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* WPSIM_TOOLS_LITMUS_H */
