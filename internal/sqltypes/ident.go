package sqltypes

import (
	"strings"
	"unsafe"
)

// QuoteIdent is quote_ident (and how format_type and the catalogs' deparsing
// write a name): s as it must be written to be read back as the
// same identifier, in double quotes unless it is lower case letters,
// digits and underscores, not led by a digit, and not a keyword that
// cannot be a column name.
func QuoteIdent(s string) string {
	if identSafe(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// QuotedIdent is quote_ident's result (and format's %I), checked as
// PostgreSQL's quote_identifier allocates it when s needs quotes (s, a
// quote more for each quote, the two quotes and a NUL: XX000 past the
// field limit) and built in one allocation charged as a large value.
func QuotedIdent(s string) (string, error) {
	if identSafe(s) {
		return s, nil
	}
	quotes := int64(strings.Count(s, `"`))
	if err := AllocLimit(int64(len(s)) + quotes + 3); err != nil {
		return "", err
	}
	buf, err := MakeBytes(int64(len(s))+quotes+2, "quote_ident's result")
	if err != nil {
		return "", err
	}
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, s[i])
	}
	buf = append(buf, '"')
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
}

// QuoteLiteral is quote_literal: s in single quotes with quotes doubled;
// an E-string with backslashes doubled too when s holds one.
func QuoteLiteral(s string) string { return string(appendQuoteLiteral(nil, s)) }

// QuotedLiteral is quote_literal's result (and format's %L), checked as
// PostgreSQL allocates it, at its worst case first (twice s, the quotes
// and an E, plus header: quote_literal's varlena header, 4, or format's
// NUL, 1: XX000 past the field limit), and built in one allocation
// charged as a large value.
func QuotedLiteral(s string, header int64) (string, error) {
	if err := AllocLimit(int64(len(s))*2 + 3 + header); err != nil {
		return "", err
	}
	size := int64(len(s)) + 2 + int64(strings.Count(s, "'"))
	if backslashes := int64(strings.Count(s, `\`)); backslashes > 0 {
		size += 1 + backslashes
	}
	buf, err := MakeBytes(size, "quote_literal's result")
	if err != nil {
		return "", err
	}
	buf = appendQuoteLiteral(buf, s)
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
}

// appendQuoteLiteral appends s quoted as a literal (QuoteLiteral).
func appendQuoteLiteral(buf []byte, s string) []byte {
	if strings.IndexByte(s, '\\') >= 0 {
		buf = append(buf, 'E')
	}
	buf = append(buf, '\'')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\'' || c == '\\' {
			buf = append(buf, c)
		}
		buf = append(buf, s[i])
	}
	return append(buf, '\'')
}

// identSafe reports whether s reads back as the same identifier without
// quotes.
func identSafe(s string) bool {
	safe := s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_')
	for i := 0; safe && i < len(s); i++ {
		c := s[i]
		safe = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	return safe && !reservedKeywords[s]
}

// reservedKeywords are PostgreSQL 15's keywords that are not unreserved
// (reserved, type or function names, column names): quote_ident quotes
// them. pg_get_keywords() lists every keyword (catalog/pgcatalog,
// keywords_gen.go, generated from PostgreSQL), and TestKeywordsQuoted
// there checks this list against it.
var reservedKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric authorization
		between bigint binary bit boolean both case cast char character check coalesce collate collation
		column concurrently constraint create cross current_catalog current_date current_role
		current_schema current_time current_timestamp current_user dec decimal default deferrable desc
		distinct do else end except exists extract false fetch float for foreign freeze from full grant
		greatest group grouping having ilike in initially inner inout int integer intersect interval into
		is isnull join lateral leading least left like limit localtime localtimestamp national natural
		nchar none normalize not notnull null nullif numeric offset on only or order out outer overlaps
		overlay placing position precision primary real references returning right row select
		session_user setof similar smallint some substring symmetric table tablesample then time
		timestamp to trailing treat trim true union unique user using values varchar variadic verbose
		when where window with xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces
		xmlparse xmlpi xmlroot xmlserialize xmltable`) {
		m[w] = true
	}
	return m
}()

// QuoteKey spells a catalog key as SQL: "schema.name" (an object of a
// schema other than public, keyed by its qualified name) as its two parts
// quoted each, a bare key as its quoted name.
func QuoteKey(key string) string {
	if i := strings.IndexByte(key, '.'); i > 0 {
		return QuoteIdent(key[:i]) + "." + QuoteIdent(key[i+1:])
	}
	return QuoteIdent(key)
}

// QuoteTypeKey is QuoteKey for a type's key: a session's temporary type
// ("pg_temp.mood") is spelled bare, as PostgreSQL's format_type prints it
// (pg_temp is searched first for types, so the name is visible).
func QuoteTypeKey(key string) string {
	if name, ok := strings.CutPrefix(key, "pg_temp."); ok {
		return QuoteIdent(name)
	}
	return QuoteKey(key)
}
