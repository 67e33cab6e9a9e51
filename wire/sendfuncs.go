package wire

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The types' binary output functions (int4send, numeric_send, ...) are
// callable from SQL in PostgreSQL: int4send(1) is the bytea a client
// reading binary results gets, '\x00000001'. They are this package's
// binary encoder (AppendBinary), registered as functions.

// sendFunc is one of PostgreSQL's send functions: its name, the OID of
// its argument type and whether PostgreSQL declares it stable (the text
// types', which convert to the client encoding) rather than immutable.
type sendFunc struct {
	name   string
	oid    uint32
	stable bool
}

var sendFuncs = []sendFunc{
	{"boolsend", 16, false}, {"byteasend", 17, false}, {"charsend", 18, false}, {"namesend", 19, true},
	{"int8send", 20, false}, {"int2send", 21, false}, {"int2vectorsend", 22, false}, {"int4send", 23, false},
	{"regprocsend", 24, false}, {"textsend", 25, true}, {"oidsend", 26, false}, {"oidvectorsend", 30, false},
	{"json_send", 114, false}, {"float4send", 700, false}, {"float8send", 701, false},
	{"bpcharsend", 1042, true}, {"varcharsend", 1043, true}, {"date_send", 1082, false}, {"time_send", 1083, false},
	{"timestamp_send", 1114, false}, {"timestamptz_send", 1184, false}, {"interval_send", 1186, false},
	{"timetz_send", 1266, false}, {"numeric_send", 1700, false}, {"regproceduresend", 2202, false},
	{"regclasssend", 2205, false}, {"regtypesend", 2206, false}, {"void_send", 2278, false}, {"uuid_send", 2950, false},
	{"jsonb_send", 3802, false}, {"regnamespacesend", 4089, false}, {"regrolesend", 4096, false}, {"regcollationsend", 4191, false},
	{"bit_send", 1560, false}, {"varbit_send", 1562, false}, {"cash_send", 790, false},
	{"point_send", 600, false}, {"lseg_send", 601, false}, {"path_send", 602, false}, {"box_send", 603, false},
	{"poly_send", 604, false}, {"line_send", 628, false}, {"circle_send", 718, false},
	{"cidr_send", 650, false}, {"macaddr8_send", 774, false}, {"macaddr_send", 829, false}, {"inet_send", 869, false},
	{"tsvectorsend", 3614, false}, {"tsquerysend", 3615, false}, {"regconfigsend", 3734, false}, {"regdictionarysend", 3769, false},
	{"xml_send", 142, true}, {"pg_lsn_send", 3220, false}, {"xidsend", 28, false}, {"xid8send", 5069, false},
	{"tidsend", 27, false}, {"jsonpath_send", 4072, false}, {"regopersend", 2203, false}, {"regoperatorsend", 2204, false},
	{"ltree_send", sqltypes.LtreeOID, false}, {"lquery_send", sqltypes.LqueryOID, false}, {"ltxtq_send", sqltypes.LtxtqueryOID, false},
}

func init() {
	send := func(t sqltypes.Type) func(*builtins.Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *builtins.Context, a []sqltypes.Value) (sqltypes.Value, error) {
			b, err := AppendBinary(nil, t, a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewBytes(b), nil
		}
	}
	for _, f := range sendFuncs {
		t, ok := sqltypes.TypeByOID(f.oid)
		if !ok {
			panic("wire: send function " + f.name + " of a type sqltypes lacks")
		}
		vol := builtins.Immutable
		if f.stable {
			vol = builtins.Stable
		}
		builtins.Register(f.name, builtins.Overload{Params: []builtins.Param{builtins.T(t)}, Result: builtins.Returns(sqltypes.TypeBytea),
			Volatility: vol, Doc: "I/O: the binary wire form of a " + t.String(), Eval: send(t)})
	}
	// The arrays', ranges' and multiranges' send functions, over any
	// array (range, multirange) type: the element type (subtype) is the
	// argument's.
	arraySend := func(args []sqltypes.Type) func(*builtins.Context, []sqltypes.Value) (sqltypes.Value, error) {
		return send(args[0])
	}
	for _, f := range []struct {
		name   string
		pseudo builtins.Pseudo
		what   string
	}{{"array_send", builtins.AnyArray, "an array"}, {"anyarray_send", builtins.AnyArray, "an array"},
		{"anycompatiblearray_send", builtins.AnyCompatibleArray, "an array"}, {"range_send", builtins.AnyRange, "a range"},
		{"multirange_send", builtins.AnyMultirange, "a multirange"}} {
		builtins.Register(f.name, builtins.Overload{Params: []builtins.Param{{Any: true, Pseudo: f.pseudo}},
			Result: builtins.Returns(sqltypes.TypeBytea), Volatility: builtins.Stable, Doc: "I/O: the binary wire form of " + f.what, Typed: arraySend})
	}
}
