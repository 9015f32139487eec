// SPDX-License-Identifier: MIT
/*
 * tests/litmus/test_litmus.c - the scenario-language front end: valid
 * scenarios parse to the expected AST, every error class is reported
 * at its exact line:col with its exact text, the printer's output
 * re-parses to an equal AST, expressions evaluate against a fake env,
 * and every limit is an error rather than a crash.
 *
 * The schema here is a small stand-in for the model's op table.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/litmus/litmus.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* A test schema                                                        */

#define I	LITMUS_VALUE_INT
#define N	LITMUS_VALUE_IDENT
#define F	LITMUS_VALUE_FLAGS
#define R	LITMUS_VALUE_RANGE

static const struct litmus_schema_op test_ops[] = {
	{ "pwrite", 3, 4, "pwrite(file, offset, length[, flags])",
	  { N, I, I, I | N | F } },
	{ "pwritev2", 4, 4, "pwritev2(file, offset, length, RWF_*)",
	  { N, I, I, I | N | F } },
	{ "mmap_store", 3, 3, "mmap_store(file, offset, byte)", { N, I, I } },
	{ "writeback", 1, 2, "writeback(file[, WB_SYNC_*])", { N, N } },
	{ "munmap", 1, 1, "munmap(file)", { N } },
	{ "fsync", 1, 1, "fsync(file)", { N } },
	{ "expect_ret", 1, 1, "test op taking an errno", { 0 } },
};

static const struct litmus_schema_key file_keys[] = {
	{ "size", I, "bytes" },
	{ "bsize", I, "block size" },
	{ "folio", I, "folio size" },
	{ "layout", N, "one letter per block" },
	{ "cached", I | R, "folios in the page cache" },
	{ "dirty", I | R, "dirty folios" },
	{ "mapped", I | R, "mapped folios" },
	{ "open", N | F, "open flags" },
	{ "label", LITMUS_VALUE_STRING, "free text" },
};

static const struct litmus_schema_key device_keys[] = {
	{ "fail_bio", I, "fail the n-th bio" },
	{ "fail_sectors", I | R, "sectors that fail" },
};

static const struct litmus_schema_key bound_keys[] = {
	{ "steps", I, "step bound" },
	{ "preemptions", I, "preemption bound" },
};

static const struct litmus_schema_kind test_kinds[] = {
	{ "file", LITMUS_NAME_REQUIRED, file_keys, ARRAY_SIZE(file_keys),
	  "a file" },
	{ "device", LITMUS_NAME_FORBIDDEN, device_keys,
	  ARRAY_SIZE(device_keys), "the block device" },
	{ "bound", LITMUS_NAME_FORBIDDEN, bound_keys, ARRAY_SIZE(bound_keys),
	  "exploration bounds" },
};

static const char *const dontcache_values[] = { "v11", "v12" };
static const char *const wb_values[] = { "old", "new" };

static const struct litmus_schema_variant test_variants[] = {
	{ "dontcache", dontcache_values, ARRAY_SIZE(dontcache_values),
	  "RWF_DONTCACHE series" },
	{ "wb", wb_values, ARRAY_SIZE(wb_values), "writeback flavour" },
};

/* Paths must start with wb, folio or a file name f. */
static int test_check_path(const struct litmus_schema *schema,
			   const struct litmus_expr *path, bool in_count,
			   char *why, size_t why_size)
{
	const char *root = path->segs[0].name;

	(void)schema;
	if (strcmp(root, "wb") == 0 || strcmp(root, "f") == 0)
		return 0;
	if (strcmp(root, "folio") == 0 &&
	    (in_count || path->segs[0].index >= 0))
		return 0;
	snprintf(why, why_size, "%s", strcmp(root, "folio") == 0 ?
		 "folio without [index] outside count()" :
		 "roots: wb, f, folio");
	return 1;
}

static const struct litmus_schema schema = {
	.ops = test_ops,
	.ops_count = ARRAY_SIZE(test_ops),
	.kinds = test_kinds,
	.kinds_count = ARRAY_SIZE(test_kinds),
	.variants = test_variants,
	.variants_count = ARRAY_SIZE(test_variants),
	.check_path = test_check_path,
};

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static const char example[] =
	"wpsim sashiko-double-count\n"
	"\"A DONTCACHE writer marks an already dirty mapped folio; "
	"the counter must stay exact\"\n"
	"\n"
	"{\n"
	"  file f: size=16384, bsize=4096, folio=4096, layout=WWWW, "
	"cached=0-3, dirty=1, mapped=1, open=O_RDWR;\n"
	"  variant dontcache=v11;   (* defaults; --variant overrides *)\n"
	"  device: fail_bio=3, fail_sectors=8-15;   // error injection\n"
	"  bound steps=2000, preemptions=3;\n"
	"}\n"
	"\n"
	"P0 {\n"
	"  r0 = pwritev2(f, 0, 4096, RWF_DONTCACHE|RWF_DSYNC);\n"
	"  r1 = mmap_store(f, 4096, 0x5a);\n"
	"}\n"
	"P1 {\n"
	"  r0 = writeback(f, WB_SYNC_ALL);\n"
	"  munmap(f);\n"
	"}\n"
	"\n"
	"always (wb.dontcache_dirty == count(folio.dirty /\\ "
	"folio.dropbehind))\n"
	"exists (0:r0 == 4096 /\\ wb.dontcache_dirty != "
	"count(folio.dirty /\\ folio.dropbehind))\n"
	"expect dontcache=v11: Sometimes\n"
	"expect dontcache=v12: Never\n";

static struct litmus_scenario *parse_ok(const char *src,
					const struct litmus_schema *s)
{
	struct litmus_errors errors = { 0 };
	struct litmus_scenario *scn;

	scn = litmus_parse("t.litmus", src, strlen(src), s, &errors);
	cr_assert_not_null(scn, "parse failed: %s\nsource:\n%s",
			   errors.count ? errors.list[0].text : "?", src);
	cr_assert_eq(errors.count, 0);
	return scn;
}

/* Parse must fail; the first error must read exactly `want`. */
static void parse_err(const char *src, const struct litmus_schema *s,
		      const char *want)
{
	struct litmus_errors errors = { 0 };
	struct litmus_scenario *scn;

	scn = litmus_parse("t.litmus", src, strlen(src), s, &errors);
	cr_assert_null(scn, "parsed, but wanted: %s\nsource:\n%s", want, src);
	cr_assert_geq(errors.count, 1);
	cr_assert_str_eq(errors.list[0].text, want,
			 "\n got: %s\nwant: %s\nsource:\n%.300s",
			 errors.list[0].text, want, src);
}

/* Round trip: print, re-parse, compare; printing again is identical. */
static void round_trip(const struct litmus_scenario *scn)
{
	char *first = NULL, *second = NULL;
	size_t first_len = 0, second_len = 0;
	struct litmus_errors errors = { 0 };
	struct litmus_scenario *again;
	FILE *out;

	out = open_memstream(&first, &first_len);
	litmus_print(out, scn);
	fclose(out);
	again = litmus_parse("printed", first, first_len, NULL, &errors);
	cr_assert_not_null(again, "printed form does not parse: %s\n%s",
			   errors.count ? errors.list[0].text : "?", first);
	cr_assert(litmus_equal(scn, again), "printed form differs:\n%s",
		  first);
	out = open_memstream(&second, &second_len);
	litmus_print(out, again);
	fclose(out);
	cr_assert_str_eq(first, second);
	litmus_free(again);
	free(first);
	free(second);
}

#define HEAD "wpsim t \"d\"\n{}\n"

/* ------------------------------------------------------------------ */
/* Valid scenarios                                                      */

Test(parse, issue_example)
{
	struct litmus_scenario *scn = parse_ok(example, &schema);
	const struct litmus_item *f, *dev;
	const struct litmus_value *v;
	const struct litmus_stmt *st;
	char buf[16];

	cr_assert_str_eq(scn->name, "sashiko-double-count");
	cr_assert_str_eq(scn->description, "A DONTCACHE writer marks an "
			 "already dirty mapped folio; the counter must stay "
			 "exact");
	cr_assert_eq(scn->items_count, 4);
	f = litmus_find_item(scn, "file", "f");
	cr_assert_not_null(f);
	cr_assert_eq(f->pos.line, 5);
	cr_assert_eq(f->pos.col, 3);
	cr_assert_eq(f->keyvals_count, 8);
	v = litmus_item_value(f, "cached");
	cr_assert_eq(v->kind, LITMUS_VALUE_RANGE);
	cr_assert_eq(v->range_first, 0);
	cr_assert_eq(v->range_last, 3);
	v = litmus_item_value(f, "layout");
	cr_assert_eq(v->kind, LITMUS_VALUE_IDENT);
	cr_assert_str_eq(v->text, "WWWW");
	dev = litmus_find_item(scn, "device", NULL);
	cr_assert_not_null(dev);
	cr_assert_eq(litmus_item_value(dev, "fail_sectors")->range_last, 15);
	cr_assert_str_eq(litmus_variant_default(scn, "dontcache", buf,
						sizeof(buf)), "v11");
	cr_assert_null(litmus_variant_default(scn, "wb", buf, sizeof(buf)));

	cr_assert_eq(scn->threads_count, 2);
	st = &scn->threads[0].stmts[0];
	cr_assert_eq(st->reg, 0);
	cr_assert_str_eq(st->op, "pwritev2");
	cr_assert_eq(st->op_index, 1);
	cr_assert_eq(st->pos.line, 12);
	cr_assert_eq(st->pos.col, 3);
	cr_assert_eq(st->args_count, 4);
	cr_assert_eq(st->args[3].kind, LITMUS_VALUE_FLAGS);
	cr_assert_eq(st->args[3].flags_count, 2);
	cr_assert_str_eq(st->args[3].flags[1], "RWF_DSYNC");
	cr_assert_eq(scn->threads[0].stmts[1].args[2].number, 0x5a);
	st = &scn->threads[1].stmts[1];
	cr_assert_eq(st->reg, -1);
	cr_assert_str_eq(st->op, "munmap");

	cr_assert_eq(scn->always_count, 1);
	cr_assert_eq(scn->always[0]->kind, LITMUS_EXPR_EQ);
	cr_assert_eq(scn->always[0]->right->kind, LITMUS_EXPR_COUNT);
	cr_assert_eq(scn->condition.quantifier, LITMUS_QUANT_EXISTS);
	cr_assert_eq(scn->condition.expr->kind, LITMUS_EXPR_AND);
	cr_assert_eq(scn->condition.expr->left->left->kind, LITMUS_EXPR_REG);
	cr_assert_eq(scn->condition.expr->pos.line, 21);
	cr_assert_eq(scn->condition.expr->pos.col, 9);
	cr_assert_eq(scn->expects_count, 2);
	cr_assert_eq(scn->expects[1].observation, LITMUS_OBS_NEVER);
	cr_assert_str_eq(scn->expects[1].assigns[0].value, "v12");
	round_trip(scn);
	litmus_free(scn);
}

Test(parse, values_and_comments)
{
	struct litmus_scenario *scn = parse_ok(
		"// leading comment\n"
		"wpsim values+sizes.v2 (* name may hold . + - *)\n"
		"\"quote \\\" and backslash \\\\ inside\"\n"
		"{ /* C comment */\n"
		"  file f: size=16K, bsize=0x1000, folio=1M, label=\"x y\","
		" open=O_RDWR|O_DIRECT;\n"
		"  file g;\n"
		"  device;\n"
		"}\n"
		"P0 { r3 = pwrite(f, -1, 4096); expect_ret(-EAGAIN);\n"
		"     r31 = pwrite(g, 0, 1, RWF_NOWAIT|RWF_DSYNC|RWF_ATOMIC);"
		" }\n"
		"~exists (0:r3 = -EIO \\/ 0:r31 < -1 - 2)\n"
		"expect: Never\n", &schema);
	const struct litmus_item *f = litmus_find_item(scn, "file", "f");
	const struct litmus_stmt *st = scn->threads[0].stmts;

	cr_assert_str_eq(scn->name, "values+sizes.v2");
	cr_assert_str_eq(scn->description,
			 "quote \" and backslash \\ inside");
	cr_assert_eq(litmus_item_value(f, "size")->number, 16384);
	cr_assert_eq(litmus_item_value(f, "bsize")->number, 4096);
	cr_assert_eq(litmus_item_value(f, "folio")->number, 1 << 20);
	cr_assert_str_eq(litmus_item_value(f, "label")->text, "x y");
	cr_assert_eq(litmus_item_value(f, "open")->kind, LITMUS_VALUE_FLAGS);
	cr_assert_eq(litmus_find_item(scn, "file", "g")->keyvals_count, 0);
	cr_assert_eq(st[0].reg, 3);
	cr_assert_eq(st[0].args[1].number, -1);
	cr_assert_eq(st[1].args[0].kind, LITMUS_VALUE_ERRNO);
	cr_assert_eq(st[1].args[0].number, -EAGAIN);
	cr_assert_str_eq(st[1].args[0].text, "EAGAIN");
	cr_assert_eq(st[2].args[3].flags_count, 3);
	cr_assert_eq(scn->condition.quantifier, LITMUS_QUANT_NOT_EXISTS);
	cr_assert_eq(scn->condition.expr->kind, LITMUS_EXPR_OR);
	cr_assert_eq(scn->condition.expr->left->kind, LITMUS_EXPR_EQ);
	cr_assert_eq(scn->condition.expr->left->right->kind,
		     LITMUS_EXPR_ERRNO);
	cr_assert_eq(scn->condition.expr->left->right->number, -EIO);
	cr_assert_eq(scn->expects[0].assigns_count, 0);
	round_trip(scn);
	litmus_free(scn);
}

Test(parse, expressions_and_precedence)
{
	struct litmus_scenario *scn = parse_ok(
		HEAD "P0 { r0 = f(); }\n"
		"forall (~a /\\ b \\/ c == 1 + 2 - 3 /\\ ~~(d \\/ e))\n"
		"always (count(folio.dirty) - count(~folio.dirty) >= 0)\n"
		"always (f.sector[3] != folio[2].dirty /\\ ~deadlock)\n"
		"always (~stuck /\\ ~violation /\\ -(5) == -5 - -x)\n"
		"always (- -EAGAIN == --0:r0 /\\ a.b.c[7].d <= -(-1))\n"
		/* A path named like an errno, negated (found by the fuzz
		 * target: it printed as the errno literal -E5). */
		"always (-(E5) == -(EIO.x))\n",
		NULL);
	const struct litmus_expr *e = scn->condition.expr;

	/* (~a /\ b) \/ ((c == (1 + 2) - 3) /\ ~~(d \/ e)) */
	cr_assert_eq(e->kind, LITMUS_EXPR_OR);
	cr_assert_eq(e->left->kind, LITMUS_EXPR_AND);
	cr_assert_eq(e->left->left->kind, LITMUS_EXPR_NOT);
	cr_assert_eq(e->right->kind, LITMUS_EXPR_AND);
	cr_assert_eq(e->right->left->kind, LITMUS_EXPR_EQ);
	cr_assert_eq(e->right->left->right->kind, LITMUS_EXPR_SUB);
	cr_assert_eq(e->right->left->right->left->kind, LITMUS_EXPR_ADD);
	cr_assert_eq(e->right->right->left->left->kind, LITMUS_EXPR_OR);
	e = scn->always[1]->left;
	cr_assert_eq(e->kind, LITMUS_EXPR_NE);
	cr_assert_eq(e->left->segs_count, 2);
	cr_assert_eq(e->left->segs[1].index, 3);
	cr_assert_eq(e->right->segs[0].index, 2);
	cr_assert_eq(e->right->segs[1].index, -1);
	e = scn->always[2]->right;
	cr_assert_eq(e->left->kind, LITMUS_EXPR_NEG);
	cr_assert_eq(e->right->kind, LITMUS_EXPR_SUB);
	cr_assert_eq(e->right->left->kind, LITMUS_EXPR_INT);
	cr_assert_eq(e->right->left->number, -5);
	e = scn->always[4]->left;
	cr_assert_eq(e->kind, LITMUS_EXPR_NEG);
	cr_assert_eq(e->left->kind, LITMUS_EXPR_PATH);
	round_trip(scn);
	litmus_free(scn);
}

Test(parse, lookups)
{
	struct litmus_scenario *scn = parse_ok(
		"wpsim t \"d\" { variant wb=new; } P0 { f(); }\n"
		"exists (1)\n"
		"expect: Always\n"
		"expect dontcache=v11: Sometimes\n"
		"expect dontcache=v11, wb=old: Never\n", NULL);
	const char *keys[] = { "wb", "dontcache" };
	const char *v1[] = { "old", "v11" };
	const char *v2[] = { "new", "v11" };
	const char *v3[] = { "new", "v12" };

	cr_assert_eq(litmus_expect_find(scn, keys, v1, 2)->observation,
		     LITMUS_OBS_NEVER);
	cr_assert_eq(litmus_expect_find(scn, keys, v2, 2)->observation,
		     LITMUS_OBS_SOMETIMES);
	cr_assert_eq(litmus_expect_find(scn, keys, v3, 2)->observation,
		     LITMUS_OBS_ALWAYS);
	litmus_free(scn);
}

Test(parse, errno_table_matches_linux)
{
	static const struct {
		const char *name;
		int value;
	} host[] = {
		{ "EPERM", EPERM }, { "EIO", EIO }, { "EAGAIN", EAGAIN },
		{ "EWOULDBLOCK", EWOULDBLOCK }, { "ENOMEM", ENOMEM },
		{ "EBUSY", EBUSY }, { "EINVAL", EINVAL }, { "EFBIG", EFBIG },
		{ "ENOSPC", ENOSPC }, { "EROFS", EROFS },
		{ "EDEADLK", EDEADLK }, { "ENOSYS", ENOSYS },
		{ "ENODATA", ENODATA }, { "EOVERFLOW", EOVERFLOW },
		{ "EOPNOTSUPP", EOPNOTSUPP }, { "ENOTSUP", ENOTSUP },
		{ "ETIMEDOUT", ETIMEDOUT }, { "ESTALE", ESTALE },
		{ "EUCLEAN", EUCLEAN }, { "EREMOTEIO", EREMOTEIO },
		{ "EDQUOT", EDQUOT }, { "ECANCELED", ECANCELED },
		{ "EHWPOISON", EHWPOISON }, { "EBADMSG", EBADMSG },
	};
	int value;

	for (size_t i = 0; i < ARRAY_SIZE(host); i++) {
		cr_assert(litmus_errno_value(host[i].name, &value), "%s",
			  host[i].name);
		cr_assert_eq(value, host[i].value, "%s", host[i].name);
	}
	cr_assert(litmus_errno_value("EIOCBQUEUED", &value));
	cr_assert_eq(value, 529);
	cr_assert_not(litmus_errno_value("EFOO", &value));
	cr_assert_str_eq(litmus_errno_name(11), "EAGAIN");
	cr_assert_null(litmus_errno_name(99999));
}

/* ------------------------------------------------------------------ */
/* Errors: exact position and text                                      */

/* A claim: chains become edges, occurrences and +N kept, printed back. */
Test(parse, claim)
{
	struct litmus_scenario *scn = parse_ok(HEAD
		"P0 { f(); }\nP1 { w: g(); }\n"
		"claim \"a reviewer's what-if\" (\n"
		"  P0:ret(folio_clear_dirty_for_io) -> call(w) -> ret(w)\n"
		"    -> P0:ret(km_folio_clear_dirty_for_io, 2)+1;\n"
		"  P1:call(__folio_mark_dirty) -> P0:call(f)\n"
		")\nexists (violation)", NULL);
	const struct litmus_claim *c = scn->claim;

	cr_assert_not_null(c);
	cr_assert_str_eq(c->text, "a reviewer's what-if");
	cr_assert_eq(c->edges_count, 4);
	cr_assert_eq(c->edges[0].from.thread, 0);
	cr_assert(c->edges[0].from.ret);
	cr_assert_str_eq(c->edges[0].from.name, "folio_clear_dirty_for_io");
	cr_assert_eq(c->edges[0].to.thread, -1);
	cr_assert(!c->edges[0].to.ret);
	cr_assert_str_eq(c->edges[1].from.name, "w");
	cr_assert_str_eq(c->edges[2].to.name, "km_folio_clear_dirty_for_io");
	cr_assert_eq(c->edges[2].to.occurrence, 2);
	cr_assert_eq(c->edges[2].to.after, 1);
	cr_assert_eq(c->edges[3].from.thread, 1);
	cr_assert_eq(c->edges[3].from.occurrence, 1);
	cr_assert_eq(c->edges[3].from.after, 0);
	round_trip(scn);
	litmus_free(scn);
	parse_err(HEAD "P0 { f(); }\nclaim (P0:ret(f) > call(w))", NULL,
		  "t.litmus:4:18: error: expected '->', found '>'");
	parse_err(HEAD "P0 { f(); }\nclaim (P0:exit(f) -> call(w))", NULL,
		  "t.litmus:4:11: error: expected 'call' or 'ret', found "
		  "'exit'");
	parse_err(HEAD "P0 { f(); }\nclaim (Q0:ret(f) -> call(w))", NULL,
		  "t.litmus:4:8: error: expected a thread P0..P15 before ':', "
		  "found 'Q0'");
	parse_err(HEAD "P0 { f(); }\nclaim (P0:ret(f, 0) -> call(w))", NULL,
		  "t.litmus:4:18: error: expected an occurrence in 1..1024, "
		  "found '0'");
	parse_err(HEAD "P0 { f(); }\nclaim (call(w) -> ret(w))\n"
		  "claim (call(w) -> ret(w))", NULL,
		  "t.litmus:5:1: error: expected one claim (the first is at "
		  "4:1), found 'claim'");
}

Test(errors, lexical)
{
	parse_err(HEAD "P0 { f(a @ b); }", NULL,
		  "t.litmus:3:10: error: expected a name, number, string or "
		  "punctuation, found '@'");
	parse_err("wpsim t \"abc\n", NULL,
		  "t.litmus:1:9: error: expected '\"' to close the string, "
		  "found end of line");
	parse_err("wpsim t \"a\\qb\"", NULL,
		  "t.litmus:1:9: error: expected '\\\"' or '\\\\' in a "
		  "string, found '\\\\q'");
	parse_err("wpsim t\n  (* never closed\n", NULL,
		  "t.litmus:2:3: error: expected '*)' to close the comment, "
		  "found end of file");
	parse_err(HEAD "P0 { f(12ab); }", NULL,
		  "t.litmus:3:8: error: expected a number (decimal or 0x "
		  "hex, with an optional suffix K, M or G: x1024, "
		  "x1024^2, x1024^3), found '12ab'");
	parse_err(HEAD "P0 { f(0x); }", NULL,
		  "t.litmus:3:8: error: expected a number (decimal or 0x "
		  "hex, with an optional suffix K, M or G: x1024, "
		  "x1024^2, x1024^3), found '0x'");
	parse_err(HEAD "P0 { f(9223372036854775808); }", NULL,
		  "t.litmus:3:8: error: expected a number below 2^63, found "
		  "'9223372036854775808'");
	parse_err(HEAD "P0 { f(9007199254740992K); }", NULL,
		  "t.litmus:3:8: error: expected a number below 2^63, found "
		  "'9007199254740992K'");
	parse_err(HEAD "P0 { aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd"
		  "eeeeeeeeeeffffffffff1234(); }", NULL,
		  "t.litmus:3:6: error: expected a name of at most 63 "
		  "characters, found 'aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd"
		  "...'");
	parse_err("wpsim t \"tab\tok but bell\a not\"", NULL,
		  "t.litmus:1:25: error: expected a printable character in a "
		  "string, found '\\x07'");
}

Test(errors, syntax)
{
	parse_err("C MP+poonce\n", NULL,
		  "t.litmus:1:1: error: expected 'wpsim' and the scenario "
		  "name, found 'C'");
	parse_err("wpsim", NULL,
		  "t.litmus:1:6: error: expected a scenario name, found end "
		  "of file");
	parse_err("wpsim t {", NULL,
		  "t.litmus:1:9: error: expected a quoted one-line "
		  "description, found '{'");
	parse_err("wpsim t \"d\" { file f: size 1; } P0 { f(); }", NULL,
		  "t.litmus:1:28: error: expected '=', found '1'");
	parse_err("wpsim t \"d\" { file f: size=1 } P0 { f(); }", NULL,
		  "t.litmus:1:30: error: expected ',' or ';', found '}'");
	parse_err("wpsim t \"d\" { file f: cached=3-0; }", NULL,
		  "t.litmus:1:32: error: expected a range end of at least 3, "
		  "found '0'");
	parse_err("wpsim t \"d\" { file f: size=-1; }", NULL,
		  "t.litmus:1:28: error: expected a value (number, name, "
		  "flags, range or string), found '-'");
	parse_err(HEAD, NULL,
		  "t.litmus:3:1: error: expected 'P0', found end of file");
	parse_err(HEAD "P1 { f(); }", NULL,
		  "t.litmus:3:1: error: expected 'P0', found 'P1'");
	parse_err(HEAD "P0 { f(); }\nP2 { f(); }", NULL,
		  "t.litmus:4:1: error: expected 'P1', found 'P2'");
	parse_err(HEAD "P0 { r0 = pwrite(f, 0, 1) }", NULL,
		  "t.litmus:3:27: error: expected ';', found '}'");
	parse_err(HEAD "P0 { r0 = pwrite(f, 0, 1);", NULL,
		  "t.litmus:3:27: error: expected an op name or '}', found "
		  "end of file");
	parse_err(HEAD "P0 { x = f(); }", NULL,
		  "t.litmus:3:6: error: expected a register r0..r31, found "
		  "'x'");
	parse_err(HEAD "P0 { r32 = f(); }", NULL,
		  "t.litmus:3:6: error: expected a register r0..r31, found "
		  "'r32'");
	parse_err(HEAD "P0 { f(a,); }", NULL,
		  "t.litmus:3:10: error: expected an argument (number, name, "
		  "flags or -ERRNO), found ')'");
	parse_err(HEAD "P0 { f(A|); }", NULL,
		  "t.litmus:3:10: error: expected a flag name after '|', "
		  "found ')'");
	parse_err(HEAD "P0 { f(-EFOO); }", NULL,
		  "t.litmus:3:9: error: expected an errno name such as "
		  "EAGAIN, found 'EFOO'");
	parse_err(HEAD "P0 { f(); }\nexists (0:r0 == -EBOGUS)", NULL,
		  "t.litmus:4:18: error: expected an errno name such as "
		  "EAGAIN, found 'EBOGUS'");
	parse_err(HEAD "P0 { f(); }\nexists (0:r0 == == 1)", NULL,
		  "t.litmus:4:17: error: expected an operand (number, T:rK, "
		  "name, count(...) or '('), found '=='");
	parse_err(HEAD "P0 { f(); }\nexists (1 == 2 == 3)", NULL,
		  "t.litmus:4:16: error: expected ')' (comparisons do not "
		  "chain: use /\\), found '=='");
	parse_err(HEAD "P0 { f(); }\nexists (a b)", NULL,
		  "t.litmus:4:11: error: expected ')' or an operator, found "
		  "'b'");
	parse_err(HEAD "P0 { f(); }\nexists (a.b[x])", NULL,
		  "t.litmus:4:13: error: expected an index 0..16777216, found "
		  "'x'");
	parse_err(HEAD "P0 { f(); }\nexists (16:r0 == 1)", NULL,
		  "t.litmus:4:9: error: expected a thread number 0..15, found "
		  "'16'");
	parse_err(HEAD "P0 { f(); }\n~forall (1)", NULL,
		  "t.litmus:4:2: error: expected 'exists' after '~', found "
		  "'forall'");
	parse_err(HEAD "P0 { f(); }\nexists (1)\nforall (1)", NULL,
		  "t.litmus:5:1: error: expected one exists, ~exists or "
		  "forall condition (the first is at 4:1), found 'forall'");
	parse_err(HEAD "P0 { f(); }\nexpect: Maybe", NULL,
		  "t.litmus:4:9: error: expected 'Never', 'Sometimes' or "
		  "'Always', found 'Maybe'");
	parse_err(HEAD "P0 { f(); }\nexpect dontcache v11: Never", NULL,
		  "t.litmus:4:18: error: expected '=', found 'v11'");
	parse_err(HEAD "P0 { f(); }\nfilter (1)", NULL,
		  "t.litmus:4:1: error: expected 'exists', '~exists', "
		  "'forall', 'always', 'expect', 'claim' or end of file, found "
		  "'filter'");
}

Test(errors, semantic_without_schema)
{
	parse_err(HEAD "P0 { f(); }\nexists (0:r0 == 1)", NULL,
		  "t.litmus:4:9: error: 0:r0 names a register that P0 never "
		  "assigns");
	parse_err(HEAD "P0 { r0 = f(); }\nexists (1:r0 == 1)", NULL,
		  "t.litmus:4:9: error: 1:r0 names thread P1, which does not "
		  "exist");
	parse_err(HEAD "P0 { r0 = f();\n r0 = g(); }", NULL,
		  "t.litmus:4:2: error: r0 is assigned twice in P0 (first at "
		  "3:6)");
	parse_err("wpsim t \"d\" {\nfile f: size=1, size=2; } P0 { f(); }",
		  NULL, "t.litmus:2:17: error: duplicate key 'size' (first "
		  "at 2:9)");
	parse_err("wpsim t \"d\" {\nbound steps=1;\nbound steps=2; }\n"
		  "P0 { f(); }", NULL,
		  "t.litmus:3:7: error: duplicate key 'steps' (first at "
		  "2:7)");
	parse_err("wpsim t \"d\" {\nfile f;\nfile f; } P0 { f(); }", NULL,
		  "t.litmus:3:1: error: duplicate file 'f' (first at 2:1)");
	parse_err("wpsim t \"d\" {\nvariant v: x=1; } P0 { f(); }", NULL,
		  "t.litmus:2:1: error: expected a variant key after "
		  "'variant', found 'v'");
	parse_err(HEAD "P0 { f(); }\nexpect a=1: Never\nexpect a=1: Always",
		  NULL, "t.litmus:5:1: error: duplicate expect for the same "
		  "variant (first at 4:1)");
}

Test(errors, semantic_with_schema)
{
	parse_err(HEAD "P0 { r0 = pwrit(f, 0, 1); }", &schema,
		  "t.litmus:3:11: error: unknown op 'pwrit' (did you mean "
		  "'pwrite'?); known: pwrite, pwritev2, mmap_store, "
		  "writeback, munmap, fsync, expect_ret");
	parse_err(HEAD "P0 { r0 = pwritev2(f, 0, 1); }", &schema,
		  "t.litmus:3:11: error: expected 4 arguments for pwritev2, "
		  "found 3");
	parse_err(HEAD "P0 { r0 = pwrite(f); }", &schema,
		  "t.litmus:3:11: error: expected 3 to 4 arguments for "
		  "pwrite, found 1");
	parse_err(HEAD "P0 { r0 = pwrite(f, x, 1); }", &schema,
		  "t.litmus:3:21: error: expected an integer for argument 2 "
		  "of pwrite, found 'x'");
	parse_err("wpsim t \"d\" { fil f; } P0 { fsync(f); }", &schema,
		  "t.litmus:1:15: error: unknown item kind 'fil' (did you "
		  "mean 'file'?); known: file, device, bound, variant");
	parse_err("wpsim t \"d\" { file f: sz=1; } P0 { fsync(f); }",
		  &schema, "t.litmus:1:23: error: unknown key 'sz' for file; "
		  "known: size, bsize, folio, "
		  "layout, cached, dirty, mapped, open, label");
	parse_err("wpsim t \"d\" { file f: size=1-2; } P0 { fsync(f); }",
		  &schema, "t.litmus:1:28: error: expected an integer for "
		  "file.size, found '1-2'");
	parse_err("wpsim t \"d\" { file f: open=3; } P0 { fsync(f); }",
		  &schema, "t.litmus:1:28: error: expected a name or flags "
		  "A|B for file.open, found '3'");
	parse_err("wpsim t \"d\" { file: size=1; } P0 { fsync(f); }",
		  &schema, "t.litmus:1:15: error: expected a name after "
		  "'file', as in 'file f: ...'");
	parse_err("wpsim t \"d\" { device d: fail_bio=1; }\n"
		  "P0 { fsync(f); }", &schema,
		  "t.litmus:1:15: error: expected a key after 'device', found "
		  "'d' (device items take no name)");
	parse_err("wpsim t \"d\" { variant dontcache=v13; }\n"
		  "P0 { fsync(f); }", &schema,
		  "t.litmus:1:33: error: unknown value 'v13' for variant "
		  "dontcache (did you mean 'v11'?); known: v11, v12");
	parse_err(HEAD "P0 { fsync(f); }\nexpect dontcach=v11: Never",
		  &schema, "t.litmus:4:8: error: unknown variant key "
		  "'dontcach' (did you mean 'dontcache'?); known: "
		  "dontcache, wb");
	parse_err(HEAD "P0 { fsync(f); }\nalways (folio.dirty == 0)",
		  &schema, "t.litmus:4:9: error: unknown reference "
		  "'folio.dirty': folio without [index] outside count()");
}

Test(errors, several_are_collected)
{
	static const char src[] =
		HEAD "P0 { r0 = pwrit(f); r0 = fsync(f, g); }\n"
		"exists (1:r0 == 0 /\\ bogus.x == 1)\n";
	struct litmus_errors errors = { 0 };

	cr_assert_null(litmus_parse("t.litmus", src, strlen(src), &schema,
				    &errors));
	cr_assert_eq(errors.count, 5);
	cr_assert_eq(errors.list[0].pos.col, 11);
	cr_assert_str_eq(errors.list[1].text, "t.litmus:3:21: error: r0 is "
			 "assigned twice in P0 (first at 3:6)");
	cr_assert_eq(errors.list[2].pos.col, 26);
	cr_assert_eq(errors.list[3].pos.line, 4);
	cr_assert_eq(errors.list[3].pos.col, 9);
	cr_assert_str_eq(errors.list[4].message, "unknown reference "
			 "'bogus.x': roots: wb, f, folio");
}

/* ------------------------------------------------------------------ */
/* Limits                                                               */

/* A source buffer built with the test's own bounds. */
static char *build(const char *head, const char *unit, int times,
		   const char *tail)
{
	size_t len = strlen(head) + strlen(unit) * (size_t)times +
		     strlen(tail) + 1;
	char *s = malloc(len);

	cr_assert_not_null(s);
	strcpy(s, head);
	for (int i = 0; i < times; i++)
		strcat(s, unit);
	strcat(s, tail);
	return s;
}

Test(limits, threads)
{
	char src[4096] = HEAD;

	for (int i = 0; i < LITMUS_THREADS_MAX; i++)
		snprintf(src + strlen(src), sizeof(src) - strlen(src),
			 "P%d { f(); }\n", i);
	litmus_free(parse_ok(src, NULL));
	strcat(src, "P16 { f(); }\n");
	parse_err(src, NULL, "t.litmus:19:1: error: expected at most 16 "
		  "threads (P0..P15), found 'P16'");
}

Test(limits, statements_and_args)
{
	char *src = build(HEAD "P0 {", " f();", LITMUS_STMTS_MAX + 1, " }");

	parse_err(src, NULL, "t.litmus:3:326: error: expected '}' (at most "
		  "64 statements in P0), found 'f'");
	free(src);
	parse_err(HEAD "P0 { f(1, 2, 3, 4, 5, 6, 7, 8, 9); }", NULL,
		  "t.litmus:3:32: error: expected ')' (at most 8 arguments), "
		  "found '9'");
	src = build(HEAD "P0 { f(A", "|A", LITMUS_FLAGS_MAX, "); }");
	parse_err(src, NULL, "t.litmus:3:40: error: expected at most 16 "
		  "flags in a set, found 'A'");
	free(src);
}

Test(limits, nesting_depth)
{
	char *src = build(HEAD "P0 { f(); }\nexists (", "(",
			  LITMUS_EXPR_DEPTH_MAX, "1");
	char *closing = build(src, ")", LITMUS_EXPR_DEPTH_MAX + 1, "");

	litmus_free(parse_ok(closing, NULL));
	free(closing);
	free(src);
	src = build(HEAD "P0 { f(); }\nexists (", "(",
		    LITMUS_EXPR_DEPTH_MAX + 1, "1");
	parse_err(src, NULL, "t.litmus:4:73: error: expected an expression "
		  "at most 64 levels deep, found '('");
	free(src);
	src = build(HEAD "P0 { f(); }\nexists (", "~",
		    LITMUS_EXPR_DEPTH_MAX * 100, "1)");
	parse_err(src, NULL, "t.litmus:4:73: error: expected an expression "
		  "at most 64 levels deep, found '~'");
	free(src);
	/* A flat chain builds a deep tree: bounded too. */
	src = build(HEAD "P0 { f(); }\nexists (1", " + 1",
		    LITMUS_EXPR_DEPTH_MAX * 100, ")");
	parse_err(src, NULL, "t.litmus:4:263: error: expected an expression "
		  "at most 64 levels deep, found '+'");
	free(src);
}

Test(limits, source_size_and_garbage)
{
	size_t len = LITMUS_SOURCE_BYTES_MAX + 1;
	struct litmus_errors errors = { 0 };
	char *big = calloc(1, len);
	static const char junk[] = "wpsim t \"d\" {\0\xff} P0 { f(); }";

	cr_assert_null(litmus_parse("big", big, len, NULL, &errors));
	cr_assert_str_eq(errors.list[0].text, "big:1:1: error: expected a "
			 "scenario of at most 1048576 bytes, found 1048577 "
			 "bytes");
	free(big);
	memset(&errors, 0, sizeof(errors));
	cr_assert_null(litmus_parse("j", junk, sizeof(junk) - 1, NULL,
				    &errors));
	cr_assert_str_eq(errors.list[0].text, "j:1:14: error: expected a "
			 "name, number, string or punctuation, found '\\x00'");
	cr_assert_null(litmus_parse(NULL, NULL, 0, NULL, NULL));
}

/* Every prefix of the example fails cleanly (or parses), never crashes. */
Test(limits, every_prefix)
{
	size_t len = strlen(example);
	struct litmus_errors errors;

	for (size_t n = 0; n < len; n++) {
		struct litmus_scenario *scn;

		memset(&errors, 0, sizeof(errors));
		scn = litmus_parse("p", example, n, &schema, &errors);
		if (scn)
			litmus_free(scn);
		else
			cr_assert_eq(errors.count, 1, "prefix %zu", n);
	}
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */

/* Four folios; folio.dirty and folio.dropbehind per item. */
struct fake {
	int64_t regs[2][4];
	int dirty[4];
	int dropbehind[4];
	int current;			/* item inside count(), else -1 */
	int64_t wb_dontcache_dirty;
	bool deadlock;
	int path_calls;
};

static int fake_reg(const struct litmus_env *env,
		    const struct litmus_expr *ref, int64_t *value)
{
	struct fake *f = env->ctx;

	if (ref->reg_thread > 1 || ref->reg > 3)
		return -1;
	*value = f->regs[ref->reg_thread][ref->reg];
	return 0;
}

static int fake_path(const struct litmus_env *env,
		     const struct litmus_expr *ref, int64_t *value)
{
	struct fake *f = env->ctx;
	const char *root = ref->segs[0].name;
	int item = ref->segs[0].index >= 0 ? (int)ref->segs[0].index :
		f->current;

	f->path_calls++;
	if (strcmp(root, "wb") == 0 && ref->segs_count == 2 &&
	    strcmp(ref->segs[1].name, "dontcache_dirty") == 0) {
		*value = f->wb_dontcache_dirty;
		return 0;
	}
	if (strcmp(root, "folio") == 0 && ref->segs_count == 2 &&
	    item >= 0 && item < 4) {
		if (strcmp(ref->segs[1].name, "dirty") == 0) {
			*value = f->dirty[item];
			return 0;
		}
		if (strcmp(ref->segs[1].name, "dropbehind") == 0) {
			*value = f->dropbehind[item];
			return 0;
		}
	}
	if (strcmp(root, "big") == 0) {
		*value = INT64_MAX;
		return 0;
	}
	if (strcmp(root, "explained") == 0)
		litmus_eval_fail(env, ref, "explained is not modelled");
	return -1;
}

static int fake_count(const struct litmus_env *env,
		      const struct litmus_expr *count, int64_t *value)
{
	struct fake *f = env->ctx;
	int saved = f->current;

	*value = 0;
	for (f->current = 0; f->current < 4; f->current++)
		*value += litmus_eval(count->left, env) != 0;
	f->current = saved;
	return litmus_eval_failed(env) ? -1 : 0;
}

static int fake_outcome(const struct litmus_env *env,
			enum litmus_outcome outcome, int64_t *value)
{
	struct fake *f = env->ctx;

	*value = outcome == LITMUS_OUTCOME_DEADLOCK && f->deadlock;
	return 0;
}

static struct fake fake;
static struct litmus_errors eval_errors;
static const struct litmus_env env = {
	.ctx = &fake,
	.file = "t.litmus",
	.reg = fake_reg,
	.path = fake_path,
	.count = fake_count,
	.outcome = fake_outcome,
	.errors = &eval_errors,
};

/* Evaluate the exists condition of HEAD P0 {r0..r3} P1 {...}. */
static int64_t eval_cond(const char *cond)
{
	char src[1024];
	struct litmus_scenario *scn;
	int64_t v;

	snprintf(src, sizeof(src), HEAD
		 "P0 { r0 = f(); r1 = f(); r2 = f(); r3 = f(); }\n"
		 "P1 { r0 = f(); r1 = f(); }\nexists (%s)\n", cond);
	scn = parse_ok(src, NULL);
	memset(&eval_errors, 0, sizeof(eval_errors));
	v = litmus_eval(scn->condition.expr, &env);
	litmus_free(scn);
	return v;
}

static void fake_setup(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.current = -1;
	fake.regs[0][0] = 4096;
	fake.regs[0][1] = -11;
	fake.regs[1][1] = 7;
	fake.dirty[1] = fake.dirty[2] = 1;
	fake.dropbehind[2] = fake.dropbehind[3] = 1;
	fake.wb_dontcache_dirty = 1;
}

Test(eval, arithmetic_and_logic, .init = fake_setup)
{
	cr_assert_eq(eval_cond("1 + 2 - 4"), -1);
	cr_assert_eq(eval_cond("0:r0 == 4096"), 1);
	cr_assert_eq(eval_cond("0:r1 == -EAGAIN"), 1);
	cr_assert_eq(eval_cond("0:r1 = -EIO"), 0);
	cr_assert_eq(eval_cond("1:r1 > 6 /\\ 1:r1 >= 7 /\\ 1:r1 < 8 /\\ "
			       "1:r1 <= 7 /\\ 1:r1 != 0"), 1);
	cr_assert_eq(eval_cond("~(1 \\/ 0) \\/ ~0"), 1);
	cr_assert_eq(eval_cond("-(0:r0) + - -3"), -4093);
	cr_assert_eq(eval_cond("7 /\\ 9"), 1);
	cr_assert_eq(eval_errors.count, 0);
}

Test(eval, count_and_outcomes, .init = fake_setup)
{
	cr_assert_eq(eval_cond("count(folio.dirty)"), 2);
	cr_assert_eq(eval_cond("count(folio.dirty /\\ folio.dropbehind)"), 1);
	cr_assert_eq(eval_cond("wb.dontcache_dirty == count(folio.dirty "
			       "/\\ folio.dropbehind)"), 1);
	cr_assert_eq(eval_cond("count(count(folio.dirty) == 2)"), 4);
	cr_assert_eq(eval_cond("folio[3].dropbehind + folio[0].dirty"), 1);
	cr_assert_eq(eval_cond("deadlock \\/ stuck \\/ violation"), 0);
	fake.deadlock = true;
	cr_assert_eq(eval_cond("deadlock /\\ ~stuck"), 1);
	cr_assert_eq(eval_errors.count, 0);
}

Test(eval, short_circuit, .init = fake_setup)
{
	cr_assert_eq(eval_cond("0 /\\ nowhere.x"), 0);
	cr_assert_eq(eval_cond("1 \\/ nowhere.x"), 1);
	cr_assert_eq(fake.path_calls, 0);
	cr_assert_eq(eval_errors.count, 0);
}

Test(eval, failures, .init = fake_setup)
{
	cr_assert_eq(eval_cond("1 /\\ nowhere.x[2] == 1"), 0);
	cr_assert_eq(eval_errors.count, 1);
	cr_assert_str_eq(eval_errors.list[0].text, "t.litmus:5:14: error: "
			 "cannot evaluate 'nowhere.x[2]'");
	eval_cond("explained == 1");
	cr_assert_str_eq(eval_errors.list[0].text, "t.litmus:5:9: error: "
			 "explained is not modelled");
	eval_cond("0:r1 + big.x + 1");
	cr_assert_eq(eval_errors.count, 0);
	eval_cond("big.x + 1");
	cr_assert_str_eq(eval_errors.list[0].message,
			 "integer overflow in '+'");
	eval_cond("-1 - big.x - 2");
	cr_assert_str_eq(eval_errors.list[0].message,
			 "integer overflow in '-'");
	eval_cond("-(-1 - big.x)");
	cr_assert_str_eq(eval_errors.list[0].message,
			 "integer overflow in '-'");
	/* A failed operand is 0, and its negation is not 1 (found by the
	 * litmus fuzz target: ~(nowhere.x - 0) evaluated to 1). */
	cr_assert_eq(eval_cond("~(nowhere.x - 0)"), 0);
	cr_assert_eq(eval_errors.count, 1);
	cr_assert_eq(eval_cond("~~nowhere.x"), 0);
}

Test(eval, missing_callbacks)
{
	struct litmus_errors errors = { 0 };
	struct litmus_env bare = { .errors = &errors };
	struct litmus_scenario *scn = parse_ok(
		HEAD "P0 { r0 = f(); }\nexists (0 \\/ count(x))", NULL);

	cr_assert_eq(litmus_eval(scn->condition.expr, &bare), 0);
	cr_assert(litmus_eval_failed(&bare));
	cr_assert_str_eq(errors.list[0].text, "<input>:4:14: error: cannot "
			 "evaluate 'count(...)': no count() resolver");
	litmus_free(scn);
}

/* ------------------------------------------------------------------ */
/* Printing                                                             */

Test(print, normalized_form)
{
	struct litmus_scenario *scn = parse_ok(
		"wpsim n \"d\"{device:x=0x10;file f;file g:a=1-2,b=\"s\";}"
		"P0{r1=op(-EAGAIN,A|B,-3);}"
		"always(-(5)==-5)exists(~(a\\/b)/\\c-(d-e)==-(-1))"
		"expect a=1,b=x:Always", NULL);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	litmus_print(out, scn);
	fclose(out);
	cr_assert_str_eq(text,
		"wpsim n\n\"d\"\n\n{\n"
		"\tdevice x=16;\n\tfile f;\n\tfile g: a=1-2, b=\"s\";\n}\n\n"
		"P0 {\n\tr1 = op(-EAGAIN, A|B, -3);\n}\n\n"
		"always (-(5) == -5)\n"
		"exists (~(a \\/ b) /\\ c - (d - e) == -(-1))\n"
		"expect a=1, b=x: Always\n");
	round_trip(scn);
	free(text);
	litmus_free(scn);
}

Test(print, schema_help)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	litmus_schema_print(out, &schema);
	fclose(out);
	cr_assert(strstr(text, "pwritev2"));
	cr_assert(strstr(text, "dontcache=v11|v12"));
	free(text);
}

/* ------------------------------------------------------------------ */
/* repeat N { ... }, statement labels and at(L, e) (issue 17, Q14)      */

Test(repeat, block_is_flat_with_count_and_length)
{
	struct litmus_scenario *scn = parse_ok(
		HEAD "P0 {\n  a: r0 = fsync(f);\n  repeat 3 {\n"
		"    r1 = pwrite(f, 0, 4096);\n    munmap(f);\n  }\n"
		"  fsync(f);\n}\n"
		"exists (at(a, 0:r1) == 0 /\\ 0:r0 == 0)\n", &schema);
	const struct litmus_stmt *st = scn->threads[0].stmts;

	cr_assert_eq(scn->threads[0].stmts_count, 4);
	cr_assert_str_eq(st[0].label, "a");
	cr_assert_eq(st[0].repeat, 0);
	cr_assert_eq(st[1].repeat, 3);
	cr_assert_eq(st[1].repeat_len, 2);
	cr_assert_eq(st[1].repeat_pos.line, 5);
	cr_assert_eq(st[2].repeat, 0);
	cr_assert_null(st[3].label);
	cr_assert_eq(scn->condition.expr->left->left->kind, LITMUS_EXPR_AT);
	cr_assert_str_eq(scn->condition.expr->left->left->label, "a");
	cr_assert_eq(scn->condition.expr->left->left->at_thread, 0);
	cr_assert_eq(scn->condition.expr->left->left->at_stmt, 0);
	round_trip(scn);
	litmus_free(scn);
}

Test(repeat, errors)
{
	parse_err(HEAD "P0 { repeat 0 { fsync(f); } }\n", &schema,
		  "t.litmus:3:13: error: expected a repeat count in 1..1024 "
		  "(LITMUS_REPEAT_MAX), found '0'");
	parse_err(HEAD "P0 { repeat 2 { } }\n", &schema,
		  "t.litmus:3:17: error: expected a statement (a repeat "
		  "block is not empty), found '}'");
	parse_err(HEAD "P0 { repeat 2 { repeat 2 { fsync(f); } } }\n",
		  &schema, "t.litmus:3:17: error: expected a statement or "
		  "'}' (repeat blocks do not nest), found 'repeat'");
	parse_err(HEAD "P0 { a: fsync(f); }\nP1 { a: fsync(f); }\n",
		  &schema, "t.litmus:4:6: error: label 'a' is used twice "
		  "(first at 3:6)");
	parse_err(HEAD "P0 { a: fsync(f); }\nexists (at(b, 1) == 1)\n",
		  &schema, "t.litmus:4:9: error: at(b, ...) names no "
		  "statement label");
	parse_err(HEAD "P0 { a: fsync(f); }\nalways (at(a, 1) == 1)\n",
		  &schema, "t.litmus:4:9: error: expected at(...) only in "
		  "the condition, outside another at(...), found it in an "
		  "always clause");
	parse_err(HEAD "P0 { a: fsync(f); }\nexists (at(a, stuck))\n",
		  &schema, "t.litmus:4:15: error: expected a state inside "
		  "at(...) (an outcome is the execution's end), found "
		  "'stuck'");
}

static int at_cb(const struct litmus_env *env, const struct litmus_expr *at,
		 int64_t *value)
{
	(void)env;
	*value = at->at_stmt + 40;
	return 0;
}

Test(repeat, at_evaluates_through_its_callback)
{
	struct litmus_scenario *scn = parse_ok(
		HEAD "P0 { fsync(f); b: fsync(f); }\n"
		"exists (at(b, 1) + 1 == 42)\n", &schema);
	struct litmus_errors errors = { 0 };
	struct litmus_env env = { .at = at_cb, .errors = &errors };
	struct litmus_env none = { .errors = &errors };

	cr_assert_eq(litmus_eval(scn->condition.expr, &env), 1);
	cr_assert_not(litmus_eval_failed(&env));
	litmus_eval(scn->condition.expr, &none);
	cr_assert(litmus_eval_failed(&none));
	litmus_free(scn);
}
