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
			out = append(out, &isSchemataRow{CatalogName: nameV(e.database()), SchemaName: nameV(n.name), SchemaOwner: nameV(BootstrapRole)})
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
			out = append(out, &isTablesRow{TableCatalog: nameV(e.database()), TableSchema: nameV(namespaceName(o.ns)), TableName: nameV(o.name),
				TableType: textV(typ), IsInsertableInto: yesNo(o.kind == 'r' && o.rel == nil), IsTyped: textV("NO")})
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
			out = append(out, &isViewsRow{TableCatalog: nameV(e.database()), TableSchema: nameV("public"), TableName: nameV(o.name),
				ViewDefinition: textV(viewDef(o.view)), CheckOption: textV("NONE"), IsUpdatable: textV("NO"),
				IsInsertableInto: textV("NO"), IsTriggerUpdatable: textV("NO"), IsTriggerDeletable: textV("NO"),
				IsTriggerInsertableInto: textV("NO")})
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
			out = append(out, &isTableConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV("public"), ConstraintName: nameV(name),
				TableCatalog: nameV(e.database()), TableSchema: nameV("public"), TableName: nameV(o.name), ConstraintType: textV(kind),
				IsDeferrable: textV("NO"), InitiallyDeferred: textV("NO"), Enforced: textV("YES"), NullsDistinct: sqltypes.Null})
		}
		constraints(e, func(o *object, name, kind string, _ []string) { add(o, name, kind) })
		notNulls(e, func(o *object, name, _ string) { add(o, name, "CHECK") })
		return out
	})
	generate("information_schema.key_column_usage", func(e *Env) []row {
		var out []row
		constraints(e, func(o *object, name, kind string, cols []string) {
			for i, c := range cols {
				out = append(out, &isKeyColumnUsageRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV("public"),
					ConstraintName: nameV(name), TableCatalog: nameV(e.database()), TableSchema: nameV("public"),
					TableName: nameV(o.name), ColumnName: nameV(c), OrdinalPosition: intV(int64(i + 1))})
			}
		})
		return out
	})
	generate("information_schema.constraint_column_usage", func(e *Env) []row {
		var out []row
		constraints(e, func(o *object, name, kind string, cols []string) {
			for _, c := range cols {
				out = append(out, &isConstraintColumnUsageRow{TableCatalog: nameV(e.database()), TableSchema: nameV("public"),
					TableName: nameV(o.name), ColumnName: nameV(c), ConstraintCatalog: nameV(e.database()),
					ConstraintSchema: nameV("public"), ConstraintName: nameV(name)})
			}
		})
		return out
	})
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
				out = append(out, &isCheckConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV("public"),
					ConstraintName: nameV(name), CheckClause: textV("(" + c.SQL + ")")})
			}
		}
		notNulls(e, func(_ *object, name, col string) {
			out = append(out, &isCheckConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV("public"),
				ConstraintName: nameV(name), CheckClause: textV(quoteIdentIfNeeded(col) + " IS NOT NULL")})
		})
		return out
	})
	generate("information_schema.routines", func(e *Env) []row {
		var out []row
		for _, p := range allProcs() {
			spec := p.name + "_" + itoa(int64(p.oid))
			out = append(out, &isRoutinesRow{SpecificCatalog: nameV(e.database()), SpecificSchema: nameV("pg_catalog"), SpecificName: nameV(spec),
				RoutineCatalog: nameV(e.database()), RoutineSchema: nameV("pg_catalog"), RoutineName: nameV(p.name),
				RoutineType: textV("FUNCTION"), DataType: textV(infoDataType(p.ret)), TypeUdtCatalog: nameV(e.database()),
				TypeUdtSchema: nameV("pg_catalog"), TypeUdtName: nameV(typeNameOf(p.ret)), RoutineBody: textV("EXTERNAL"),
				ExternalLanguage: textV("INTERNAL"), ParameterStyle: textV("GENERAL"), IsDeterministic: yesNo(p.vol == 'i'),
				SqlDataAccess: textV("MODIFIES"), IsNullCall: yesNo(p.strict), SecurityType: textV("INVOKER"),
				IsUserDefinedCast: textV("NO"), IsImplicitlyInvocable: textV("NO"), AsLocator: textV("NO")})
		}
		return out
	})
	generate("information_schema.sequences", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if q := o.seq; q != nil {
				t := seqType(q)
				out = append(out, &isSequencesRow{SequenceCatalog: nameV(e.database()), SequenceSchema: nameV("public"), SequenceName: nameV(q.Name),
					DataType: textV(t.String()), NumericPrecision: intV(int64(numericPrecision(t))), NumericPrecisionRadix: intV(2),
					NumericScale: intV(0), StartValue: textV(itoa(q.Start)), MinimumValue: textV(itoa(q.Min)),
					MaximumValue: textV(itoa(q.Max)), Increment: textV(itoa(q.Increment)), CycleOption: yesNo(q.Cycle)})
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
func columnRow(e *Env, o *object, i int, c column) *isColumnsRow {
	t := c.typ
	udt := typeNameOf(t.OID())
	r := &isColumnsRow{TableCatalog: nameV(e.database()), TableSchema: nameV(namespaceName(o.ns)), TableName: nameV(o.name),
		ColumnName: nameV(c.name), OrdinalPosition: intV(int64(i + 1)), IsNullable: yesNo(!c.notNull),
		DataType: textV(t.InfoSchemaName()), UdtCatalog: nameV(e.database()), UdtSchema: nameV("pg_catalog"), UdtName: nameV(udt),
		DtdIdentifier: textV(itoa(int64(i + 1))), IsSelfReferencing: textV("NO"), IsIdentity: yesNo(c.ident != ""),
		IsGenerated: textV("NEVER"), IsUpdatable: yesNo(o.kind == 'r' && o.rel == nil)}
	if t.ID.System() {
		r.DataType = textV(typeNameOf(t.OID()))
	}
	if c.deflt != "" {
		r.ColumnDefault = textV(c.deflt)
	}
	switch {
	case t.ID == sqltypes.Varchar || t.ID == sqltypes.BPChar:
		if t.Width > 0 {
			r.CharacterMaximumLength = intV(int64(t.Width))
			r.CharacterOctetLength = intV(int64(t.Width) * 4)
		} else {
			r.CharacterOctetLength = intV(1073741824)
		}
	case t.ID == sqltypes.Text:
		r.CharacterOctetLength = intV(1073741824)
	case t.ID == sqltypes.Numeric:
		r.NumericPrecisionRadix = intV(10)
		if p, s, ok := t.NumericPrecision(); ok {
			r.NumericPrecision, r.NumericScale = intV(int64(p)), intV(int64(s))
		}
	case numericPrecision(t) > 0:
		r.NumericPrecision = intV(int64(numericPrecision(t)))
		r.NumericPrecisionRadix = intV(2)
		if t.Kind() == sqltypes.KindInt {
			r.NumericScale = intV(0)
		}
	case t.ID == sqltypes.Date:
		r.DatetimePrecision = intV(0)
	case t.DatetimePrecision() >= 0:
		r.DatetimePrecision = intV(int64(t.DatetimePrecision()))
	case t.ID == sqltypes.Timestamp || t.ID == sqltypes.TimestampTZ || t.ID == sqltypes.Time || t.ID == sqltypes.TimeTZ || t.ID == sqltypes.Interval:
		r.DatetimePrecision = intV(6)
	}
	if collationOf(t) == CollationDflt && t.ID != sqltypes.Array {
		// PostgreSQL names no collation for the default one.
		r.CollationName = sqltypes.Null
	}
	if c.ident != "" {
		r.IdentityGeneration = textV(map[string]string{"a": "ALWAYS", "d": "BY DEFAULT"}[c.ident])
		r.IdentityCycle = textV("NO")
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
