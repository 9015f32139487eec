// SPDX-License-Identifier: MIT
/*
 * tests/litmus/fuzz_litmus.c - libFuzzer target for the scenario front
 * end.  For any input bytes: parsing never crashes or leaks, fails with
 * at least one "fuzz:line:col: error: ..." line, or succeeds; a success
 * prints to text that re-parses to an equal AST and prints identically,
 * validates against a small schema, and every expression evaluates
 * against a fake env without undefined behaviour.
 *
 * Built as target 'litmus' of tests/fuzz/meson.build (make fuzz: clang,
 * libFuzzer, ASan, UBSan) and, in the deep tier with clang, by
 * tests/litmus/meson.build.
 * Leaves out: checking what the errors say (tests/litmus/test_litmus.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/litmus/litmus.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FUZZ_ITEMS	3	/* items count() ranges over */

#include "../fuzz/fuzz-check.h"

static const struct litmus_schema_op ops[] = {
	{ "pwrite", 3, 4, "", { LITMUS_VALUE_IDENT, LITMUS_VALUE_INT } },
	{ "writeback", 1, 2, "", { LITMUS_VALUE_IDENT } },
	{ "f", 0, 8, "", { 0 } },
};

static const struct litmus_schema_key file_keys[] = {
	{ "size", LITMUS_VALUE_INT, "" },
	{ "cached", LITMUS_VALUE_INT | LITMUS_VALUE_RANGE, "" },
	{ "open", LITMUS_VALUE_IDENT | LITMUS_VALUE_FLAGS, "" },
};

static const struct litmus_schema_kind kinds[] = {
	{ "file", LITMUS_NAME_REQUIRED, file_keys, ARRAY_SIZE(file_keys), "" },
	{ "device", LITMUS_NAME_FORBIDDEN, NULL, 0, "" },
};

static const char *const dontcache_values[] = { "v11", "v12" };

static const struct litmus_schema_variant variants[] = {
	{ "dontcache", dontcache_values, ARRAY_SIZE(dontcache_values), "" },
};

static int fuzz_check_path(const struct litmus_schema *schema,
			   const struct litmus_expr *path, bool in_count,
			   char *why, size_t why_size)
{
	(void)schema;
	if (path->segs_count > 1 || in_count)
		return 0;
	snprintf(why, why_size, "single-segment paths only inside count()");
	return 1;
}

static const struct litmus_schema schema = {
	.ops = ops,
	.ops_count = ARRAY_SIZE(ops),
	.kinds = kinds,
	.kinds_count = ARRAY_SIZE(kinds),
	.variants = variants,
	.variants_count = ARRAY_SIZE(variants),
	.check_path = fuzz_check_path,
};

struct fake {
	int current;
};

static int fake_reg(const struct litmus_env *env,
		    const struct litmus_expr *ref, int64_t *value)
{
	(void)env;
	*value = ref->reg_thread * 100 + ref->reg;
	return 0;
}

static int fake_path(const struct litmus_env *env,
		     const struct litmus_expr *ref, int64_t *value)
{
	struct fake *f = env->ctx;

	if (strcmp(ref->segs[0].name, "missing") == 0)
		return -1;
	*value = (int64_t)ref->segs_count + f->current;
	for (size_t i = 0; i < ref->segs_count; i++)
		*value += ref->segs[i].index;
	return 0;
}

static int fake_count(const struct litmus_env *env,
		      const struct litmus_expr *count, int64_t *value)
{
	struct fake *f = env->ctx;
	int saved = f->current;

	*value = 0;
	for (f->current = 0; f->current < FUZZ_ITEMS; f->current++)
		*value += litmus_eval(count->left, env) != 0;
	f->current = saved;
	return 0;
}

static int fake_outcome(const struct litmus_env *env,
			enum litmus_outcome outcome, int64_t *value)
{
	(void)env;
	*value = outcome == LITMUS_OUTCOME_STUCK;
	return 0;
}

static void eval_all(const struct litmus_scenario *scn)
{
	struct litmus_errors errors;
	struct fake fake = { .current = -1 };
	struct litmus_env env = {
		.ctx = &fake,
		.file = "fuzz",
		.reg = fake_reg,
		.path = fake_path,
		.count = fake_count,
		.outcome = fake_outcome,
		.errors = &errors,
	};
	int64_t v;

	memset(&errors, 0, sizeof(errors));
	if (scn->condition.expr) {
		v = litmus_eval(scn->condition.expr, &env);
		check(!litmus_eval_failed(&env) || v == 0);
	}
	for (size_t i = 0; i < scn->always_count; i++) {
		memset(&errors, 0, sizeof(errors));
		v = litmus_eval(scn->always[i], &env);
		check(!litmus_eval_failed(&env) || v == 0);
	}
}

static char *print(const struct litmus_scenario *scn, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);

	check(out);
	litmus_print(out, scn);
	check(fclose(out) == 0);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct litmus_errors errors = { 0 };
	struct litmus_scenario *scn, *again;
	char *first, *second;
	size_t first_len, second_len;

	scn = litmus_parse("fuzz", (const char *)data, size, NULL, &errors);
	if (!scn) {
		check(errors.count >= 1);
		check(strncmp(errors.list[0].text, "fuzz:", 5) == 0);
		return 0;
	}
	check(errors.count == 0);

	first = print(scn, &first_len);
	again = litmus_parse("printed", first, first_len, NULL, &errors);
	if (!again)
		fprintf(stderr, "%s\n--- printed:\n%s\n",
			errors.list[0].text, first);
	check(again);
	check(litmus_equal(scn, again));
	second = print(again, &second_len);
	check(first_len == second_len && memcmp(first, second, first_len) == 0);

	memset(&errors, 0, sizeof(errors));
	litmus_validate(scn, &schema, &errors);
	check(errors.count <= LITMUS_ERRORS_MAX);
	eval_all(scn);

	free(first);
	free(second);
	litmus_free(again);
	litmus_free(scn);
	return 0;
}
