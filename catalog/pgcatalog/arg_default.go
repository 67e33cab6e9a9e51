package pgcatalog

import (
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// builtinArgDefaults are the argument defaults of PostgreSQL 15's built-in
// functions, by OID, one entry per argument (OUT ones included), "" where
// there is none, as pg_get_function_arg_default deparses them (SELECT oid,
// pg_get_function_arg_default(oid, i) FROM pg_proc WHERE pronargdefaults
// > 0).
var builtinArgDefaults = map[uint32][]string{
	1177: {"", "", "'{}'::jsonb", "false"},
	1179: {"", "", "'{}'::jsonb", "false"},
	1180: {"", "", "'{}'::jsonb", "false"},
	1268: {"", "true"},
	2023: {"", "", "'{}'::jsonb", "false"},
	2030: {"", "", "'{}'::jsonb", "false"},
	2096: {"", "0"},
	2172: {"", "false"},
	2739: {"true", "", "", ""},
	3305: {"", "", "", "true"},
	3436: {"true", "60"},
	3464: {"0", "0", "0", "0", "0", "0", "0.0"},
	3579: {"", "", "", "false"},
	3779: {"", "false", "false", "", ""},
	3782: {"", "", "", "'{}'::text[]", "", "", ""},
	3783: {"", "", "", "'{}'::text[]", "", "", ""},
	3784: {"", "", "", "'{}'::text[]", "", "", ""},
	3785: {"", "", "", "'{}'::text[]", "", "", ""},
	3786: {"", "", "false", "false", "", ""},
	3960: {"", "", "false"},
	3961: {"", "", "false"},
	4005: {"", "", "'{}'::jsonb", "false"},
	4006: {"", "", "'{}'::jsonb", "false"},
	4007: {"", "", "'{}'::jsonb", "false"},
	4008: {"", "", "'{}'::jsonb", "false"},
	4009: {"", "", "'{}'::jsonb", "false"},
	4350: {"", "'NFC'::text"},
	4351: {"", "'NFC'::text"},
	5054: {"", "", "", "true", "'use_json_null'::text"},
}

// registerArgDefault registers pg_get_function_arg_default(func, n): the
// default of the function's nth argument (counting every argument, OUT
// ones too) as SQL text; NULL when that argument has none, is no input
// argument, or the function does not exist, as in PostgreSQL.
func registerArgDefault() {
	Register("pg_get_function_arg_default", fn("", []Param{oidP, intP}, sqltypes.TypeText, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		oid, n := uint32(a[0].I), a[1].I
		if f, ok := envOf(ctx).userFunction(oid); ok {
			if n < 1 || n > int64(len(f.Params)) {
				return sqltypes.Null, nil
			}
			p := f.Params[n-1]
			if p.Mode == 'o' || p.Mode == 't' || p.Default == "" {
				return sqltypes.Null, nil
			}
			return textV(defaultDeparse(p)), nil
		}
		if _, ok := procByOID(oid); !ok {
			return sqltypes.Null, nil
		}
		if d := builtinArgDefaults[oid]; n >= 1 && n <= int64(len(d)) && d[n-1] != "" {
			return textV(d[n-1]), nil
		}
		return sqltypes.Null, nil
	}))
}
