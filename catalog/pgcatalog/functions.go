package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The functions catalog queries call. They read the statement's Env (the
// schema snapshot and the session) from builtins.Context.Catalog.

var (
	oidP  = T(sqltypes.TypeOid)
	textP = T(sqltypes.TypeText)
	intP  = T(sqltypes.TypeInt4)
	int2P = T(sqltypes.TypeInt2)
	int8P = T(sqltypes.TypeInt8)
	boolP = T(sqltypes.TypeBool)
	nameP = T(sqltypes.TypeName)
)

// globalTablespaceOID is pg_global's OID.
const globalTablespaceOID = 1664

// started is when this process started (pg_postmaster_start_time).
var started = time.Now()

// txids numbers transactions for txid_current and pg_current_xact_id:
// zproxy has no transaction ids, so a transaction's first ask takes the
// next number of this process, which it keeps (builtins.XactNumber).
var txids atomic.Uint64

// currentXact is the calling transaction's number, a fresh one for each
// call where no session keeps it.
func currentXact(ctx *Context) uint64 {
	next := func() uint64 { return 1000 + txids.Add(1) }
	if ctx == nil || ctx.Session.Xact == nil {
		return next()
	}
	return ctx.Session.Xact.Current(next)
}

func needEnv(ctx *Context) (*Env, error) {
	if e := envOf(ctx); e != nil {
		return e, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "this function needs the catalog, which this statement has none of")
}

// fn1 registers a strict function of the given parameters.
func fn(name string, params []Param, result sqltypes.Type, vol Volatility, eval func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error)) Overload {
	return Overload{Params: params, Result: Returns(result), Volatility: vol, Eval: eval}
}

func init() {
	visible := func(kind string) func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			oid := uint32(a[0].I)
			switch kind {
			case "table":
				o := e.objects().byOID[oid]
				if o == nil {
					return sqltypes.Null, nil
				}
				return boolV(e.relationVisible(o)), nil
			case "type":
				t, ok := e.typeByOID(oid)
				if !ok {
					return sqltypes.Null, nil
				}
				if t.ns != NamespaceCatalog && e.Snap != nil {
					// A user-defined type: the path finds it by its bare
					// name (placeType's rule).
					for _, u := range e.Snap.UserTypes() {
						switch {
						case u.OID == oid || u.ArrayOID == oid:
							return boolV(e.Snap.TypeVisible(u.Name)), nil
						case u.Range != nil && (u.Range.MultiOID == oid || u.Range.MultiArrayOID == oid):
							return boolV(e.Snap.TypeVisible(u.Range.MultiName)), nil
						}
					}
				}
				return boolV(t.ns == NamespaceCatalog || t.ns == NamespacePublic), nil
			}
			_, ok := procByOID(oid)
			f, user := e.userFunction(oid)
			if !ok && !user {
				return sqltypes.Null, nil
			}
			if user {
				_, bare := catalog.SplitName(f.Name)
				return boolV(e.functionName(f) == sqltypes.QuoteIdent(bare)), nil
			}
			return boolV(true), nil
		}
	}
	Register("pg_table_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, visible("table")))
	Register("pg_my_temp_schema", fn("", nil, sqltypes.TypeOid, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		if e.Snap == nil {
			return oidV(0), nil
		}
		if n, ok := e.Snap.TempSchema(); ok {
			return oidV(TempNamespaceOID(n)), nil
		}
		return oidV(0), nil
	}))
	Register("pg_is_other_temp_schema", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		oid := uint32(a[0].I)
		n, toast, ok := tempNamespaceNum(oid)
		if !ok || toast {
			return boolV(false), nil
		}
		mine, has := uint64(0), false
		if e.Snap != nil {
			mine, has = e.Snap.TempSchema()
		}
		return boolV(!has || mine%(tempNamespaces/2) != n), nil
	}))
	Register("pg_type_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, visible("type")))
	Register("pg_function_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, visible("function")))

	Register("pg_get_userbyid", fn("", []Param{oidP}, sqltypes.TypeName, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		if n, ok := e.roleName(uint32(a[0].I)); ok {
			return nameV(n), nil
		}
		return nameV(fmt.Sprintf("unknown (OID=%d)", uint32(a[0].I))), nil
	}))

	Register("acldefault", fn("", []Param{T(sqltypes.TypeChar), oidP}, sqltypes.ArrayOf(sqltypes.TypeACLItem), Stable, // it names roles, which constant folding cannot see
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			owner := fmt.Sprint(uint32(a[1].I))
			if e := envOf(ctx); e != nil {
				if n, ok := e.roleName(uint32(a[1].I)); ok {
					owner = n
				}
			}
			acl, err := defaultACL(a[0].S, owner)
			if err != nil {
				return sqltypes.Null, err
			}
			return aclArray(acl), nil
		}))

	// pg_options_to_table splits reloptions-style "name=value" items
	// (pg_dump reads every options column through it).
	Register("pg_options_to_table", Overload{Params: []Param{T(sqltypes.ArrayOf(sqltypes.TypeText))}, Result: Returns(sqltypes.TypeText), ResultPseudo: Record, Volatility: Stable,
		Set: &SetFunc{Columns: []SetColumn{{Name: "option_name", Type: sqltypes.TypeText}, {Name: "option_value", Type: sqltypes.TypeText}},
			Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
				var rows [][]sqltypes.Value
				for _, item := range a[0].Array().Elems {
					if item.IsNull() {
						continue
					}
					name, value, ok := strings.Cut(item.S, "=")
					v := sqltypes.NewText(value)
					if !ok {
						v = sqltypes.Null
					}
					rows = append(rows, []sqltypes.Value{sqltypes.NewText(name), v})
				}
				return Table(rows), nil
			}}})

	// pg_get_triggerdef is NULL for an OID that is no trigger, as in
	// PostgreSQL (triggers.go).
	triggerDefOf := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		pretty := len(a) > 1 && a[1].I != 0
		if d, ok := envOf(ctx).triggerDef(uint32(a[0].I), pretty); ok {
			return textV(d), nil
		}
		return sqltypes.Null, nil
	}
	Register("pg_get_triggerdef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, triggerDefOf), fn("", []Param{oidP, boolP}, sqltypes.TypeText, Stable, triggerDefOf))

	// pg_tablespace_location: zproxy's two tablespaces are PostgreSQL's
	// built-in ones, whose location is the data directory (empty text).
	Register("pg_tablespace_location", fn("", []Param{oidP}, sqltypes.TypeText, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if oid := uint32(a[0].I); oid == TablespaceOID || oid == globalTablespaceOID {
			return textV(""), nil
		}
		return sqltypes.Null, nil
	}))

	formatType := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		e := envOf(ctx)
		if e == nil {
			e = NewEnv(nil, nil)
		}
		mod, has := int32(-1), len(a) > 1 && !a[1].IsNull()
		if has {
			mod = int32(a[1].I)
		}
		return textV(e.formatType(uint32(a[0].I), mod, has)), nil
	}
	Register("format_type", Overload{Params: []Param{oidP, intP}, Result: Returns(sqltypes.TypeText), Volatility: Stable, CalledOnNull: true, Eval: formatType})

	indexDefFn := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		o := e.objects().byOID[uint32(a[0].I)]
		if o == nil || !o.isIndex() {
			return sqltypes.Null, nil
		}
		if len(a) > 1 && a[1].I != 0 {
			return textV(e.indexColumnDef(o, int(a[1].I), len(a) > 2 && a[2].I != 0)), nil
		}
		if len(a) > 2 && a[2].I != 0 {
			// Pretty: the table as the search path sees it (zproxy's
			// relations are all in public), expressions reprinted.
			return textV(indexDef(o, false, func(sql string) string {
				if def, ok := e.deparseExpr(o.table, sql, true); ok {
					return def
				}
				return sql
			})), nil
		}
		return textV(indexDef(o, true, nil)), nil
	}
	Register("pg_get_indexdef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, indexDefFn),
		fn("", []Param{oidP, intP, boolP}, sqltypes.TypeText, Stable, indexDefFn))

	constraintDef := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		oid := uint32(a[0].I)
		for _, o := range e.objects().list {
			t := o.table
			if !o.isTable() || t == nil {
				continue
			}
			if oid == ObjectOID(t.ID, slotPKey) && !hasRowID(t) {
				var cols []string
				for _, k := range t.PrimaryKey {
					cols = append(cols, sqltypes.QuoteIdent(t.Columns[k.Column].Name))
				}
				return textV("PRIMARY KEY (" + strings.Join(cols, ", ") + ")"), nil
			}
			for i, c := range t.Checks {
				if oid == ObjectOID(t.ID, slotCheck+uint32(i)) {
					pretty := len(a) > 1 && a[1].I != 0
					if def, ok := e.deparseExpr(t, c.SQL, pretty); ok {
						return textV("CHECK (" + def + ")"), nil
					}
					return textV(checkDef(c.SQL)), nil
				}
			}
			for _, ix := range t.Indexes {
				if ix.Exclusion != nil && oid == ObjectOID(ix.ID, slotPKey) {
					pretty := len(a) > 1 && a[1].I != 0
					return textV(exclusionDef(t, ix, func(sql string) string {
						if def, ok := e.deparseExpr(t, sql, pretty); ok {
							return def
						}
						return sql
					})), nil
				}
				if ix.Constraint && oid == ObjectOID(ix.ID, slotPKey) {
					var cols []string
					for _, k := range ix.Columns {
						cols = append(cols, sqltypes.QuoteIdent(t.Columns[k.Column].Name))
					}
					nulls := ""
					if ix.NullsNotDistinct {
						nulls = " NULLS NOT DISTINCT"
					}
					return textV("UNIQUE" + nulls + " (" + strings.Join(cols, ", ") + ")" + deferralClause(ix.Deferrable, ix.InitiallyDeferred)), nil
				}
			}
			for _, p := range e.partitionFKs(t) {
				if oid == p.oid {
					ref := e.objects().tableByKey(p.ref.Name, t.Temp)
					if ref == nil {
						return sqltypes.Null, nil
					}
					return textV(foreignKeyDef(t, ref.table, p.fk, e.relationName(ref))), nil
				}
			}
			for i := range t.ForeignKeys {
				if oid != ObjectOID(t.ID, slotForeignKey+uint32(i)) {
					continue
				}
				fk := &t.ForeignKeys[i]
				ref := e.objects().tableByKey(fk.RefTable, t.Temp)
				if ref == nil {
					return sqltypes.Null, nil
				}
				return textV(foreignKeyDef(t, ref.table, fk, e.relationName(ref))), nil
			}
		}
		if def, ok := e.domainConstraintDef(oid, len(a) > 1 && a[1].I != 0); ok {
			return textV(def), nil
		}
		if def, ok := e.triggerConstraintDef(oid); ok {
			return textV(def), nil
		}
		return sqltypes.Null, nil
	}
	Register("pg_get_constraintdef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, constraintDef),
		fn("", []Param{oidP, boolP}, sqltypes.TypeText, Stable, constraintDef))

	// zproxy keeps expressions (defaults, checks, index expressions) as
	// SQL text; pg_get_expr binds it over its relation and deparses it as
	// PostgreSQL prints the stored tree, or prints the text as kept when
	// it does not bind (a list of index expressions).
	getExpr := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e := envOf(ctx)
		if e == nil {
			return textV(a[0].S), nil
		}
		o := e.objects().byOID[uint32(a[1].I)]
		t := o.tableOrView()
		if t == nil {
			return textV(a[0].S), nil
		}
		pretty := len(a) > 2 && a[2].K == sqltypes.KindBool && a[2].I != 0
		if def, ok := e.deparseExpr(t, a[0].S, pretty); ok {
			return textV(def), nil
		}
		return textV(a[0].S), nil
	}
	Register("pg_get_expr", fn("", []Param{textP, oidP}, sqltypes.TypeText, Stable, getExpr),
		fn("", []Param{textP, oidP, boolP}, sqltypes.TypeText, Stable, getExpr))

	viewDefFn := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		oid := uint32(a[0].I)
		if a[0].K == sqltypes.KindText {
			// The name form reads its argument as regclass's input does:
			// a relation that does not exist is an error (42P01, 3F000
			// for its schema); an OID that names none is NULL.
			if oid, err = e.classOID(a[0].S); err != nil {
				return sqltypes.Null, err
			}
		}
		o := e.objects().byOID[oid]
		if o == nil {
			return sqltypes.Null, nil
		}
		// pg_get_viewdef(view, pretty), or (view, wrap_column), which
		// is pretty.
		pretty := len(a) > 1 && a[1].I != 0
		if def, ok := e.viewDefinition(o, pretty); ok {
			return textV(def), nil
		}
		return sqltypes.Null, nil
	}
	Register("pg_get_viewdef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, viewDefFn),
		fn("", []Param{oidP, boolP}, sqltypes.TypeText, Stable, viewDefFn),
		fn("", []Param{textP}, sqltypes.TypeText, Stable, viewDefFn),
		fn("", []Param{textP, boolP}, sqltypes.TypeText, Stable, viewDefFn),
		// pg_get_viewdef(view, wrap_column): pretty-printed, which
		// zproxy's deparser always is.
		fn("", []Param{oidP, intP}, sqltypes.TypeText, Stable, viewDefFn))

	// A view's or materialized view's query is its _RETURN rule
	// (pg_rewrite), which pg_get_ruledef prints as CREATE RULE; psql's \d+
	// calls it.
	ruleDef := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		oid := uint32(a[0].I)
		for _, o := range e.objects().list {
			if o.rule() != oid {
				continue
			}
			pretty := len(a) > 1 && a[1].K == sqltypes.KindBool && a[1].I != 0
			def, _ := e.viewDefinition(o, pretty)
			name := e.namespaceName(o.ns) + "." + sqltypes.QuoteIdent(o.name)
			if pretty {
				name = e.relationName(o)
			}
			return textV("CREATE RULE \"_RETURN\" AS\n    ON SELECT TO " + name + " DO INSTEAD " + def), nil
		}
		return sqltypes.Null, nil
	}
	Register("pg_get_ruledef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, ruleDef),
		fn("", []Param{oidP, boolP}, sqltypes.TypeText, Stable, ruleDef))

	// Descriptions are COMMENT ON's (pg_description): obj_description(oid,
	// catalog), obj_description(oid) of any catalog, col_description(table,
	// column).
	describe := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		sub, classoid := int64(0), uint32(0)
		switch {
		case len(a) > 1 && a[1].K == sqltypes.KindInt:
			sub, classoid = a[1].I, pgClassOID // col_description's column number
		case len(a) > 1:
			info, ok := relationInfo["pg_catalog."+a[1].S]
			if !ok {
				return sqltypes.Null, nil
			}
			classoid = info.oid
		}
		if d, ok := e.description(uint32(a[0].I), classoid, sub); ok {
			return textV(d), nil
		}
		return sqltypes.Null, nil
	}
	noComment := func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.Null, nil }
	Register("obj_description", fn("", []Param{oidP, nameP}, sqltypes.TypeText, Stable, describe),
		fn("", []Param{oidP}, sqltypes.TypeText, Stable, describe))
	Register("col_description", fn("", []Param{oidP, intP}, sqltypes.TypeText, Stable, describe))
	Register("shobj_description", fn("", []Param{oidP, nameP}, sqltypes.TypeText, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		info, ok := relationInfo["pg_catalog."+a[1].S]
		if !ok {
			return sqltypes.Null, nil
		}
		for _, d := range e.sharedDescriptions() {
			if d.objoid == uint32(a[0].I) && d.classoid == info.oid {
				return textV(d.text), nil
			}
		}
		return sqltypes.Null, nil
	}))
	// No extended statistics, no publications.
	Register("pg_get_statisticsobjdef_columns", fn("", []Param{oidP}, sqltypes.TypeText, Stable, noComment))
	Register("pg_relation_is_publishable", fn("", []Param{T(sqltypes.TypeRegClass)}, sqltypes.TypeBool, Stable,
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			o := e.objects().byOID[uint32(a[0].I)]
			return boolV(o != nil && o.isTable() && o.table != nil), nil
		}))

	registerSizes()         // sizes.go
	registerGinPending()    // ginpending.go
	registerAmProperties()  // amprops.go
	registerIntrospection() // introspect.go
	registerUpdatable()     // updatable.go
	registerIdentify()      // identify.go
	registerObjectAddress()
	registerBlocking() // blocking.go
	Register("pg_database_size", fn("", []Param{nameP}, sqltypes.TypeInt8, Volatile, noComment),
		fn("", []Param{oidP}, sqltypes.TypeInt8, Volatile, noComment))
	Register("pg_size_pretty", fn("", []Param{int8P}, sqltypes.TypeText, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return textV(sizePretty(a[0].I)), nil
	}))

	Register("current_setting",
		Overload{Params: []Param{textP}, Result: Returns(sqltypes.TypeText), Volatility: Stable, Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return currentSetting(ctx, a[0].S, false)
		}},
		Overload{Params: []Param{textP, boolP}, Result: Returns(sqltypes.TypeText), Volatility: Stable, Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return currentSetting(ctx, a[0].S, a[1].Bool())
		}})
	Register("set_config", Overload{Params: []Param{textP, textP, boolP}, Result: Returns(sqltypes.TypeText), Volatility: Volatile,
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil || e.Sess == nil {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "set_config needs a session")
			}
			name := strings.ToLower(a[0].S)
			if ctx.Session.Definer && (name == "role" || name == "session_authorization") {
				// As PostgreSQL: a SECURITY DEFINER routine may not change
				// who the session is under its owner's identity.
				return sqltypes.Null, pgerr.New(pgerr.InsufficientPrivilege, "cannot set parameter \"%s\" within security-definer function", name)
			}
			v, err := setSetting(ctx, e, a[0].S, a[1].S, a[2].Bool())
			if err != nil {
				return sqltypes.Null, err
			}
			return textV(v), nil
		}})

	Register("pg_export_snapshot", fn("", nil, sqltypes.TypeText, Volatile, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		e := envOf(ctx)
		if e == nil || e.Sess == nil {
			return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "pg_export_snapshot() needs a session")
		}
		name, err := e.Sess.ExportSnapshot(e.Ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		return textV(name), nil
	}))
	Register("pg_backend_pid", fn("", nil, sqltypes.TypeInt4, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		if e := envOf(ctx); e != nil && e.Sess != nil {
			return intV(int64(e.Sess.PID())), nil
		}
		return intV(int64(ctx.Session.PID)), nil
	}))
	// pg_cancel_backend and pg_terminate_backend signal another session
	// of this proxy, as PostgreSQL's do its backends: true once
	// signalled, false with a WARNING for a process ID no session has.
	// pg_terminate_backend's timeout (milliseconds, default 0: do not
	// wait) waits for the session to end.
	Register("pg_cancel_backend", fn("", []Param{intP}, sqltypes.TypeBool, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return signalBackend(ctx, a[0].I, false, 0)
	}))
	Register("pg_terminate_backend",
		fn("", []Param{intP}, sqltypes.TypeBool, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return signalBackend(ctx, a[0].I, true, 0)
		}),
		fn("", []Param{intP, int8P}, sqltypes.TypeBool, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[1].I < 0 {
				return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "\"timeout\" must not be negative")
			}
			return signalBackend(ctx, a[0].I, true, time.Duration(a[1].I)*time.Millisecond)
		}))
	Register("pg_is_in_recovery", fn("", nil, sqltypes.TypeBool, Volatile, func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return boolV(false), nil
	}))
	Register("pg_postmaster_start_time", fn("", nil, sqltypes.TypeTimestampTZ, Stable, func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewTimestampTZ(sqltypes.TimestampFromTime(started)), nil
	}))
	Register("pg_encoding_to_char", fn("", []Param{intP}, sqltypes.TypeName, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return nameV(EncodingName(a[0].I)), nil
	}))
	Register("pg_char_to_encoding", fn("", []Param{nameP}, sqltypes.TypeInt4, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return intV(EncodingID(a[0].S)), nil
	}))
	user := fn("", nil, sqltypes.TypeName, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		if ctx != nil && ctx.Session.User != "" {
			return nameV(ctx.Session.User), nil
		}
		return nameV(BootstrapRole), nil
	})
	for _, n := range []string{"current_user", "user", "current_role"} {
		Register(n, user)
	}
	// session_user is SET SESSION AUTHORIZATION's user, which neither SET
	// ROLE nor a SECURITY DEFINER routine changes.
	Register("session_user", fn("", nil, sqltypes.TypeName, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		switch {
		case ctx != nil && ctx.Session.SessionUser != "":
			return nameV(ctx.Session.SessionUser), nil
		case ctx != nil && ctx.Session.User != "":
			return nameV(ctx.Session.User), nil
		}
		return nameV(BootstrapRole), nil
	}))
	// The schemas of the search path that exist (the session's snapshot
	// carries them once the catalog has a user schema; public alone
	// before).
	pathSchemas := func(ctx *Context) []string {
		if e := envOf(ctx); e != nil && e.Snap != nil {
			if path, ok := e.Snap.SearchPath(); ok {
				return path
			}
		}
		return []string{"public"}
	}
	Register("current_schema", fn("", nil, sqltypes.TypeName, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		if p := pathSchemas(ctx); len(p) > 0 {
			return nameV(p[0]), nil
		}
		return sqltypes.Null, nil
	}))
	Register("current_schemas", fn("", []Param{boolP}, sqltypes.ArrayOf(sqltypes.TypeName), Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		var names []sqltypes.Value
		for _, n := range pathSchemas(ctx) {
			names = append(names, nameV(n))
		}
		if a[0].Bool() {
			names = append([]sqltypes.Value{nameV("pg_catalog")}, names...)
		}
		return sqltypes.NewArray1(sqltypes.TypeName, names), nil
	}))
	Register("txid_current", fn("", nil, sqltypes.TypeInt8, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		return intV(int64(currentXact(ctx))), nil
	}))
	Register("pg_current_xact_id", fn("", nil, sqltypes.Type{ID: sqltypes.XID8}, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewXID8(currentXact(ctx)), nil
	}))

	Register("quote_ident", fn("", []Param{textP}, sqltypes.TypeText, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		q, err := sqltypes.QuotedIdent(a[0].S)
		if err != nil {
			return sqltypes.Null, err
		}
		return textV(q), nil
	}))
	// quote_literal's result is allocated at its worst case, with a
	// varlena header, first.
	quoteText := func(s string) (sqltypes.Value, error) {
		q, err := sqltypes.QuotedLiteral(s, 4)
		if err != nil {
			return sqltypes.Null, err
		}
		return textV(q), nil
	}
	Register("quote_literal", fn("", []Param{textP}, sqltypes.TypeText, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return quoteText(a[0].S)
	}))
	Register("quote_nullable", Overload{Params: []Param{textP}, Result: Returns(sqltypes.TypeText), CalledOnNull: true,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].IsNull() {
				return textV("NULL"), nil
			}
			return quoteText(a[0].S)
		}})
	// quote_literal(anyelement) and quote_nullable(anyelement) quote the
	// value cast to text, as PostgreSQL's SQL functions over $1::text do
	// (stable: the text may read DateStyle or TimeZone).
	quoteAny := func(nullable bool) Overload {
		return Overload{Params: []Param{{Any: true}}, Result: Returns(sqltypes.TypeText), CalledOnNull: nullable, Volatility: Stable,
			Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
				return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
					if a[0].IsNull() {
						return textV("NULL"), nil
					}
					s := ctx.OutputText(ts[0], a[0])
					switch ts[0].ID {
					case sqltypes.Bool, sqltypes.Inet, sqltypes.Cidr, sqltypes.BPChar:
						// Their casts to text are not their output
						// functions ('true', the netmask, no padding).
						t, err := sqltypes.CastIn(a[0], sqltypes.TypeText, true, SessionLocation(ctx))
						if err != nil {
							return sqltypes.Null, err
						}
						s = t.S
					}
					return quoteText(s)
				}
			}}
	}
	Register("quote_literal", quoteAny(false))
	Register("quote_nullable", quoteAny(true))

	registerPrivileges()
	registerACLItem()
	registerCatalogInfo()
	registerAdvisory()
	registerSessionInfo()
	registerOpclassVisibility()
	registerArgDefault()
	registerFunctionInfo()

	toReg := func(t sqltypes.Type) Overload {
		return fn("", []Param{textP}, t, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			o, err := e.RegOID(t, a[0].S)
			switch pgerr.CodeOf(err) {
			case pgerr.SuccessfulCompletion:
			case pgerr.UndefinedTable, pgerr.UndefinedObject, pgerr.UndefinedFunction, pgerr.InvalidSchemaName:
				return sqltypes.Null, nil // to_reg* answers NULL where the name finds nothing
			default:
				// A name that does not parse, or of another database: the
				// error, as PostgreSQL 15's to_reg* raise it.
				return sqltypes.Null, err
			}
			return sqltypes.NewReg(o, e.RegName(t, o)), nil
		})
	}
	Register("to_regclass", toReg(sqltypes.TypeRegClass))
	Register("to_regtype", toReg(sqltypes.TypeRegType))
	Register("to_regproc", toReg(sqltypes.TypeRegProc))
	Register("to_regnamespace", toReg(sqltypes.TypeRegNamespace))
	Register("to_regrole", toReg(sqltypes.TypeRegRole))
	Register("to_regcollation", toReg(sqltypes.TypeRegCollation))
	Register("to_regprocedure", toReg(sqltypes.TypeRegProcedure))
	// regclass(text) is the cast text::regclass called by name (a name
	// that finds no relation is an error, unlike to_regclass's NULL).
	Register("regclass", fn("", []Param{textP}, sqltypes.TypeRegClass, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e := envOf(ctx)
		if e == nil {
			e = NewEnv(nil, nil)
		}
		o, err := e.RegOID(sqltypes.TypeRegClass, a[0].S)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewReg(o, e.RegName(sqltypes.TypeRegClass, o)), nil
	}))

	Register("pg_get_serial_sequence", fn("", []Param{textP, textP}, sqltypes.TypeText, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		o := e.objects().lookup(a[0].S)
		if o == nil {
			return sqltypes.Null, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", a[0].S)
		}
		table := o.name
		if o.table != nil {
			table = o.table.Name // its key, which OwnedBy names
		}
		for _, q := range e.Snap.Sequences() {
			if q.OwnedBy == table+"."+a[1].S {
				sc, name := catalog.SplitName(q.Name)
				return textV(sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(name)), nil
			}
		}
		return sqltypes.Null, nil
	}))
}

// signalBackend is pg_cancel_backend and pg_terminate_backend: it signals
// the session with process ID pid and, for a termination with a timeout,
// waits for that session to end, giving up with a WARNING and false.
func signalBackend(ctx *Context, pid int64, terminate bool, timeout time.Duration) (sqltypes.Value, error) {
	e, err := needEnv(ctx)
	if err != nil {
		return sqltypes.Null, err
	}
	if e.Sess == nil {
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "signalling a backend needs a session")
	}
	found, err := e.Sess.SignalBackend(int32(pid), terminate)
	if err != nil {
		return sqltypes.Null, err
	}
	if !found {
		e.Sess.Notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: fmt.Sprintf("PID %d is not a PostgreSQL backend process", pid)})
		return boolV(false), nil
	}
	if timeout > 0 {
		deadline := time.Now().Add(timeout)
		for e.Sess.BackendAlive(int32(pid)) {
			if time.Now().After(deadline) {
				e.Sess.Notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING",
					Message: fmt.Sprintf("backend with PID %d did not terminate within %d milliseconds", pid, timeout.Milliseconds())})
				return boolV(false), nil
			}
			select {
			case <-ctx.Done():
				return sqltypes.Null, ctx.Err()
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	return boolV(true), nil
}

func currentSetting(ctx *Context, name string, missingOK bool) (sqltypes.Value, error) {
	n := strings.ToLower(name)
	if ctx != nil && ctx.Settings != nil {
		if v, ok := ctx.Settings(n); ok {
			return textV(v), nil
		}
	}
	e := envOf(ctx)
	if e != nil && e.Sess != nil {
		if v, ok := e.Sess.Setting(n); ok {
			return textV(v), nil
		}
	}
	if p, ok := guc.Lookup(n); ok && (e == nil || e.Sess == nil) {
		// No session to ask (a catalog read outside one): the built-in
		// default.
		return textV(p.BootValue().Show), nil
	}
	if missingOK {
		return sqltypes.Null, nil
	}
	return sqltypes.Null, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", name)
}

// sizePretty is pg_size_pretty(bigint), by PostgreSQL 15's algorithm:
// bytes below 10240, then kB, MB, GB, TB, PB, each value rounded half away
// from zero from one extra bit kept while shifting.
func sizePretty(size int64) string {
	const limit = 10 * 1024
	const limit2 = limit*2 - 1
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	half := func(x int64) int64 {
		if x < 0 {
			return (x - 1) / 2
		}
		return (x + 1) / 2
	}
	if abs(size) < limit {
		return strconv.FormatInt(size, 10) + " bytes"
	}
	size >>= 9 // one extra bit for rounding
	for _, unit := range []string{"kB", "MB", "GB", "TB"} {
		if abs(size) < limit2 {
			return strconv.FormatInt(half(size), 10) + " " + unit
		}
		size >>= 10
	}
	return strconv.FormatInt(half(size), 10) + " PB"
}

// objectPrivilege decides has_table_privilege and its friends for role
// on o: any privilege named in privs (PostgreSQL's answer is true when the
// role holds one of them), through the object's grants, its columns'
// (has_column_privilege, has_any_column_privilege) and ownership.
func objectPrivilege(e *Env, role string, o *object, column *sqltypes.Value, privs string, any bool) (bool, error) {
	kind, id, owner := catalog.KindTable, uint64(0), ""
	var attr string
	switch {
	case o.seq != nil:
		kind, id, owner = catalog.KindSequence, o.seq.ID, o.seq.Owner
	case o.view != nil:
		kind, id, owner = catalog.KindView, o.view.ID, o.view.Owner
		if column != nil && column.K != sqltypes.KindInt {
			attr = column.S
		} else if column != nil && int(column.I) >= 1 && int(column.I) <= len(o.view.Columns) {
			attr = o.view.Columns[column.I-1]
		}
	case o.table != nil && !o.isIndex():
		id, owner = o.table.ID, o.table.Owner
		if column != nil {
			i := -1
			if column.K == sqltypes.KindInt {
				i = int(column.I) - 1
			} else {
				i = o.table.ColumnIndex(column.S)
			}
			if i >= 0 && i < len(o.table.Columns) {
				attr = o.table.Columns[i].AttrName()
			}
		}
	}
	valid := kind.All()
	if column != nil || any {
		valid = catalog.PrivSelect | catalog.PrivInsert | catalog.PrivUpdate | catalog.PrivReferences
	}
	var wants []catalog.Privilege
	var grants []bool
	for _, given := range strings.Split(privs, ",") {
		p, grant := strings.CutSuffix(strings.Join(strings.Fields(strings.ToUpper(given)), " "), grantOption)
		want, ok := catalog.ParsePrivilege(p)
		if !ok || want == catalog.PrivAll || want&valid == 0 {
			// PostgreSQL names the privilege as it was given.
			return false, pgerr.New(pgerr.InvalidParameterValue, "unrecognized privilege type: \"%s\"", strings.TrimSpace(given))
		}
		wants, grants = append(wants, want), append(grants, grant)
	}
	if isSuperuser(e, role) {
		return true, nil
	}
	if o.rel != nil {
		// A relation zproxy computes: initdb's grants (system_acl.go),
		// which carry no grant option.
		col := ""
		if column != nil {
			if column.K == sqltypes.KindInt {
				if i := int(column.I) - 1; i >= 0 && i < len(o.cols) {
					col = o.cols[i].name
				}
			} else {
				col = column.S
			}
		}
		for i, want := range wants {
			switch {
			case grants[i]:
			case SystemPrivileges(e.Snap, role, o.rel.Schema, o.rel.Name, "")&want != 0:
				return true, nil
			case col != "" && SystemPrivileges(e.Snap, role, o.rel.Schema, o.rel.Name, col)&want != 0:
				return true, nil
			case any:
				for _, c := range o.cols {
					if SystemPrivileges(e.Snap, role, o.rel.Schema, o.rel.Name, c.name)&want != 0 {
						return true, nil
					}
				}
			}
		}
		return false, nil
	}
	held := e.Snap.ObjectPrivileges(role, kind, id, owner)
	for i, want := range wants {
		switch {
		case grants[i] && role != owner:
			// Grants carry no grant option in zproxy: the owner's
			// privileges alone come with one.
		case held&want != 0:
			return true, nil
		case attr != "" && e.Snap.ColumnPrivileges(role, id, attr)&want != 0:
			return true, nil
		case any && e.Snap.AnyColumnPrivilege(role, id, want):
			return true, nil
		}
	}
	return false, nil
}

// registerPrivileges registers has_table_privilege and its friends,
// answered from the catalog's roles and grants.
func registerPrivileges() {
	// check answers has_table_privilege (column nil, any false),
	// has_column_privilege (column set), has_any_column_privilege (any)
	// and has_sequence_privilege.
	check := func(ctx *Context, user, tableArg sqltypes.Value, column *sqltypes.Value, any, seq bool, privs string) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		name := e.userIn(ctx)
		if !user.IsNull() {
			if user.K == sqltypes.KindInt {
				// A role OID that names no role holds only PUBLIC's
				// privileges, as PostgreSQL's aclcheck sees it.
				name, _ = e.roleName(uint32(user.I))
			} else {
				name = user.S
				if _, err := e.roleOID(name); err != nil {
					return sqltypes.Null, err
				}
			}
		}
		var o *object
		if tableArg.K == sqltypes.KindInt {
			o = e.objects().byOID[uint32(tableArg.I)]
			if o == nil {
				return sqltypes.Null, nil
			}
		} else {
			o = e.objects().lookup(tableArg.S)
			if o == nil {
				return sqltypes.Null, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", tableArg.S)
			}
		}
		if seq && o.seq == nil {
			return sqltypes.Null, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", o.name)
		}
		if column != nil {
			switch known, err := columnExists(o, *column); {
			case err != nil:
				return sqltypes.Null, err
			case !known:
				return sqltypes.Null, nil // an attnum the relation lacks
			}
		}
		ok, err := objectPrivilege(e, name, o, column, privs, any)
		if err != nil {
			return sqltypes.Null, err
		}
		return boolV(ok), nil
	}
	for _, n := range []string{"has_table_privilege", "has_any_column_privilege", "has_sequence_privilege"} {
		any, seq := n == "has_any_column_privilege", n == "has_sequence_privilege"
		Register(n,
			fn("", []Param{textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return check(ctx, sqltypes.Null, a[0], nil, any, seq, a[1].S)
			}),
			fn("", []Param{oidP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return check(ctx, sqltypes.Null, a[0], nil, any, seq, a[1].S)
			}),
			fn("", []Param{nameP, textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return check(ctx, a[0], a[1], nil, any, seq, a[2].S)
			}),
			fn("", []Param{nameP, oidP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return check(ctx, a[0], a[1], nil, any, seq, a[2].S)
			}),
			fn("", []Param{oidP, textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return check(ctx, a[0], a[1], nil, any, seq, a[2].S)
			}),
			fn("", []Param{oidP, oidP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return check(ctx, a[0], a[1], nil, any, seq, a[2].S)
			}))
	}
	// has_column_privilege's twelve forms: the table by name or OID, the
	// column by name or attribute number, for the session's role or one
	// named by name or OID.
	var columnOverloads []Overload
	for _, user := range []*Param{nil, &nameP, &oidP} {
		for _, table := range []Param{textP, oidP} {
			for _, col := range []Param{textP, int2P} {
				params := []Param{table, col, textP}
				if user != nil {
					params = append([]Param{*user}, params...)
				}
				hasUser := user != nil
				columnOverloads = append(columnOverloads, fn("", params, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
					u := sqltypes.Null
					if hasUser {
						u, a = a[0], a[1:]
					}
					return check(ctx, u, a[0], &a[1], false, false, a[2].S)
				}))
			}
		}
	}
	Register("has_column_privilege", columnOverloads...)
	// The other kinds of object, each as PostgreSQL answers for it: by
	// name (an unknown one is an error) or by OID (an unknown one is
	// NULL), for the session's role or a named one (by name or OID).
	for _, k := range privilegeKinds {
		k := k
		call := func(ctx *Context, user, obj, privs sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			role, ok, err := privilegeRole(ctx, e, user)
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			var id string
			if obj.K == sqltypes.KindInt {
				if id, ok = k.byOID(e, uint32(obj.I)); !ok {
					return sqltypes.Null, nil
				}
			} else if id, err = k.byName(e, obj.S); err != nil {
				return sqltypes.Null, err
			}
			wants, err := parsePrivileges(privs.S, k.valid)
			if err != nil {
				return sqltypes.Null, err
			}
			if isSuperuser(e, role) {
				return boolV(true), nil
			}
			for _, w := range wants {
				// The defaults and grants zproxy keeps carry no grant
				// option: only a superuser holds one.
				if !strings.HasSuffix(w, grantOption) && k.holds(e, role, id, w) {
					return boolV(true), nil
				}
			}
			return boolV(false), nil
		}
		Register(k.fn,
			fn("", []Param{textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return call(ctx, sqltypes.Null, a[0], a[1])
			}),
			fn("", []Param{oidP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return call(ctx, sqltypes.Null, a[0], a[1])
			}),
			fn("", []Param{nameP, textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return call(ctx, a[0], a[1], a[2])
			}),
			fn("", []Param{nameP, oidP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return call(ctx, a[0], a[1], a[2])
			}),
			fn("", []Param{oidP, textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return call(ctx, a[0], a[1], a[2])
			}),
			fn("", []Param{oidP, oidP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return call(ctx, a[0], a[1], a[2])
			}))
	}
}

// privilegeKind is how has_<kind>_privilege finds its object and decides.
type privilegeKind struct {
	fn string
	// valid are the privilege names PostgreSQL accepts for the kind.
	valid []string
	// byName resolves a name to the object's identity, failing as
	// PostgreSQL fails for an unknown one; byOID reports whether an OID
	// names one.
	byName func(e *Env, name string) (string, error)
	byOID  func(e *Env, oid uint32) (string, bool)
	// holds decides a role (not a superuser) holding privilege p.
	holds func(e *Env, role, id, p string) bool
}

var privilegeKinds = []privilegeKind{
	{fn: "has_schema_privilege", valid: []string{"CREATE", "USAGE"},
		byName: func(e *Env, name string) (string, error) {
			if _, user := e.Snap.Schema(name); user {
				return name, nil
			}
			oid, err := namespaceOID(name)
			return e.namespaceName(oid), err
		},
		byOID: func(e *Env, oid uint32) (string, bool) { n := e.namespaceName(oid); return n, n != "" },
		holds: func(e *Env, role, schema, p string) bool {
			if _, user := e.Snap.Schema(schema); !user && schema != "public" {
				// pg_catalog, information_schema and pg_toast: USAGE to
				// PUBLIC, as their nspacl says; a session's temporary
				// schemas are its own.
				return p == "USAGE" || strings.HasPrefix(schema, "pg_temp_")
			}
			pv, _ := catalog.ParsePrivilege(p)
			return e.Snap.SchemaPrivileges(role, schema)&pv != 0
		}},
	{fn: "has_database_privilege", valid: []string{"CREATE", "CONNECT", "TEMPORARY", "TEMP"},
		byName: func(e *Env, name string) (string, error) {
			if _, ok := e.databaseNamed(unquoteIdent(name)); !ok {
				return "", pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", unquoteIdent(name))
			}
			return name, nil
		},
		byOID: func(e *Env, oid uint32) (string, bool) {
			for _, d := range e.databases() {
				if d.OID == oid {
					return d.Name, true
				}
			}
			return "", false
		},
		// datacl, or PostgreSQL's default: PUBLIC may connect and make
		// temporary tables, only the owner creates schemas.
		holds: func(e *Env, role, name, p string) bool {
			pv, _ := catalog.ParsePrivilege(p)
			if d, ok := e.databaseNamed(unquoteIdent(name)); ok && d.Privileges != nil {
				return d.Privileges(role)&pv != 0
			}
			return pv != catalog.PrivCreate
		}},
	{fn: "has_function_privilege", valid: []string{"EXECUTE"},
		byName: func(e *Env, name string) (string, error) {
			oid, err := e.RegOID(sqltypes.TypeRegProcedure, name)
			return strconv.FormatUint(uint64(oid), 10), err
		},
		byOID: func(e *Env, oid uint32) (string, bool) {
			return strconv.FormatUint(uint64(oid), 10), e.RegName(sqltypes.TypeRegProcedure, oid) != ""
		},
		// EXECUTE is PUBLIC's by default, and a built-in's always; a
		// user-defined routine's as the call checks it (REVOKE ... FROM
		// PUBLIC, GRANT EXECUTE).
		holds: func(e *Env, role, id, _ string) bool {
			oid, err := strconv.ParseUint(id, 10, 32)
			if err != nil {
				return false
			}
			f, ok := e.userFunction(uint32(oid))
			if !ok {
				return true
			}
			return f.CanExecute(f.Owner == role || e.Snap.IsMemberOf(role, f.Owner), func(r string) bool { return e.Snap.IsMemberOf(role, r) })
		}},
	{fn: "has_language_privilege", valid: []string{"USAGE"},
		byName: func(_ *Env, name string) (string, error) {
			name = unquoteIdent(name)
			if _, ok := languageTrusted[name]; !ok {
				return "", pgerr.New(pgerr.UndefinedObject, "language %q does not exist", name)
			}
			return name, nil
		},
		byOID: func(_ *Env, oid uint32) (string, bool) {
			for name := range languageTrusted {
				if langOID(name) == oid {
					return name, true
				}
			}
			return "", false
		},
		// Every language's default ACL gives PUBLIC USAGE (whether an
		// untrusted one may be used is decided by CREATE FUNCTION); a
		// trusted one's lanacl is the session's database's.
		holds: func(e *Env, role, name, _ string) bool {
			if l, ok := e.Sess.(LanguageACLs); ok {
				if _, held := l.LanguageACL(name); held != nil {
					return held(role)&catalog.PrivUsage != 0
				}
			}
			return true
		}},
	{fn: "has_type_privilege", valid: []string{"USAGE"},
		byName: func(e *Env, name string) (string, error) {
			oid, err := e.RegOID(sqltypes.TypeRegType, name)
			return strconv.FormatUint(uint64(oid), 10), err
		},
		byOID: func(e *Env, oid uint32) (string, bool) {
			_, ok := e.typeByOID(oid)
			return strconv.FormatUint(uint64(oid), 10), ok
		},
		// A user-defined type's typacl (an array type's is its element
		// type's, as PostgreSQL checks it); the built-in types' and the
		// relations' row types' are PostgreSQL's default, USAGE to PUBLIC.
		holds: func(e *Env, role, id, _ string) bool {
			oid, _ := strconv.ParseUint(id, 10, 32)
			if t, ok := e.typeByOID(uint32(oid)); ok && t.category == 'A' && t.elem != 0 {
				oid = uint64(t.elem)
			}
			if u := e.userTypeByOID(uint32(oid)); u != nil {
				return e.Snap.TypePrivileges(role, u, UserTypeOwner(u))&catalog.PrivUsage != 0
			}
			return true
		}},
	{fn: "has_tablespace_privilege", valid: []string{"CREATE"},
		byName: func(_ *Env, name string) (string, error) {
			name = unquoteIdent(name)
			if name != "pg_default" && name != "pg_global" {
				return "", pgerr.New(pgerr.UndefinedObject, "tablespace %q does not exist", name)
			}
			return name, nil
		},
		byOID: func(_ *Env, oid uint32) (string, bool) { return "", oid == 1663 || oid == 1664 },
		// The tablespaces' ACLs are their owner's (the bootstrap
		// superuser) alone.
		holds: func(*Env, string, string, string) bool { return false }},
	{fn: "has_foreign_data_wrapper_privilege", valid: []string{"USAGE"},
		byName: func(_ *Env, name string) (string, error) {
			return "", pgerr.New(pgerr.UndefinedObject, "foreign-data wrapper %q does not exist", unquoteIdent(name))
		},
		byOID: func(*Env, uint32) (string, bool) { return "", false },
		holds: func(*Env, string, string, string) bool { return false }},
	{fn: "has_server_privilege", valid: []string{"USAGE"},
		byName: func(_ *Env, name string) (string, error) {
			return "", pgerr.New(pgerr.UndefinedObject, "server %q does not exist", unquoteIdent(name))
		},
		byOID: func(*Env, uint32) (string, bool) { return "", false },
		holds: func(*Env, string, string, string) bool { return false }},
}

// grantOption ends a privilege asked for with its grant option.
const grantOption = " WITH GRANT OPTION"

// languageTrusted lists pg_language's rows: whether each is trusted.
// LanguageTrusted reports whether the language named name exists and
// whether it is trusted (ordinary roles may be granted USAGE on it).
func LanguageTrusted(name string) (trusted, ok bool) {
	trusted, ok = languageTrusted[name]
	return trusted, ok
}

var languageTrusted = map[string]bool{"internal": false, "c": false, "sql": true, "plpgsql": true}

// parsePrivileges reads a has_*_privilege privilege list (comma
// separated, any case, each optionally WITH GRANT OPTION) against the
// names valid for the object's kind, as PostgreSQL's
// convert_any_priv_string does.
func parsePrivileges(privs string, valid []string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(privs, ",") {
		p = strings.Join(strings.Fields(strings.ToUpper(p)), " ")
		p, grant := strings.CutSuffix(p, grantOption)
		found := false
		for _, v := range valid {
			if p == v {
				found = true
			}
		}
		if !found {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized privilege type: \"%s\"", p)
		}
		if p == "TEMP" {
			p = "TEMPORARY"
		}
		if grant {
			p += grantOption
		}
		out = append(out, p)
	}
	return out, nil
}

// privilegeRole is the role a has_*_privilege call asks about: the
// session's, or the one named (an unknown name is an error) or given by
// OID (an unknown OID makes the answer NULL).
func privilegeRole(ctx *Context, e *Env, user sqltypes.Value) (string, bool, error) {
	switch {
	case user.IsNull():
		return e.userIn(ctx), true, nil
	case user.K == sqltypes.KindInt:
		n, ok := e.roleName(uint32(user.I))
		return n, ok, nil
	}
	if _, err := e.roleOID(user.S); err != nil {
		return "", false, err
	}
	return unquoteIdent(user.S), true, nil
}

func isSuperuser(e *Env, name string) bool {
	if e.Sess != nil && name == e.Sess.User() {
		return e.Sess.IsSuperuser()
	}
	for _, r := range e.roles() {
		if r.name == name {
			return r.superuser
		}
	}
	return false
}

// XactLockHolder is a Session that holds advisory locks for the rest of
// its transaction (pg_advisory_xact_lock): it releases each hold, through
// its Locks table, when the transaction commits or rolls back, or when
// the savepoint it was taken after is rolled back to.
type XactLockHolder interface {
	HoldForTransaction(key int64, shared bool)
}

// registerAdvisory registers the advisory lock functions, session-level
// and transaction-level.
func registerAdvisory() {
	locks := func(ctx *Context) (*Env, AdvisoryLockTable, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return nil, nil, err
		}
		if e.Sess == nil || e.Sess.Locks() == nil {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "advisory locks need a session")
		}
		return e, e.Sess.Locks(), nil
	}
	xactLocks := func(ctx *Context) (*Env, AdvisoryLockTable, XactLockHolder, error) {
		e, l, err := locks(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		h, ok := e.Sess.(XactLockHolder)
		if !ok {
			return nil, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "transaction-scoped advisory locks need a session")
		}
		return e, l, h, nil
	}
	key := func(a []sqltypes.Value) int64 {
		if len(a) == 2 {
			return a[0].I<<32 | a[1].I&0xffffffff
		}
		return a[0].I
	}
	for _, shared := range []bool{false, true} {
		shared := shared
		suffix := ""
		if shared {
			suffix = "_shared"
		}
		lock := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, l, err := locks(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			if err := waitForAdvisory(e, l, key(a), shared); err != nil {
				return sqltypes.Null, pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement while waiting for an advisory lock")
			}
			return sqltypes.Value{}, nil
		}
		try := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, l, err := locks(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			ok, err := l.TryLock(e.Ctx, uint64(e.Sess.PID()), key(a), shared)
			if err != nil {
				return sqltypes.Null, err
			}
			return boolV(ok), nil
		}
		unlock := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, l, err := locks(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			ok, err := l.Unlock(e.Ctx, uint64(e.Sess.PID()), key(a), shared)
			if err != nil {
				return sqltypes.Null, err
			}
			if !ok {
				mode := "ExclusiveLock"
				if shared {
					mode = "ShareLock"
				}
				w := pgerr.New(pgerr.Warning, "you don't own a lock of type %s", mode)
				w.Severity = "WARNING"
				e.notice(w)
			}
			return boolV(ok), nil
		}
		// The transaction-scoped forms take the same lock and leave it to
		// the session to release at COMMIT or ROLLBACK.
		xactLock := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, l, h, err := xactLocks(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			if err := waitForAdvisory(e, l, key(a), shared); err != nil {
				return sqltypes.Null, pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement while waiting for an advisory lock")
			}
			h.HoldForTransaction(key(a), shared)
			return sqltypes.Value{}, nil
		}
		xactTry := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, l, h, err := xactLocks(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			got, err := l.TryLock(e.Ctx, uint64(e.Sess.PID()), key(a), shared)
			if err != nil {
				return sqltypes.Null, err
			}
			if got {
				h.HoldForTransaction(key(a), shared)
			}
			return boolV(got), nil
		}
		void := sqltypes.TypeVoid
		Register("pg_advisory_xact_lock"+suffix, Overload{Params: []Param{int8P}, Result: Returns(void), Volatility: Volatile, Eval: voidOf(xactLock)},
			Overload{Params: []Param{intP, intP}, Result: Returns(void), Volatility: Volatile, Eval: voidOf(xactLock)})
		Register("pg_try_advisory_xact_lock"+suffix, fn("", []Param{int8P}, sqltypes.TypeBool, Volatile, xactTry),
			fn("", []Param{intP, intP}, sqltypes.TypeBool, Volatile, xactTry))
		Register("pg_advisory_lock"+suffix, Overload{Params: []Param{int8P}, Result: Returns(void), Volatility: Volatile, Eval: voidOf(lock)},
			Overload{Params: []Param{intP, intP}, Result: Returns(void), Volatility: Volatile, Eval: voidOf(lock)})
		Register("pg_try_advisory_lock"+suffix, fn("", []Param{int8P}, sqltypes.TypeBool, Volatile, try),
			fn("", []Param{intP, intP}, sqltypes.TypeBool, Volatile, try))
		Register("pg_advisory_unlock"+suffix, fn("", []Param{int8P}, sqltypes.TypeBool, Volatile, unlock),
			fn("", []Param{intP, intP}, sqltypes.TypeBool, Volatile, unlock))
	}
	Register("pg_advisory_unlock_all", Overload{Result: Returns(sqltypes.TypeVoid), Volatility: Volatile, Eval: voidOf(func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		e, l, err := locks(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.Value{}, l.UnlockAll(e.Ctx, uint64(e.Sess.PID()))
	})})
}

// voidOf makes a function's result PostgreSQL's void: a value whose text
// is empty.
func voidOf(f func(*Context, []sqltypes.Value) (sqltypes.Value, error)) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
	return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if _, err := f(ctx, a); err != nil {
			return sqltypes.Null, err
		}
		return textV(""), nil
	}
}

func (e *Env) notice(err *pgerr.Error) {
	if n, ok := e.Sess.(interface{ Notice(*pgerr.Error) }); ok {
		n.Notice(err)
	}
}

// Notice sends the session a function's notice (builtins.Context.Notice).
func (e *Env) Notice(err *pgerr.Error) { e.notice(err) }

// registerFunctionInfo registers pg_get_function_result and friends.
func registerFunctionInfo() {
	info := func(what string) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if f, ok := envOf(ctx).userFunction(uint32(a[0].I)); ok {
				switch what {
				case "result":
					if f.Procedure() {
						return sqltypes.Null, nil
					}
					return textV(functionResult(f)), nil
				case "identity":
					return textV(functionArguments(f, true)), nil
				case "def":
					if f.IsAggregate() {
						return sqltypes.Null, pgerr.New(pgerr.WrongObjectType, "\"%s\" is an aggregate function", f.Name)
					}
					return textV(functionDef(f)), nil
				case "sqlbody":
					// A body in SQL's own syntax (RETURN, BEGIN ATOMIC);
					// NULL for a string body, as PostgreSQL's prosqlbody.
					switch {
					case f.Return:
						return textV("RETURN " + strings.TrimPrefix(f.Body, "SELECT ")), nil
					case f.Atomic:
						return textV("BEGIN ATOMIC\n " + f.Body + "\nEND"), nil
					}
					return sqltypes.Null, nil
				}
				return textV(functionArguments(f, false)), nil
			}
			p, ok := procByOID(uint32(a[0].I))
			if !ok {
				return sqltypes.Null, nil
			}
			switch what {
			case "def":
				if p.kind == 'a' {
					return sqltypes.Null, pgerr.New(pgerr.WrongObjectType, "\"%s\" is an aggregate function", p.name)
				}
				return textV(builtinDef(p)), nil
			case "sqlbody":
				if p.pg == nil || p.pg.sqlBody == "" {
					return sqltypes.Null, nil
				}
				return textV(p.pg.sqlBody), nil
			case "result":
				return textV(builtinResult(p)), nil
			case "identity":
				return textV(builtinArgumentsText(p, false)), nil
			}
			return textV(builtinArgumentsText(p, true)), nil
		}
	}
	Register("pg_get_function_result", fn("", []Param{oidP}, sqltypes.TypeText, Stable, info("result")))
	Register("pg_get_function_arguments", fn("", []Param{oidP}, sqltypes.TypeText, Stable, info("arguments")))
	Register("pg_get_function_identity_arguments", fn("", []Param{oidP}, sqltypes.TypeText, Stable, info("identity")))
	Register("pg_get_functiondef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, info("def")))
	Register("pg_get_function_sqlbody", fn("", []Param{oidP}, sqltypes.TypeText, Stable, info("sqlbody")))
}

// defaultACL is acldefault: the privileges objects of a kind (PostgreSQL's
// one-letter code) have when nothing was granted or revoked on them, as
// PostgreSQL 15's acldefault prints them: the owner holds every privilege
// of the kind, and PUBLIC some on databases, functions, languages and
// types.
func defaultACL(kind, owner string) ([]string, error) {
	type def struct{ public, owner string }
	defs := map[string]def{
		"c": {}, "r": {owner: "arwdDxt"}, "s": {owner: "rwU"}, "d": {public: "Tc", owner: "CTc"},
		"f": {public: "X", owner: "X"}, "l": {public: "U", owner: "U"}, "L": {owner: "rw"}, "n": {owner: "UC"},
		"t": {owner: "C"}, "F": {owner: "U"}, "S": {owner: "U"}, "T": {public: "U", owner: "U"}, "p": {owner: "sA"},
	}
	d, ok := defs[kind]
	if !ok {
		return nil, pgerr.Raised("unrecognized object type abbreviation: %s", kind)
	}
	acl := []string{}
	if d.public != "" {
		acl = append(acl, catalog.ACLItem("", d.public, owner))
	}
	if d.owner != "" {
		acl = append(acl, catalog.ACLItem(owner, d.owner, owner))
	}
	return acl, nil
}

// checkDef is pg_get_constraintdef of a CHECK constraint whose expression
// is sql: PostgreSQL prints CHECK around the expression deparsed, which
// parenthesizes an operator expression once ("CHECK ((a > 0))"); an
// expression already written inside one pair of parentheses keeps only
// those.
func checkDef(sql string) string {
	sql = strings.TrimSpace(sql)
	if catalog.Enclosed(sql) {
		return "CHECK (" + sql + ")"
	}
	return "CHECK ((" + sql + "))"
}

var (
	operatorOIDsOnce sync.Once
	operatorOIDs     map[uint32]bool
)

// isOperatorOID reports whether oid is a row of pg_operator.
func isOperatorOID(oid uint32) bool {
	operatorOIDsOnce.Do(func() {
		operatorOIDs = map[uint32]bool{}
		for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
			if f := operatorFields(line); f != nil {
				if n, err := strconv.ParseUint(f[0], 10, 32); err == nil {
					operatorOIDs[uint32(n)] = true
				}
			}
		}
	})
	return operatorOIDs[oid]
}

// registerCatalogInfo registers pg_encoding_max_length, the visibility of
// collations and operators (all in pg_catalog, so visible when they
// exist; NULL for an OID that names none) and row_security_active (zproxy
// has no row-level security: false for any relation, 42P01 for a name
// that is none).
func registerCatalogInfo() {
	Register("pg_encoding_max_length", fn("", []Param{intP}, sqltypes.TypeInt4, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].I < 0 || a[0].I >= int64(len(encodingMaxLength)) {
			return sqltypes.Null, nil
		}
		return intV(encodingMaxLength[a[0].I]), nil
	}))
	Register("pg_collation_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		switch a[0].I {
		case CollationDflt, CollationC, 951:
			return boolV(true), nil
		}
		return sqltypes.Null, nil
	}))
	Register("pg_operator_is_visible", fn("", []Param{oidP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if isOperatorOID(uint32(a[0].I)) {
			return boolV(true), nil
		}
		if visible, ok := isUserOperatorOID(envOf(ctx), uint32(a[0].I)); ok {
			return boolV(visible), nil
		}
		return sqltypes.Null, nil
	}))
	Register("row_security_active",
		fn("", []Param{oidP}, sqltypes.TypeBool, Stable, func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return boolV(false), nil
		}),
		fn("", []Param{textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			if e.objects().lookup(a[0].S) == nil {
				return sqltypes.Null, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", a[0].S)
			}
			return boolV(false), nil
		}))
}

// encodingMaxLength is pg_encoding_max_length's answer by encoding ID
// (PostgreSQL 15's pg_wchar_table maxmblen, SQL_ASCII = 0 to GB18030 = 41).
var encodingMaxLength = [...]int64{1, 3, 3, 3, 4, 3, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 3, 2}

// columnExists reports whether a table's or view's column named or
// numbered by column exists: a name it lacks is 42703 (as PostgreSQL's
// column_privilege_check), an attnum it lacks is no column (NULL).
func columnExists(o *object, column sqltypes.Value) (bool, error) {
	var names []string
	switch {
	case o.view != nil:
		names = o.view.Columns
	case o.table != nil && !o.isIndex():
		for _, c := range o.table.Columns {
			names = append(names, c.Name)
		}
	default:
		return true, nil
	}
	if column.K == sqltypes.KindInt {
		return column.I >= 1 && int(column.I) <= len(names), nil
	}
	for _, n := range names {
		if n == column.S {
			return true, nil
		}
	}
	return false, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", column.S, o.name)
}
