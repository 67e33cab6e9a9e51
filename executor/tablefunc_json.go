package executor

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// jsonTableRows computes the rows of a json set-returning function
// (json[b]_each[_text], json[b]_array_elements[_text],
// json[b]_object_keys) of one document; NULL gives no rows.
func jsonTableRows(name string, doc sqltypes.Value) ([][]sqltypes.Value, error) {
	if doc.IsNull() {
		return nil, nil
	}
	asText := strings.HasSuffix(name, "_text")
	var rows [][]sqltypes.Value
	switch {
	case strings.Contains(name, "_each"):
		keys, vals, err := sqltypes.JSONEach(doc, asText)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			rows = append(rows, []sqltypes.Value{sqltypes.NewText(k), vals[i]})
		}
	case strings.Contains(name, "_array_elements"):
		vals, err := sqltypes.JSONArrayElements(doc, asText)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			rows = append(rows, []sqltypes.Value{v})
		}
	default:
		keys, err := sqltypes.JSONObjectKeys(doc, name)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			rows = append(rows, []sqltypes.Value{sqltypes.NewText(k)})
		}
	}
	return rows, nil
}

// listRows streams rows computed ahead, with an ordinality column when
// asked (WITH ORDINALITY).
type listRows struct {
	rows       [][]sqltypes.Value
	pos        int
	ordinality bool
}

func (l *listRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if l.pos >= len(l.rows) {
		return nil, false, nil
	}
	l.pos++
	row := l.rows[l.pos-1]
	if l.ordinality {
		row = append(row[:len(row):len(row)], sqltypes.NewInt(int64(l.pos)))
	}
	return row, true, nil
}

func (l *listRows) Close() {}
