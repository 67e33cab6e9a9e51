package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// User-defined functions and procedures in the catalogs: their pg_proc
// rows (in schema public, language sql), pg_language, and what
// pg_get_functiondef and the pg_get_function_* functions print of them,
// as PostgreSQL 15 prints them.

// The languages pg_language lists, with PostgreSQL 15's OIDs (plpgsql's is
// the one initdb gives it).
const (
	LangInternal = 12
	LangC        = 13
	LangSQL      = 14
	LangPLpgSQL  = 13563
)

func init() {
	generate("pg_catalog.pg_language", func(e *Env) []row {
		lang := func(oid uint32, name string, pl, trusted bool) row {
			r := &pgLanguageRow{Oid: oidV(oid), Lanname: nameV(name), Lanowner: oidV(BootstrapOID), Lanispl: boolV(pl),
				Lanpltrusted: boolV(trusted), Lanplcallfoid: oidV(0), Laninline: oidV(0), Lanvalidator: oidV(0), Lanacl: sqltypes.Null}
			if l, ok := e.Sess.(LanguageACLs); ok {
				items, _ := l.LanguageACL(name)
				r.Lanacl = aclArray(items)
			}
			return r
		}
		return []row{lang(LangInternal, "internal", false, false), lang(LangC, "c", false, false),
			lang(LangSQL, "sql", false, true), lang(LangPLpgSQL, "plpgsql", true, true)}
	})
}

// langOID is pg_language's OID of a routine's language.
func langOID(name string) uint32 {
	if name == "plpgsql" {
		return LangPLpgSQL
	}
	return LangSQL
}

// userProcRows are pg_proc's rows of the snapshot's routines.
func userProcRows(e *Env) []row {
	if e.Snap == nil {
		return nil
	}
	var out []row
	for _, f := range e.Snap.AllFunctions() {
		var inTypes []int64
		var allTypes []uint32
		var modes, names []string
		hasNames, plain := false, true
		for _, p := range f.Params {
			allTypes = append(allTypes, p.Type.OID())
			modes = append(modes, string(p.Mode))
			names = append(names, p.Name)
			hasNames = hasNames || p.Name != ""
			if p.Mode != 'i' {
				plain = false
			}
			if p.IsInput() || f.Procedure() && p.Mode == 'o' {
				inTypes = append(inTypes, int64(p.Type.OID()))
			}
		}
		variadic := uint32(0)
		if f.Variadic() {
			in := f.Inputs()
			variadic = in[len(in)-1].Type.ElemType().OID()
		}
		sc, bare := catalog.SplitName(f.Name)
		r := &pgProcRow{Oid: oidV(f.OID), Proname: nameV(bare), Pronamespace: oidV(schemaOID(e.Snap, sc)), Proowner: oidV(RoleOID(f.Owner)),
			Prolang: oidV(langOID(f.Language)), Procost: floatV(f.Cost), Prorows: floatV(f.Rows), Provariadic: oidV(variadic),
			Prosupport: regprocV(proc{}), Prokind: charV(f.Kind), Prosecdef: boolV(f.Definer), Proleakproof: boolV(f.Leakproof),
			Proisstrict: boolV(f.Strict), Proretset: boolV(f.ReturnsSet), Provolatile: charV(f.Volatility), Proparallel: charV(f.Parallel),
			Pronargs: intV(int64(len(inTypes))), Pronargdefaults: intV(int64(f.Defaults())), Prorettype: oidV(f.Result.OID()),
			Proargtypes: vector(sqltypes.TypeOidVector, inTypes), Proallargtypes: sqltypes.Null, Proargmodes: sqltypes.Null,
			Proargnames: sqltypes.Null, Proargdefaults: sqltypes.Null, Protrftypes: sqltypes.Null, Prosrc: textV(f.Body),
			Probin: sqltypes.Null, Prosqlbody: sqltypes.Null, Proconfig: textArray(f.Config), Proacl: sqltypes.Null}
		if f.Atomic || f.Return {
			r.Prosrc, r.Prosqlbody = textV(""), textV(f.Body)
		}
		if f.IsAggregate() {
			r.Prolang = oidV(LangInternal)
		}
		if !plain {
			r.Proallargtypes = oidArray(allTypes)
			r.Proargmodes = stringArray(sqltypes.TypeChar, modes)
		}
		if hasNames {
			r.Proargnames = textArray(names)
		}
		if f.Trigger {
			r.Prorettype = oidV(2279)
		}
		if f.RowType != "" {
			if t, err := e.Snap.Table(f.RowType); err == nil {
				r.Prorettype = oidV(ObjectOID(t.ID, slotRowType))
			}
		}
		if acl := functionACL(f); acl != nil {
			r.Proacl = aclArray(acl)
		}
		if d := defaultsText(f); d != "" {
			r.Proargdefaults = textV(d)
		}
		out = append(out, r)
	}
	return out
}

// defaultsText is what proargdefaults holds: PostgreSQL keeps the
// expressions' parse trees (pg_node_tree); zproxy keeps their text,
// parenthesized as a list.
func defaultsText(f *catalog.Function) string {
	var ds []string
	for _, p := range f.Inputs() {
		if p.Default != "" {
			ds = append(ds, defaultDeparse(p))
		}
	}
	if ds == nil {
		return ""
	}
	return "(" + strings.Join(ds, ", ") + ")"
}

// defaultDeparse prints a parameter's DEFAULT as pg_get_function_arguments
// does for the usual forms: a string literal gets its parameter's type
// ('x'::text); other expressions print as written.
func defaultDeparse(p catalog.FuncParam) string {
	d := strings.TrimSpace(p.Default)
	if len(d) >= 2 && d[0] == '\'' && d[len(d)-1] == '\'' && !strings.Contains(d[1:len(d)-1], "'") {
		return d + "::" + p.Type.String()
	}
	return d
}

// userFunction returns the routine of that OID, if the env has one.
func (e *Env) userFunction(oid uint32) (*catalog.Function, bool) {
	if e == nil || e.Snap == nil {
		return nil, false
	}
	return e.Snap.FunctionByOID(oid)
}

// functionArguments is pg_get_function_arguments (identity: the
// identity form, without defaults; a procedure's modes are all written).
func functionArguments(f *catalog.Function, identity bool) string {
	var parts []string
	for _, p := range f.Params {
		if p.Mode == 't' {
			continue
		}
		var sb strings.Builder
		switch {
		case p.Mode == 'o':
			sb.WriteString("OUT ")
		case p.Mode == 'b':
			sb.WriteString("INOUT ")
		case p.Mode == 'v':
			sb.WriteString("VARIADIC ")
		case f.Procedure():
			sb.WriteString("IN ")
		}
		if p.Name != "" {
			sb.WriteString(sqltypes.QuoteIdent(p.Name) + " ")
		}
		sb.WriteString(p.Type.String())
		if !identity && p.Default != "" {
			sb.WriteString(" DEFAULT " + defaultDeparse(p))
		}
		parts = append(parts, sb.String())
	}
	return strings.Join(parts, ", ")
}

// functionResult is pg_get_function_result ("" for a procedure).
func functionResult(f *catalog.Function) string {
	if f.Procedure() {
		return ""
	}
	if f.Trigger {
		return "trigger"
	}
	if f.RowType != "" {
		if f.ReturnsSet {
			return "SETOF " + sqltypes.QuoteIdent(f.RowType)
		}
		return sqltypes.QuoteIdent(f.RowType)
	}
	var table []string
	for _, p := range f.Params {
		if p.Mode == 't' {
			table = append(table, sqltypes.QuoteIdent(p.Name)+" "+p.Type.String())
		}
	}
	if table != nil {
		return "TABLE(" + strings.Join(table, ", ") + ")"
	}
	r := f.Result.String()
	if f.ReturnsSet {
		r = "SETOF " + r
	}
	return r
}

// functionName is a user-defined routine's name as regproc and
// regprocedure print it: bare when the session's search path finds it by
// that name (FunctionIsVisible), else qualified by its schema.
func (e *Env) functionName(f *catalog.Function) string {
	if e.functionVisible(f) {
		_, bare := catalog.SplitName(f.Name)
		return sqltypes.QuoteIdent(bare)
	}
	return e.qualifiedFunctionName(f)
}

// functionVisible reports whether the search path finds f by its name.
func (e *Env) functionVisible(f *catalog.Function) bool {
	sc, _ := catalog.SplitName(f.Name)
	return e.Snap == nil && sc == catalog.PublicSchema || e.Snap != nil && e.Snap.RoutineVisible(f.Name)
}

// qualifiedFunctionName is f's name qualified by its schema (a session's
// routine by its temporary schema's real name).
func (e *Env) qualifiedFunctionName(f *catalog.Function) string {
	sc, bare := catalog.SplitName(f.Name)
	if sc == "pg_temp" && e.Snap != nil {
		// A routine of the session's: its schema's real name, as
		// PostgreSQL prints it (the search path never finds it).
		if n, ok := e.Snap.TempSchema(); ok {
			return sqltypes.QuoteIdent(e.namespaceName(TempNamespaceOID(n))) + "." + sqltypes.QuoteIdent(bare)
		}
	}
	return sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(bare)
}

// functionDef is pg_get_functiondef of a user-defined routine.
func functionDef(f *catalog.Function) string {
	sc, bare := catalog.SplitName(f.Name)
	d := routineDef{procedure: f.Procedure(), name: sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(bare),
		args: functionArguments(f, false), result: functionResult(f), language: f.Language, vol: f.Volatility,
		parallel: f.Parallel, strict: f.Strict, definer: f.Definer, leakproof: f.Leakproof, cost: f.Cost,
		config: f.Config, src: f.Body}
	if f.ReturnsSet {
		d.rows = f.Rows
	}
	switch {
	case f.Return:
		d.sqlBody = "RETURN " + strings.TrimPrefix(f.Body, "SELECT ")
	case f.Atomic:
		d.sqlBody = "BEGIN ATOMIC\n " + f.Body + "\nEND"
	}
	return d.String()
}

// functionACL is proacl: NULL (PostgreSQL's default: PUBLIC and the owner
// may execute) until a GRANT or REVOKE, then the owner's entry, PUBLIC's
// unless revoked, and each grantee's.
func functionACL(f *catalog.Function) []string {
	if !f.PublicRevoked && len(f.Grantees) == 0 {
		return nil
	}
	var acl []string
	if !f.PublicRevoked {
		acl = append(acl, catalog.ACLItem("", "X", f.Owner))
	}
	acl = append(acl, catalog.ACLItem(f.Owner, "X", f.Owner))
	for _, g := range f.Grantees {
		acl = append(acl, catalog.ACLItem(g, "X", f.Owner))
	}
	return acl
}

// userProcOID reads a user-defined routine's name as regproc's input
// (name, which must be unique) or regprocedure's (name(argtypes)).
func (e *Env) userProcOID(name string, withArgs bool) (uint32, bool, error) {
	if e == nil || e.Snap == nil || !e.Snap.HasFunctions() {
		return 0, false, nil
	}
	n := strings.TrimSpace(name)
	args := ""
	if i := strings.IndexByte(n, '('); i >= 0 {
		args = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(n[i+1:]), ")"))
		n = strings.TrimSpace(n[:i])
	}
	schema, bare := splitQualified(n)
	n = bare
	switch {
	case schema == "pg_temp" || strings.HasPrefix(schema, "pg_temp_"):
		n = catalog.QualifiedKey("pg_temp", bare) // the session's routine: keyed pg_temp.f
	case schema == catalog.PublicSchema:
		n = catalog.PublicSchema + "." + bare // public's routine, whatever the path
	case schema != "" && e.Snap.HasSchema(schema):
		n = catalog.QualifiedKey(schema, bare) // a user schema's routine: its key
	}
	var found []*catalog.Function
	for _, f := range e.Snap.Functions(n) {
		if withArgs {
			var types []string
			for _, p := range f.Params {
				if p.IsInput() || f.Procedure() && p.Mode == 'o' {
					types = append(types, p.Type.String())
				}
			}
			if normalizeArgs(strings.Join(types, ", ")) != normalizeArgs(args) {
				continue
			}
		}
		found = append(found, f)
	}
	switch len(found) {
	case 0:
		return 0, false, nil
	case 1:
		return found[0].OID, true, nil
	}
	return 0, true, pgerr.New(pgerr.AmbiguousFunction, "more than one function named %q", n)
}
