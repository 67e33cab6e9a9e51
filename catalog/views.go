package catalog

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Virtual tables. The catalog answers the information_schema and pg_catalog
// views clients read to discover tables and columns (ORMs, BI tools, psql's
// simpler queries). A view is a Table without a store presence (Virtual
// set) whose rows the snapshot computes; the optimizer reads them with a
// rowset instead of a scan.

// viewDef is one view: its columns and how to compute its rows.
type viewDef struct {
	columns []Column
	rows    func(s *Snapshot) [][]sqltypes.Value
}

func textCol(name string) Column { return Column{Name: name, Type: sqltypes.TypeText} }

var views = map[string]map[string]viewDef{
	"information_schema": {
		"tables": {
			columns: []Column{textCol("table_catalog"), textCol("table_schema"), textCol("table_name"), textCol("table_type")},
			rows: func(s *Snapshot) [][]sqltypes.Value {
				var out [][]sqltypes.Value
				for _, t := range s.Tables() {
					out = append(out, texts("zproxy", "public", t.Name, "BASE TABLE"))
				}
				return out
			},
		},
		"columns": {
			columns: []Column{textCol("table_catalog"), textCol("table_schema"), textCol("table_name"), textCol("column_name"),
				{Name: "ordinal_position", Type: sqltypes.TypeInt4}, textCol("column_default"), textCol("is_nullable"),
				textCol("data_type"), {Name: "character_maximum_length", Type: sqltypes.TypeInt4}},
			rows: func(s *Snapshot) [][]sqltypes.Value {
				var out [][]sqltypes.Value
				for _, t := range s.Tables() {
					for i, c := range t.Columns {
						if c.Hidden {
							continue
						}
						nullable := "YES"
						if c.NotNull {
							nullable = "NO"
						}
						maxLen := sqltypes.Null
						if (c.Type.ID == sqltypes.Varchar || c.Type.ID == sqltypes.BPChar) && c.Type.Width > 0 {
							maxLen = sqltypes.NewInt(int64(c.Type.Width))
						}
						dataType := c.Type.InfoSchemaName()
						row := append(texts("zproxy", "public", t.Name, c.Name), sqltypes.NewInt(int64(i+1)), sqltypes.Null,
							sqltypes.NewText(nullable), sqltypes.NewText(dataType), maxLen)
						out = append(out, row)
					}
				}
				return out
			},
		},
	},
	"pg_catalog": {
		"pg_tables": {
			columns: []Column{textCol("schemaname"), textCol("tablename"), textCol("tableowner"), {Name: "hasindexes", Type: sqltypes.TypeBool}},
			rows: func(s *Snapshot) [][]sqltypes.Value {
				var out [][]sqltypes.Value
				for _, t := range s.Tables() {
					out = append(out, append(texts("public", t.Name, "zproxy"), sqltypes.NewBool(true)))
				}
				return out
			},
		},
	},
}

func texts(ss ...string) []sqltypes.Value {
	out := make([]sqltypes.Value, len(ss))
	for i, s := range ss {
		out[i] = sqltypes.NewText(s)
	}
	return out
}

// View returns the virtual table schema.name (schema "" looks in
// pg_catalog, which PostgreSQL searches implicitly) with its rows as of
// this snapshot.
func (s *Snapshot) View(schema, name string) (*Table, bool) {
	if schema == "" {
		schema = "pg_catalog"
	}
	def, ok := views[schema][name]
	if !ok {
		return nil, false
	}
	return &Table{Name: schema + "." + name, Columns: def.columns, Virtual: def.rows(s)}, true
}
