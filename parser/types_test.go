package parser

import (
	"fmt"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestNewTypeNames checks every spelling of the issue 14 types in a column
// definition and in both cast forms.
func TestNewTypeNames(t *testing.T) {
	tests := []struct {
		in   string
		want sqltypes.Type
	}{
		{"numeric", sqltypes.TypeNumeric},
		{"NUMERIC(10)", sqltypes.NumericType(10, 0)},
		{"numeric(10, 2)", sqltypes.NumericType(10, 2)},
		{"numeric(5,-2)", sqltypes.NumericType(5, -2)},
		{"decimal(1000,1000)", sqltypes.NumericType(1000, 1000)},
		{"dec", sqltypes.TypeNumeric},
		{"interval", sqltypes.TypeInterval},
		{"interval(3)", sqltypes.IntervalType(sqltypes.IntervalFull, 3)},
		{"interval day", sqltypes.IntervalType(sqltypes.IntervalDay, -1)},
		{"interval year to month", sqltypes.IntervalType(sqltypes.IntervalYear|sqltypes.IntervalMonth, -1)},
		{"interval day to second(3)", sqltypes.IntervalType(sqltypes.IntervalDay|sqltypes.IntervalHour|sqltypes.IntervalMinute|sqltypes.IntervalSecond, 3)},
		{"interval second(9)", sqltypes.IntervalType(sqltypes.IntervalSecond, 6)},
		{"char", sqltypes.Type{ID: sqltypes.BPChar, Width: 1}},
		{"character", sqltypes.Type{ID: sqltypes.BPChar, Width: 1}},
		{"char(10)", sqltypes.Type{ID: sqltypes.BPChar, Width: 10}},
		{"character(3)", sqltypes.Type{ID: sqltypes.BPChar, Width: 3}},
		{"bpchar", sqltypes.TypeBPChar},
		{"char varying(4)", sqltypes.Type{ID: sqltypes.Varchar, Width: 4}},
		{"json", sqltypes.TypeJSON},
		{"jsonb", sqltypes.TypeJSONB},
		{"text[]", sqltypes.ArrayOf(sqltypes.TypeText)},
		{"bigint[]", sqltypes.ArrayOf(sqltypes.TypeInt8)},
		{"int[][]", sqltypes.ArrayOf(sqltypes.TypeInt4)},
		{"int[3]", sqltypes.ArrayOf(sqltypes.TypeInt4)},
		{"integer array", sqltypes.ArrayOf(sqltypes.TypeInt4)},
		{"integer array[4]", sqltypes.ArrayOf(sqltypes.TypeInt4)},
		{"numeric(10,2)[]", sqltypes.ArrayOf(sqltypes.NumericType(10, 2))},
		{"varchar(5)[]", sqltypes.ArrayOf(sqltypes.Type{ID: sqltypes.Varchar, Width: 5})},
		{"timestamp with time zone[]", sqltypes.ArrayOf(sqltypes.TypeTimestampTZ)},
		{"double precision[]", sqltypes.ArrayOf(sqltypes.TypeFloat8)},
		{"jsonb[]", sqltypes.ArrayOf(sqltypes.TypeJSONB)},
		{"interval[]", sqltypes.ArrayOf(sqltypes.TypeInterval)},
		{"uuid[]", sqltypes.ArrayOf(sqltypes.TypeUUID)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			st := parseOneOK(t, fmt.Sprintf("CREATE TABLE t (a %s, b int)", tt.in))
			ct := st.AST.(*ast.CreateTableStmt)
			if got, err := ColumnType(ct.Cols[0].Tp); err != nil || got != tt.want {
				t.Errorf("column type %v, %v; want %v", got, err, tt.want)
			}
			if got, err := ColumnType(ct.Cols[1].Tp); err != nil || got != sqltypes.TypeInt4 {
				t.Errorf("next column type %v, %v", got, err)
			}
			st = parseOneOK(t, fmt.Sprintf("SELECT a::%s, CAST(a AS %s) FROM t", tt.in, tt.in))
			for _, f := range st.AST.(*ast.SelectStmt).Fields.Fields {
				if _, got, ok := CastOf(f.Expr); !ok || got != tt.want {
					t.Errorf("cast type %v, %v; want %v", got, ok, tt.want)
				}
			}
		})
	}
}

// TestTypeNameRoundTrip: every type's String parses back to itself, so
// casts and enum-carried column types survive the TiDB text.
func TestTypeNameRoundTrip(t *testing.T) {
	var types []sqltypes.Type
	for _, typ := range sqltypes.AllTypes() {
		types = append(types, typ, sqltypes.ArrayOf(typ))
	}
	types = append(types, sqltypes.NumericType(7, 3), sqltypes.NumericType(3, -1), sqltypes.Type{ID: sqltypes.BPChar, Width: 8},
		sqltypes.IntervalType(sqltypes.IntervalHour|sqltypes.IntervalMinute, -1), sqltypes.IntervalType(sqltypes.IntervalSecond, 0))
	for _, typ := range types {
		got, ok := typeFromName(typ.String())
		if !ok || got != typ {
			t.Errorf("typeFromName(%q) = %v, %v", typ.String(), got, ok)
		}
	}
}

func TestTypeModifierErrors(t *testing.T) {
	tests := []struct {
		in   string
		code string
		msg  string
	}{
		{"SELECT 1::numeric(0)", pgerr.InvalidParameterValue.String(), "NUMERIC precision 0 must be between 1 and 1000"},
		{"SELECT 1::numeric(1001)", pgerr.InvalidParameterValue.String(), "NUMERIC precision 1001 must be between 1 and 1000"},
		{"SELECT 1::numeric(5,1001)", pgerr.InvalidParameterValue.String(), "NUMERIC scale 1001 must be between -1000 and 1000"},
		{"SELECT 'a'::char(0)", pgerr.InvalidParameterValue.String(), "length for type char must be at least 1"},
		{"SELECT 'a'::char(10485761)", pgerr.InvalidParameterValue.String(), "length for type char cannot exceed 10485760"},
		{"SELECT '1'::interval(-1)", pgerr.SyntaxError.String(), `syntax error at or near "-"`},
		{"SELECT 1::numeric(1,2,3)", pgerr.InvalidParameterValue.String(), "invalid NUMERIC type modifier"},
		{"SELECT 1::int[x]", pgerr.SyntaxError.String(), ""},
		{"CREATE TABLE t (a pg_node_tree)", pgerr.FeatureNotSupported.String(), "type pg_node_tree is not supported"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		e, ok := err.(*pgerr.Error)
		if !ok || e.Code.String() != tt.code || tt.msg != "" && e.Message != tt.msg {
			t.Errorf("Parse(%q) = %v, want %s %q", tt.in, err, tt.code, tt.msg)
		}
	}
}
