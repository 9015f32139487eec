// SPDX-License-Identifier: MIT
/*
 * tools/litmus/expr.c - evaluation of condition expressions.
 *
 * Walks an expression tree over int64 values: logic and comparisons
 * give 0 or 1, /\ and \/ short-circuit, + and - and unary minus report
 * overflow instead of wrapping.  Everything the tree names is asked of
 * the caller's struct litmus_env: registers (T:rK), reference paths,
 * count(...) (the caller iterates its items and calls litmus_eval on
 * the body for each) and the outcome atoms.  The first failure is kept
 * in env->errors with the node's position; after it every value is 0.
 *
 * Leaves out: what a path means and which items count() ranges over
 * (the caller's model), multiplication and division (no scenario needs
 * them yet), caching of resolved values.
 */
#include "tools/litmus/internal.h"

bool litmus_eval_failed(const struct litmus_env *env)
{
	return env->errors && env->errors->count > 0;
}

static void fail_v(const struct litmus_env *env, const struct litmus_expr *at,
		   const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void fail_v(const struct litmus_env *env, const struct litmus_expr *at,
		   const char *fmt, va_list ap)
{
	struct litmus_pos none = { 0, 0 };

	if (!env->errors || env->errors->count > 0)
		return;
	errors_vadd(env->errors, env->file, at ? at->pos : none, fmt, ap);
}

void litmus_eval_fail(const struct litmus_env *env,
		      const struct litmus_expr *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_v(env, at, fmt, ap);
	va_end(ap);
}

/* A callback said no: keep its message, or say what could not be had. */
static void callback_failed(const struct litmus_env *env,
			    const struct litmus_expr *e, const char *what)
{
	char path[256];
	struct strbuf sb;

	if (litmus_eval_failed(env))
		return;
	sb_init(&sb, path, sizeof(path));
	switch (e->kind) {
	case LITMUS_EXPR_REG:
		sb_add(&sb, "%d:r%d", e->reg_thread, e->reg);
		break;
	case LITMUS_EXPR_PATH:
		sb_add_path(&sb, e);
		break;
	case LITMUS_EXPR_OUTCOME:
		sb_add(&sb, "%s", litmus_outcome_name(e->outcome));
		break;
	default:
		sb_add(&sb, "count(...)");
		break;
	}
	litmus_eval_fail(env, e, "cannot evaluate '%s'%s", path, what);
}

static int64_t eval(const struct litmus_expr *e, const struct litmus_env *env,
		    unsigned depth);

static int64_t eval_leaf(const struct litmus_expr *e,
			 const struct litmus_env *env)
{
	int64_t v = 0;
	int rc;

	switch (e->kind) {
	case LITMUS_EXPR_REG:
		if (!env->reg) {
			callback_failed(env, e, ": no register resolver");
			return 0;
		}
		rc = env->reg(env, e, &v);
		break;
	case LITMUS_EXPR_PATH:
		if (!env->path) {
			callback_failed(env, e, ": no path resolver");
			return 0;
		}
		rc = env->path(env, e, &v);
		break;
	case LITMUS_EXPR_COUNT:
		if (!env->count) {
			callback_failed(env, e, ": no count() resolver");
			return 0;
		}
		rc = env->count(env, e, &v);
		break;
	case LITMUS_EXPR_OUTCOME:
		if (!env->outcome) {
			callback_failed(env, e, ": no outcome resolver");
			return 0;
		}
		rc = env->outcome(env, e->outcome, &v);
		v = v != 0;
		break;
	case LITMUS_EXPR_AT:
		if (!env->at) {
			callback_failed(env, e, ": no at() resolver");
			return 0;
		}
		rc = env->at(env, e, &v);
		break;
	default:
		return 0;
	}
	if (rc != 0 || litmus_eval_failed(env)) {
		callback_failed(env, e, "");
		return 0;
	}
	return v;
}

static int64_t overflow(const struct litmus_env *env,
			const struct litmus_expr *e)
{
	litmus_eval_fail(env, e, "integer overflow in '%s'",
			 e->kind == LITMUS_EXPR_NEG ? "-" :
			 e->kind == LITMUS_EXPR_ADD ? "+" : "-");
	return 0;
}

static int64_t eval(const struct litmus_expr *e, const struct litmus_env *env,
		    unsigned depth)
{
	int64_t l, r, v;

	if (litmus_eval_failed(env))
		return 0;
	if (!e) {
		litmus_eval_fail(env, NULL, "no expression");
		return 0;
	}
	if (depth > LITMUS_EXPR_DEPTH_MAX) {
		litmus_eval_fail(env, e, "expected an expression at most %d "
				 "levels deep", LITMUS_EXPR_DEPTH_MAX);
		return 0;
	}
	switch (e->kind) {
	case LITMUS_EXPR_INT:
	case LITMUS_EXPR_ERRNO:
		return e->number;
	case LITMUS_EXPR_REG:
	case LITMUS_EXPR_PATH:
	case LITMUS_EXPR_COUNT:
	case LITMUS_EXPR_OUTCOME:
	case LITMUS_EXPR_AT:
		return eval_leaf(e, env);
	case LITMUS_EXPR_NOT:
		/* A failed operand evaluates to 0: its negation is no 1. */
		l = eval(e->left, env, depth + 1);
		return !litmus_eval_failed(env) && l == 0;
	case LITMUS_EXPR_NEG:
		l = eval(e->left, env, depth + 1);
		if (l == INT64_MIN)
			return overflow(env, e);
		return -l;
	case LITMUS_EXPR_AND:
		if (eval(e->left, env, depth + 1) == 0)
			return 0;
		return eval(e->right, env, depth + 1) != 0;
	case LITMUS_EXPR_OR:
		if (eval(e->left, env, depth + 1) != 0)
			return !litmus_eval_failed(env);
		return eval(e->right, env, depth + 1) != 0;
	default:
		break;
	}
	l = eval(e->left, env, depth + 1);
	r = eval(e->right, env, depth + 1);
	if (litmus_eval_failed(env))
		return 0;
	switch (e->kind) {
	case LITMUS_EXPR_EQ:
		return l == r;
	case LITMUS_EXPR_NE:
		return l != r;
	case LITMUS_EXPR_LT:
		return l < r;
	case LITMUS_EXPR_LE:
		return l <= r;
	case LITMUS_EXPR_GT:
		return l > r;
	case LITMUS_EXPR_GE:
		return l >= r;
	case LITMUS_EXPR_ADD:
		if (__builtin_add_overflow(l, r, &v))
			return overflow(env, e);
		return v;
	case LITMUS_EXPR_SUB:
		if (__builtin_sub_overflow(l, r, &v))
			return overflow(env, e);
		return v;
	default:
		litmus_eval_fail(env, e, "unknown expression kind %d",
				 (int)e->kind);
		return 0;
	}
}

int64_t litmus_eval(const struct litmus_expr *expr,
		    const struct litmus_env *env)
{
	return eval(expr, env, 1);
}
