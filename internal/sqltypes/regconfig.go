package sqltypes

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TSConfig is one of the text search configurations (or dictionaries, or
// collations) zproxy has: its pg_ts_config (pg_ts_dict, pg_collation) OID
// and name (in pg_catalog).
type TSConfig struct {
	OID  uint32
	Name string
}

// TSConfigs are the text search configurations, with PostgreSQL 15's OIDs
// (simple's is fixed in pg_ts_config.dat; english's is the one initdb
// gives it).
var TSConfigs = []TSConfig{
	{OID: 3748, Name: "simple"},
	{OID: 13164, Name: "english"},
}

// TSConfigByOID returns the configuration with that OID.
func TSConfigByOID(oid uint32) (TSConfig, bool) { return tsByOID(TSConfigs, oid) }

// tsByOID finds the text search object of objs with that OID.
func tsByOID(objs []TSConfig, oid uint32) (TSConfig, bool) {
	for _, c := range objs {
		if c.OID == oid {
			return c, true
		}
	}
	return TSConfig{}, false
}

// Collations are the collations zproxy has (pg_collation's rows), all in
// pg_catalog, with PostgreSQL 15's OIDs.
var Collations = []TSConfig{
	{OID: 100, Name: "default"},
	{OID: 950, Name: "C"},
	{OID: 951, Name: "POSIX"},
}

// CollationByOID returns the collation with that OID.
func CollationByOID(oid uint32) (TSConfig, bool) { return tsByOID(Collations, oid) }

// TSDictionaries are the text search dictionaries, with PostgreSQL 15's
// OIDs (simple's is fixed; english_stem's is the one initdb gives it).
var TSDictionaries = []TSConfig{
	{OID: 3765, Name: "simple"},
	{OID: 13163, Name: "english_stem"},
}

// TSDictionaryByOID returns the dictionary with that OID.
func TSDictionaryByOID(oid uint32) (TSConfig, bool) { return tsByOID(TSDictionaries, oid) }

// ParseRegDictionary reads a dictionary's name, optionally qualified by
// pg_catalog, as regdictionaryin does, to a regdictionary value.
func ParseRegDictionary(s string) (Value, error) {
	return parseTSName(s, TSDictionaries, "text search dictionary")
}

// ParseRegConfig reads a configuration's name, optionally qualified by
// pg_catalog, as regconfigin does, to a regconfig value.
func ParseRegConfig(s string) (Value, error) {
	return parseTSName(s, TSConfigs, "text search configuration")
}

// parseTSName finds a text search object of objs (named what in errors)
// by its possibly pg_catalog-qualified name.
func parseTSName(s string, objs []TSConfig, what string) (Value, error) {
	parts, err := SplitQualifiedName(s)
	if err != nil || len(parts) == 0 || len(parts) > 2 {
		return Null, pgerr.New(pgerr.InvalidName, "invalid name syntax")
	}
	name := parts[len(parts)-1]
	if len(parts) == 2 && parts[0] != "pg_catalog" {
		if parts[0] == "public" || parts[0] == "information_schema" {
			return Null, pgerr.New(pgerr.UndefinedObject, "%s \"%s\" does not exist", what, strings.Join(parts, "."))
		}
		return Null, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", parts[0])
	}
	for _, c := range objs {
		if c.Name == name {
			return NewReg(c.OID, c.Name), nil
		}
	}
	return Null, pgerr.New(pgerr.UndefinedObject, "%s \"%s\" does not exist", what, strings.Join(parts, "."))
}

// SplitQualifiedName splits a possibly qualified name as PostgreSQL's
// stringToQualifiedNameList does (SplitIdentifierString on '.'): parts
// separated by dots with optional whitespace around them, each an
// unquoted identifier (ASCII letters folded to lower case) or a
// double-quoted one ("" for a quote, possibly empty), each cut to a
// name's length. Anything else, an empty string included, is 42602
// invalid name syntax: the reg* input functions fail so before they
// look anything up.
func SplitQualifiedName(s string) ([]string, error) {
	invalid := func() ([]string, error) {
		return nil, pgerr.New(pgerr.InvalidName, "invalid name syntax")
	}
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	trim := func(s string) string {
		for s != "" && space(s[0]) {
			s = s[1:]
		}
		return s
	}
	var parts []string
	s = trim(s)
	if s == "" {
		return invalid()
	}
	for {
		var part strings.Builder
		if s[0] == '"' {
			i := 1
			for {
				if i >= len(s) {
					return invalid() // mismatched quotes
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						part.WriteByte('"')
						i += 2
						continue
					}
					break
				}
				part.WriteByte(s[i])
				i++
			}
			s = s[i+1:]
		} else {
			i := 0
			for i < len(s) && s[i] != '.' && !space(s[i]) {
				i++
			}
			if i == 0 {
				return invalid() // an empty unquoted name
			}
			for _, c := range []byte(s[:i]) {
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A' // downcase_identifier: ASCII only
				}
				part.WriteByte(c)
			}
			s = s[i:]
		}
		parts = append(parts, TruncateName(part.String()))
		s = trim(s)
		if s == "" {
			return parts, nil
		}
		if s[0] != '.' {
			return invalid()
		}
		s = trim(s[1:])
		if s == "" {
			return invalid()
		}
	}
}
