// SPDX-License-Identifier: MIT
/*
 * model/variant.c - the model's variant registry and its parser: the
 * tables that include/model/variant.h's rows generate, "KEY=VALUE" to a
 * key and value, and a value into struct m_world_config.  Every front
 * end (the wpsim command, scenario files, wpsim fio and replay, the
 * public harness) reads variants through here; the model reads the
 * result from its world (m_world()->dontcache, m_broken()).
 *
 * Models nothing of the kernel: a variant selects which version of a
 * kernel algorithm the model runs (docs/scenario-language.md,
 * "Variants").  Leaves out: nothing; a key or value not in the rows is an
 * error, never a default.
 */
#include "model/variant.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "model/world.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Each key's values, from its value list: [field]_values[]. */
#define VALUE(c, name, alias, help) { name, alias, help, (unsigned int)(c) },
#define VALUES(id, key, type, field, values, help)			\
	static const struct m_variant_value field##_values[] = {	\
		values(VALUE)						\
	};
M_VARIANT_KEYS(VALUES)

#define KEY(id, key, type, field, values, help)				\
	[id] = { key, help, field##_values, ARRAY_SIZE(field##_values) },
const struct m_variant_key_info m_variant_keys[M_VARIANT_KEYS_COUNT] = {
	M_VARIANT_KEYS(KEY)
};

/*
 * An enum key's value index is its enum constant (one list generates
 * both, in order); a break= value's code is its bit.
 */
_Static_assert(M_BREAK_BITS <= 32, "break= switches fit unsigned int");

int m_variant_key_find(const char *key)
{
	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++)
		if (strcmp(m_variant_keys[k].key, key) == 0)
			return k;
	return -1;
}

int m_variant_value_find(enum m_variant_key key, const char *value)
{
	const struct m_variant_key_info *vk = &m_variant_keys[key];

	for (size_t i = 0; i < vk->values_count; i++)
		if (strcmp(vk->values[i].name, value) == 0)
			return (int)i;
	for (size_t i = 0; i < vk->values_count; i++)
		if (vk->values[i].alias &&
		    strcmp(vk->values[i].alias, value) == 0)
			return (int)i;
	return -1;
}

const char *m_variant_value_name(enum m_variant_key key, unsigned int value)
{
	return m_variant_keys[key].values[value].name;
}

/* "a, b, c" of the keys (@key < 0) or of @key's value names. */
static size_t list_names(char *buf, size_t size, int key)
{
	size_t len = 0;
	size_t n = key < 0 ? M_VARIANT_KEYS_COUNT :
			     m_variant_keys[key].values_count;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "",
					key < 0 ? m_variant_keys[i].key :
					m_variant_keys[key].values[i].name);
	return len;
}

int m_variant_parse(const char *text, struct m_variant_choice *choice,
		    char *why, size_t why_size)
{
	const char *eq = strchr(text, '=');
	char key[64], known[512];
	int k, v;

	if (!eq || eq == text || (size_t)(eq - text) >= sizeof(key)) {
		snprintf(why, why_size, "expected KEY=VALUE, found '%s'",
			 text);
		return -EINVAL;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - text), text);
	k = m_variant_key_find(key);
	if (k < 0) {
		list_names(known, sizeof(known), -1);
		snprintf(why, why_size, "expected one of %s as the variant "
			 "key, found '%s'", known, key);
		return -EINVAL;
	}
	v = m_variant_value_find((enum m_variant_key)k, eq + 1);
	if (v < 0) {
		list_names(known, sizeof(known), k);
		snprintf(why, why_size, "expected one of %s for %s, found "
			 "'%s'", known, key, eq + 1);
		return -EINVAL;
	}
	choice->key = (enum m_variant_key)k;
	choice->value = (unsigned int)v;
	return 0;
}

void m_variant_apply(struct m_world_config *config,
		     struct m_variant_choice choice)
{
	unsigned int code = m_variant_keys[choice.key].values[choice.value]
				.code;

	switch (choice.key) {
#define APPLY(id, key, type, field, values, help)			\
	case id:							\
		if (id == M_VARIANT_BREAK)				\
			config->breaks |= code;				\
		else							\
			config->field = (type)code;			\
		break;
	M_VARIANT_KEYS(APPLY)
#undef APPLY
	default:
		break;
	}
}

int m_variant_set(struct m_world_config *config, const char *text,
		  char *why, size_t why_size)
{
	struct m_variant_choice choice;
	int ret = m_variant_parse(text, &choice, why, why_size);

	if (ret == 0)
		m_variant_apply(config, choice);
	return ret;
}

unsigned int m_variant_get(const struct m_world_config *config,
			   enum m_variant_key key)
{
	const struct m_variant_key_info *vk = &m_variant_keys[key];
	unsigned int code = 0;

	switch (key) {
#define GET(id, key, type, field, values, help)				\
	case id:							\
		code = (unsigned int)config->field;			\
		break;
	M_VARIANT_KEYS(GET)
#undef GET
	default:
		break;
	}
	for (unsigned int i = 0; i < vk->values_count; i++) {
		if (key == M_VARIANT_BREAK ? (code & vk->values[i].code) != 0 :
					     code == vk->values[i].code)
			return i;
	}
	return 0;
}

void m_variant_list(FILE *out)
{
	for (size_t k = 0; k < M_VARIANT_KEYS_COUNT; k++) {
		const struct m_variant_key_info *vk = &m_variant_keys[k];

		fprintf(out, "%s: %s\n", vk->key, vk->help);
		for (size_t i = 0; i < vk->values_count; i++) {
			char kv[96];

			snprintf(kv, sizeof(kv), "%s=%s", vk->key,
				 vk->values[i].name);
			fprintf(out, "  %-30s %s%s\n", kv, vk->values[i].help,
				i == 0 ? " (default)" : "");
		}
	}
	fprintf(out, "--variant also takes these spellings (a scenario file "
		"cannot: its values\nare identifiers):\n");
	for (size_t k = 0; k < M_VARIANT_KEYS_COUNT; k++) {
		const struct m_variant_key_info *vk = &m_variant_keys[k];

		for (size_t i = 0; i < vk->values_count; i++) {
			char kv[96];

			if (!vk->values[i].alias)
				continue;
			snprintf(kv, sizeof(kv), "%s=%s", vk->key,
				 vk->values[i].alias);
			fprintf(out, "  %-30s same as %s=%s\n", kv, vk->key,
				vk->values[i].name);
		}
	}
}
