package pgcatalog

import (
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// registerOpclassVisibility registers pg_opclass_is_visible,
// pg_opfamily_is_visible and pg_conversion_is_visible: the operator
// classes pg_opclass lists, and the families they belong to, all live in
// pg_catalog, so each is visible; zproxy has no encoding conversions
// (pg_conversion is empty). An OID of none is NULL, as in PostgreSQL.
func registerOpclassVisibility() {
	visibleIf := func(has func(uint32) bool) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if has(uint32(a[0].I)) {
				return boolV(true), nil
			}
			return sqltypes.Null, nil
		}
	}
	Register("pg_opclass_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, visibleIf(func(oid uint32) bool {
		for _, c := range opclasses {
			if c.oid == oid {
				return true
			}
		}
		return false
	})))
	Register("pg_opfamily_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, visibleIf(func(oid uint32) bool {
		for _, c := range opclasses {
			if c.family == oid {
				return true
			}
		}
		return false
	})))
	Register("pg_conversion_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, visibleIf(func(uint32) bool { return false })))
}
