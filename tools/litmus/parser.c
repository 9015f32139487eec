// SPDX-License-Identifier: MIT
/*
 * tools/litmus/parser.c - recursive-descent parser of scenario files
 * into the AST of tools/litmus/litmus.h.  The grammar is in
 * docs/scenario-language.md; each parse_* function names its rule.
 *
 * The first syntax error stops the parse: it is recorded as
 * "file:line:col: error: expected X, found Y" and the parser longjmps
 * back to litmus_parse(), which frees the pool that holds everything.
 * Lists are collected in bounded local arrays and copied to the pool,
 * so each limit of litmus.h is checked where its list grows.  Expression
 * recursion is bounded by LITMUS_EXPR_DEPTH_MAX, counted both on the
 * parser's nesting and on the depth of the tree built.
 *
 * Leaves out: error recovery (one syntax error per run), herd7's
 * "locations" and "filter" clauses, the meaning of ops, keys and paths
 * (tools/litmus/check.c and the caller).
 */
#include "tools/litmus/internal.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct lexer lx;
	struct token look[2];
	int looked;			/* tokens in look[] */
	const char *file;
	struct litmus_pool *pool;
	struct litmus_errors *errors;
	struct litmus_scenario *scn;
	int depth;			/* expression nesting */
	jmp_buf fail;
};

static _Noreturn void fail_at(struct parser *p, struct litmus_pos pos,
			      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static _Noreturn void fail_at(struct parser *p, struct litmus_pos pos,
			      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errors_vadd(p->errors, p->file, pos, fmt, ap);
	va_end(ap);
	longjmp(p->fail, 1);
}

static void lex_checked(struct parser *p, struct token *tok)
{
	lex_next(&p->lx, tok);
	if (tok->kind == TOK_ERROR)
		fail_at(p, tok->pos, "%s", p->lx.message);
}

static const struct token *peek(struct parser *p)
{
	if (p->looked == 0) {
		lex_checked(p, &p->look[0]);
		p->looked = 1;
	}
	return &p->look[0];
}

static const struct token *peek2(struct parser *p)
{
	peek(p);
	if (p->looked == 1) {
		lex_checked(p, &p->look[1]);
		p->looked = 2;
	}
	return &p->look[1];
}

/* Consume the current token; returns a copy of it. */
static struct token next(struct parser *p)
{
	struct token tok = *peek(p);

	p->look[0] = p->look[1];
	p->looked--;
	return tok;
}

static void add_found(struct strbuf *sb, const struct token *tok)
{
	if (tok->kind == TOK_EOF)
		sb_add(sb, "end of file");
	else
		sb_add_quoted(sb, tok->text, tok->len);
}

/* "expected <what>, found <tok>" at tok, then stop. */
static _Noreturn void fail_expected_tok(struct parser *p,
					const struct token *tok,
					const char *what)
{
	char found[128];
	struct strbuf sb;

	sb_init(&sb, found, sizeof(found));
	add_found(&sb, tok);
	fail_at(p, tok->pos, "expected %s, found %s", what, found);
}

static _Noreturn void fail_expected(struct parser *p, const char *what)
{
	fail_expected_tok(p, peek(p), what);
}

static struct token expect(struct parser *p, enum token_kind kind,
			   const char *what)
{
	if (peek(p)->kind != kind)
		fail_expected(p, what);
	return next(p);
}

static void *alloc(struct parser *p, size_t bytes)
{
	void *mem = pool_alloc(p->pool, bytes);

	if (!mem)
		fail_at(p, peek(p)->pos, "out of memory");
	return mem;
}

static void *copy(struct parser *p, const void *src, size_t bytes)
{
	void *dst;

	if (bytes == 0)
		return NULL;
	dst = alloc(p, bytes);
	memcpy(dst, src, bytes);
	return dst;
}

static const char *tok_str(struct parser *p, const struct token *tok)
{
	char *s = pool_strndup(p->pool, tok->text, tok->len);

	if (!s)
		fail_at(p, tok->pos, "out of memory");
	return s;
}

static const char *decimal_str(struct parser *p, int64_t number)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lld", (long long)number);
	char *s = pool_strndup(p->pool, buf, (size_t)n);

	if (!s)
		fail_at(p, peek(p)->pos, "out of memory");
	return s;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

/* flags := IDENT { '|' IDENT } ; one member is an IDENT value */
static void parse_flags(struct parser *p, struct litmus_value *v)
{
	const char *members[LITMUS_FLAGS_MAX];
	size_t n = 0;
	struct token tok = expect(p, TOK_IDENT, "a name");

	members[n++] = tok_str(p, &tok);
	while (peek(p)->kind == TOK_PIPE) {
		next(p);
		if (n == LITMUS_FLAGS_MAX) {
			char what[64];

			snprintf(what, sizeof(what),
				 "at most %d flags in a set", LITMUS_FLAGS_MAX);
			fail_expected(p, what);
		}
		tok = expect(p, TOK_IDENT, "a flag name after '|'");
		members[n++] = tok_str(p, &tok);
	}
	if (n == 1) {
		v->kind = LITMUS_VALUE_IDENT;
		v->text = members[0];
		return;
	}
	v->kind = LITMUS_VALUE_FLAGS;
	v->flags = copy(p, members, n * sizeof(members[0]));
	v->flags_count = n;
}

/* value := INT [ '-' INT ] | flags | STRING */
static void parse_value(struct parser *p, struct litmus_value *v)
{
	const struct token *tok = peek(p);

	v->pos = tok->pos;
	switch (tok->kind) {
	case TOK_INT:
		v->kind = LITMUS_VALUE_INT;
		v->number = next(p).number;
		if (peek(p)->kind == TOK_MINUS && peek2(p)->kind == TOK_INT) {
			struct token last;

			next(p);
			last = next(p);
			if (last.number < v->number) {
				char what[128];

				snprintf(what, sizeof(what),
					 "a range end of at least %lld",
					 (long long)v->number);
				fail_expected_tok(p, &last, what);
			}
			v->kind = LITMUS_VALUE_RANGE;
			v->range_first = v->number;
			v->range_last = last.number;
			v->number = 0;
		}
		return;
	case TOK_IDENT:
		parse_flags(p, v);
		return;
	case TOK_STRING:
		v->kind = LITMUS_VALUE_STRING;
		v->text = pool_strndup(p->pool, tok->string, tok->string_len);
		if (!v->text)
			fail_at(p, tok->pos, "out of memory");
		next(p);
		return;
	default:
		fail_expected(p, "a value (number, name, flags, range or "
			      "string)");
	}
}

/* Looks up -ERRNO after the '-' was consumed; tok is the name. */
static void errno_value(struct parser *p, const struct token *tok,
			int64_t *number)
{
	int value = errno_lookup(tok->text, tok->len);

	if (value == 0)
		fail_expected_tok(p, tok, "an errno name such as EAGAIN");
	*number = -(int64_t)value;
}

/* arg := INT | '-' INT | '-' ERRNO | flags */
static void parse_arg(struct parser *p, struct litmus_value *v)
{
	const struct token *tok = peek(p);

	v->pos = tok->pos;
	if (tok->kind == TOK_MINUS) {
		next(p);
		tok = peek(p);
		if (tok->kind == TOK_INT) {
			v->kind = LITMUS_VALUE_INT;
			v->number = -next(p).number;
			return;
		}
		if (tok->kind == TOK_IDENT &&
		    is_errno_name(tok->text, tok->len)) {
			struct token name = next(p);

			v->kind = LITMUS_VALUE_ERRNO;
			errno_value(p, &name, &v->number);
			v->text = tok_str(p, &name);
			return;
		}
		fail_expected(p, "a number or an errno name after '-'");
	}
	if (tok->kind == TOK_INT) {
		v->kind = LITMUS_VALUE_INT;
		v->number = next(p).number;
		return;
	}
	if (tok->kind == TOK_IDENT) {
		parse_flags(p, v);
		return;
	}
	fail_expected(p, "an argument (number, name, flags or -ERRNO)");
}

/* ------------------------------------------------------------------ */
/* Initial state                                                        */

/* item := IDENT [ IDENT ] [ ':' ] [ keyval { ',' keyval } ] ';' */
static void parse_item(struct parser *p, struct litmus_item *item)
{
	struct litmus_keyval kvs[LITMUS_KEYVALS_MAX];
	size_t n = 0;
	struct token tok;

	memset(kvs, 0, sizeof(kvs));
	tok = expect(p, TOK_IDENT, "an item kind such as 'file' or '}'");
	item->pos = tok.pos;
	item->kind = tok_str(p, &tok);
	if (peek(p)->kind == TOK_IDENT && peek2(p)->kind != TOK_ASSIGN) {
		tok = next(p);
		item->name = tok_str(p, &tok);
	}
	if (peek(p)->kind == TOK_COLON)
		next(p);
	if (peek(p)->kind != TOK_SEMI) {
		for (;;) {
			struct litmus_keyval *kv = &kvs[n];

			if (n == LITMUS_KEYVALS_MAX) {
				char what[64];

				snprintf(what, sizeof(what),
					 "';' (at most %d keys per item)",
					 LITMUS_KEYVALS_MAX);
				fail_expected(p, what);
			}
			tok = expect(p, TOK_IDENT, "a key");
			kv->pos = tok.pos;
			kv->key = tok_str(p, &tok);
			expect(p, TOK_ASSIGN, "'='");
			parse_value(p, &kv->value);
			n++;
			if (peek(p)->kind != TOK_COMMA)
				break;
			next(p);
		}
	}
	expect(p, TOK_SEMI, n ? "',' or ';'" : "a key or ';'");
	item->keyvals = copy(p, kvs, n * sizeof(kvs[0]));
	item->keyvals_count = n;
}

/* init := '{' { item } '}' */
static void parse_init(struct parser *p)
{
	struct litmus_item items[LITMUS_ITEMS_MAX];
	size_t n = 0;

	memset(items, 0, sizeof(items));
	expect(p, TOK_LBRACE, "'{' to open the initial state");
	while (peek(p)->kind != TOK_RBRACE) {
		if (n == LITMUS_ITEMS_MAX) {
			char what[64];

			snprintf(what, sizeof(what),
				 "'}' (at most %d items)", LITMUS_ITEMS_MAX);
			fail_expected(p, what);
		}
		parse_item(p, &items[n++]);
	}
	next(p);
	p->scn->items = copy(p, items, n * sizeof(items[0]));
	p->scn->items_count = n;
}

/* ------------------------------------------------------------------ */
/* Threads                                                              */

/* N of "PN" or "rN" (prefix c, decimal, no leading zero), else -1. */
static int numbered(const struct token *tok, char c, int limit)
{
	int n = 0;

	if (tok->kind != TOK_IDENT || tok->len < 2 || tok->len > 4 ||
	    tok->text[0] != c)
		return -1;
	if (tok->text[1] == '0' && tok->len > 2)
		return -1;
	for (size_t i = 1; i < tok->len; i++) {
		if (tok->text[i] < '0' || tok->text[i] > '9')
			return -1;
		n = n * 10 + (tok->text[i] - '0');
	}
	return n < limit ? n : -1;
}

static bool looks_like_thread(const struct token *tok)
{
	return numbered(tok, 'P', 10000) >= 0;
}

static int parse_register(struct parser *p)
{
	char what[64];
	const struct token *tok = peek(p);
	int reg = numbered(tok, 'r', LITMUS_REGS_MAX);

	if (reg < 0) {
		snprintf(what, sizeof(what), "a register r0..r%d",
			 LITMUS_REGS_MAX - 1);
		fail_expected(p, what);
	}
	next(p);
	return reg;
}

/* stmt := [ LABEL ':' ] [ REG '=' ] IDENT '(' [ arg { ',' arg } ] ')' ';' */
static void parse_stmt(struct parser *p, struct litmus_stmt *st)
{
	struct litmus_value args[LITMUS_ARGS_MAX];
	size_t n = 0;
	struct token tok;

	memset(args, 0, sizeof(args));
	st->pos = peek(p)->pos;
	st->reg = -1;
	st->op_index = -1;
	if (peek(p)->kind == TOK_IDENT && peek2(p)->kind == TOK_COLON) {
		tok = next(p);
		st->label = tok_str(p, &tok);
		st->label_pos = tok.pos;
		next(p);
	}
	if (peek(p)->kind == TOK_IDENT && peek2(p)->kind == TOK_ASSIGN) {
		st->reg = parse_register(p);
		next(p);
	}
	tok = expect(p, TOK_IDENT, st->reg < 0 ? "an op name or '}'" :
		     "an op name");
	st->op_pos = tok.pos;
	st->op = tok_str(p, &tok);
	expect(p, TOK_LPAREN, "'('");
	if (peek(p)->kind != TOK_RPAREN) {
		for (;;) {
			if (n == LITMUS_ARGS_MAX) {
				char what[64];

				snprintf(what, sizeof(what),
					 "')' (at most %d arguments)",
					 LITMUS_ARGS_MAX);
				fail_expected(p, what);
			}
			parse_arg(p, &args[n++]);
			if (peek(p)->kind != TOK_COMMA)
				break;
			next(p);
		}
	}
	expect(p, TOK_RPAREN, n ? "',' or ')'" : "an argument or ')'");
	expect(p, TOK_SEMI, "';'");
	st->args = copy(p, args, n * sizeof(args[0]));
	st->args_count = n;
}

/* "repeat N {": a bounded loop, where a statement may start. */
static bool looks_like_repeat(struct parser *p)
{
	return tok_is(peek(p), "repeat") && peek2(p)->kind == TOK_INT;
}

/*
 * thread := 'P' N '{' { body } '}'
 * body   := stmt | 'repeat' INT '{' stmt { stmt } '}'
 */
static void parse_thread(struct parser *p, struct litmus_thread *th,
			 int index)
{
	struct litmus_stmt stmts[LITMUS_STMTS_MAX];
	size_t n = 0, block = 0;
	bool in_block = false;
	struct token tok = next(p);
	struct litmus_pos rpos = tok.pos;
	int64_t times = 0;

	memset(stmts, 0, sizeof(stmts));
	th->pos = tok.pos;
	th->index = index;
	expect(p, TOK_LBRACE, "'{'");
	while (in_block || peek(p)->kind != TOK_RBRACE) {
		if (in_block && peek(p)->kind == TOK_RBRACE) {
			stmts[block].repeat_len = (unsigned)(n - block);
			in_block = false;
			next(p);
			continue;
		}
		if (looks_like_repeat(p)) {
			char what[96];

			if (in_block)
				fail_expected(p, "a statement or '}' (repeat "
					      "blocks do not nest)");
			rpos = next(p).pos;
			times = peek(p)->number;
			if (times < 1 || times > LITMUS_REPEAT_MAX) {
				snprintf(what, sizeof(what), "a repeat count "
					 "in 1..%d (LITMUS_REPEAT_MAX)",
					 LITMUS_REPEAT_MAX);
				fail_expected(p, what);
			}
			next(p);
			expect(p, TOK_LBRACE, "'{'");
			if (peek(p)->kind == TOK_RBRACE)
				fail_expected(p, "a statement (a repeat "
					      "block is not empty)");
			in_block = true;
			block = n;
			continue;
		}
		if (n == LITMUS_STMTS_MAX) {
			char what[64];

			snprintf(what, sizeof(what),
				 "'}' (at most %d statements in P%d)",
				 LITMUS_STMTS_MAX, index);
			fail_expected(p, what);
		}
		parse_stmt(p, &stmts[n]);
		if (times) {
			stmts[n].repeat = (unsigned)times;
			stmts[n].repeat_pos = rpos;
			times = 0;
		}
		n++;
	}
	next(p);
	th->stmts = copy(p, stmts, n * sizeof(stmts[0]));
	th->stmts_count = n;
}

/* threads := thread { thread } with P0, P1, ... in order */
static void parse_threads(struct parser *p)
{
	struct litmus_thread threads[LITMUS_THREADS_MAX];
	size_t n = 0;
	char what[96];

	memset(threads, 0, sizeof(threads));
	while (n == 0 || looks_like_thread(peek(p))) {
		int index = numbered(peek(p), 'P', 10000);

		if (n == LITMUS_THREADS_MAX) {
			snprintf(what, sizeof(what),
				 "at most %d threads (P0..P%d)",
				 LITMUS_THREADS_MAX, LITMUS_THREADS_MAX - 1);
			fail_expected(p, what);
		}
		if (index != (int)n) {
			snprintf(what, sizeof(what), "'P%zu'", n);
			fail_expected(p, what);
		}
		parse_thread(p, &threads[n], (int)n);
		n++;
	}
	p->scn->threads = copy(p, threads, n * sizeof(threads[0]));
	p->scn->threads_count = n;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                          */

static const struct litmus_expr *parse_expr(struct parser *p);

static _Noreturn void fail_depth(struct parser *p, const struct token *tok)
{
	char what[64];

	snprintf(what, sizeof(what), "an expression at most %d levels deep",
		 LITMUS_EXPR_DEPTH_MAX);
	fail_expected_tok(p, tok, what);
}

/* One level deeper; tok opens it and is blamed when it is too deep. */
static void enter(struct parser *p, const struct token *tok)
{
	if (++p->depth > LITMUS_EXPR_DEPTH_MAX)
		fail_depth(p, tok);
}

static void leave(struct parser *p)
{
	p->depth--;
}

static struct litmus_expr *node(struct parser *p, enum litmus_expr_kind kind,
				struct litmus_pos pos)
{
	struct litmus_expr *e = alloc(p, sizeof(*e));

	e->kind = kind;
	e->pos = pos;
	e->depth = 1;
	return e;
}

/* A unary or binary node; tok is its operator, for the depth error. */
static const struct litmus_expr *
op_node(struct parser *p, enum litmus_expr_kind kind, const struct token *tok,
	const struct litmus_expr *left, const struct litmus_expr *right)
{
	struct litmus_expr *e = node(p, kind, right ? left->pos : tok->pos);
	unsigned depth = left->depth;

	if (right && right->depth > depth)
		depth = right->depth;
	if (depth + 1 > LITMUS_EXPR_DEPTH_MAX)
		fail_depth(p, tok);
	e->depth = depth + 1;
	e->left = left;
	e->right = right;
	return e;
}

/* path := seg { '.' seg } ; seg := IDENT [ '[' INT ']' ] */
static const struct litmus_expr *parse_path(struct parser *p)
{
	struct litmus_path_seg segs[LITMUS_PATH_SEGS_MAX];
	struct litmus_expr *e = node(p, LITMUS_EXPR_PATH, peek(p)->pos);
	size_t n = 0;

	for (;;) {
		struct token tok;

		if (n == LITMUS_PATH_SEGS_MAX) {
			char what[64];

			snprintf(what, sizeof(what),
				 "a path of at most %d segments",
				 LITMUS_PATH_SEGS_MAX);
			fail_expected(p, what);
		}
		tok = expect(p, TOK_IDENT, "a name after '.'");
		segs[n].name = tok_str(p, &tok);
		segs[n].index = -1;
		if (peek(p)->kind == TOK_LBRACKET) {
			next(p);
			if (peek(p)->kind != TOK_INT ||
			    peek(p)->number > LITMUS_PATH_INDEX_MAX) {
				char what[64];

				snprintf(what, sizeof(what), "an index 0..%d",
					 LITMUS_PATH_INDEX_MAX);
				fail_expected(p, what);
			}
			segs[n].index = next(p).number;
			expect(p, TOK_RBRACKET, "']'");
		}
		n++;
		if (peek(p)->kind != TOK_DOT)
			break;
		next(p);
	}
	e->segs = copy(p, segs, n * sizeof(segs[0]));
	e->segs_count = n;
	return e;
}

/*
 * primary := INT | INT ':' REG | 'count' '(' expr ')'
 *          | 'at' '(' LABEL ',' expr ')'
 *          | 'deadlock' | 'stuck' | 'violation' | path | '(' expr ')'
 */
static const struct litmus_expr *parse_primary(struct parser *p)
{
	const struct token *tok = peek(p);
	struct litmus_expr *e;
	struct token open;

	switch (tok->kind) {
	case TOK_INT:
		if (peek2(p)->kind == TOK_COLON) {
			char what[64];

			e = node(p, LITMUS_EXPR_REG, tok->pos);
			if (tok->number >= LITMUS_THREADS_MAX) {
				snprintf(what, sizeof(what),
					 "a thread number 0..%d",
					 LITMUS_THREADS_MAX - 1);
				fail_expected(p, what);
			}
			e->reg_thread = (int)next(p).number;
			next(p);
			e->reg = parse_register(p);
			return e;
		}
		e = node(p, LITMUS_EXPR_INT, tok->pos);
		e->number = next(p).number;
		return e;
	case TOK_LPAREN: {
		const struct litmus_expr *inner;

		enter(p, tok);
		next(p);
		inner = parse_expr(p);
		expect(p, TOK_RPAREN, "')'");
		leave(p);
		return inner;
	}
	case TOK_IDENT:
		if (tok_is(tok, "count") && peek2(p)->kind == TOK_LPAREN) {
			const struct litmus_expr *body;

			open = next(p);
			enter(p, &open);
			next(p);
			body = parse_expr(p);
			expect(p, TOK_RPAREN, "')'");
			leave(p);
			return op_node(p, LITMUS_EXPR_COUNT, &open, body, NULL);
		}
		if (tok_is(tok, "at") && peek2(p)->kind == TOK_LPAREN) {
			const struct litmus_expr *body;
			struct token label;

			open = next(p);
			enter(p, &open);
			next(p);
			label = expect(p, TOK_IDENT, "a statement label");
			expect(p, TOK_COMMA, "','");
			body = parse_expr(p);
			expect(p, TOK_RPAREN, "')'");
			leave(p);
			e = (struct litmus_expr *)op_node(p, LITMUS_EXPR_AT,
							  &open, body, NULL);
			e->label = tok_str(p, &label);
			e->at_thread = -1;
			e->at_stmt = -1;
			return e;
		}
		if (tok_is(tok, "deadlock") || tok_is(tok, "stuck") ||
		    tok_is(tok, "violation")) {
			e = node(p, LITMUS_EXPR_OUTCOME, tok->pos);
			e->outcome = tok_is(tok, "deadlock") ?
				LITMUS_OUTCOME_DEADLOCK :
				tok_is(tok, "stuck") ? LITMUS_OUTCOME_STUCK :
				LITMUS_OUTCOME_VIOLATION;
			next(p);
			return e;
		}
		return parse_path(p);
	default:
		fail_expected(p, "an operand (number, T:rK, name, count(...) "
			      "or '(')");
	}
}

/* unary := '-' INT | '-' ERRNO | '-' unary | primary */
static const struct litmus_expr *parse_unary(struct parser *p)
{
	const struct litmus_expr *operand;
	struct litmus_expr *e;
	const struct token *tok;
	struct token minus;

	if (peek(p)->kind != TOK_MINUS)
		return parse_primary(p);
	minus = next(p);
	tok = peek(p);
	if (tok->kind == TOK_INT && peek2(p)->kind != TOK_COLON) {
		e = node(p, LITMUS_EXPR_INT, minus.pos);
		e->number = -next(p).number;
		return e;
	}
	if (tok->kind == TOK_IDENT && is_errno_name(tok->text, tok->len)) {
		struct token name = next(p);

		e = node(p, LITMUS_EXPR_ERRNO, minus.pos);
		errno_value(p, &name, &e->number);
		e->errno_name = tok_str(p, &name);
		return e;
	}
	enter(p, &minus);
	operand = parse_unary(p);
	leave(p);
	return op_node(p, LITMUS_EXPR_NEG, &minus, operand, NULL);
}

/* sum := unary { ( '+' | '-' ) unary } */
static const struct litmus_expr *parse_sum(struct parser *p)
{
	const struct litmus_expr *left = parse_unary(p);

	while (peek(p)->kind == TOK_PLUS || peek(p)->kind == TOK_MINUS) {
		struct token op = next(p);
		const struct litmus_expr *right = parse_unary(p);

		left = op_node(p, op.kind == TOK_PLUS ? LITMUS_EXPR_ADD :
			       LITMUS_EXPR_SUB, &op, left, right);
	}
	return left;
}

static bool cmp_kind(enum token_kind tok, enum litmus_expr_kind *kind)
{
	switch (tok) {
	case TOK_EQ:
	case TOK_ASSIGN:	/* herd7 writes equality as '=' */
		*kind = LITMUS_EXPR_EQ;
		return true;
	case TOK_NE:
		*kind = LITMUS_EXPR_NE;
		return true;
	case TOK_LT:
		*kind = LITMUS_EXPR_LT;
		return true;
	case TOK_LE:
		*kind = LITMUS_EXPR_LE;
		return true;
	case TOK_GT:
		*kind = LITMUS_EXPR_GT;
		return true;
	case TOK_GE:
		*kind = LITMUS_EXPR_GE;
		return true;
	default:
		return false;
	}
}

/* cmp := sum [ cmpop sum ] */
static const struct litmus_expr *parse_cmp(struct parser *p)
{
	const struct litmus_expr *left = parse_sum(p);
	enum litmus_expr_kind kind;
	struct token op;

	if (!cmp_kind(peek(p)->kind, &kind))
		return left;
	op = next(p);
	return op_node(p, kind, &op, left, parse_sum(p));
}

/* not := '~' not | cmp */
static const struct litmus_expr *parse_not(struct parser *p)
{
	const struct litmus_expr *operand;
	struct token tilde;

	if (peek(p)->kind != TOK_TILDE)
		return parse_cmp(p);
	tilde = next(p);
	enter(p, &tilde);
	operand = parse_not(p);
	leave(p);
	return op_node(p, LITMUS_EXPR_NOT, &tilde, operand, NULL);
}

/* and := not { '/\' not } */
static const struct litmus_expr *parse_and(struct parser *p)
{
	const struct litmus_expr *left = parse_not(p);

	while (peek(p)->kind == TOK_AND) {
		struct token op = next(p);

		left = op_node(p, LITMUS_EXPR_AND, &op, left, parse_not(p));
	}
	return left;
}

/* expr := and { '\/' and } */
static const struct litmus_expr *parse_expr(struct parser *p)
{
	const struct litmus_expr *left = parse_and(p);

	while (peek(p)->kind == TOK_OR) {
		struct token op = next(p);

		left = op_node(p, LITMUS_EXPR_OR, &op, left, parse_and(p));
	}
	return left;
}

/* '(' expr ')' of a final clause */
static const struct litmus_expr *parse_clause_expr(struct parser *p)
{
	const struct litmus_expr *e;

	enum litmus_expr_kind kind;

	expect(p, TOK_LPAREN, "'('");
	p->depth = 0;
	e = parse_expr(p);
	if (cmp_kind(peek(p)->kind, &kind))
		fail_expected(p, "')' (comparisons do not chain: use /\\)");
	expect(p, TOK_RPAREN, "')' or an operator");
	return e;
}

/* ------------------------------------------------------------------ */
/* Final clauses and expect lines                                       */

/* expect := 'expect' [ assign { ',' assign } ] ':' observation */
static void parse_expect(struct parser *p, struct litmus_expect *x)
{
	struct litmus_assign assigns[LITMUS_ASSIGNS_MAX];
	size_t n = 0;
	struct token tok = next(p);

	memset(assigns, 0, sizeof(assigns));
	x->pos = tok.pos;
	if (peek(p)->kind != TOK_COLON) {
		for (;;) {
			struct litmus_assign *a = &assigns[n];

			if (n == LITMUS_ASSIGNS_MAX) {
				char what[64];

				snprintf(what, sizeof(what),
					 "':' (at most %d variant keys)",
					 LITMUS_ASSIGNS_MAX);
				fail_expected(p, what);
			}
			tok = expect(p, TOK_IDENT, "a variant key or ':'");
			a->pos = tok.pos;
			a->key = tok_str(p, &tok);
			expect(p, TOK_ASSIGN, "'='");
			tok = *peek(p);
			if (tok.kind == TOK_IDENT)
				a->value = tok_str(p, &tok);
			else if (tok.kind == TOK_INT)
				a->value = decimal_str(p, tok.number);
			else
				fail_expected(p, "a variant value");
			next(p);
			n++;
			if (peek(p)->kind != TOK_COMMA)
				break;
			next(p);
		}
	}
	expect(p, TOK_COLON, n ? "',' or ':'" : "a variant key or ':'");
	tok = *peek(p);
	if (tok_is(&tok, "Never"))
		x->observation = LITMUS_OBS_NEVER;
	else if (tok_is(&tok, "Sometimes"))
		x->observation = LITMUS_OBS_SOMETIMES;
	else if (tok_is(&tok, "Always"))
		x->observation = LITMUS_OBS_ALWAYS;
	else
		fail_expected(p, "'Never', 'Sometimes' or 'Always'");
	next(p);
	x->assigns = copy(p, assigns, n * sizeof(assigns[0]));
	x->assigns_count = n;
}

static const char *const clause_words =
	"'exists', '~exists', 'forall', 'always', 'expect', 'claim' or end "
	"of file";

/* point := [ 'P' DIGITS ':' ] ( 'call' | 'ret' ) '(' IDENT [ ',' INT ] ')'
 *          [ '+' INT ] */
static void parse_claim_point(struct parser *p, struct litmus_claim_point *pt)
{
	struct token tok = *peek(p);

	memset(pt, 0, sizeof(*pt));
	pt->pos = tok.pos;
	pt->thread = -1;
	pt->occurrence = 1;
	if (tok.kind == TOK_IDENT && peek2(p)->kind == TOK_COLON) {
		int n = -1;

		if (tok.len >= 2 && tok.len <= 3 && tok.text[0] == 'P' &&
		    tok.text[1] >= '0' && tok.text[1] <= '9' &&
		    (tok.len == 2 || (tok.text[2] >= '0' &&
				      tok.text[2] <= '9' &&
				      tok.text[1] != '0')))
			n = atoi(tok.text + 1);
		if (n < 0 || n >= LITMUS_THREADS_MAX)
			fail_expected(p, "a thread P0..P15 before ':'");
		pt->thread = n;
		next(p);
		next(p);
		tok = *peek(p);
	}
	if (tok_is(&tok, "call"))
		pt->ret = false;
	else if (tok_is(&tok, "ret"))
		pt->ret = true;
	else
		fail_expected(p, "'call' or 'ret'");
	next(p);
	expect(p, TOK_LPAREN, "'('");
	tok = expect(p, TOK_IDENT, "a kernel function or a label");
	pt->name = tok_str(p, &tok);
	if (peek(p)->kind == TOK_COMMA) {
		next(p);
		tok = expect(p, TOK_INT, "an occurrence 1, 2, ...");
		if (tok.number < 1 || tok.number > 1024)
			fail_expected_tok(p, &tok, "an occurrence in 1..1024");
		pt->occurrence = (unsigned)tok.number;
	}
	expect(p, TOK_RPAREN, "')'");
	if (peek(p)->kind == TOK_PLUS) {
		next(p);
		tok = expect(p, TOK_INT, "a number of steps after the point");
		if (tok.number < 1 || tok.number > 1024)
			fail_expected_tok(p, &tok, "a number of steps in 1..1024");
		pt->after = (unsigned)tok.number;
	}
}

/* claim := 'claim' [ STRING ] '(' chain { ( ',' | ';' ) chain } ')' ;
 * chain := point '->' point { '->' point } */
static void parse_claim(struct parser *p)
{
	struct litmus_claim_edge edges[LITMUS_CLAIM_EDGES_MAX];
	struct litmus_claim *c = alloc(p, sizeof(*c));
	struct token tok = next(p);
	size_t n = 0;

	if (p->scn->claim)
		fail_at(p, tok.pos, "expected one claim (the first is at "
			"%u:%u), found 'claim'", p->scn->claim->pos.line,
			p->scn->claim->pos.col);
	c->pos = tok.pos;
	if (peek(p)->kind == TOK_STRING) {
		tok = next(p);
		c->text = pool_strndup(p->pool, tok.string, tok.string_len);
		if (!c->text)
			fail_at(p, tok.pos, "out of memory");
	}
	expect(p, TOK_LPAREN, "'('");
	for (;;) {
		struct litmus_claim_point from;

		parse_claim_point(p, &from);
		do {
			if (n == LITMUS_CLAIM_EDGES_MAX) {
				char what[64];

				snprintf(what, sizeof(what), "at most %d "
					 "edges in a claim",
					 LITMUS_CLAIM_EDGES_MAX);
				fail_expected(p, what);
			}
			if (peek(p)->kind != TOK_MINUS ||
			    peek2(p)->kind != TOK_GT)
				fail_expected(p, "'->'");
			next(p);
			next(p);
			edges[n].from = from;
			parse_claim_point(p, &edges[n].to);
			from = edges[n++].to;
		} while (peek(p)->kind == TOK_MINUS);
		if (peek(p)->kind != TOK_COMMA && peek(p)->kind != TOK_SEMI)
			break;
		next(p);
	}
	expect(p, TOK_RPAREN, "'->', ',' or ')'");
	c->edges = copy(p, edges, n * sizeof(edges[0]));
	c->edges_count = n;
	p->scn->claim = c;
}

/* tail := { clause | expect } ; clause := quantifier '(' expr ')' */
static void parse_tail(struct parser *p)
{
	const struct litmus_expr *always[LITMUS_ALWAYS_MAX];
	struct litmus_pos always_pos[LITMUS_ALWAYS_MAX];
	struct litmus_expect expects[LITMUS_EXPECTS_MAX];
	struct litmus_condition *cond = &p->scn->condition;
	size_t n_always = 0, n_expects = 0;
	char what[128];

	memset(expects, 0, sizeof(expects));
	while (peek(p)->kind != TOK_EOF) {
		const struct token *tok = peek(p);
		enum litmus_quantifier q = LITMUS_QUANT_NONE;
		struct litmus_pos pos = tok->pos;

		if (tok_is(tok, "always")) {
			if (n_always == LITMUS_ALWAYS_MAX) {
				snprintf(what, sizeof(what),
					 "at most %d always clauses",
					 LITMUS_ALWAYS_MAX);
				fail_expected(p, what);
			}
			next(p);
			always_pos[n_always] = pos;
			always[n_always++] = parse_clause_expr(p);
			continue;
		}
		if (tok_is(tok, "claim")) {
			parse_claim(p);
			continue;
		}
		if (tok_is(tok, "expect")) {
			if (n_expects == LITMUS_EXPECTS_MAX) {
				snprintf(what, sizeof(what),
					 "at most %d expect lines",
					 LITMUS_EXPECTS_MAX);
				fail_expected(p, what);
			}
			parse_expect(p, &expects[n_expects++]);
			continue;
		}
		if (tok_is(tok, "exists")) {
			q = LITMUS_QUANT_EXISTS;
		} else if (tok_is(tok, "forall")) {
			q = LITMUS_QUANT_FORALL;
		} else if (tok->kind == TOK_TILDE &&
			   tok_is(peek2(p), "exists")) {
			q = LITMUS_QUANT_NOT_EXISTS;
		} else if (tok->kind == TOK_TILDE) {
			next(p);
			fail_expected(p, "'exists' after '~'");
		} else {
			fail_expected(p, clause_words);
		}
		if (cond->quantifier != LITMUS_QUANT_NONE) {
			snprintf(what, sizeof(what),
				 "one exists, ~exists or forall condition "
				 "(the first is at %u:%u)",
				 cond->pos.line, cond->pos.col);
			fail_expected(p, what);
		}
		if (q == LITMUS_QUANT_NOT_EXISTS)
			next(p);
		next(p);
		cond->pos = pos;
		cond->quantifier = q;
		cond->expr = parse_clause_expr(p);
	}
	p->scn->always = copy(p, always, n_always * sizeof(always[0]));
	p->scn->always_pos = copy(p, always_pos,
				  n_always * sizeof(always_pos[0]));
	p->scn->always_count = n_always;
	p->scn->expects = copy(p, expects, n_expects * sizeof(expects[0]));
	p->scn->expects_count = n_expects;
}

/* scenario := 'wpsim' NAME STRING init threads tail */
static void parse_scenario(struct parser *p)
{
	struct litmus_scenario *scn = p->scn;
	struct token tok;

	tok = expect(p, TOK_IDENT, "'wpsim' and the scenario name");
	if (!tok_is(&tok, "wpsim"))
		fail_expected_tok(p, &tok, "'wpsim' and the scenario name");
	scn->pos = tok.pos;
	/* The name has its own token rules: read it before any peek. */
	lex_name(&p->lx, &tok);
	if (tok.kind == TOK_ERROR)
		fail_at(p, tok.pos, "%s", p->lx.message);
	if (tok.kind != TOK_NAME)
		fail_expected_tok(p, &tok, "a scenario name");
	scn->name = tok_str(p, &tok);
	if (peek(p)->kind != TOK_STRING)
		fail_expected(p, "a quoted one-line description");
	tok = next(p);
	scn->description = pool_strndup(p->pool, tok.string, tok.string_len);
	if (!scn->description)
		fail_at(p, tok.pos, "out of memory");
	parse_init(p);
	parse_threads(p);
	parse_tail(p);
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

/* The one setjmp: false when a syntax error stopped the parse. */
static bool run(struct parser *p)
{
	if (setjmp(p->fail))
		return false;
	parse_scenario(p);
	return true;
}

struct litmus_scenario *litmus_parse(const char *file, const char *text,
				     size_t len,
				     const struct litmus_schema *schema,
				     struct litmus_errors *errors)
{
	struct litmus_pos start = { 1, 1 };
	struct litmus_scenario *scn;
	struct parser *p;

	if (!file)
		file = "<input>";
	if (len > LITMUS_SOURCE_BYTES_MAX) {
		errors_add(errors, file, start, "expected a scenario of at "
			   "most %d bytes, found %zu bytes",
			   LITMUS_SOURCE_BYTES_MAX, len);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errors_add(errors, file, start, "out of memory");
		return NULL;
	}
	p->errors = errors;
	p->file = file;
	p->pool = pool_create();
	if (p->pool)
		p->scn = pool_alloc(p->pool, sizeof(*p->scn));
	if (!p->scn) {
		errors_add(errors, file, start, "out of memory");
		pool_destroy(p->pool);
		free(p);
		return NULL;
	}
	lex_init(&p->lx, text ? text : "", text ? len : 0);
	p->scn->pool = p->pool;
	p->scn->file = pool_strndup(p->pool, file, strlen(file));
	if (!p->scn->file || !run(p)) {
		if (!p->scn->file)
			errors_add(errors, file, start, "out of memory");
		pool_destroy(p->pool);
		free(p);
		return NULL;
	}
	scn = p->scn;
	free(p);
	if (litmus_validate(scn, schema, errors) != 0) {
		litmus_free(scn);
		return NULL;
	}
	return scn;
}

struct litmus_scenario *litmus_parse_file(const char *path,
					  const struct litmus_schema *schema,
					  struct litmus_errors *errors)
{
	struct litmus_pos start = { 1, 1 };
	struct litmus_scenario *scn;
	size_t len = 0;
	char *text;
	FILE *f;

	f = fopen(path, "rb");
	if (!f) {
		errors_add(errors, path, start, "cannot open: %s",
			   strerror(errno));
		return NULL;
	}
	text = malloc(LITMUS_SOURCE_BYTES_MAX + 1);
	if (!text) {
		fclose(f);
		errors_add(errors, path, start, "out of memory");
		return NULL;
	}
	len = fread(text, 1, LITMUS_SOURCE_BYTES_MAX + 1, f);
	if (ferror(f)) {
		errors_add(errors, path, start, "cannot read: %s",
			   strerror(errno));
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	scn = litmus_parse(path, text, len, schema, errors);
	free(text);
	return scn;
}

void litmus_free(struct litmus_scenario *scenario)
{
	if (scenario)
		pool_destroy(scenario->pool);
}
