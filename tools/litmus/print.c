// SPDX-License-Identifier: MIT
/*
 * tools/litmus/print.c - the normalized printer and AST comparison.
 *
 * litmus_print() writes a scenario in one canonical layout (tabs,
 * sections in grammar order, "always" before the condition, numbers in
 * decimal, the fewest parentheses that keep the tree) that re-parses to
 * an equal AST; litmus_equal() is that equality, positions aside.
 *
 * Leaves out: comments and the original spelling of numbers (0x5a, 16K
 * print as 90, 16384); the order of final clauses among themselves
 * beyond "always" lines, the condition, then expect lines.
 */
#include "tools/litmus/internal.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Values and paths                                                     */

static void sb_add_string(struct strbuf *sb, const char *s)
{
	sb_add(sb, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_add(sb, "\\%c", *s);
		else
			sb_add(sb, "%c", *s);
	}
	sb_add(sb, "\"");
}

void sb_add_value(struct strbuf *sb, const struct litmus_value *v)
{
	switch (v->kind) {
	case LITMUS_VALUE_INT:
		sb_add(sb, "%lld", (long long)v->number);
		return;
	case LITMUS_VALUE_IDENT:
		sb_add(sb, "%s", v->text);
		return;
	case LITMUS_VALUE_FLAGS:
		for (size_t i = 0; i < v->flags_count; i++)
			sb_add(sb, "%s%s", i ? "|" : "", v->flags[i]);
		return;
	case LITMUS_VALUE_RANGE:
		sb_add(sb, "%lld-%lld", (long long)v->range_first,
		       (long long)v->range_last);
		return;
	case LITMUS_VALUE_STRING:
		sb_add_string(sb, v->text);
		return;
	case LITMUS_VALUE_ERRNO:
		sb_add(sb, "-%s", v->text);
		return;
	}
	sb_add(sb, "?");
}

void sb_add_path(struct strbuf *sb, const struct litmus_expr *e)
{
	for (size_t i = 0; i < e->segs_count; i++) {
		sb_add(sb, "%s%s", i ? "." : "", e->segs[i].name);
		if (e->segs[i].index >= 0)
			sb_add(sb, "[%lld]", (long long)e->segs[i].index);
	}
}

/* Longest printed value: flag sets and escaped strings. */
#define VALUE_TEXT_MAX \
	(LITMUS_FLAGS_MAX * (LITMUS_NAME_LEN_MAX + 1) + \
	 2 * LITMUS_STRING_LEN_MAX + 64)

void litmus_value_print(FILE *out, const struct litmus_value *value)
{
	char buf[VALUE_TEXT_MAX];
	struct strbuf sb;

	sb_init(&sb, buf, sizeof(buf));
	sb_add_value(&sb, value);
	fputs(buf, out);
}

/* ------------------------------------------------------------------ */
/* Expressions                                                          */

enum prec {
	PREC_OR = 1,
	PREC_AND,
	PREC_NOT,
	PREC_CMP,
	PREC_SUM,
	PREC_UNARY,
	PREC_PRIMARY,
};

static enum prec prec(const struct litmus_expr *e)
{
	switch (e->kind) {
	case LITMUS_EXPR_OR:
		return PREC_OR;
	case LITMUS_EXPR_AND:
		return PREC_AND;
	case LITMUS_EXPR_NOT:
		return PREC_NOT;
	case LITMUS_EXPR_EQ:
	case LITMUS_EXPR_NE:
	case LITMUS_EXPR_LT:
	case LITMUS_EXPR_LE:
	case LITMUS_EXPR_GT:
	case LITMUS_EXPR_GE:
		return PREC_CMP;
	case LITMUS_EXPR_ADD:
	case LITMUS_EXPR_SUB:
		return PREC_SUM;
	case LITMUS_EXPR_NEG:
		return PREC_UNARY;
	default:
		return PREC_PRIMARY;
	}
}

static const char *op_text(enum litmus_expr_kind kind)
{
	switch (kind) {
	case LITMUS_EXPR_AND:
		return "/\\";
	case LITMUS_EXPR_OR:
		return "\\/";
	case LITMUS_EXPR_EQ:
		return "==";
	case LITMUS_EXPR_NE:
		return "!=";
	case LITMUS_EXPR_LT:
		return "<";
	case LITMUS_EXPR_LE:
		return "<=";
	case LITMUS_EXPR_GT:
		return ">";
	case LITMUS_EXPR_GE:
		return ">=";
	case LITMUS_EXPR_ADD:
		return "+";
	case LITMUS_EXPR_SUB:
		return "-";
	default:
		return "?";
	}
}

static void print_expr(FILE *out, const struct litmus_expr *e,
		       enum prec min, unsigned depth)
{
	bool parens;

	if (!e || depth > LITMUS_EXPR_DEPTH_MAX) {
		fputs("?", out);
		return;
	}
	parens = prec(e) < min;
	if (parens)
		fputs("(", out);
	switch (e->kind) {
	case LITMUS_EXPR_INT:
		fprintf(out, "%lld", (long long)e->number);
		break;
	case LITMUS_EXPR_ERRNO:
		fprintf(out, "-%s", e->errno_name);
		break;
	case LITMUS_EXPR_REG:
		fprintf(out, "%d:r%d", e->reg_thread, e->reg);
		break;
	case LITMUS_EXPR_PATH: {
		char buf[LITMUS_PATH_SEGS_MAX * (LITMUS_NAME_LEN_MAX + 24)];
		struct strbuf sb;

		sb_init(&sb, buf, sizeof(buf));
		sb_add_path(&sb, e);
		fputs(buf, out);
		break;
	}
	case LITMUS_EXPR_COUNT:
		fputs("count(", out);
		print_expr(out, e->left, PREC_OR, depth + 1);
		fputs(")", out);
		break;
	case LITMUS_EXPR_AT:
		fprintf(out, "at(%s, ", e->label);
		print_expr(out, e->left, PREC_OR, depth + 1);
		fputs(")", out);
		break;
	case LITMUS_EXPR_OUTCOME:
		fputs(litmus_outcome_name(e->outcome), out);
		break;
	case LITMUS_EXPR_NOT:
		fputs("~", out);
		print_expr(out, e->left, PREC_NOT, depth + 1);
		break;
	case LITMUS_EXPR_NEG:
		/*
		 * "-(5)" is not "-5": the parser folds a minus and a
		 * literal, so a negated literal keeps its parentheses; and
		 * "-(E5)", a path named like an errno, is not the errno
		 * literal "-E5".
		 */
		fputs("-", out);
		if (e->left && (e->left->kind == LITMUS_EXPR_INT ||
				e->left->kind == LITMUS_EXPR_ERRNO ||
				(e->left->kind == LITMUS_EXPR_PATH &&
				 e->left->segs_count &&
				 is_errno_name(e->left->segs[0].name,
					       strlen(e->left->segs[0].name)))))
			print_expr(out, e->left, PREC_PRIMARY + 1, depth + 1);
		else
			print_expr(out, e->left, PREC_UNARY, depth + 1);
		break;
	default:
		/* Binary: left-associative, comparisons take sums. */
		print_expr(out, e->left, prec(e) == PREC_CMP ? PREC_SUM :
			   prec(e), depth + 1);
		fprintf(out, " %s ", op_text(e->kind));
		print_expr(out, e->right, prec(e) == PREC_CMP ? PREC_SUM :
			   prec(e) + 1, depth + 1);
		break;
	}
	if (parens)
		fputs(")", out);
}

void litmus_expr_print(FILE *out, const struct litmus_expr *expr)
{
	print_expr(out, expr, PREC_OR, 1);
}

/* ------------------------------------------------------------------ */
/* Scenarios                                                            */

static void print_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_item(FILE *out, const struct litmus_item *it)
{
	fprintf(out, "\t%s", it->kind);
	if (it->name)
		fprintf(out, " %s%s", it->name, it->keyvals_count ? ":" : "");
	for (size_t k = 0; k < it->keyvals_count; k++) {
		fprintf(out, "%s%s=", k ? ", " : " ", it->keyvals[k].key);
		litmus_value_print(out, &it->keyvals[k].value);
	}
	fputs(";\n", out);
}

static void print_thread(FILE *out, const struct litmus_thread *th)
{
	size_t block_end = 0;

	fprintf(out, "\nP%d {\n", th->index);
	for (size_t k = 0; k < th->stmts_count; k++) {
		const struct litmus_stmt *st = &th->stmts[k];

		if (st->repeat) {
			fprintf(out, "\trepeat %u {\n", st->repeat);
			block_end = k + st->repeat_len;
		}
		fputs(k < block_end ? "\t\t" : "\t", out);
		if (st->label)
			fprintf(out, "%s: ", st->label);
		if (st->reg >= 0)
			fprintf(out, "r%d = ", st->reg);
		fprintf(out, "%s(", st->op);
		for (size_t a = 0; a < st->args_count; a++) {
			fputs(a ? ", " : "", out);
			litmus_value_print(out, &st->args[a]);
		}
		fputs(");\n", out);
		if (k + 1 == block_end)
			fputs("\t}\n", out);
	}
	fputs("}\n", out);
}

static const char *quantifier_text(enum litmus_quantifier q)
{
	switch (q) {
	case LITMUS_QUANT_EXISTS:
		return "exists";
	case LITMUS_QUANT_NOT_EXISTS:
		return "~exists";
	case LITMUS_QUANT_FORALL:
		return "forall";
	default:
		return NULL;
	}
}

static void print_claim_point(FILE *out, const struct litmus_claim_point *pt)
{
	if (pt->thread >= 0)
		fprintf(out, "P%d:", pt->thread);
	fprintf(out, "%s(%s", pt->ret ? "ret" : "call", pt->name);
	if (pt->occurrence != 1)
		fprintf(out, ", %u", pt->occurrence);
	fputs(")", out);
	if (pt->after)
		fprintf(out, "+%u", pt->after);
}

/* Each edge as a chain of its own: the same edges when read back. */
static void print_claim(FILE *out, const struct litmus_claim *c)
{
	fputs("claim ", out);
	if (c->text) {
		print_string(out, c->text);
		fputs(" ", out);
	}
	fputs("(", out);
	for (size_t i = 0; i < c->edges_count; i++) {
		fputs(i ? ",\n  " : "", out);
		print_claim_point(out, &c->edges[i].from);
		fputs(" -> ", out);
		print_claim_point(out, &c->edges[i].to);
	}
	fputs(")\n", out);
}

static bool claim_point_equal(const struct litmus_claim_point *a,
			      const struct litmus_claim_point *b)
{
	return a->thread == b->thread && a->ret == b->ret &&
	       strcmp(a->name, b->name) == 0 &&
	       a->occurrence == b->occurrence && a->after == b->after;
}

static bool claim_equal(const struct litmus_claim *a,
			const struct litmus_claim *b)
{
	if (!a || !b)
		return a == b;
	if (a->edges_count != b->edges_count ||
	    !((!a->text && !b->text) ||
	      (a->text && b->text && strcmp(a->text, b->text) == 0)))
		return false;
	for (size_t i = 0; i < a->edges_count; i++)
		if (!claim_point_equal(&a->edges[i].from, &b->edges[i].from) ||
		    !claim_point_equal(&a->edges[i].to, &b->edges[i].to))
			return false;
	return true;
}

void litmus_print(FILE *out, const struct litmus_scenario *scn)
{
	const char *quant = quantifier_text(scn->condition.quantifier);

	fprintf(out, "wpsim %s\n", scn->name);
	print_string(out, scn->description);
	fputs("\n\n{\n", out);
	for (size_t i = 0; i < scn->items_count; i++)
		print_item(out, &scn->items[i]);
	fputs("}\n", out);
	for (size_t t = 0; t < scn->threads_count; t++)
		print_thread(out, &scn->threads[t]);
	if (scn->always_count || quant || scn->expects_count || scn->claim)
		fputs("\n", out);
	for (size_t i = 0; i < scn->always_count; i++) {
		fputs("always (", out);
		litmus_expr_print(out, scn->always[i]);
		fputs(")\n", out);
	}
	if (quant) {
		fprintf(out, "%s (", quant);
		litmus_expr_print(out, scn->condition.expr);
		fputs(")\n", out);
	}
	if (scn->claim)
		print_claim(out, scn->claim);
	for (size_t i = 0; i < scn->expects_count; i++) {
		const struct litmus_expect *x = &scn->expects[i];

		fputs("expect", out);
		for (size_t a = 0; a < x->assigns_count; a++)
			fprintf(out, "%s%s=%s", a ? ", " : " ",
				x->assigns[a].key, x->assigns[a].value);
		fprintf(out, ": %s\n", litmus_observation_name(x->observation));
	}
}

/* ------------------------------------------------------------------ */
/* Equality                                                             */

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static bool value_equal(const struct litmus_value *a,
			const struct litmus_value *b)
{
	if (a->kind != b->kind || a->number != b->number ||
	    a->range_first != b->range_first ||
	    a->range_last != b->range_last || !str_eq(a->text, b->text) ||
	    a->flags_count != b->flags_count)
		return false;
	for (size_t i = 0; i < a->flags_count; i++)
		if (!str_eq(a->flags[i], b->flags[i]))
			return false;
	return true;
}

static bool expr_equal(const struct litmus_expr *a,
		       const struct litmus_expr *b, unsigned depth)
{
	if (!a || !b)
		return a == b;
	if (depth > LITMUS_EXPR_DEPTH_MAX || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case LITMUS_EXPR_INT:
		return a->number == b->number;
	case LITMUS_EXPR_ERRNO:
		return a->number == b->number &&
		       str_eq(a->errno_name, b->errno_name);
	case LITMUS_EXPR_REG:
		return a->reg_thread == b->reg_thread && a->reg == b->reg;
	case LITMUS_EXPR_PATH:
		if (a->segs_count != b->segs_count)
			return false;
		for (size_t i = 0; i < a->segs_count; i++)
			if (!str_eq(a->segs[i].name, b->segs[i].name) ||
			    a->segs[i].index != b->segs[i].index)
				return false;
		return true;
	case LITMUS_EXPR_OUTCOME:
		return a->outcome == b->outcome;
	case LITMUS_EXPR_AT:
		return str_eq(a->label, b->label) &&
		       expr_equal(a->left, b->left, depth + 1);
	default:
		return expr_equal(a->left, b->left, depth + 1) &&
		       expr_equal(a->right, b->right, depth + 1);
	}
}

bool litmus_expr_equal(const struct litmus_expr *a,
		       const struct litmus_expr *b)
{
	return expr_equal(a, b, 1);
}

static bool item_equal(const struct litmus_item *a,
		       const struct litmus_item *b)
{
	if (!str_eq(a->kind, b->kind) || !str_eq(a->name, b->name) ||
	    a->keyvals_count != b->keyvals_count)
		return false;
	for (size_t k = 0; k < a->keyvals_count; k++)
		if (!str_eq(a->keyvals[k].key, b->keyvals[k].key) ||
		    !value_equal(&a->keyvals[k].value, &b->keyvals[k].value))
			return false;
	return true;
}

static bool thread_equal(const struct litmus_thread *a,
			 const struct litmus_thread *b)
{
	if (a->index != b->index || a->stmts_count != b->stmts_count)
		return false;
	for (size_t k = 0; k < a->stmts_count; k++) {
		const struct litmus_stmt *x = &a->stmts[k], *y = &b->stmts[k];

		if (x->reg != y->reg || !str_eq(x->op, y->op) ||
		    x->args_count != y->args_count ||
		    x->repeat != y->repeat || x->repeat_len != y->repeat_len ||
		    !str_eq(x->label, y->label))
			return false;
		for (size_t i = 0; i < x->args_count; i++)
			if (!value_equal(&x->args[i], &y->args[i]))
				return false;
	}
	return true;
}

static bool expect_equal(const struct litmus_expect *a,
			 const struct litmus_expect *b)
{
	if (a->observation != b->observation ||
	    a->assigns_count != b->assigns_count)
		return false;
	for (size_t i = 0; i < a->assigns_count; i++)
		if (!str_eq(a->assigns[i].key, b->assigns[i].key) ||
		    !str_eq(a->assigns[i].value, b->assigns[i].value))
			return false;
	return true;
}

bool litmus_equal(const struct litmus_scenario *a,
		  const struct litmus_scenario *b)
{
	if (!str_eq(a->name, b->name) ||
	    !str_eq(a->description, b->description) ||
	    a->items_count != b->items_count ||
	    a->threads_count != b->threads_count ||
	    a->condition.quantifier != b->condition.quantifier ||
	    !litmus_expr_equal(a->condition.expr, b->condition.expr) ||
	    a->always_count != b->always_count ||
	    a->expects_count != b->expects_count ||
	    !claim_equal(a->claim, b->claim))
		return false;
	for (size_t i = 0; i < a->items_count; i++)
		if (!item_equal(&a->items[i], &b->items[i]))
			return false;
	for (size_t i = 0; i < a->threads_count; i++)
		if (!thread_equal(&a->threads[i], &b->threads[i]))
			return false;
	for (size_t i = 0; i < a->always_count; i++)
		if (!litmus_expr_equal(a->always[i], b->always[i]))
			return false;
	for (size_t i = 0; i < a->expects_count; i++)
		if (!expect_equal(&a->expects[i], &b->expects[i]))
			return false;
	return true;
}
