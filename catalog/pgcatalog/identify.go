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
	pgDatabaseOID   = 1262
	pgConstraintOID = 2606
	pgTriggerOID    = 2620
	// pgLargeObjectOID is pg_largeobject's OID, the classoid of large
	// objects' comments (as PostgreSQL records them).
	pgLargeObjectOID = 2613
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
	return sqltypes.QuoteIdent(e.namespaceName(t.ns)) + "." + sqltypes.QuoteIdent(t.name), true
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
		schema, rel := e.namespaceName(o.ns), o.name
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
		return objectIdentity{typ: "type", schema: textV(q(e.namespaceName(t.ns))), name: textV(q(t.name)), identity: textV(ident), names: []string{ident}}, nil
	case pgProcOID:
		name, ns, args, ok := e.functionSignature(objID)
		if !ok {
			return objectIdentity{typ: "function"}, nil
		}
		schema := e.namespaceName(ns)
		return objectIdentity{typ: "function", schema: textV(q(schema)), name: sqltypes.Null,
			identity: textV(q(schema) + "." + q(name) + "(" + strings.Join(args, ",") + ")"), names: []string{schema, name}, args: args}, nil
	case pgNamespaceOID:
		n := e.namespaceName(objID)
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
			schema := e.namespaceName(o.ns)
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
			schema := e.namespaceName(o.ns)
			return objectIdentity{typ: "trigger", identity: textV(q(t.Tgname.S) + " on " + q(schema) + "." + q(o.name)),
				names: []string{schema, o.name, t.Tgname.S}}, nil
		}
		return objectIdentity{typ: "trigger"}, nil
	}
	if _, ok := catalogClassNames[classID]; ok {
		return objectIdentity{}, pgerr.New(pgerr.FeatureNotSupported, "identifying objects of %s is not supported", catalogClassNames[classID])
	}
	return objectIdentity{}, pgerr.Raised("unrecognized object class: %d", classID)
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

// relationKindWords are get_object_address's relation types and the
// relkinds each accepts.
var relationKindWords = map[string]byte{"table": 'r', "index": 'i', "sequence": 'S', "view": 'v', "materialized view": 'm', "composite type": 'c'}

// objectAddress is pg_get_object_address for the object types zproxy
// has: the object's catalog, OID and column number, failing as
// get_object_address does for a missing object.
func (e *Env) objectAddress(typ string, names, args []string) (classID, objID uint32, sub int, err error) {
	exactly := func(list []string, n int, what string) error {
		if len(list) != n {
			return pgerr.New(pgerr.InvalidParameterValue, "%s list length must be exactly %d", what, n)
		}
		return nil
	}
	// relation reads a qualified relation name (1 to 3 parts).
	relation := func(parts []string) (*object, error) {
		full := strings.Join(parts, ".")
		if len(parts) < 1 || len(parts) > 3 {
			return nil, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names): %s", full)
		}
		schema := ""
		if len(parts) > 1 {
			schema = parts[len(parts)-2]
		}
		o := e.objects().find(schema, parts[len(parts)-1])
		if o == nil {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", full)
		}
		return o, nil
	}
	// member reads "relation..., name" for a column, constraint or trigger.
	member := func(what string) (*object, string, error) {
		if len(names) < 2 {
			return nil, "", pgerr.New(pgerr.SyntaxError, "%s name must be qualified", what)
		}
		o, err := relation(names[:len(names)-1])
		return o, names[len(names)-1], err
	}
	switch typ {
	case "table", "index", "sequence", "view", "materialized view":
		if err := exactly(args, 0, "argument"); err != nil {
			return 0, 0, 0, err
		}
		o, err := relation(names)
		if err != nil {
			return 0, 0, 0, err
		}
		if o.kind != relationKindWords[typ] {
			return 0, 0, 0, pgerr.New(pgerr.WrongObjectType, "%q is not a%s %s", o.name, map[bool]string{true: "n"}[typ == "index"], typ)
		}
		return pgClassOID, o.oid, 0, nil
	case "view column", "materialized view column", "index column", "sequence column", "relation":
		return 0, 0, 0, pgerr.New(pgerr.InvalidParameterValue, "unsupported object type %q", typ)
	case "table column":
		if err := exactly(args, 0, "argument"); err != nil {
			return 0, 0, 0, err
		}
		o, col, err := member("column")
		if err != nil {
			return 0, 0, 0, err
		}
		for i, c := range o.cols {
			if c.name == col {
				return pgClassOID, o.oid, i + 1, nil
			}
		}
		return 0, 0, 0, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", col, o.name)
	case "type":
		if err := exactly(names, 1, "name"); err != nil {
			return 0, 0, 0, err
		}
		if err := exactly(args, 0, "argument"); err != nil {
			return 0, 0, 0, err
		}
		oid, err := e.typeOID(names[0])
		return pgTypeOID, oid, 0, err
	case "function":
		var qn, types []string
		for _, n := range names {
			qn = append(qn, sqltypes.QuoteIdent(n))
		}
		for _, a := range args {
			// Each argument as regtype reads it ("pg_catalog.text"),
			// given to regprocedure's input as format_type prints it.
			t, err := e.typeOID(a)
			if err != nil {
				return 0, 0, 0, err
			}
			types = append(types, e.RegName(sqltypes.TypeRegType, t))
		}
		oid, err := e.RegOID(sqltypes.TypeRegProcedure, strings.Join(qn, ".")+"("+strings.Join(types, ",")+")")
		return pgProcOID, oid, 0, err
	case "schema":
		if err := exactly(names, 1, "name"); err != nil {
			return 0, 0, 0, err
		}
		oid, err := e.RegOID(sqltypes.TypeRegNamespace, sqltypes.QuoteIdent(names[0]))
		return pgNamespaceOID, oid, 0, err
	case "role":
		if err := exactly(names, 1, "name"); err != nil {
			return 0, 0, 0, err
		}
		oid, err := e.roleOID(sqltypes.QuoteIdent(names[0]))
		return pgAuthidOID, oid, 0, err
	case "table constraint", "trigger":
		if err := exactly(args, 0, "argument"); err != nil {
			return 0, 0, 0, err
		}
		o, name, err := member(strings.TrimPrefix(typ, "table "))
		if err != nil {
			return 0, 0, 0, err
		}
		if typ == "trigger" {
			for _, r := range generators["pg_catalog.pg_trigger"](e) {
				if t := r.(*pgTriggerRow); uint32(t.Tgrelid.I) == o.oid && t.Tgname.S == name {
					return pgTriggerOID, uint32(t.Oid.I), 0, nil
				}
			}
			return 0, 0, 0, pgerr.New(pgerr.UndefinedObject, "trigger %q for table %q does not exist", name, o.name)
		}
		for _, r := range generators["pg_catalog.pg_constraint"](e) {
			if c := r.(*pgConstraintRow); uint32(c.Conrelid.I) == o.oid && c.Conname.S == name {
				return pgConstraintOID, uint32(c.Oid.I), 0, nil
			}
		}
		return 0, 0, 0, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", name, o.name)
	}
	if objectTypeWords[typ] {
		return 0, 0, 0, pgerr.New(pgerr.FeatureNotSupported, "pg_get_object_address of a %s is not supported", typ)
	}
	return 0, 0, 0, pgerr.New(pgerr.InvalidParameterValue, "unrecognized object type %q", typ)
}

// objectTypeWords are PostgreSQL's other object types (ObjectTypeMap),
// which zproxy has none of or does not address.
var objectTypeWords = map[string]bool{
	"foreign table": true, "foreign table column": true, "composite type column": true, "aggregate": true, "procedure": true,
	"routine": true, "collation": true, "conversion": true, "default value": true, "domain constraint": true, "language": true,
	"large object": true, "operator": true, "operator class": true, "operator family": true, "access method": true,
	"operator of access method": true, "function of access method": true, "rule": true, "foreign-data wrapper": true, "server": true,
	"user mapping": true, "default acl": true, "database": true, "tablespace": true, "extension": true, "event trigger": true,
	"policy": true, "publication": true, "publication namespace": true, "publication relation": true, "subscription": true,
	"text search parser": true, "text search dictionary": true, "text search template": true, "text search configuration": true,
	"transform": true, "statistics object": true, "cast": true, "composite type": true,
}

func registerObjectAddress() {
	textArr := sqltypes.ArrayOf(sqltypes.TypeText)
	strs := func(v sqltypes.Value) []string {
		var out []string
		for _, x := range v.Array().Elems {
			out = append(out, x.S)
		}
		return out
	}
	Register("pg_get_object_address", Overload{Params: []Param{textP, T(textArr), T(textArr)}, Volatility: Stable,
		Result: Returns(sqltypes.AnonymousRecord([]string{"classid", "objid", "objsubid"}, []sqltypes.Type{sqltypes.TypeOid, sqltypes.TypeOid, sqltypes.TypeInt4})),
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			class, oid, sub, err := e.objectAddress(a[0].S, strs(a[1]), strs(a[2]))
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewRecordOf([]sqltypes.Value{oidV(class), oidV(oid), intV(int64(sub))},
				[]sqltypes.Type{sqltypes.TypeOid, sqltypes.TypeOid, sqltypes.TypeInt4}), nil
		}})
}
