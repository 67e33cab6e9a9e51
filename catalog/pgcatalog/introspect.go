package pgcatalog

import (
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
	Register("pg_sequence_last_value", fn("", []Param{T(sqltypes.TypeRegClass)}, sqltypes.TypeInt8, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		// init_sequence opens the relation before checking privileges.
		oid := uint32(a[0].I)
		if o := e.objects().byOID[oid]; o == nil {
			return sqltypes.Null, pgerr.New(pgerr.InternalError, "could not open relation with OID %d", oid)
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
				return sqltypes.Null, pgerr.New(pgerr.InternalError, "cache lookup failed for sequence %d", oid)
			}
			return sqltypes.NewRecordOf([]sqltypes.Value{intV(q.Start), intV(q.Min), intV(q.Max), intV(q.Increment), boolV(q.Cycle), intV(q.Cache),
				oidV(seqType(q).OID())}, setColumnTypes(sequenceParameters)), nil
		}})
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
