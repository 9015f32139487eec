// SPDX-License-Identifier: MIT
/*
 * tools/litmus/check.c - the semantic checks of a parsed scenario.
 *
 * Without a schema: no key twice in an item (or in unnamed items of the
 * same kind), no named item twice, a register assigned at most once per
 * thread, every T:rK of a condition names an existing thread and a
 * register it assigns, the variant item has no name and plain values,
 * no expect line twice for the same variants.
 * With a schema: item kinds, names and keys, value kinds, variant keys
 * and values (in the variant item and in expect lines), op names,
 * argument counts and kinds, and reference paths when the schema has a
 * check_path callback.  Statements get their op_index.
 *
 * Every problem is reported at its own position and the checks go on,
 * so one run shows up to LITMUS_ERRORS_MAX of them.
 *
 * Leaves out: what values mean (a layout string's letters, whether a
 * file named in an op exists): the model checks those with the AST's
 * positions.
 */
#include "tools/litmus/internal.h"

#include <string.h>

struct checker {
	struct litmus_scenario *scn;
	const struct litmus_schema *schema;
	struct litmus_errors *errors;
	size_t count;
	bool in_always;			/* checking an always clause */
	bool in_at;			/* inside at(L, ...) */
};

static void report(struct checker *c, struct litmus_pos pos,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void report(struct checker *c, struct litmus_pos pos,
		   const char *fmt, ...)
{
	va_list ap;

	c->count++;
	va_start(ap, fmt);
	errors_vadd(c->errors, c->scn->file, pos, fmt, ap);
	va_end(ap);
}

static void report_sb(struct checker *c, struct litmus_pos pos,
		      const struct strbuf *sb)
{
	report(c, pos, "%s", sb->buf);
}

static const char *value_text(const struct litmus_value *v, char *buf,
			      size_t size)
{
	struct strbuf sb;

	sb_init(&sb, buf, size);
	sb_add_value(&sb, v);
	return buf;
}

static bool kind_allowed(unsigned mask, enum litmus_value_kind kind)
{
	return mask == LITMUS_VALUE_ANY || (mask & (unsigned)kind);
}

static void sb_add_kinds(struct strbuf *sb, unsigned mask)
{
	static const struct {
		unsigned kind;
		const char *text;
	} names[] = {
		{ LITMUS_VALUE_INT, "an integer" },
		{ LITMUS_VALUE_IDENT, "a name" },
		{ LITMUS_VALUE_FLAGS, "flags A|B" },
		{ LITMUS_VALUE_RANGE, "a range first-last" },
		{ LITMUS_VALUE_STRING, "a string" },
		{ LITMUS_VALUE_ERRNO, "-ERRNO" },
	};
	size_t total = 0, done = 0;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		total += (mask & names[i].kind) != 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(mask & names[i].kind))
			continue;
		sb_add(sb, "%s%s", done == 0 ? "" :
		       done + 1 == total ? " or " : ", ", names[i].text);
		done++;
	}
}

/* ------------------------------------------------------------------ */
/* Variants                                                             */

static void check_variant(struct checker *c, const char *key,
			  struct litmus_pos key_pos, const char *value,
			  struct litmus_pos value_pos)
{
	const struct litmus_schema *s = c->schema;
	const struct litmus_schema_variant *var = NULL;
	char msg[LITMUS_MESSAGE_MAX];
	struct strbuf sb;

	if (!s)
		return;
	for (size_t i = 0; i < s->variants_count && !var; i++)
		if (strcmp(s->variants[i].key, key) == 0)
			var = &s->variants[i];
	sb_init(&sb, msg, sizeof(msg));
	if (!var) {
		sb_add(&sb, "unknown variant key '%s'", key);
		sb_add_known(&sb, key, s->variants, s->variants_count,
			     sizeof(s->variants[0]));
		report_sb(c, key_pos, &sb);
		return;
	}
	for (size_t i = 0; i < var->values_count; i++)
		if (strcmp(var->values[i], value) == 0)
			return;
	sb_add(&sb, "unknown value '%s' for variant %s", value, key);
	sb_add_known(&sb, value, var->values, var->values_count,
		     sizeof(var->values[0]));
	report_sb(c, value_pos, &sb);
}

/* ------------------------------------------------------------------ */
/* Initial state                                                        */

static void check_variant_item(struct checker *c,
			       const struct litmus_item *item)
{
	char text[64], buf[256];

	if (item->name)
		report(c, item->pos, "expected a variant key after 'variant', "
		       "found '%s'", item->name);
	for (size_t k = 0; k < item->keyvals_count; k++) {
		const struct litmus_keyval *kv = &item->keyvals[k];
		const struct litmus_value *v = &kv->value;

		if (v->kind == LITMUS_VALUE_IDENT) {
			check_variant(c, kv->key, kv->pos, v->text, v->pos);
		} else if (v->kind == LITMUS_VALUE_INT) {
			snprintf(text, sizeof(text), "%lld",
				 (long long)v->number);
			check_variant(c, kv->key, kv->pos, text, v->pos);
		} else {
			report(c, v->pos, "expected a variant value (a name "
			       "or a number), found '%s'",
			       value_text(v, buf, sizeof(buf)));
		}
	}
}

static const struct litmus_schema_kind *find_kind(struct checker *c,
						  const struct litmus_item *it)
{
	const struct litmus_schema *s = c->schema;
	char msg[LITMUS_MESSAGE_MAX];
	struct strbuf sb;

	for (size_t i = 0; i < s->kinds_count; i++)
		if (strcmp(s->kinds[i].name, it->kind) == 0)
			return &s->kinds[i];
	sb_init(&sb, msg, sizeof(msg));
	sb_add(&sb, "unknown item kind '%s'", it->kind);
	sb_add_known(&sb, it->kind, s->kinds, s->kinds_count,
		     sizeof(s->kinds[0]));
	sb_add(&sb, ", variant");
	report_sb(c, it->pos, &sb);
	return NULL;
}

static void check_schema_item(struct checker *c, const struct litmus_item *it)
{
	const struct litmus_schema_kind *kind = find_kind(c, it);
	char msg[LITMUS_MESSAGE_MAX], buf[256];
	struct strbuf sb;

	if (!kind)
		return;
	if (it->name && kind->name_rule == LITMUS_NAME_FORBIDDEN)
		report(c, it->pos, "expected a key after '%s', found '%s' "
		       "(%s items take no name)", it->kind, it->name,
		       it->kind);
	if (!it->name && kind->name_rule == LITMUS_NAME_REQUIRED)
		report(c, it->pos, "expected a name after '%s', as in "
		       "'%s f: ...'", it->kind, it->kind);
	for (size_t k = 0; k < it->keyvals_count; k++) {
		const struct litmus_keyval *kv = &it->keyvals[k];
		const struct litmus_schema_key *key = NULL;

		for (size_t i = 0; i < kind->keys_count && !key; i++)
			if (strcmp(kind->keys[i].name, kv->key) == 0)
				key = &kind->keys[i];
		sb_init(&sb, msg, sizeof(msg));
		if (!key) {
			sb_add(&sb, "unknown key '%s' for %s", kv->key,
			       it->kind);
			sb_add_known(&sb, kv->key, kind->keys, kind->keys_count,
				     sizeof(kind->keys[0]));
			report_sb(c, kv->pos, &sb);
			continue;
		}
		if (kind_allowed(key->kinds, kv->value.kind))
			continue;
		sb_add(&sb, "expected ");
		sb_add_kinds(&sb, key->kinds);
		sb_add(&sb, " for %s.%s, found '%s'", it->kind, kv->key,
		       value_text(&kv->value, buf, sizeof(buf)));
		report_sb(c, kv->value.pos, &sb);
	}
}

/* Same kind and, for named items, same name. */
static bool same_group(const struct litmus_item *a,
		       const struct litmus_item *b)
{
	if (strcmp(a->kind, b->kind) != 0)
		return false;
	if (!a->name || !b->name)
		return !a->name && !b->name;
	return strcmp(a->name, b->name) == 0;
}

static void check_duplicates(struct checker *c, size_t i)
{
	const struct litmus_item *items = c->scn->items, *it = &items[i];

	for (size_t j = 0; j < i; j++) {
		if (it->name && same_group(&items[j], it)) {
			report(c, it->pos, "duplicate %s '%s' (first at "
			       "%u:%u)", it->kind, it->name,
			       items[j].pos.line, items[j].pos.col);
			return;
		}
	}
	for (size_t k = 0; k < it->keyvals_count; k++) {
		const struct litmus_keyval *kv = &it->keyvals[k];
		const struct litmus_keyval *first = NULL;

		for (size_t j = 0; j <= i && !first; j++) {
			const struct litmus_item *other = &items[j];
			size_t end = j == i ? k : other->keyvals_count;

			if (!same_group(other, it))
				continue;
			for (size_t m = 0; m < end && !first; m++)
				if (strcmp(other->keyvals[m].key, kv->key) == 0)
					first = &other->keyvals[m];
		}
		if (first)
			report(c, kv->pos, "duplicate key '%s' (first at "
			       "%u:%u)", kv->key, first->pos.line,
			       first->pos.col);
	}
}

static void check_items(struct checker *c)
{
	for (size_t i = 0; i < c->scn->items_count; i++) {
		const struct litmus_item *it = &c->scn->items[i];

		check_duplicates(c, i);
		if (strcmp(it->kind, "variant") == 0)
			check_variant_item(c, it);
		else if (c->schema)
			check_schema_item(c, it);
	}
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */

static void check_op(struct checker *c, struct litmus_stmt *st)
{
	const struct litmus_schema *s = c->schema;
	const struct litmus_schema_op *op = NULL;
	char msg[LITMUS_MESSAGE_MAX], buf[256];
	struct strbuf sb;
	size_t n;

	for (size_t i = 0; i < s->ops_count && !op; i++) {
		if (strcmp(s->ops[i].name, st->op) == 0) {
			op = &s->ops[i];
			st->op_index = (int)i;
		}
	}
	sb_init(&sb, msg, sizeof(msg));
	if (!op) {
		sb_add(&sb, "unknown op '%s'", st->op);
		sb_add_known(&sb, st->op, s->ops, s->ops_count,
			     sizeof(s->ops[0]));
		report_sb(c, st->op_pos, &sb);
		return;
	}
	if (st->args_count < op->args_min || st->args_count > op->args_max) {
		if (op->args_min == op->args_max)
			report(c, st->op_pos, "expected %u argument%s for %s, "
			       "found %zu", op->args_min,
			       op->args_min == 1 ? "" : "s", op->name,
			       st->args_count);
		else
			report(c, st->op_pos, "expected %u to %u arguments "
			       "for %s, found %zu", op->args_min,
			       op->args_max, op->name, st->args_count);
	}
	n = st->args_count < LITMUS_ARGS_MAX ? st->args_count :
		LITMUS_ARGS_MAX;
	for (size_t a = 0; a < n; a++) {
		const struct litmus_value *v = &st->args[a];

		if (kind_allowed(op->arg_kinds[a], v->kind))
			continue;
		sb_init(&sb, msg, sizeof(msg));
		sb_add(&sb, "expected ");
		sb_add_kinds(&sb, op->arg_kinds[a]);
		sb_add(&sb, " for argument %zu of %s, found '%s'", a + 1,
		       op->name, value_text(v, buf, sizeof(buf)));
		report_sb(c, v->pos, &sb);
	}
}

/* A label names one statement of the whole scenario. */
static void check_label(struct checker *c, size_t t, size_t k)
{
	const struct litmus_stmt *st = &c->scn->threads[t].stmts[k];

	for (size_t u = 0; u <= t; u++) {
		const struct litmus_thread *th = &c->scn->threads[u];

		for (size_t j = 0; j < (u == t ? k : th->stmts_count); j++) {
			const struct litmus_stmt *o = &th->stmts[j];

			if (o->label && strcmp(o->label, st->label) == 0) {
				report(c, st->label_pos, "label '%s' is "
				       "used twice (first at %u:%u)",
				       st->label, o->label_pos.line,
				       o->label_pos.col);
				return;
			}
		}
	}
}

static void check_threads(struct checker *c)
{
	for (size_t t = 0; t < c->scn->threads_count; t++) {
		const struct litmus_thread *th = &c->scn->threads[t];
		const struct litmus_stmt *first[LITMUS_REGS_MAX] = { NULL };

		for (size_t k = 0; k < th->stmts_count; k++) {
			/* The pool's memory: the AST is const to callers. */
			struct litmus_stmt *st =
				(struct litmus_stmt *)&th->stmts[k];

			st->op_index = -1;
			if (st->label)
				check_label(c, t, k);
			if (st->reg >= 0 && st->reg < LITMUS_REGS_MAX) {
				const struct litmus_stmt *f = first[st->reg];

				if (f)
					report(c, st->pos, "r%d is assigned "
					       "twice in P%d (first at %u:%u)",
					       st->reg, th->index,
					       f->pos.line, f->pos.col);
				else
					first[st->reg] = st;
			}
			if (c->schema)
				check_op(c, st);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Conditions                                                           */

static bool assigns(const struct litmus_thread *th, int reg)
{
	for (size_t k = 0; k < th->stmts_count; k++)
		if (th->stmts[k].reg == reg)
			return true;
	return false;
}

static void check_path(struct checker *c, const struct litmus_expr *e,
		       bool in_count)
{
	char why[LITMUS_MESSAGE_MAX / 2], path[256];
	struct strbuf sb;

	if (!c->schema || !c->schema->check_path)
		return;
	why[0] = '\0';
	if (c->schema->check_path(c->schema, e, in_count, why,
				  sizeof(why)) == 0)
		return;
	why[sizeof(why) - 1] = '\0';
	sb_init(&sb, path, sizeof(path));
	sb_add_path(&sb, e);
	report(c, e->pos, "unknown reference '%s'%s%s", path,
	       why[0] ? ": " : "", why);
}

/*
 * at(L, e): L labels one statement of one thread; at() is a question on
 * the final state (not in always clauses, not inside count or another
 * at).  The pool's memory: the resolved statement is written in place.
 */
static void check_at(struct checker *c, struct litmus_expr *e)
{
	if (c->in_at || c->in_always) {
		report(c, e->pos, "expected at(...) only in the condition, "
		       "outside another at(...), found it in %s",
		       c->in_at ? "at(...)" : "an always clause");
		return;
	}
	for (size_t t = 0; t < c->scn->threads_count; t++) {
		const struct litmus_thread *th = &c->scn->threads[t];

		for (size_t k = 0; k < th->stmts_count; k++) {
			if (!th->stmts[k].label ||
			    strcmp(th->stmts[k].label, e->label) != 0)
				continue;
			e->at_thread = (int)t;
			e->at_stmt = (int)k;
			return;
		}
	}
	report(c, e->pos, "at(%s, ...) names no statement label", e->label);
}

static void check_expr(struct checker *c, const struct litmus_expr *e,
		       bool in_count, unsigned depth)
{
	const struct litmus_thread *th;

	if (!e || depth > LITMUS_EXPR_DEPTH_MAX)
		return;
	switch (e->kind) {
	case LITMUS_EXPR_REG:
		if (e->reg_thread < 0 ||
		    (size_t)e->reg_thread >= c->scn->threads_count) {
			report(c, e->pos, "%d:r%d names thread P%d, which "
			       "does not exist", e->reg_thread, e->reg,
			       e->reg_thread);
			return;
		}
		th = &c->scn->threads[e->reg_thread];
		if (!assigns(th, e->reg))
			report(c, e->pos, "%d:r%d names a register that P%d "
			       "never assigns", e->reg_thread, e->reg,
			       e->reg_thread);
		return;
	case LITMUS_EXPR_PATH:
		check_path(c, e, in_count);
		return;
	case LITMUS_EXPR_COUNT:
		check_expr(c, e->left, true, depth + 1);
		return;
	case LITMUS_EXPR_AT:
		if (in_count) {
			report(c, e->pos, "expected at(...) outside "
			       "count(...), found it inside");
			return;
		}
		check_at(c, (struct litmus_expr *)e);
		if (c->in_at || c->in_always)
			return;
		c->in_at = true;
		check_expr(c, e->left, false, depth + 1);
		c->in_at = false;
		return;
	case LITMUS_EXPR_OUTCOME:
		if (c->in_at)
			report(c, e->pos, "expected a state inside at(...) "
			       "(an outcome is the execution's end), found "
			       "'%s'", litmus_outcome_name(e->outcome));
		return;
	default:
		check_expr(c, e->left, in_count, depth + 1);
		check_expr(c, e->right, in_count, depth + 1);
		return;
	}
}

static void check_conditions(struct checker *c)
{
	check_expr(c, c->scn->condition.expr, false, 1);
	c->in_always = true;
	for (size_t i = 0; i < c->scn->always_count; i++)
		check_expr(c, c->scn->always[i], false, 1);
	c->in_always = false;
}

/* ------------------------------------------------------------------ */
/* Expect lines                                                         */

static bool same_assigns(const struct litmus_expect *a,
			 const struct litmus_expect *b)
{
	if (a->assigns_count != b->assigns_count)
		return false;
	for (size_t i = 0; i < a->assigns_count; i++) {
		bool found = false;

		for (size_t j = 0; j < b->assigns_count && !found; j++)
			found = strcmp(a->assigns[i].key,
				       b->assigns[j].key) == 0 &&
				strcmp(a->assigns[i].value,
				       b->assigns[j].value) == 0;
		if (!found)
			return false;
	}
	return true;
}

static void check_expects(struct checker *c)
{
	const struct litmus_expect *xs = c->scn->expects;

	for (size_t i = 0; i < c->scn->expects_count; i++) {
		const struct litmus_expect *x = &xs[i];
		bool dup_key = false;

		for (size_t a = 0; a < x->assigns_count; a++) {
			const struct litmus_assign *as = &x->assigns[a];

			for (size_t b = 0; b < a; b++) {
				if (strcmp(x->assigns[b].key, as->key) != 0)
					continue;
				report(c, as->pos, "duplicate key '%s' (first "
				       "at %u:%u)", as->key,
				       x->assigns[b].pos.line,
				       x->assigns[b].pos.col);
				dup_key = true;
				break;
			}
			check_variant(c, as->key, as->pos, as->value, as->pos);
		}
		for (size_t j = 0; j < i && !dup_key; j++) {
			if (!same_assigns(&xs[j], x))
				continue;
			report(c, x->pos, "duplicate expect for the same "
			       "variant (first at %u:%u)", xs[j].pos.line,
			       xs[j].pos.col);
			break;
		}
	}
}

size_t litmus_validate(struct litmus_scenario *scenario,
		       const struct litmus_schema *schema,
		       struct litmus_errors *errors)
{
	struct checker c = {
		.scn = scenario,
		.schema = schema,
		.errors = errors,
	};

	check_items(&c);
	check_threads(&c);
	check_conditions(&c);
	check_expects(&c);
	return c.count;
}
