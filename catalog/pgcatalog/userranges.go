package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The catalog rows of the user-defined range types (CREATE TYPE ... AS
// RANGE, sqltypes.RangeType): four pg_type rows (the range, its
// multirange and the arrays of both) and a pg_range row, as PostgreSQL's
// DefineRange makes them.

// rangePgTypes are the pg_type rows of the range type u, each placed in
// its schema.
func (e *Env) rangePgTypes(u *catalog.UserType) []*pgType {
	r := u.Range
	align := byte('i')
	if basePgType(r.Subtype).align == 'd' {
		align = 'd'
	}
	rng := &pgType{oid: r.OID, len: -1, typtype: 'r', category: 'R', delim: ',', array: r.ArrayOID,
		in: proc{3834, "range_in"}, out: proc{3835, "range_out"}, recv: proc{3836, "range_recv"}, send: proc{3837, "range_send"},
		align: align, storage: 'x', subscript: "-", owner: u.Owner}
	multi := &pgType{oid: r.MultiOID, len: -1, typtype: 'm', category: 'R', delim: ',', array: r.MultiArrayOID,
		in: proc{4231, "multirange_in"}, out: proc{4232, "multirange_out"}, recv: proc{4233, "multirange_recv"}, send: proc{4234, "multirange_send"},
		align: align, storage: 'x', subscript: "-", owner: u.Owner}
	out := []*pgType{rng, arrayPgType(r.ArrayOID, "", r.OID, align, u.Owner), multi, arrayPgType(r.MultiArrayOID, "", r.MultiOID, align, u.Owner)}
	for i, t := range out {
		key := r.Name
		if i >= 2 {
			key = r.MultiName
		}
		e.placeType(t, key)
	}
	return out
}

// userRangeRows are pg_range's rows of the user-defined range types.
func (e *Env) userRangeRows() []row {
	var out []row
	for _, u := range e.enumTypes() {
		if r := u.Range; r != nil {
			out = append(out, &pgRangeRow{Rngtypid: oidV(r.OID), Rngsubtype: oidV(r.Subtype.OID()), Rngmultitypid: oidV(r.MultiOID),
				Rngcollation: oidV(r.CollationOID), Rngsubopc: oidV(r.OpclassOID), Rngcanonical: regprocV(proc{}),
				Rngsubdiff: regprocV(proc{r.SubtypeDiffOID, r.SubtypeDiff})})
		}
	}
	return out
}

// builtinFunctionName is a function's name without a pg_catalog or
// public qualification (a built-in function's, which zproxy keeps in no
// other schema); ok is false for another schema's.
func builtinFunctionName(name string) (string, bool) {
	sc, bare, qualified := strings.Cut(name, ".")
	if !qualified {
		return name, true
	}
	return bare, sc == "pg_catalog" || sc == "public"
}

// RangeSubtypeDiff finds CREATE TYPE ... AS RANGE's subtype_diff
// function: PostgreSQL 15's function of that name taking two values of
// the subtype, which must return double precision and be immutable (as
// DefineRange checks); its OID and name. zproxy never calls it (it only
// helps a GiST index's penalty), so any of PostgreSQL's functions will do.
func RangeSubtypeDiff(name string, sub sqltypes.Type) (uint32, string, error) {
	subOID := sub.OID()
	bare, ok := builtinFunctionName(name)
	args := procSig([]uint32{subOID, subOID})
	if ok {
		for _, sig := range pgSigs()[bare] {
			if sig.args != args || sig.kind != 'f' {
				continue
			}
			if sig.ret != 701 {
				return 0, "", pgerr.New(pgerr.InvalidObjectDefinition, "range subtype diff function %s must return type double precision", sig.name+"("+sub.String()+", "+sub.String()+")")
			}
			if sig.vol != 'i' {
				return 0, "", pgerr.New(pgerr.InvalidObjectDefinition, "range subtype diff function %s must be immutable", sig.name+"("+sub.String()+", "+sub.String()+")")
			}
			return sig.oid, sig.name, nil
		}
	}
	return 0, "", pgerr.New(pgerr.UndefinedFunction, "function %s(%s, %s) does not exist", name, sub, sub)
}

// RangeSubtypeOpclass is the btree operator class a range type orders its
// subtype by: the subtype's default one, or the one subtype_opclass
// names, which must be a btree class of the subtype (42704 otherwise, as
// PostgreSQL's).
func RangeSubtypeOpclass(sub sqltypes.Type, name string) (uint32, error) {
	dflt := keyOpclass(catalog.KindBTree, sub, "")
	if name == "" {
		if dflt == 0 {
			return 0, pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method \"btree\"", sub).
				WithHint("You must specify an operator class for the range type or define a default operator class for the subtype.")
		}
		return dflt, nil
	}
	bare, _ := builtinFunctionName(name)
	for _, c := range opclasses {
		if c.method != amBTree || c.name != bare {
			continue
		}
		if c.oid != dflt {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "operator class \"%s\" orders %s otherwise than its default: zproxy orders a range's bounds by the subtype's default order", bare, sub)
		}
		return c.oid, nil
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "operator class \"%s\" does not exist for access method \"btree\"", name)
}

// RangeCollation is pg_range's rngcollation of a range over sub with
// COLLATION name ("" for none): the subtype's (default) collation for a
// collatable subtype, 0 for another; zproxy's collations are "default",
// "C" and "POSIX", which order alike.
func RangeCollation(sub sqltypes.Type, name string) (uint32, error) {
	collatable := basePgType(sub).collation != 0 || sub.StripDomain().IsTextual()
	if name == "" {
		if collatable {
			return 100, nil
		}
		return 0, nil
	}
	if !collatable {
		return 0, pgerr.New(pgerr.WrongObjectType, "range collation specified but subtype does not support collation")
	}
	bare, _ := builtinFunctionName(name)
	switch bare {
	case "default":
		return 100, nil
	case "C":
		return 950, nil
	case "POSIX":
		return 951, nil
	}
	return 0, pgerr.New(pgerr.FeatureNotSupported, "collation \"%s\" is not supported", name).
		WithHint("zproxy has the collations \"default\", \"C\" and \"POSIX\".")
}
