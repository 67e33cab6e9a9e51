package catalog

import (
	"slices"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The visibility tests below are PostgreSQL's RelationIsVisible,
// TypeIsVisible and FunctionIsVisible: whether an unqualified name finds
// the object stored under key on the snapshot's search path. Deparsers
// print a visible object bare and any other qualified by its schema, so
// that the text binds back to the same object under the path it was
// printed for (pg_dump prints with an empty path, so everything comes out
// qualified). A snapshot without a path is a session whose search_path
// finds public alone (Session.withPath sets one otherwise).

// RelationVisible reports whether the relation stored under key (temp:
// one of the session's temporary relations) is the one its bare name
// finds.
func (s *Snapshot) RelationVisible(key string, temp bool) bool {
	if temp {
		return true // pg_temp is searched first
	}
	sc, bare := SplitName(key)
	if sc == "pg_catalog" || s == nil {
		return sc == "pg_catalog" || sc == PublicSchema
	}
	if s.tempNum != 0 && s.isTempKey(bare) {
		return false // hidden by a temporary relation of the same name
	}
	if !s.pathSet {
		return sc == PublicSchema
	}
	perm := s.Permanent()
	for _, p := range s.path {
		if p == sc {
			return true
		}
		if perm.hasKey(QualifiedKey(p, bare)) {
			return false
		}
	}
	return false
}

// TypeVisible reports whether the user-defined type stored under key is
// the one its bare name finds: never when a built-in type has the name
// (pg_catalog comes first), always for the session's temporary types.
func (s *Snapshot) TypeVisible(key string) bool {
	sc, bare := SplitName(key)
	if t, builtin := sqltypes.LookupType(bare); builtin {
		if !t.ID.IsExtension() || sc != PublicSchema {
			return false
		}
		// The extensions' types live in public: visible wherever public
		// is on the path.
		return s == nil || !s.pathSet || slices.Contains(s.path, PublicSchema)
	}
	if sc == TempTypeSchema || s == nil {
		return sc == TempTypeSchema || sc == PublicSchema
	}
	if s.tempNum != 0 {
		if k := QualifiedKey(TempTypeSchema, bare); s.types[k] != nil || s.tempMultiranges[k] {
			return false
		}
	}
	if !s.pathSet {
		return sc == PublicSchema
	}
	for _, p := range s.path {
		if p == sc {
			return true
		}
		if _, ok := s.UserTypeByKey(QualifiedKey(p, bare)); ok {
			return false
		}
	}
	return false
}

// RoutineVisible reports whether the routines stored under key are those
// their bare name finds. A schema earlier on the path with a routine of
// that name hides them whatever its arguments (PostgreSQL compares the
// signatures; qualifying more than it does prints text that still binds
// the same). pg_temp's routines are never found by a bare name.
func (s *Snapshot) RoutineVisible(key string) bool {
	sc, bare := SplitName(key)
	if sc == TempTypeSchema || strings.HasPrefix(sc, "pg_temp") {
		return false
	}
	if s == nil || !s.pathSet {
		return sc == PublicSchema
	}
	for _, p := range s.path {
		if p == sc {
			return true
		}
		if len(s.FunctionsByKey(QualifiedKey(p, bare))) > 0 {
			return false
		}
	}
	return false
}

// Names prints the names of a snapshot's objects as its search path sees
// them (ir.Namer): bare when visible, else qualified by the schema.
type Names struct{ Snap *Snapshot }

// Relation is the relation stored under key as ruleutils'
// generate_relation_name prints it.
func (n Names) Relation(key string, temp bool) string {
	if n.Snap.RelationVisible(key, temp) {
		_, bare := SplitName(key)
		return sqltypes.QuoteIdent(bare)
	}
	sc, bare := SplitName(key)
	return sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(bare)
}

// ExtensionFunction reports whether a built-in function's name is one of
// the extensions' (in public, where CREATE EXTENSION puts them) rather
// than pg_catalog's; package pgcatalog, which knows PostgreSQL's core
// functions, sets it.
var ExtensionFunction = func(name string) bool { return false }

// Routine is the routine stored under key as generate_function_name
// prints it; a key no user routine has is a built-in's name, printed as
// it is, qualified public.f when it is an extension's and the search path
// leaves public out (pg_dump's empty path: public.digest(...)).
func (n Names) Routine(key string) string {
	if n.Snap == nil || len(n.Snap.FunctionsByKey(key)) == 0 {
		if n.Snap != nil && n.Snap.pathSet && !slices.Contains(n.Snap.path, PublicSchema) && ExtensionFunction(key) {
			return PublicSchema + "." + sqltypes.QuoteIdent(key)
		}
		return sqltypes.QuoteKey(key)
	}
	sc, bare := SplitName(key)
	if n.Snap.RoutineVisible(key) {
		return sqltypes.QuoteIdent(bare)
	}
	return sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(bare)
}

// Type is the user-defined type stored under key as format_type prints
// it.
func (n Names) Type(key string) string {
	sc, bare := SplitName(key)
	if n.Snap.TypeVisible(key) {
		return sqltypes.QuoteIdent(bare)
	}
	return sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(bare)
}

// Operator is the user-defined operator stored under key, of kind and
// operand types, as ruleutils' generate_operator_name prints it: bare
// when its bare name finds it for those operand types on the search
// path, else OPERATOR(schema.op).
func (n Names) Operator(key string, kind byte, left, right sqltypes.Type) string {
	sc, bare := SplitName(key)
	if n.Snap != nil {
		if o := n.Snap.FindOperator(bare, kind, left, right); o != nil && o.Name == key {
			return bare
		}
	}
	return "OPERATOR(" + sqltypes.QuoteIdent(sc) + "." + bare + ")"
}
