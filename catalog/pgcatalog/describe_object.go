package pgcatalog

import (
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The system catalogs whose objects pg_describe_object names.
const (
	pgTypeOID      = 1247
	pgNamespaceOID = 2615
)

// describeObject is pg_describe_object(classid, objid, objsubid): "table t",
// "column a of table t", "index i", "view v", "sequence s", "type integer",
// "schema public", "extension x" (psql's \dx+ lists an extension's objects
// with it). Names outside pg_catalog and public are schema-qualified, as
// PostgreSQL qualifies names its search path does not reach. A missing
// object is NULL; a catalog it does not know is 42704, as in PostgreSQL.
func (e *Env) describeObject(classID, objID uint32, sub int64) (sqltypes.Value, error) {
	qualified := func(ns uint32, name string) string {
		if ns == NamespaceCatalog || ns == NamespacePublic {
			return name
		}
		return e.namespaceName(ns) + "." + name
	}
	switch classID {
	case pgClassOID:
		o := e.objects().byOID[objID]
		if o == nil {
			return sqltypes.Null, nil
		}
		kind := map[byte]string{'r': "table", 'i': "index", 'v': "view", 'S': "sequence", 'm': "materialized view"}[o.kind]
		if kind == "" {
			kind = "relation"
		}
		d := kind + " " + qualified(o.ns, o.name)
		if sub > 0 {
			if int(sub) > len(o.cols) {
				return sqltypes.Null, nil
			}
			d = "column " + o.cols[sub-1].name + " of " + d
		}
		return textV(d), nil
	case pgTypeOID:
		if t, ok := sqltypes.TypeByOID(objID); ok {
			return textV("type " + t.String()), nil
		}
		return sqltypes.Null, nil
	case pgNamespaceOID:
		if n := e.namespaceName(objID); n != "" {
			return textV("schema " + n), nil
		}
		return sqltypes.Null, nil
	case pgExtensionOID:
		if x, ok := extensionByOID(objID); ok {
			return textV("extension " + x.Name), nil
		}
		return sqltypes.Null, nil
	}
	return sqltypes.Null, pgerr.New(pgerr.UndefinedObject, "unrecognized object class: %d", classID)
}

func init() {
	Register("pg_describe_object", fn("", []Param{oidP, oidP, intP}, sqltypes.TypeText, Stable,
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			return e.describeObject(uint32(a[0].I), uint32(a[1].I), a[2].I)
		}))
}
