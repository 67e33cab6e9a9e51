package pgcatalog

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
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
		if e.Snap != nil {
			for _, sc := range e.Snap.Schemas() {
				out = append(out, &isSchemataRow{CatalogName: nameV(e.database()), SchemaName: nameV(sc.Name), SchemaOwner: nameV(sc.Owner)})
			}
		}
		return out
	})
	generate("information_schema.tables", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			var typ string
			switch {
			case o.isTable() && o.persistence() == 't':
				typ = "LOCAL TEMPORARY"
			case o.isTable():
				typ = "BASE TABLE"
			case o.kind == 'v':
				typ = "VIEW"
			default:
				continue
			}
			out = append(out, &isTablesRow{TableCatalog: nameV(e.database()), TableSchema: nameV(e.namespaceName(o.ns)), TableName: nameV(o.name),
				TableType: textV(typ), IsInsertableInto: yesNo(o.isTable() && o.rel == nil || o.view != nil && e.relationUpdatable(o, nil, false, nil)&eventInsert != 0),
				IsTyped: textV("NO")})
		}
		return out
	})
	generate("information_schema.columns", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if !o.isTable() && o.kind != 'v' {
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
			def, _ := e.viewDefinition(o, false)
			// As PostgreSQL's view defines them: from
			// pg_relation_is_updatable(oid, false) and the view's
			// INSTEAD OF row triggers.
			events, instead := e.relationUpdatable(o, nil, false, nil), insteadEvents(o.view)
			out = append(out, &isViewsRow{TableCatalog: nameV(e.database()), TableSchema: nameV(e.namespaceName(o.ns)), TableName: nameV(o.name),
				ViewDefinition: textV(def), CheckOption: textV("NONE"), IsUpdatable: yesNo(events&(eventUpdate|eventDelete) == eventUpdate|eventDelete),
				IsInsertableInto: yesNo(events&eventInsert != 0), IsTriggerUpdatable: yesNo(instead&eventUpdate != 0),
				IsTriggerDeletable: yesNo(instead&eventDelete != 0), IsTriggerInsertableInto: yesNo(instead&eventInsert != 0)})
		}
		return out
	})
	constraints := func(e *Env, fn func(c tableConstraint)) {
		for _, o := range e.objects().list {
			t := o.table
			if !o.isTable() || t == nil {
				continue
			}
			if !hasRowID(t) {
				var cols []string
				for _, k := range t.PrimaryKey {
					cols = append(cols, t.Columns[k.Column].Name)
				}
				fn(tableConstraint{o: o, name: t.PrimaryKeyName(), kind: "PRIMARY KEY", cols: cols})
			}
			for _, c := range t.Checks {
				name := c.Name
				if name == "" {
					name = t.Name + "_check"
				}
				fn(tableConstraint{o: o, name: name, kind: "CHECK"})
			}
			for _, ix := range t.Indexes {
				if ix.Constraint && ix.Exclusion == nil { // PostgreSQL's view leaves exclusion constraints out
					var cols []string
					for _, k := range ix.Columns {
						cols = append(cols, t.Columns[k.Column].Name)
					}
					fn(tableConstraint{o: o, name: ix.Name, kind: "UNIQUE", cols: cols, nullsDistinct: yesNo(!ix.NullsNotDistinct), index: ix})
				}
			}
			for i := range t.ForeignKeys {
				fk := &t.ForeignKeys[i]
				ref, err := e.Snap.TableByKey(fk.RefTable)
				if err != nil {
					continue
				}
				c := tableConstraint{o: o, name: fk.Name, kind: "FOREIGN KEY", fk: fk, refTable: ref}
				for _, col := range fk.Columns {
					c.cols = append(c.cols, t.Columns[col].Name)
				}
				for _, col := range fk.RefColumns {
					c.refCols = append(c.refCols, ref.Columns[col].Name)
				}
				fn(c)
			}
		}
	}
	generate("information_schema.table_constraints", func(e *Env) []row {
		var out []row
		add := func(o *object, name, kind string, deferrable, deferred bool, nullsDistinct sqltypes.Value) {
			out = append(out, &isTableConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(e.namespaceName(o.ns)), ConstraintName: nameV(name),
				TableCatalog: nameV(e.database()), TableSchema: nameV(e.namespaceName(o.ns)), TableName: nameV(o.name), ConstraintType: textV(kind),
				IsDeferrable: yesNo(deferrable), InitiallyDeferred: yesNo(deferred), Enforced: textV("YES"), NullsDistinct: nullsDistinct})
		}
		constraints(e, func(c tableConstraint) {
			deferrable, deferred := false, false
			switch {
			case c.fk != nil:
				deferrable, deferred = c.fk.Deferrable, c.fk.InitiallyDeferred
			case c.index != nil:
				deferrable, deferred = c.index.Deferrable, c.index.InitiallyDeferred
			}
			nd := c.nullsDistinct
			if c.kind != "UNIQUE" {
				nd = sqltypes.Null
			}
			add(c.o, c.name, c.kind, deferrable, deferred, nd)
		})
		notNulls(e, func(o *object, name, _ string) { add(o, name, "CHECK", false, false, sqltypes.Null) })
		return out
	})
	generate("information_schema.key_column_usage", func(e *Env) []row {
		var out []row
		constraints(e, func(c tableConstraint) {
			for i, col := range c.cols {
				r := &isKeyColumnUsageRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(e.namespaceName(c.o.ns)),
					ConstraintName: nameV(c.name), TableCatalog: nameV(e.database()), TableSchema: nameV(e.namespaceName(c.o.ns)),
					TableName: nameV(c.o.name), ColumnName: nameV(col), OrdinalPosition: intV(int64(i + 1))}
				if c.fk != nil {
					// The position of the referenced column in the key it
					// references.
					if _, order, ok := c.refTable.KeyFor(c.fk.RefColumns); ok {
						for pos, j := range order {
							if j == i {
								r.PositionInUniqueConstraint = intV(int64(pos + 1))
							}
						}
					}
				}
				out = append(out, r)
			}
		})
		return out
	})
	generate("information_schema.constraint_column_usage", func(e *Env) []row {
		var out []row
		constraints(e, func(c tableConstraint) {
			// A foreign key uses the columns it references, as in
			// PostgreSQL; the other constraints their own.
			schema, table, cols := e.namespaceName(c.o.ns), c.o.name, c.cols
			if c.fk != nil {
				table, cols = c.refTable.BareName(), c.refCols
				if sc, _ := catalog.SplitName(c.refTable.Name); !c.refTable.Temp {
					schema = sc
				}
			}
			for _, col := range cols {
				out = append(out, &isConstraintColumnUsageRow{TableCatalog: nameV(e.database()), TableSchema: nameV(schema),
					TableName: nameV(table), ColumnName: nameV(col), ConstraintCatalog: nameV(e.database()),
					ConstraintSchema: nameV(e.namespaceName(c.o.ns)), ConstraintName: nameV(c.name)})
			}
		})
		return out
	})
	generate("information_schema.referential_constraints", func(e *Env) []row {
		var out []row
		constraints(e, func(c tableConstraint) {
			if c.fk == nil {
				return
			}
			unique := c.refTable.PrimaryKeyName()
			if ix, _, ok := c.refTable.KeyFor(c.fk.RefColumns); ok && ix != nil {
				unique = ix.Name
			}
			match := "NONE"
			if c.fk.MatchFull {
				match = "FULL"
			}
			rule := func(a catalog.FKAction) string {
				if a == "" {
					return string(catalog.NoAction)
				}
				return string(a)
			}
			refSchema, _ := catalog.SplitName(c.refTable.Name)
			out = append(out, &isReferentialConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(e.namespaceName(c.o.ns)),
				ConstraintName: nameV(c.name), UniqueConstraintCatalog: nameV(e.database()), UniqueConstraintSchema: nameV(refSchema),
				UniqueConstraintName: nameV(unique), MatchOption: textV(match), UpdateRule: textV(rule(c.fk.OnUpdate)), DeleteRule: textV(rule(c.fk.OnDelete))})
		})
		return out
	})
	generate("information_schema.check_constraints", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if !o.isTable() || o.table == nil {
				continue
			}
			for _, c := range o.table.Checks {
				name := c.Name
				if name == "" {
					name = o.name + "_check"
				}
				out = append(out, &isCheckConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(e.namespaceName(o.ns)),
					ConstraintName: nameV(name), CheckClause: textV("(" + c.SQL + ")")})
			}
		}
		notNulls(e, func(o *object, name, col string) {
			out = append(out, &isCheckConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(e.namespaceName(o.ns)),
				ConstraintName: nameV(name), CheckClause: textV(sqltypes.QuoteIdent(col) + " IS NOT NULL")})
		})
		return append(out, e.domainCheckConstraints()...)
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
				out = append(out, &isSequencesRow{SequenceCatalog: nameV(e.database()), SequenceSchema: nameV(e.namespaceName(o.ns)), SequenceName: nameV(o.name),
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
	domain := c.typ.Domain
	if !c.typ.IsDomain() {
		return typeColumnsRow(e, o, i, c)
	}
	// A column of a domain is described by the domain's base type (one
	// level down, as _pg_truetypid reads it).
	c.typ = domain.Base
	r := typeColumnsRow(e, o, i, c)
	dsc, dname := catalog.SplitName(domain.Name)
	r.DomainCatalog, r.DomainSchema, r.DomainName = nameV(e.database()), nameV(dsc), nameV(dname)
	if domain.NotNull {
		r.IsNullable = yesNo(false)
	}
	return r
}

// typeColumnsRow is columnRow of a column whose type is c.typ itself.
func typeColumnsRow(e *Env, o *object, i int, c column) *isColumnsRow {
	t := c.typ
	udt := typeNameOf(t.OID())
	r := &isColumnsRow{TableCatalog: nameV(e.database()), TableSchema: nameV(e.namespaceName(o.ns)), TableName: nameV(o.name),
		ColumnName: nameV(c.name), OrdinalPosition: intV(int64(i + 1)), IsNullable: yesNo(!c.notNull),
		DataType: textV(t.InfoSchemaName()), UdtCatalog: nameV(e.database()), UdtSchema: nameV("pg_catalog"), UdtName: nameV(udt),
		DtdIdentifier: textV(itoa(int64(i + 1))), IsSelfReferencing: textV("NO"), IsIdentity: yesNo(c.ident != ""),
		IsGenerated: textV("NEVER"), IsUpdatable: yesNo(o.isTable() && o.rel == nil || o.view != nil && e.columnUpdatable(o, i+1, false))}
	if schema, name, ok := domainUDT(t); ok {
		// A user-defined type is pg_type's row in schema public.
		r.UdtSchema, r.UdtName = nameV(schema), nameV(name)
		if t.IsDomain() {
			r.DataType = textV("USER-DEFINED")
		}
	}

	if t.ID.System() && !t.IsNamedComposite() {
		r.DataType = textV(typeNameOf(t.OID()))
	}
	if pt, ok := typesByOID[t.OID()]; ok && pt.ns == NamespacePublic {
		// The extensions' types (citext, hstore and their arrays).
		r.UdtSchema = nameV("public")
	}
	// PostgreSQL's view prints both with pg_get_expr.
	def := c.deflt
	if text, ok := e.deparseExpr(o.tableOrView(), def, false); ok {
		def = text
	}
	switch {
	case c.generated:
		r.IsGenerated, r.GenerationExpression = textV("ALWAYS"), textV(def)
	case c.deflt != "":
		r.ColumnDefault = textV(def)
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
	case (t.ID == sqltypes.Bit || t.ID == sqltypes.VarBit) && t.Width > 0:
		r.CharacterMaximumLength = intV(int64(t.Width)) // a bit string's length in bits
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
		if !o.isTable() || o.table == nil {
			continue
		}
		for i, c := range o.cols {
			if c.notNull {
				fn(o, fmt.Sprintf("%d_%d_%d_not_null", o.ns, o.oid, i+1), c.name)
			}
		}
	}
}

// tableConstraint is one constraint as information_schema lists it: a
// foreign key also names the table and columns it references.
type tableConstraint struct {
	o             *object
	name, kind    string
	cols          []string
	nullsDistinct sqltypes.Value
	fk            *catalog.ForeignKey
	index         *catalog.Index // a UNIQUE constraint's
	refTable      *catalog.Table
	refCols       []string
}
