// SPDX-License-Identifier: MIT
/*
 * tests/model/test_variant.c - the model's variant registry
 * (include/model/variant.h, model/variant.c): the rows are well formed
 * (every key has values, every value a name and help, names are
 * identifiers a scenario can spell, aliases are not), the parser's
 * errors are exact, every value round-trips from text through the
 * world configuration into the world the model reads, and break=
 * switches reach m_broken().  docs/HACKING.md "Add a variant of a kernel
 * function" ends with running this test.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "model/variant.h"
#include "model/world.h"
#include "wpsim/harness.h"

static bool is_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

Test(variant, every_key_has_values_with_names_and_help)
{
	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++) {
		const struct m_variant_key_info *vk = &m_variant_keys[k];

		cr_assert(vk->key && is_identifier(vk->key), "key %d", k);
		cr_assert(vk->help && *vk->help, "%s: no help", vk->key);
		cr_assert_geq(vk->values_count, 2, "%s: one value is no "
			      "variant", vk->key);
		cr_assert_eq(m_variant_key_find(vk->key), k);
		for (size_t i = 0; i < vk->values_count; i++) {
			const struct m_variant_value *v = &vk->values[i];

			cr_assert(is_identifier(v->name), "%s=%s: a scenario "
				  "file spells values as identifiers", vk->key,
				  v->name);
			cr_assert(v->help && *v->help, "%s=%s: no help",
				  vk->key, v->name);
			for (size_t j = 0; j < i; j++)
				cr_assert_str_neq(vk->values[j].name, v->name,
						  "%s: %s twice", vk->key,
						  v->name);
		}
	}
	cr_assert_eq(m_variant_key_find("nope"), -1);
}

/* An enum key's value index is its enum constant; break='s is a bit. */
Test(variant, codes_are_enum_constants_and_distinct_bits)
{
	const struct m_variant_key_info *b = &m_variant_keys[M_VARIANT_BREAK];
	unsigned int seen = 0;

	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++) {
		if (k == M_VARIANT_BREAK)
			continue;
		for (size_t i = 0; i < m_variant_keys[k].values_count; i++)
			cr_assert_eq(m_variant_keys[k].values[i].code, i,
				     "%s=%s", m_variant_keys[k].key,
				     m_variant_keys[k].values[i].name);
	}
	cr_assert_str_eq(b->values[0].name, "none");
	cr_assert_eq(b->values[0].code, 0);
	for (size_t i = 1; i < b->values_count; i++) {
		unsigned int bit = b->values[i].code;

		cr_assert(bit && !(bit & (bit - 1)), "break=%s: one bit",
			  b->values[i].name);
		cr_assert(!(seen & bit), "break=%s: a bit used twice",
			  b->values[i].name);
		seen |= bit;
	}
	cr_assert_eq(M_DC_V11, 2);
	cr_assert_eq(m_variant_value_find(M_VARIANT_DONTCACHE, "v11"),
		     M_DC_V11);
}

Test(variant, aliases_resolve_and_are_not_identifiers)
{
	unsigned int aliases = 0;

	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++) {
		const struct m_variant_key_info *vk = &m_variant_keys[k];

		for (size_t i = 0; i < vk->values_count; i++) {
			const char *alias = vk->values[i].alias;

			if (!alias)
				continue;
			aliases++;
			/* An alias exists for what a scenario cannot say. */
			cr_assert(!is_identifier(alias), "%s=%s", vk->key,
				  alias);
			cr_assert_eq(m_variant_value_find(k, alias), (int)i,
				     "%s=%s", vk->key, alias);
		}
	}
	cr_assert_geq(aliases, 4);
	cr_assert_eq(m_variant_value_find(M_VARIANT_DONTCACHE, "6.18"),
		     M_DC_6_18);
	cr_assert_eq(m_variant_value_find(M_VARIANT_EXT4_DIO, "unsafe-shared"),
		     M_EXT4_DIO_UNSAFE);
}

static void parse_fails(const char *text, const char *want)
{
	struct m_variant_choice c;
	char why[640];

	cr_assert_eq(m_variant_parse(text, &c, why, sizeof(why)), -EINVAL,
		     "%s parsed", text);
	cr_assert_str_eq(why, want);
}

Test(variant, parse_errors_are_exact)
{
	char keys[512], want[640];
	size_t len = 0;

	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++)
		len += (size_t)snprintf(keys + len, sizeof(keys) - len,
					"%s%s", k ? ", " : "",
					m_variant_keys[k].key);
	parse_fails("dontcache", "expected KEY=VALUE, found 'dontcache'");
	parse_fails("=v11", "expected KEY=VALUE, found '=v11'");
	snprintf(want, sizeof(want), "expected one of %s as the variant key, "
		 "found 'dontcach'", keys);
	parse_fails("dontcach=v11", want);
	parse_fails("dontcache=v13", "expected one of v6_18, v7_3, v11, v12 "
		    "for dontcache, found 'v13'");
	parse_fails("dontcache=", "expected one of v6_18, v7_3, v11, v12 "
		    "for dontcache, found ''");
	parse_fails("rwsem=Exact", "expected one of summary, exact, clock "
		    "for rwsem, found 'Exact'");
}

/*
 * Every value of every key, by its name (and alias): parsed, written
 * into a configuration, read back; the config's field holds its code.
 */
Test(variant, every_value_round_trips_through_the_config)
{
	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++) {
		const struct m_variant_key_info *vk = &m_variant_keys[k];

		for (size_t i = 0; i < vk->values_count; i++) {
			const struct m_variant_value *v = &vk->values[i];
			struct m_world_config config;
			struct m_variant_choice c;
			char text[128], why[640];

			snprintf(text, sizeof(text), "%s=%s", vk->key,
				 v->alias ? v->alias : v->name);
			cr_assert_eq(m_variant_parse(text, &c, why,
						     sizeof(why)), 0, "%s: %s",
				     text, why);
			cr_assert_eq(c.key, (enum m_variant_key)k);
			cr_assert_eq(c.value, i, "%s", text);
			m_world_config_default(&config);
			m_variant_apply(&config, c);
			cr_assert_eq(m_variant_get(&config, c.key), i, "%s",
				     text);
			cr_assert_str_eq(m_variant_value_name(c.key, c.value),
					 v->name);
#define FIELD(id, key, type, field, values, help)			\
			if (k == id)					\
				cr_assert_eq((unsigned int)config.field, \
					     v->code, "%s", text);
			M_VARIANT_KEYS(FIELD)
#undef FIELD
		}
	}
}

Test(variant, default_config_is_every_first_value)
{
	struct m_world_config config;

	m_world_config_default(&config);
	for (int k = 0; k < M_VARIANT_KEYS_COUNT; k++)
		cr_assert_eq(m_variant_get(&config, k), 0, "%s",
			     m_variant_keys[k].key);
}

Test(variant, breaks_accumulate)
{
	struct m_world_config config;
	char why[640];

	m_world_config_default(&config);
	cr_assert_eq(m_variant_set(&config, "break=errseq_no_seen", why,
				   sizeof(why)), 0);
	cr_assert_eq(m_variant_set(&config, "break=truncate_no_wait", why,
				   sizeof(why)), 0);
	cr_assert_eq(m_variant_set(&config, "break=none", why, sizeof(why)),
		     0);
	cr_assert_eq(config.breaks,
		     M_BREAK_ERRSEQ_NO_SEEN | M_BREAK_TRUNCATE_NO_WAIT);
}

/* ---- from text to the model: the world the model reads ---------------- */

static struct m_world_config seen;

static void read_world(void *arg)
{
	struct m_world *w = m_world();

	(void)arg;
#define COPY(id, key, type, field, values, help) seen.field = w->field;
	M_VARIANT_KEYS(COPY)
#undef COPY
	SIM_ASSERT(m_broken(M_BREAK_RWSEM_READ_IGNORES_WAITERS));
	SIM_ASSERT(!m_broken(M_BREAK_ERRSEQ_NO_SEEN));
}

Test(variant, the_world_holds_what_the_text_said)
{
	static const char *const texts[] = {
		"dontcache=v11", "ext4_dio=patch2", "writethrough=v3-nofix",
		"rwsem=exact", "uring=v1", "sync_tag=dirty",
		"break=rwsem_read_ignores_waiters",
	};
	struct wpsim_race r;

	wpsim_race_init(&r, "variant-world");
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		cr_assert_eq(wpsim_race_variant(&r, texts[i]), 0, "%s",
			     texts[i]);
	wpsim_race_task(&r, "P0", read_world, NULL);
	WPSIM_ASSERT_RUN_ONCE(&r);
	cr_assert_eq(seen.dontcache, M_DC_V11);
	cr_assert_eq(seen.ext4_dio, M_EXT4_DIO_PATCH2);
	cr_assert_eq(seen.writethrough, M_WT_V3_NOFIX);
	cr_assert_eq(seen.rwsem, M_RWSEM_EXACT);
	cr_assert_eq(seen.uring, M_URING_V1);
	cr_assert_eq(seen.sync_tag, M_SYNC_TAG_DIRTY);
	cr_assert_eq(seen.breaks, M_BREAK_RWSEM_READ_IGNORES_WAITERS);
}
