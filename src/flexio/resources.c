/*
 * flexio_resources_*: the DPA resources file.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * flexio_resources_*: the DPA resources file a DOCA DPA program reads to
 * place its threads (--dpa-resources FILE --dpa-app-key KEY). The file
 * comes from outside, so every byte is checked: the YAML subset below is
 * parsed from a length-bounded buffer (programs pass the file's bytes with
 * no NUL), anything else is refused with one line on stderr naming the line
 * (docs/dpa.md 2.14; fuzzed by tests/fuzz/fuzz_flexio_resources.c).
 *
 *   # comment                       blank lines, `---` and `...` ignored
 *   my_app:                         an application key, at column 0
 *     eus: [1, 2, 10-13]            a flow list: numbers and ranges a-b
 *     eu_groups:                    or a block list, one item a line
 *       - 0x3
 *
 * Numbers are decimal or 0x hexadecimal; EU ids are below FLEXIO_EUS_LIMIT
 * (256), EU group ids below 2^16; a list holds each id once. Keys may be
 * double-quoted (no escapes).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libflexio/flexio.h>

#define FLEXIO_EXPORT __attribute__((visibility("default")))

/* Limits that keep a hostile file cheap: a real one is a few lines. */
#define MAX_FILE_BYTES (1u << 20)
#define MAX_IDS 256u
#define MAX_EU_GROUP_ID 0xffffu
#define MAX_KEY 128u

struct flexio_resource {
	uint32_t ids[2][MAX_IDS]; /* LIST_EUS, LIST_EUGS */
	uint32_t num[2];
};

enum list { LIST_EUS, LIST_EUGS, LIST_NONE };

static const char *const list_names[] = { "eus", "eu_groups" };
static const uint32_t list_limits[] = { FLEXIO_EUS_LIMIT - 1, MAX_EU_GROUP_ID };

struct parser {
	const char *app_key;
	unsigned int line_no;
	bool in_app;     /* the current section is app_key's */
	bool in_section; /* a section has started */
	bool found;
	bool seen_list[2];
	enum list open;                 /* a block list being filled */
	size_t open_indent;             /* its key's indent */
	struct flexio_resource *res;    /* app_key's, once found */
	struct flexio_resource scratch; /* another application's (checked, dropped) */
};

static flexio_status fail(const struct parser *p, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
static flexio_status fail(const struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p && p->line_no)
		fprintf(stderr, "libflexio: flexio_resources_create: line %u: %s\n", p->line_no,
		        msg);
	else
		fprintf(stderr, "libflexio: flexio_resources_create: %s\n", msg);
	return FLEXIO_STATUS_FAILED;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\r';
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.' || c == '/';
}

/* [*s, end) starts with a number: decimal or 0x hex, at most limit. */
static bool parse_number(const char **s, const char *end, uint32_t limit, uint32_t *out)
{
	const char *c = *s;
	unsigned int base = 10;
	uint64_t v = 0;
	bool any = false;

	if (end - c > 2 && c[0] == '0' && (c[1] == 'x' || c[1] == 'X')) {
		base = 16;
		c += 2;
	}
	for (; c < end; c++) {
		unsigned int d;

		if (*c >= '0' && *c <= '9')
			d = (unsigned int)(*c - '0');
		else if (base == 16 && *c >= 'a' && *c <= 'f')
			d = (unsigned int)(*c - 'a' + 10);
		else if (base == 16 && *c >= 'A' && *c <= 'F')
			d = (unsigned int)(*c - 'A' + 10);
		else
			break;
		v = v * base + d;
		if (v > limit)
			return false;
		any = true;
	}
	if (!any)
		return false;
	*s = c;
	*out = (uint32_t)v;
	return true;
}

static struct flexio_resource *target(struct parser *p)
{
	return p->in_app ? p->res : &p->scratch;
}

static flexio_status add_id(struct parser *p, enum list l, uint32_t id)
{
	struct flexio_resource *r = target(p);

	for (uint32_t i = 0; i < r->num[l]; i++)
		if (r->ids[l][i] == id)
			return fail(p, "%s lists %u twice", list_names[l], id);
	if (r->num[l] == MAX_IDS)
		return fail(p, "%s lists more than %u ids", list_names[l], MAX_IDS);
	r->ids[l][r->num[l]++] = id;
	return FLEXIO_STATUS_SUCCESS;
}

/* One list item, [s, end) trimmed: a number or a range a-b. */
static flexio_status add_item(struct parser *p, enum list l, const char *s, const char *end)
{
	uint32_t first, last;

	if (!parse_number(&s, end, list_limits[l], &first))
		return fail(p, "%s: '%.*s' is not an id from 0 to %u", list_names[l],
		            (int)(end - s), s, list_limits[l]);
	last = first;
	if (s < end && *s == '-') {
		s++;
		if (!parse_number(&s, end, list_limits[l], &last) || last < first)
			return fail(p, "%s: bad range ending '%.*s'", list_names[l], (int)(end - s),
			            s);
	}
	if (s != end)
		return fail(p, "%s: unexpected '%.*s' after an id", list_names[l], (int)(end - s),
		            s);
	for (uint64_t id = first; id <= last; id++) {
		flexio_status st = add_id(p, l, (uint32_t)id);

		if (st != FLEXIO_STATUS_SUCCESS)
			return st;
	}
	return FLEXIO_STATUS_SUCCESS;
}

static void trim(const char **s, const char **end)
{
	while (*s < *end && is_space(**s))
		(*s)++;
	while (*end > *s && is_space((*end)[-1]))
		(*end)--;
}

/* `[a, b-c, ...]`, [s, end) trimmed. */
static flexio_status flow_list(struct parser *p, enum list l, const char *s, const char *end)
{
	if (end - s < 2 || *s != '[' || end[-1] != ']')
		return fail(p, "%s: expected a list such as [1, 2] or items on the next lines",
		            list_names[l]);
	s++;
	end--;
	trim(&s, &end);
	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *item_end = comma ? comma : end;
		const char *a = s, *b = item_end;
		flexio_status st;

		trim(&a, &b);
		st = add_item(p, l, a, b);
		if (st != FLEXIO_STATUS_SUCCESS)
			return st;
		if (!comma)
			break;
		s = comma + 1;
		if (s >= end)
			return fail(p, "%s: a list ends with ','", list_names[l]);
	}
	return FLEXIO_STATUS_SUCCESS;
}

/* [s, end) is a key, bare or double-quoted; its text goes to key. */
static bool parse_key(const char *s, const char *end, const char **key, size_t *key_len)
{
	if (s < end && *s == '"') {
		if (end - s < 2 || end[-1] != '"')
			return false;
		s++;
		end--;
		for (const char *c = s; c < end; c++)
			if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
				return false;
	} else {
		for (const char *c = s; c < end; c++)
			if (!is_key_char(*c))
				return false;
	}
	if (s == end || (size_t)(end - s) > MAX_KEY)
		return false;
	*key = s;
	*key_len = (size_t)(end - s);
	return true;
}

static flexio_status section(struct parser *p, const char *s, const char *end)
{
	const char *colon = memchr(s, ':', (size_t)(end - s));
	const char *key, *rest;
	size_t key_len;

	if (!colon)
		return fail(p, "expected an application key followed by ':'");
	rest = colon + 1;
	trim(&rest, &end);
	if (rest != end)
		return fail(p, "an application key's value must be on the lines below it");
	if (!parse_key(s, colon, &key, &key_len))
		return fail(p, "'%.*s' is not an application key", (int)(colon - s), s);
	p->in_section = true;
	p->open = LIST_NONE;
	p->seen_list[LIST_EUS] = p->seen_list[LIST_EUGS] = false;
	p->in_app = strlen(p->app_key) == key_len && memcmp(p->app_key, key, key_len) == 0;
	memset(&p->scratch, 0, sizeof(p->scratch));
	if (p->in_app) {
		if (p->found)
			return fail(p, "application key '%s' appears twice", p->app_key);
		p->found = true;
	}
	return FLEXIO_STATUS_SUCCESS;
}

/* `name:` or `name: [...]` inside a section. */
static flexio_status entry(struct parser *p, size_t indent, const char *s, const char *end)
{
	const char *colon = memchr(s, ':', (size_t)(end - s));
	const char *name_end, *rest;
	enum list l;

	if (!colon)
		return fail(p, "expected 'eus:' or 'eu_groups:'");
	name_end = colon;
	trim(&s, &name_end);
	for (l = LIST_EUS; l < LIST_NONE; l++)
		if ((size_t)(name_end - s) == strlen(list_names[l]) &&
		    memcmp(s, list_names[l], (size_t)(name_end - s)) == 0)
			break;
	if (l == LIST_NONE)
		return fail(p, "unknown key '%.*s' (this subset knows eus and eu_groups)",
		            (int)(name_end - s), s);
	if (p->seen_list[l])
		return fail(p, "%s appears twice in one application", list_names[l]);
	p->seen_list[l] = true;
	rest = colon + 1;
	trim(&rest, &end);
	if (rest == end) {
		p->open = l;
		p->open_indent = indent;
		return FLEXIO_STATUS_SUCCESS;
	}
	p->open = LIST_NONE;
	return flow_list(p, l, rest, end);
}

static flexio_status line(struct parser *p, const char *s, const char *end)
{
	const char *hash;
	size_t indent = 0;

	/* A comment starts at '#' at the line's start or after a space. */
	for (hash = s; hash < end; hash++)
		if (*hash == '#' && (hash == s || hash[-1] == ' '))
			break;
	end = hash;
	for (const char *c = s; c < end; c++) {
		if (*c == '\t')
			return fail(p, "a tab (YAML indents with spaces)");
		if (*c == '\0' || ((unsigned char)*c < 0x20 && *c != '\r'))
			return fail(p, "a control character (0x%02x)", (unsigned char)*c);
	}
	while (s + indent < end && s[indent] == ' ')
		indent++;
	s += indent;
	while (end > s && is_space(end[-1]))
		end--;
	if (s == end)
		return FLEXIO_STATUS_SUCCESS;
	if (indent == 0) {
		if ((end - s == 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0)))
			return p->in_section ? fail(p, "'%.3s' after the first application", s)
			                     : FLEXIO_STATUS_SUCCESS;
		return section(p, s, end);
	}
	if (!p->in_section)
		return fail(p, "an indented line before the first application key");
	if (*s == '-' && (end - s == 1 || s[1] == ' ')) {
		const char *item = s + 1;

		if (p->open == LIST_NONE || indent < p->open_indent)
			return fail(p, "a list item outside a list");
		trim(&item, &end);
		return add_item(p, p->open, item, end);
	}
	p->open = LIST_NONE;
	return entry(p, indent, s, end);
}

FLEXIO_EXPORT flexio_status flexio_resources_create(const char *app_key, char *buf, size_t buf_len,
                                                    struct flexio_resource **res)
{
	struct parser *p;
	flexio_status st = FLEXIO_STATUS_SUCCESS;
	const char *s, *end;

	if (!app_key || !*app_key || !buf || !res)
		return fail(NULL, "app_key, buf and res must be given (app_key not empty)");
	if (strnlen(app_key, MAX_KEY + 1) > MAX_KEY)
		return fail(NULL, "app_key is longer than %u bytes", MAX_KEY);
	if (buf_len > MAX_FILE_BYTES)
		return fail(NULL, "%zu bytes: a resources file is at most %u", buf_len,
		            MAX_FILE_BYTES);
	p = calloc(1, sizeof(*p));
	if (!p)
		return fail(NULL, "no memory");
	p->res = calloc(1, sizeof(*p->res));
	if (!p->res) {
		free(p);
		return fail(NULL, "no memory");
	}
	p->app_key = app_key;
	p->open = LIST_NONE;
	for (s = buf, end = buf + buf_len; s < end && st == FLEXIO_STATUS_SUCCESS;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;

		p->line_no++;
		st = line(p, s, eol);
		s = nl ? nl + 1 : end;
	}
	if (st == FLEXIO_STATUS_SUCCESS && !p->found) {
		p->line_no = 0;
		st = fail(p, "no application key '%s' in the file", app_key);
	}
	if (st == FLEXIO_STATUS_SUCCESS)
		*res = p->res;
	else
		free(p->res);
	free(p);
	return st;
}

FLEXIO_EXPORT void flexio_resources_destroy(struct flexio_resource *res)
{
	free(res);
}

FLEXIO_EXPORT uint32_t flexio_resources_get_eus_num(struct flexio_resource *res)
{
	return res ? res->num[LIST_EUS] : 0;
}

FLEXIO_EXPORT uint32_t *flexio_resources_get_eus(struct flexio_resource *res)
{
	return res && res->num[LIST_EUS] ? res->ids[LIST_EUS] : NULL;
}

FLEXIO_EXPORT int flexio_resources_get_eugs_num(struct flexio_resource *res)
{
	return res ? (int)res->num[LIST_EUGS] : 0;
}

FLEXIO_EXPORT uint32_t *flexio_resources_get_eugs(struct flexio_resource *res)
{
	return res && res->num[LIST_EUGS] ? res->ids[LIST_EUGS] : NULL;
}
