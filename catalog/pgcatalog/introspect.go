package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// sequenceLastValue is pg_sequence_last_value's answer for sequence o,
// privileges aside: its last value once nextval (or setval's is_called)
// has returned it, NULL before.
func (e *Env) sequenceLastValue(o *object) (sqltypes.Value, error) {
	if e.Sess == nil {
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "reading a sequence needs a session, which this statement has none of")
	}
	last, called, err := e.Sess.SequenceState(e.Ctx, o.seq)
	if err != nil || !called {
		return nullV, err
	}
	return intV(last), nil
}

// sequenceParameters are pg_sequence_parameters' output columns.
var sequenceParameters = []SetColumn{
	{Name: "start_value", Type: sqltypes.TypeInt8}, {Name: "minimum_value", Type: sqltypes.TypeInt8},
	{Name: "maximum_value", Type: sqltypes.TypeInt8}, {Name: "increment", Type: sqltypes.TypeInt8},
	{Name: "cycle_option", Type: sqltypes.TypeBool}, {Name: "cache_size", Type: sqltypes.TypeInt8},
	{Name: "data_type", Type: sqltypes.TypeOid},
}

func registerIntrospection() {
	// pg_sequence_last_value and pg_sequence_parameters check privileges
	// as PostgreSQL 15's sequence.c does: SELECT or USAGE for the first,
	// SELECT, UPDATE or USAGE for the second, 42501 without.
	sequence := func(ctx *Context, oid uint32, privs string) (*Env, *object, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return nil, nil, err
		}
		o := e.objects().byOID[oid]
		if o == nil {
			return nil, nil, pgerr.New(pgerr.UndefinedTable, "relation with OID %d does not exist", oid)
		}
		ok, err := objectPrivilege(e, e.userIn(ctx), o, nil, privs, false)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for sequence %s", o.name)
		}
		return e, o, nil
	}
	paramPriv := func(ctx *Context, user sqltypes.Value, param, privs string) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		// An unknown role OID is no superuser: false, not NULL, as
		// has_parameter_privilege_id_name does not look the role up.
		role, known, err := privilegeRole(ctx, e, user)
		if err != nil {
			return sqltypes.Null, err
		}
		return parameterPrivilege(e, role, known, strings.ToLower(param), privs)
	}
	Register("has_parameter_privilege",
		fn("", []Param{textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return paramPriv(ctx, sqltypes.Null, a[0].S, a[1].S)
		}),
		fn("", []Param{nameP, textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return paramPriv(ctx, a[0], a[1].S, a[2].S)
		}),
		fn("", []Param{oidP, textP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return paramPriv(ctx, a[0], a[1].S, a[2].S)
		}))
	// pg_collation_for("any") is not strict: a NULL of a collatable type
	// has its type's collation; an untyped literal none (NULL).
	Register("pg_collation_for", Overload{Params: []Param{{Any: true, Pseudo: AnyType}}, Result: Returns(sqltypes.TypeText), Volatility: Stable,
		CalledOnNull: true, KeepUnknown: true, Typed: func(args []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			t := args[0]
			return func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
				if t.ID == sqltypes.Unknown {
					return sqltypes.Null, nil
				}
				switch collationFor(t) {
				case CollationDflt:
					return textV(`"default"`), nil
				case CollationC:
					return textV(`"C"`), nil
				}
				return sqltypes.Null, pgerr.New(pgerr.DatatypeMismatch, "collations are not supported by type %s", t)
			}
		}})
	Register("pg_get_keywords", Overload{Result: Returns(sqltypes.TypeText), ResultPseudo: Record, Volatility: Stable,
		Set: &SetFunc{Columns: []SetColumn{{Name: "word", Type: sqltypes.TypeText}, {Name: "catcode", Type: sqltypes.TypeChar},
			{Name: "barelabel", Type: sqltypes.TypeBool}, {Name: "catdesc", Type: sqltypes.TypeText}, {Name: "baredesc", Type: sqltypes.TypeText}},
			Rows: func(*Context, []sqltypes.Value) (SetRows, error) {
				rows := make([][]sqltypes.Value, len(keywords))
				for i, k := range keywords {
					rows[i] = []sqltypes.Value{textV(k.word), charV(k.catcode), boolV(k.barelabel), textV(k.catdesc), textV(k.baredesc)}
				}
				return Table(rows), nil
			}}})
	Register("pg_sequence_last_value", fn("", []Param{T(sqltypes.TypeRegClass)}, sqltypes.TypeInt8, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		// init_sequence opens the relation before checking privileges.
		oid := uint32(a[0].I)
		if o := e.objects().byOID[oid]; o == nil {
			return sqltypes.Null, pgerr.Raised("could not open relation with OID %d", oid)
		} else if o.seq == nil {
			return sqltypes.Null, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", o.name)
		}
		e, o, err := sequence(ctx, oid, "SELECT,USAGE")
		if err != nil {
			return sqltypes.Null, err
		}
		return e.sequenceLastValue(o)
	}))
	Register("pg_sequence_parameters", Overload{Params: []Param{oidP}, Result: Returns(sqltypes.AnonymousRecord(setColumnNames(sequenceParameters), setColumnTypes(sequenceParameters))),
		Volatility: Stable, Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			oid := uint32(a[0].I)
			e, o, err := sequence(ctx, oid, "SELECT,UPDATE,USAGE")
			if err != nil {
				return sqltypes.Null, err
			}
			_ = e
			q := o.seq
			if q == nil {
				return sqltypes.Null, pgerr.Raised("cache lookup failed for sequence %d", oid)
			}
			return sqltypes.NewRecordOf([]sqltypes.Value{intV(q.Start), intV(q.Min), intV(q.Max), intV(q.Increment), boolV(q.Cycle), intV(q.Cache),
				oidV(seqType(q).OID())}, setColumnTypes(sequenceParameters)), nil
		}})
}

// parameterPrivilege is has_parameter_privilege for role on param (lower
// case): PostgreSQL 15 grants SET and ALTER SYSTEM on a parameter through
// pg_parameter_acl alone (GRANT ... ON PARAMETER), so a superuser holds
// both and any other role what was granted to it, even for a parameter
// every user may SET. privs is checked as convert_any_priv_string does:
// comma-separated names, each trimmed and matched case-insensitively
// (22023 for another).
func parameterPrivilege(e *Env, role string, known bool, param, privs string) (sqltypes.Value, error) {
	var want catalog.Privilege
	for _, chunk := range strings.Split(privs, ",") {
		chunk = strings.TrimSpace(chunk)
		switch strings.ToUpper(chunk) {
		case "SET":
			want |= catalog.PrivSet
		case "ALTER SYSTEM":
			want |= catalog.PrivAlterSystem
		case "SET WITH GRANT OPTION", "ALTER SYSTEM WITH GRANT OPTION":
			// zproxy's grants carry no grant option: a superuser's alone.
		default:
			return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "unrecognized privilege type: \"%s\"", chunk)
		}
	}
	if !known {
		return boolV(false), nil
	}
	if isSuperuser(e, role) {
		return boolV(true), nil
	}
	return boolV(e.Snap != nil && e.Snap.ParameterPrivileges(role, param)&want != 0), nil
}

// collationFor is the collation pg_collation_for reports for a value of
// type t: its type's (pg_type.typcollation; a domain's is its base
// type's, as every domain zproxy has declares no other), 0 for a type
// that has none. zproxy drops an expression's COLLATE clause (it compares
// strings bytewise whatever the collation: README, Regular expressions),
// so the answer is the type's even after one.
func collationFor(t sqltypes.Type) uint32 {
	t = t.StripDomain()
	if t.ID == sqltypes.Citext || t.ID == sqltypes.Array && t.Elem == sqltypes.Citext {
		return CollationDflt
	}
	return collationOf(t)
}

// keyword is a row of pg_get_keywords() (keywords_gen.go).
type keyword struct {
	word              string
	catcode           byte // U unreserved, C column name, T type or function name, R reserved
	barelabel         bool // may be a column label without AS
	catdesc, baredesc string
}

func setColumnNames(cols []SetColumn) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

func setColumnTypes(cols []SetColumn) []sqltypes.Type {
	out := make([]sqltypes.Type, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}
