package pgcatalog

import (
	"strings"

	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_identify_object, pg_identify_object_as_address and
// pg_get_object_address for the object classes zproxy has: relations and
// their columns, types, functions, schemas, roles, constraints and
// triggers, as PostgreSQL 15's objectaddress.c names them.

// The system catalogs of those classes (pg_class, pg_type, pg_namespace
// are elsewhere).
const (
	pgProcOID       = 1255
	pgAuthidOID     = 1260
	pgConstraintOID = 2606
	pgTriggerOID    = 2620
)

// objectIdentity is one object as pg_identify_object and
// pg_identify_object_as_address describe it; a missing object has only
// its type.
type objectIdentity struct {
	typ                    string
	schema, name, identity sqltypes.Value
	names, args            []string // the address; nil names: missing
}

// sqlTypeNames are the types format_type prints by their SQL names,
// never schema-qualified.
var sqlTypeNames = map[uint32]string{
	1560: "bit", 16: "boolean", 1042: "character", 700: "real", 701: "double precision", 21: "smallint", 23: "integer",
	20: "bigint", 1700: "numeric", 1186: "interval", 1083: "time without time zone", 1266: "time with time zone",
	1114: "timestamp without time zone", 1184: "timestamp with time zone", 1562: "bit varying", 1043: "character varying",
}

// typeIdentity is format_type_be_qualified: the SQL name of a standard
// type, else the schema-qualified name, with [] for an array.
func (e *Env) typeIdentity(oid uint32) (string, bool) {
	t, ok := e.typeByOID(oid)
	if !ok {
		return "", false
	}
	if t.category == 'A' && t.elem != 0 && t.len == -1 {
		s, ok := e.typeIdentity(t.elem)
		return s + "[]", ok
	}
	if n, ok := sqlTypeNames[oid]; ok {
		return n, true
	}
	return sqltypes.QuoteIdent(namespaceName(t.ns)) + "." + sqltypes.QuoteIdent(t.name), true
}

// relationKinds are getRelationTypeDescription's words.
var relationKinds = map[byte]string{'r': "table", 'i': "index", 'S': "sequence", 'v': "view", 'm': "materialized view", 'c': "composite type"}

// identify describes the object (classID, objID, sub); unsupported
// catalogs are 0A000, unknown ones XX000 as in PostgreSQL.
func (e *Env) identify(classID, objID uint32, sub int64) (objectIdentity, error) {
	q := sqltypes.QuoteIdent
	switch classID {
	case pgClassOID:
		o := e.objects().byOID[objID]
		if o == nil {
			return objectIdentity{typ: "relation"}, nil
		}
		kind := relationKinds[o.kind]
		schema, rel := namespaceName(o.ns), o.name
		id := objectIdentity{typ: kind, schema: textV(q(schema)), name: textV(q(rel)), identity: textV(q(schema) + "." + q(rel)), names: []string{schema, rel}}
		if sub != 0 {
			id.typ += " column"
			if sub < 0 || int(sub) > len(o.cols) {
				return objectIdentity{typ: id.typ}, nil
			}
			col := o.cols[sub-1].name
			id.identity = textV(id.identity.S + "." + q(col))
			id.names = append(id.names, col)
		}
		return id, nil
	case pgTypeOID:
		t, ok := e.typeByOID(objID)
		if !ok {
			return objectIdentity{typ: "type"}, nil
		}
		ident, _ := e.typeIdentity(objID)
		return objectIdentity{typ: "type", schema: textV(q(namespaceName(t.ns))), name: textV(q(t.name)), identity: textV(ident), names: []string{ident}}, nil
	case pgProcOID:
		name, ns, args, ok := e.functionSignature(objID)
		if !ok {
			return objectIdentity{typ: "function"}, nil
		}
		schema := namespaceName(ns)
		return objectIdentity{typ: "function", schema: textV(q(schema)), name: sqltypes.Null,
			identity: textV(q(schema) + "." + q(name) + "(" + strings.Join(args, ",") + ")"), names: []string{schema, name}, args: args}, nil
	case pgNamespaceOID:
		n := namespaceName(objID)
		if n == "" {
			return objectIdentity{typ: "schema"}, nil
		}
		return objectIdentity{typ: "schema", name: textV(q(n)), identity: textV(q(n)), names: []string{n}}, nil
	case pgAuthidOID:
		n, ok := e.roleName(objID)
		if !ok {
			return objectIdentity{typ: "role"}, nil
		}
		return objectIdentity{typ: "role", name: textV(q(n)), identity: textV(q(n)), names: []string{n}}, nil
	case pgConstraintOID:
		for _, r := range generators["pg_catalog.pg_constraint"](e) {
			c := r.(*pgConstraintRow)
			if uint32(c.Oid.I) != objID {
				continue
			}
			o := e.objects().byOID[uint32(c.Conrelid.I)]
			if o == nil {
				return objectIdentity{typ: "constraint"}, nil // a domain's: not listed here
			}
			schema := namespaceName(o.ns)
			return objectIdentity{typ: "table constraint", schema: textV(q(schema)),
				identity: textV(q(c.Conname.S) + " on " + q(schema) + "." + q(o.name)), names: []string{schema, o.name, c.Conname.S}}, nil
		}
		return objectIdentity{typ: "constraint"}, nil
	case pgTriggerOID:
		for _, r := range generators["pg_catalog.pg_trigger"](e) {
			t := r.(*pgTriggerRow)
			if uint32(t.Oid.I) != objID {
				continue
			}
			o := e.objects().byOID[uint32(t.Tgrelid.I)]
			if o == nil {
				break
			}
			schema := namespaceName(o.ns)
			return objectIdentity{typ: "trigger", identity: textV(q(t.Tgname.S) + " on " + q(schema) + "." + q(o.name)),
				names: []string{schema, o.name, t.Tgname.S}}, nil
		}
		return objectIdentity{typ: "trigger"}, nil
	}
	if _, ok := catalogClassNames[classID]; ok {
		return objectIdentity{}, pgerr.New(pgerr.FeatureNotSupported, "identifying objects of %s is not supported", catalogClassNames[classID])
	}
	return objectIdentity{}, pgerr.New(pgerr.InternalError, "unrecognized object class: %d", classID)
}

// catalogClassNames are PostgreSQL's other catalogs of addressable
// objects, which zproxy has no objects of (or does not address).
var catalogClassNames = map[uint32]string{
	3456: "pg_collation", 2607: "pg_conversion", 2604: "pg_attrdef", 2605: "pg_cast", 2612: "pg_language", 2613: "pg_largeobject_metadata",
	2617: "pg_operator", 2616: "pg_opclass", 2753: "pg_opfamily", 2601: "pg_am", 2602: "pg_amop", 2603: "pg_amproc", 2618: "pg_rewrite",
	1262: "pg_database", 1213: "pg_tablespace", 3079: "pg_extension", 3466: "pg_event_trigger", 3256: "pg_policy", 6104: "pg_publication",
	6100: "pg_subscription", 3600: "pg_ts_dict", 3601: "pg_ts_parser", 3602: "pg_ts_config", 3764: "pg_ts_template", 2328: "pg_foreign_data_wrapper",
	1417: "pg_foreign_server", 1418: "pg_user_mapping", 826: "pg_default_acl", 3576: "pg_transform", 3381: "pg_statistic_ext", 6106: "pg_publication_rel",
	6237: "pg_publication_namespace", 6000: "pg_replication_origin",
}

// functionSignature is a function's name, schema and argument types as
// format_procedure_qualified prints them.
func (e *Env) functionSignature(oid uint32) (name string, ns uint32, args []string, ok bool) {
	if f, user := e.userFunction(oid); user {
		for _, p := range f.Params {
			if !p.IsInput() {
				continue
			}
			a, _ := e.typeIdentity(p.Type.OID())
			args = append(args, a)
		}
		return f.Name, NamespacePublic, args, true
	}
	p, found := procByOID(oid)
	if !found {
		return "", 0, nil, false
	}
	for _, a := range p.args {
		s, _ := e.typeIdentity(a)
		args = append(args, s)
	}
	return p.name, NamespaceCatalog, args, true
}

func registerIdentify() {
	Register("pg_identify_object", Overload{Params: []Param{oidP, oidP, intP}, Volatility: Stable,
		Result: Returns(sqltypes.AnonymousRecord([]string{"type", "schema", "name", "identity"},
			[]sqltypes.Type{sqltypes.TypeText, sqltypes.TypeText, sqltypes.TypeText, sqltypes.TypeText})),
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			id, err := e.identify(uint32(a[0].I), uint32(a[1].I), a[2].I)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewRecordOf([]sqltypes.Value{textV(id.typ), id.schema, id.name, id.identity},
				[]sqltypes.Type{sqltypes.TypeText, sqltypes.TypeText, sqltypes.TypeText, sqltypes.TypeText}), nil
		}})
	textArr := sqltypes.ArrayOf(sqltypes.TypeText)
	Register("pg_identify_object_as_address", Overload{Params: []Param{oidP, oidP, intP}, Volatility: Stable,
		Result: Returns(sqltypes.AnonymousRecord([]string{"type", "object_names", "object_args"}, []sqltypes.Type{sqltypes.TypeText, textArr, textArr})),
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			id, err := e.identify(uint32(a[0].I), uint32(a[1].I), a[2].I)
			if err != nil {
				return sqltypes.Null, err
			}
			names, args := sqltypes.Null, sqltypes.Null
			if id.names != nil {
				names, args = textArray(id.names), textArray(id.args)
				if id.args == nil {
					args = textArray([]string{})
				}
			}
			return sqltypes.NewRecordOf([]sqltypes.Value{textV(id.typ), names, args}, []sqltypes.Type{sqltypes.TypeText, textArr, textArr}), nil
		}})
}
