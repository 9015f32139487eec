// SPDX-License-Identifier: MIT
/*
 * tools/litmus/lexer.c - the scenario language's tokens.
 *
 * Turns source bytes into tokens with 1-based line and byte-column
 * positions: identifiers, integers (decimal, 0x hex, K/M/G suffixes of
 * 1024), one-line strings with \" and \\, punctuation including /\ and
 * \/, and skips blanks and the three comment forms: (* ... *), C's
 * slash-star ... star-slash, and // to the end of the line.
 * Errors come back as a TOK_ERROR token whose message says what was
 * expected and what was found.
 *
 * Leaves out: nested comments, octal, other string escapes, non-ASCII
 * identifiers, tab expansion in columns (a tab is one column).
 */
#include "tools/litmus/internal.h"

#include <string.h>

void lex_init(struct lexer *lx, const char *src, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->src = src;
	lx->len = len;
	lx->line = 1;
	lx->col = 1;
}

static int peek_at(const struct lexer *lx, size_t ahead)
{
	if (lx->off + ahead >= lx->len)
		return -1;
	return (unsigned char)lx->src[lx->off + ahead];
}

static void step(struct lexer *lx)
{
	if (lx->off >= lx->len)
		return;
	if (lx->src[lx->off] == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->off++;
}

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(int c)
{
	return is_alpha(c) || is_digit(c);
}

static bool is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static void tok_start(struct lexer *lx, struct token *tok)
{
	tok->pos.line = lx->line;
	tok->pos.col = lx->col;
	tok->text = lx->src + lx->off;
	tok->len = 0;
	tok->number = 0;
	tok->string_len = 0;
	tok->string[0] = '\0';
}

static void tok_end(struct lexer *lx, struct token *tok, enum token_kind kind)
{
	tok->kind = kind;
	tok->len = (size_t)(lx->src + lx->off - tok->text);
}

/* A TOK_ERROR "expected <what>, found <the text from tok to here>". */
static void tok_error(struct lexer *lx, struct token *tok, const char *what,
		      const char *found, size_t found_len)
{
	struct strbuf sb;

	tok_end(lx, tok, TOK_ERROR);
	sb_init(&sb, lx->message, sizeof(lx->message));
	sb_add(&sb, "expected %s, found ", what);
	if (found)
		sb_add_quoted(&sb, found, found_len);
	else
		sb_add(&sb, "end of file");
}

/* Skip blanks and comments; false with tok set to an error. */
static bool skip_blank(struct lexer *lx, struct token *tok)
{
	for (;;) {
		int c = peek_at(lx, 0);
		int d = peek_at(lx, 1);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v') {
			step(lx);
		} else if (c == '/' && d == '/') {
			while (peek_at(lx, 0) != -1 && peek_at(lx, 0) != '\n')
				step(lx);
		} else if ((c == '(' || c == '/') && d == '*') {
			int close = c == '(' ? ')' : '/';

			tok_start(lx, tok);
			step(lx);
			step(lx);
			for (;;) {
				if (peek_at(lx, 0) == -1) {
					tok_error(lx, tok, close == ')' ?
						  "'*)' to close the comment" :
						  "'*/' to close the comment",
						  NULL, 0);
					return false;
				}
				if (peek_at(lx, 0) == '*' &&
				    peek_at(lx, 1) == close) {
					step(lx);
					step(lx);
					break;
				}
				step(lx);
			}
		} else {
			return true;
		}
	}
}

static void lex_ident(struct lexer *lx, struct token *tok)
{
	while (is_alnum(peek_at(lx, 0)))
		step(lx);
	tok_end(lx, tok, TOK_IDENT);
	if (tok->len > LITMUS_NAME_LEN_MAX) {
		char what[64];

		snprintf(what, sizeof(what), "a name of at most %d characters",
			 LITMUS_NAME_LEN_MAX);
		tok_error(lx, tok, what, tok->text, tok->len);
	}
}

static void lex_number(struct lexer *lx, struct token *tok)
{
	uint64_t value = 0, base = 10, digit;
	bool overflow = false, digits = false;
	int c;

	if (peek_at(lx, 0) == '0' && (peek_at(lx, 1) == 'x' ||
				      peek_at(lx, 1) == 'X')) {
		base = 16;
		step(lx);
		step(lx);
	}
	for (;;) {
		c = peek_at(lx, 0);
		if (base == 16 ? !is_hex(c) : !is_digit(c))
			break;
		digit = is_digit(c) ? (uint64_t)(c - '0') :
			(uint64_t)((c | 0x20) - 'a' + 10);
		if (value > ((uint64_t)INT64_MAX - digit) / base)
			overflow = true;
		else
			value = value * base + digit;
		digits = true;
		step(lx);
	}
	c = peek_at(lx, 0);
	if (digits && (c == 'K' || c == 'M' || c == 'G')) {
		unsigned shift = c == 'K' ? 10 : c == 'M' ? 20 : 30;

		if (value > ((uint64_t)INT64_MAX >> shift))
			overflow = true;
		else
			value <<= shift;
		step(lx);
	}
	if (!digits || is_alnum(peek_at(lx, 0))) {
		while (is_alnum(peek_at(lx, 0)))
			step(lx);
		tok_error(lx, tok, "a number (decimal or 0x hex, with an "
			  "optional suffix K, M or G: x1024, x1024^2, "
			  "x1024^3)", tok->text,
			  (size_t)(lx->src + lx->off - tok->text));
		return;
	}
	tok_end(lx, tok, TOK_INT);
	if (overflow) {
		tok_error(lx, tok, "a number below 2^63", tok->text, tok->len);
		return;
	}
	tok->number = (int64_t)value;
}

static void lex_string(struct lexer *lx, struct token *tok)
{
	size_t n = 0;
	char what[64];

	step(lx);	/* the opening quote */
	for (;;) {
		int c = peek_at(lx, 0);

		if (c == -1 || c == '\n') {
			tok_error(lx, tok, "'\"' to close the string",
				  NULL, 0);
			if (c == '\n')
				snprintf(lx->message, sizeof(lx->message),
					 "expected '\"' to close the string, "
					 "found end of line");
			return;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			struct strbuf sb;
			char bad = (char)c;

			tok_end(lx, tok, TOK_ERROR);
			tok->pos.line = lx->line;
			tok->pos.col = lx->col;
			sb_init(&sb, lx->message, sizeof(lx->message));
			sb_add(&sb, "expected a printable character in a "
			       "string, found ");
			sb_add_quoted(&sb, &bad, 1);
			return;
		}
		step(lx);
		if (c == '"')
			break;
		if (c == '\\') {
			int e = peek_at(lx, 0);

			if (e != '"' && e != '\\') {
				struct strbuf sb;

				tok_end(lx, tok, TOK_ERROR);
				sb_init(&sb, lx->message,
					sizeof(lx->message));
				sb_add(&sb, "expected '\\\"' or '\\\\' in a "
				       "string, found ");
				if (e == -1) {
					sb_add(&sb, "end of file");
				} else {
					char esc[2] = { '\\', (char)e };

					sb_add_quoted(&sb, esc, 2);
				}
				return;
			}
			c = e;
			step(lx);
		}
		if (n < LITMUS_STRING_LEN_MAX)
			tok->string[n] = (char)c;
		n++;
	}
	tok_end(lx, tok, TOK_STRING);
	if (n > LITMUS_STRING_LEN_MAX) {
		snprintf(what, sizeof(what), "a string of at most %d bytes",
			 LITMUS_STRING_LEN_MAX);
		tok_error(lx, tok, what, tok->text, tok->len);
		return;
	}
	tok->string[n] = '\0';
	tok->string_len = n;
}

struct punct {
	const char *text;
	enum token_kind kind;
};

/* Longest first where one is a prefix of another. */
static const struct punct puncts[] = {
	{ "==", TOK_EQ }, { "!=", TOK_NE }, { "<=", TOK_LE }, { ">=", TOK_GE },
	{ "/\\", TOK_AND }, { "\\/", TOK_OR },
	{ "{", TOK_LBRACE }, { "}", TOK_RBRACE }, { "(", TOK_LPAREN },
	{ ")", TOK_RPAREN }, { "[", TOK_LBRACKET }, { "]", TOK_RBRACKET },
	{ ";", TOK_SEMI }, { ":", TOK_COLON }, { ",", TOK_COMMA },
	{ ".", TOK_DOT }, { "|", TOK_PIPE }, { "=", TOK_ASSIGN },
	{ "<", TOK_LT }, { ">", TOK_GT }, { "+", TOK_PLUS },
	{ "-", TOK_MINUS }, { "~", TOK_TILDE },
};

void lex_next(struct lexer *lx, struct token *tok)
{
	int c;

	if (!skip_blank(lx, tok))
		return;
	tok_start(lx, tok);
	c = peek_at(lx, 0);
	if (c == -1) {
		tok_end(lx, tok, TOK_EOF);
		return;
	}
	if (is_alpha(c)) {
		lex_ident(lx, tok);
		return;
	}
	if (is_digit(c)) {
		lex_number(lx, tok);
		return;
	}
	if (c == '"') {
		lex_string(lx, tok);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(puncts); i++) {
		size_t n = strlen(puncts[i].text);

		if (lx->len - lx->off >= n &&
		    memcmp(lx->src + lx->off, puncts[i].text, n) == 0) {
			for (size_t j = 0; j < n; j++)
				step(lx);
			tok_end(lx, tok, puncts[i].kind);
			return;
		}
	}
	step(lx);
	tok_error(lx, tok, "a name, number, string or punctuation",
		  tok->text, 1);
}

static bool is_name_char(int c)
{
	return is_alnum(c) || c == '.' || c == '+' || c == '-';
}

void lex_name(struct lexer *lx, struct token *tok)
{
	if (!skip_blank(lx, tok))
		return;
	if (!is_name_char(peek_at(lx, 0))) {
		lex_next(lx, tok);
		return;
	}
	tok_start(lx, tok);
	while (is_name_char(peek_at(lx, 0)))
		step(lx);
	tok_end(lx, tok, TOK_NAME);
	if (tok->len > LITMUS_NAME_LEN_MAX) {
		char what[64];

		snprintf(what, sizeof(what),
			 "a scenario name of at most %d characters",
			 LITMUS_NAME_LEN_MAX);
		tok_error(lx, tok, what, tok->text, tok->len);
	}
}

bool tok_is(const struct token *tok, const char *word)
{
	size_t n = strlen(word);

	return tok->kind == TOK_IDENT && tok->len == n &&
	       memcmp(tok->text, word, n) == 0;
}
