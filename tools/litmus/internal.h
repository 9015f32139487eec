/* SPDX-License-Identifier: MIT */
/*
 * What the litmus front end's files share and callers do not see: the
 * pool every AST lives in, the token stream, error reporting helpers.
 */
#ifndef WPSIM_TOOLS_LITMUS_INTERNAL_H
#define WPSIM_TOOLS_LITMUS_INTERNAL_H

#include <stdarg.h>

#include "tools/litmus/litmus.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Pool: every allocation of a scenario, freed at once. (common.c)     */

struct litmus_pool *pool_create(void);
void pool_destroy(struct litmus_pool *pool);
/* Zeroed, 16-byte aligned; NULL when out of memory. */
void *pool_alloc(struct litmus_pool *pool, size_t bytes);
char *pool_strndup(struct litmus_pool *pool, const char *text, size_t len);

/* ------------------------------------------------------------------ */
/* Errors (common.c)                                                    */

/* Append an error; silently counts it as truncated when the list is full. */
void errors_add(struct litmus_errors *errors, const char *file,
		struct litmus_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void errors_vadd(struct litmus_errors *errors, const char *file,
		 struct litmus_pos pos, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * A bounded string builder for messages: appends, never overflows,
 * marks a cut with "...".
 */
struct strbuf {
	char *buf;
	size_t size;
	size_t len;
	bool cut;
};

void sb_init(struct strbuf *sb, char *buf, size_t size);
void sb_add(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * "; known: a, b, c" listing names[0..count) (every stride bytes, a
 * const char * at the start of each), with "did you mean" first when a
 * name is close to wanted.
 */
void sb_add_known(struct strbuf *sb, const char *wanted, const void *names,
		  size_t count, size_t stride);

/* Quote token or source text for a message: 'text', escaped, clipped. */
void sb_add_quoted(struct strbuf *sb, const char *text, size_t len);

/* ------------------------------------------------------------------ */
/* Tokens (lexer.c)                                                     */

enum token_kind {
	TOK_EOF,
	TOK_ERROR,	/* lexer error: message in the lexer */
	TOK_IDENT,
	TOK_INT,
	TOK_STRING,
	TOK_NAME,	/* scenario name after "wpsim" (lex_name only) */
	TOK_LBRACE,
	TOK_RBRACE,
	TOK_LPAREN,
	TOK_RPAREN,
	TOK_LBRACKET,
	TOK_RBRACKET,
	TOK_SEMI,
	TOK_COLON,
	TOK_COMMA,
	TOK_DOT,
	TOK_PIPE,
	TOK_ASSIGN,	/* = */
	TOK_EQ,		/* == */
	TOK_NE,		/* != */
	TOK_LT,
	TOK_LE,
	TOK_GT,
	TOK_GE,
	TOK_PLUS,
	TOK_MINUS,
	TOK_AND,	/* /\ */
	TOK_OR,		/* \/ */
	TOK_TILDE,
};

struct token {
	enum token_kind kind;
	struct litmus_pos pos;
	const char *text;	/* into the source */
	size_t len;
	int64_t number;		/* TOK_INT */
	char string[LITMUS_STRING_LEN_MAX + 1];	/* TOK_STRING, unescaped */
	size_t string_len;
};

struct lexer {
	const char *src;
	size_t len;
	size_t off;
	uint32_t line;
	uint32_t col;
	char message[LITMUS_MESSAGE_MAX];	/* for TOK_ERROR */
};

void lex_init(struct lexer *lx, const char *src, size_t len);
void lex_next(struct lexer *lx, struct token *tok);
/* A scenario name: [A-Za-z0-9_.+-]+ after blanks and comments. */
void lex_name(struct lexer *lx, struct token *tok);
bool tok_is(const struct token *tok, const char *word);

/* ------------------------------------------------------------------ */
/* Shared by the checker, the evaluator and the printer (print.c)      */

/* A value or a reference path as the printer writes it. */
void sb_add_value(struct strbuf *sb, const struct litmus_value *value);
void sb_add_path(struct strbuf *sb, const struct litmus_expr *path);

bool is_errno_name(const char *text, size_t len);
/* The value of an errno name, or 0 when unknown. */
int errno_lookup(const char *name, size_t len);

#endif /* WPSIM_TOOLS_LITMUS_INTERNAL_H */
