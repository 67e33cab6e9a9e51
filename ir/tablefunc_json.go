package ir

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// JSONTableFunc is a json set-returning function: the document type it
// takes and the columns it returns (package executor computes them).
type JSONTableFunc struct {
	Doc  sqltypes.Type
	Cols []Column
}

// JSONTableFuncs are the json set-returning functions by name.
var JSONTableFuncs = map[string]JSONTableFunc{}

func init() {
	for _, doc := range []sqltypes.Type{sqltypes.TypeJSON, sqltypes.TypeJSONB} {
		p := doc.String()
		col := func(n string, t sqltypes.Type) Column { return Column{Name: n, Type: t, Col: -1} }
		add := func(name string, cols ...Column) { JSONTableFuncs[name] = JSONTableFunc{doc, cols} }
		add(p+"_each", col("key", sqltypes.TypeText), col("value", doc))
		add(p+"_each_text", col("key", sqltypes.TypeText), col("value", sqltypes.TypeText))
		add(p+"_array_elements", col("value", doc))
		add(p+"_array_elements_text", col("value", sqltypes.TypeText))
		add(p+"_object_keys", col(p+"_object_keys", sqltypes.TypeText))
	}
}

// IsJSONTableFunc reports whether name is one of the json set-returning
// functions.
func IsJSONTableFunc(name string) bool { _, ok := JSONTableFuncs[name]; return ok }
