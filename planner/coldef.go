package planner

import (
	"strings"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Column definition lists: a function returning record in FROM is given
// its columns by the query, FROM f(...) AS t(a int, b text) (the parser
// carries each column's type in the alias, parser.SplitColumnDef). The
// json[b]_to_record(set) functions read the columns' values from an
// object's keys.

// columnDefTypes resolves the types of a column definition list, names
// its columns; nil when the alias has none.
func (b *Binder) columnDefTypes(names, typeNames []string) ([]sqltypes.Type, error) {
	if len(typeNames) == 0 {
		return nil, nil
	}
	out := make([]sqltypes.Type, len(typeNames))
	for i, tn := range typeNames {
		for _, prev := range names[:i] {
			if prev == names[i] {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column name %q specified more than once", names[i])
			}
		}
		t, err := b.castTypeName(tn)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// castTypeName resolves a type name as the parser writes it into
// zp_cast: a built-in type's canonical name, or a user-defined type's in
// double quotes, possibly followed by [].
func (b *Binder) castTypeName(name string) (sqltypes.Type, error) {
	if t, ok := sqltypes.ParseTypeName(name); ok {
		return t, nil
	}
	base, array := strings.CutSuffix(name, "[]")
	base = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(base, `"`), `"`), `""`, `"`)
	return b.userOrRowType(base, array)
}

// columnDefinitionRequired is PostgreSQL's error for a function returning
// record in FROM without a column definition list.
func columnDefinitionRequired() error {
	return pgerr.New(pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
}

// isJSONToRecord reports whether name is one of json[b]_to_record(set).
func isJSONToRecord(name string) bool {
	switch name {
	case "json_to_record", "json_to_recordset", "jsonb_to_record", "jsonb_to_recordset":
		return true
	}
	return false
}

// jsonToRecord binds json[b]_to_record(doc) and json[b]_to_recordset(doc)
// in FROM: a row (a row per object of the array) whose columns, as the
// column definition list gives them, are read from the object's keys of
// their names (sqltypes.PopulateRecord's coercions; a missing key is
// NULL).
func (b *Binder) jsonToRecord(name string, args []ir.Expr, names []string, types []sqltypes.Type) (*ir.TableFunc, error) {
	want := sqltypes.TypeJSON
	if strings.HasPrefix(name, "jsonb_") {
		want = sqltypes.TypeJSONB
	}
	if len(args) == 1 {
		b.inferParam(args[0], want)
		if args[0].Type().ID == sqltypes.Unknown {
			if c, err := b.coerceTo(args[0], want, false); err == nil {
				args[0] = c
			}
		}
	}
	if len(args) != 1 || args[0].Type().StripDomain().ID != want.ID {
		return nil, noFunction(name, args)
	}
	if types == nil {
		return nil, columnDefinitionRequired()
	}
	rec := sqltypes.AnonymousRecord(names, types)
	set := strings.HasSuffix(name, "set")
	tf := &ir.TableFunc{Name: name, Args: args}
	for i, n := range names {
		tf.Cols = append(tf.Cols, ir.Column{Name: n, Type: types[i], Col: -1})
	}
	tf.Fn = &builtins.Overload{CalledOnNull: true, Set: &builtins.SetFunc{
		Rows: func(_ *builtins.Context, a []sqltypes.Value) (builtins.SetRows, error) {
			var recs []sqltypes.Value
			if set {
				var err error
				if recs, err = sqltypes.PopulateRecordset(name, rec, sqltypes.Null, a[0]); err != nil {
					return nil, err
				}
			} else {
				r, err := sqltypes.PopulateRecord(rec, sqltypes.Null, a[0])
				if err != nil {
					return nil, err
				}
				recs = []sqltypes.Value{r}
			}
			rows := make([][]sqltypes.Value, len(recs))
			for i, r := range recs {
				if r.IsNull() {
					rows[i] = make([]sqltypes.Value, len(names))
					continue
				}
				rows[i] = r.Array().Elems
			}
			return builtins.Table(rows), nil
		}}}
	return tf, nil
}

// splitColumnDefs splits a FROM alias's column list into the columns'
// names and, for a column definition list, their types' names.
func splitColumnDefs(cols []string) (names, types []string) {
	for _, c := range cols {
		n, t := parser.SplitColumnDef(c)
		names = append(names, n)
		if t != "" {
			types = append(types, t)
		}
	}
	return names, types
}

// columnDefinitionNotAllowed is PostgreSQL's error for a column
// definition list on function name, bound as tf, which does not return
// record: zproxy has no function returning record in FROM but
// json[b]_to_record(set) (a user-defined one must declare its columns).
func columnDefinitionNotAllowed(name string, tf *ir.TableFunc) error {
	switch {
	case tf.Name == ir.ScalarRowTableFunc || strings.HasSuffix(name, "_populate_recordset"):
		return pgerr.New(pgerr.SyntaxError, "a column definition list is redundant for a function returning a named composite type")
	case len(tf.Cols) > 1 || hasOutColumns(name):
		return pgerr.New(pgerr.SyntaxError, "a column definition list is redundant for a function with OUT parameters")
	}
	return pgerr.New(pgerr.SyntaxError, "a column definition list is only allowed for functions returning \"record\"")
}
