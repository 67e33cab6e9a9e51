package pgcatalog

import (
	"fmt"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The rows of information_schema's views, spelled as PostgreSQL 15 spells
// them (data_type names, YES/NO, the catalog being the current database).

func yesNo(b bool) sqltypes.Value {
	if b {
		return textV("YES")
	}
	return textV("NO")
}

func init() {
	generate("information_schema.schemata", func(e *Env) []row {
		var out []row
		for _, n := range namespaces {
			out = append(out, row{"catalog_name": nameV(e.database()), "schema_name": nameV(n.name), "schema_owner": nameV(BootstrapRole)})
		}
		return out
	})
	generate("information_schema.tables", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			var typ string
			switch {
			case o.kind == 'r':
				typ = "BASE TABLE"
			case o.kind == 'v':
				typ = "VIEW"
			default:
				continue
			}
			out = append(out, row{"table_catalog": nameV(e.database()), "table_schema": nameV(namespaceName(o.ns)), "table_name": nameV(o.name),
				"table_type": textV(typ), "is_insertable_into": yesNo(o.kind == 'r' && o.rel == nil), "is_typed": textV("NO")})
		}
		return out
	})
	generate("information_schema.columns", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'r' && o.kind != 'v' {
				continue
			}
			for i, c := range o.cols {
				out = append(out, columnRow(e, o, i, c))
			}
		}
		return out
	})
	generate("information_schema.views", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.view == nil {
				continue
			}
			out = append(out, row{"table_catalog": nameV(e.database()), "table_schema": nameV("public"), "table_name": nameV(o.name),
				"view_definition": textV(viewDef(o.view)), "check_option": textV("NONE"), "is_updatable": textV("NO"),
				"is_insertable_into": textV("NO"), "is_trigger_updatable": textV("NO"), "is_trigger_deletable": textV("NO"),
				"is_trigger_insertable_into": textV("NO")})
		}
		return out
	})
	constraints := func(e *Env, fn func(o *object, name, kind string, cols []string)) {
		for _, o := range e.objects().list {
			t := o.table
			if o.kind != 'r' || t == nil {
				continue
			}
			if !hasRowID(t) {
				var cols []string
				for _, k := range t.PrimaryKey {
					cols = append(cols, t.Columns[k.Column].Name)
				}
				fn(o, t.Name+"_pkey", "PRIMARY KEY", cols)
			}
			for _, c := range t.Checks {
				name := c.Name
				if name == "" {
					name = t.Name + "_check"
				}
				fn(o, name, "CHECK", nil)
			}
		}
	}
	generate("information_schema.table_constraints", func(e *Env) []row {
		var out []row
		add := func(o *object, name, kind string) {
			out = append(out, row{"constraint_catalog": nameV(e.database()), "constraint_schema": nameV("public"), "constraint_name": nameV(name),
				"table_catalog": nameV(e.database()), "table_schema": nameV("public"), "table_name": nameV(o.name), "constraint_type": textV(kind),
				"is_deferrable": textV("NO"), "initially_deferred": textV("NO"), "enforced": textV("YES"), "nulls_distinct": sqltypes.Null})
		}
		constraints(e, func(o *object, name, kind string, _ []string) { add(o, name, kind) })
		notNulls(e, func(o *object, name, _ string) { add(o, name, "CHECK") })
		return out
	})
	usage := func(e *Env, position bool) []row {
		var out []row
		constraints(e, func(o *object, name, kind string, cols []string) {
			for i, c := range cols {
				r := row{"constraint_catalog": nameV(e.database()), "constraint_schema": nameV("public"), "constraint_name": nameV(name),
					"table_catalog": nameV(e.database()), "table_schema": nameV("public"), "table_name": nameV(o.name), "column_name": nameV(c)}
				if position {
					r["ordinal_position"] = intV(int64(i + 1))
					r["position_in_unique_constraint"] = sqltypes.Null
				}
				out = append(out, r)
			}
		})
		return out
	}
	generate("information_schema.key_column_usage", func(e *Env) []row { return usage(e, true) })
	generate("information_schema.constraint_column_usage", func(e *Env) []row { return usage(e, false) })
	generate("information_schema.check_constraints", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'r' || o.table == nil {
				continue
			}
			for _, c := range o.table.Checks {
				name := c.Name
				if name == "" {
					name = o.name + "_check"
				}
				out = append(out, row{"constraint_catalog": nameV(e.database()), "constraint_schema": nameV("public"),
					"constraint_name": nameV(name), "check_clause": textV("(" + c.SQL + ")")})
			}
		}
		notNulls(e, func(_ *object, name, col string) {
			out = append(out, row{"constraint_catalog": nameV(e.database()), "constraint_schema": nameV("public"),
				"constraint_name": nameV(name), "check_clause": textV(quoteIdentIfNeeded(col) + " IS NOT NULL")})
		})
		return out
	})
	generate("information_schema.routines", func(e *Env) []row {
		var out []row
		for _, p := range allProcs() {
			spec := p.name + "_" + itoa(int64(p.oid))
			out = append(out, row{"specific_catalog": nameV(e.database()), "specific_schema": nameV("pg_catalog"), "specific_name": nameV(spec),
				"routine_catalog": nameV(e.database()), "routine_schema": nameV("pg_catalog"), "routine_name": nameV(p.name),
				"routine_type": textV("FUNCTION"), "data_type": textV(infoDataType(p.ret)), "type_udt_catalog": nameV(e.database()),
				"type_udt_schema": nameV("pg_catalog"), "type_udt_name": nameV(typeNameOf(p.ret)), "routine_body": textV("EXTERNAL"),
				"external_language": textV("INTERNAL"), "parameter_style": textV("GENERAL"), "is_deterministic": yesNo(p.vol == 'i'),
				"sql_data_access": textV("MODIFIES"), "is_null_call": yesNo(p.strict), "security_type": textV("INVOKER"),
				"is_user_defined_cast": textV("NO"), "is_implicitly_invocable": textV("NO"), "as_locator": textV("NO")})
		}
		return out
	})
	generate("information_schema.sequences", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if q := o.seq; q != nil {
				t := seqType(q)
				out = append(out, row{"sequence_catalog": nameV(e.database()), "sequence_schema": nameV("public"), "sequence_name": nameV(q.Name),
					"data_type": textV(t.String()), "numeric_precision": intV(int64(numericPrecision(t))), "numeric_precision_radix": intV(2),
					"numeric_scale": intV(0), "start_value": textV(itoa(q.Start)), "minimum_value": textV(itoa(q.Min)),
					"maximum_value": textV(itoa(q.Max)), "increment": textV(itoa(q.Increment)), "cycle_option": yesNo(q.Cycle)})
			}
		}
		return out
	})
}

func itoa(i int64) string { return sqltypes.FormatText(sqltypes.NewInt(i)) }

func typeNameOf(oid uint32) string {
	if t, ok := typesByOID[oid]; ok {
		return t.name
	}
	return ""
}

// infoDataType is data_type: the SQL name without modifiers, ARRAY for
// arrays, USER-DEFINED for types zproxy does not know.
func infoDataType(oid uint32) string {
	if st, ok := sqltypes.TypeByOID(oid); ok {
		return st.InfoSchemaName()
	}
	if t, ok := typesByOID[oid]; ok {
		if t.category == 'A' {
			return "ARRAY"
		}
		return t.name
	}
	return "USER-DEFINED"
}

func numericPrecision(t sqltypes.Type) int {
	switch t.ID {
	case sqltypes.Int2:
		return 16
	case sqltypes.Int4:
		return 32
	case sqltypes.Int8:
		return 64
	case sqltypes.Float4:
		return 24
	case sqltypes.Float8:
		return 53
	}
	return 0
}

// columnRow is one row of information_schema.columns.
func columnRow(e *Env, o *object, i int, c column) row {
	t := c.typ
	udt := typeNameOf(t.OID())
	r := row{"table_catalog": nameV(e.database()), "table_schema": nameV(namespaceName(o.ns)), "table_name": nameV(o.name),
		"column_name": nameV(c.name), "ordinal_position": intV(int64(i + 1)), "is_nullable": yesNo(!c.notNull),
		"data_type": textV(t.InfoSchemaName()), "udt_catalog": nameV(e.database()), "udt_schema": nameV("pg_catalog"), "udt_name": nameV(udt),
		"dtd_identifier": textV(itoa(int64(i + 1))), "is_self_referencing": textV("NO"), "is_identity": yesNo(c.ident != ""),
		"is_generated": textV("NEVER"), "is_updatable": yesNo(o.kind == 'r' && o.rel == nil)}
	if t.ID.System() {
		r["data_type"] = textV(typeNameOf(t.OID()))
	}
	if c.deflt != "" {
		r["column_default"] = textV(c.deflt)
	}
	switch {
	case t.ID == sqltypes.Varchar || t.ID == sqltypes.BPChar:
		if t.Width > 0 {
			r["character_maximum_length"] = intV(int64(t.Width))
			r["character_octet_length"] = intV(int64(t.Width) * 4)
		} else {
			r["character_octet_length"] = intV(1073741824)
		}
	case t.ID == sqltypes.Text:
		r["character_octet_length"] = intV(1073741824)
	case t.ID == sqltypes.Numeric:
		r["numeric_precision_radix"] = intV(10)
		if p, s, ok := t.NumericPrecision(); ok {
			r["numeric_precision"], r["numeric_scale"] = intV(int64(p)), intV(int64(s))
		}
	case numericPrecision(t) > 0:
		r["numeric_precision"] = intV(int64(numericPrecision(t)))
		r["numeric_precision_radix"] = intV(2)
		if t.Kind() == sqltypes.KindInt {
			r["numeric_scale"] = intV(0)
		}
	case t.ID == sqltypes.Date:
		r["datetime_precision"] = intV(0)
	case t.DatetimePrecision() >= 0:
		r["datetime_precision"] = intV(int64(t.DatetimePrecision()))
	case t.ID == sqltypes.Timestamp || t.ID == sqltypes.TimestampTZ || t.ID == sqltypes.Time || t.ID == sqltypes.TimeTZ || t.ID == sqltypes.Interval:
		r["datetime_precision"] = intV(6)
	}
	if collationOf(t) == CollationDflt && t.ID != sqltypes.Array {
		// PostgreSQL names no collation for the default one.
		r["collation_name"] = sqltypes.Null
	}
	if c.ident != "" {
		r["identity_generation"] = textV(map[string]string{"a": "ALWAYS", "d": "BY DEFAULT"}[c.ident])
		r["identity_cycle"] = textV("NO")
	}
	return r
}

// notNulls calls fn for each NOT NULL column of each table, with the name
// information_schema gives the constraint in PostgreSQL 15
// (<schema oid>_<table oid>_<attnum>_not_null).
func notNulls(e *Env, fn func(o *object, name, col string)) {
	for _, o := range e.objects().list {
		if o.kind != 'r' || o.table == nil {
			continue
		}
		for i, c := range o.cols {
			if c.notNull {
				fn(o, fmt.Sprintf("%d_%d_%d_not_null", o.ns, o.oid, i+1), c.name)
			}
		}
	}
}
