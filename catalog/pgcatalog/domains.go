package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The catalogs' rows of domains (CREATE DOMAIN): pg_type's (typtype d,
// and the domain's array type), pg_constraint's for their CHECKs, and
// information_schema's domains, domain_constraints, check_constraints and
// column_domain_usage.

// domainPgTypes are the pg_type rows of domain u and of its array type.
// A domain is stored, sent and printed as its base type, so the row
// takes the base type's length, alignment, category and output functions,
// as PostgreSQL's DefineDomain copies them.
func domainPgTypes(u *catalog.UserType) []*pgType {
	d := u.Domain
	base := basePgType(d.Base)
	t := &pgType{oid: u.OID, name: u.Name, len: base.len, byval: base.byval, typtype: 'd', category: base.category, delim: ',',
		array: u.ArrayOID, ns: NamespacePublic, in: proc{2597, "domain_in"}, out: base.out, recv: proc{2598, "domain_recv"}, send: base.send,
		align: base.align, storage: base.storage, collation: base.collation, display: sqltypes.QuoteIdent(u.Name), owner: u.Owner,
		basetype: d.Base.OID(), typmod: d.Base.TypeMod(), notNull: d.NotNull}
	if d.Base.Domain != nil {
		t.typmod = -1 // a domain over a domain: the inner one has it
	}
	if d.Default != "" {
		t.typdefault = defaultDisplay(d.Default, d.Base.StripDomain())
	}
	if d.Base.ID == sqltypes.Array {
		t.ndims = 1
	}
	align := base.align
	if align != 'd' {
		align = 'i' // an array's alignment is at least int's
	}
	return []*pgType{t, arrayPgType(u.ArrayOID, u.Name, u.OID, align, u.Owner)}
}

// basePgType is the pg_type row whose storage a domain over t has: its
// innermost base type's.
func basePgType(t sqltypes.Type) *pgType {
	t = t.StripDomain()
	if t.Enum != nil {
		if t.ID == sqltypes.Array {
			return arrayPgType(t.Enum.ArrayOID, t.Enum.Name, t.Enum.OID, 'i', "")
		}
		return enumPgType(t.Enum.OID, t.Enum.Name, t.Enum.ArrayOID, "")
	}
	if pt, ok := typesByOID[t.OID()]; ok {
		return pt
	}
	return &pgType{len: -1, align: 'i', storage: 'x', category: 'U'}
}

// typdefaultV is pg_type's typdefault: NULL for none.
func typdefaultV(s string) sqltypes.Value {
	if s == "" {
		return sqltypes.Null
	}
	return textV(s)
}

// domains are the domains of the Env's snapshot, by name.
func (e *Env) domains() []*catalog.UserType {
	var out []*catalog.UserType
	for _, u := range e.enumTypes() {
		if u.Domain != nil {
			out = append(out, u)
		}
	}
	return out
}

// domainConstraintRows are pg_constraint's rows of the domains' CHECKs.
func (e *Env) domainConstraintRows() []row {
	var out []row
	for _, u := range e.domains() {
		for _, c := range u.Domain.Checks {
			r := constraintRow(c.OID, c.Name, 'c', 0, 0, nil, c.SQL)
			r.Contypid, r.Convalidated = oidV(u.OID), boolV(!c.NotValid)
			sc, _ := catalog.SplitName(u.Name)
			r.Connamespace = oidV(schemaOID(e.Snap, sc))
			out = append(out, r)
		}
	}
	return out
}

// DomainCheckDeparser binds the text of a domain's CHECK over VALUE, of
// the domain's base type base, and prints it as ruleutils does
// (ir.DeparseOver); ok is false when it does not bind or deparse
// faithfully, and the caller prints the text as kept. The planner
// registers it.
var DomainCheckDeparser func(snap *catalog.Snapshot, base sqltypes.Type, sql string, pretty bool) (string, bool)

// domainCheckDef is pg_get_constraintdef of a domain's CHECK whose text
// is sql, without NOT VALID: deparsed, else as written.
func (e *Env) domainCheckDef(base sqltypes.Type, sql string, pretty bool) string {
	if DomainCheckDeparser != nil {
		if def, ok := DomainCheckDeparser(e.Snap, base, sql, pretty); ok {
			return "CHECK (" + def + ")"
		}
	}
	if pretty {
		return "CHECK (" + sql + ")"
	}
	return checkDef(sql)
}

// domainConstraintDef is pg_get_constraintdef of a domain's CHECK, or ok
// false when oid is none.
func (e *Env) domainConstraintDef(oid uint32, pretty bool) (string, bool) {
	for _, u := range e.domains() {
		for _, c := range u.Domain.Checks {
			if c.OID != oid {
				continue
			}
			def := e.domainCheckDef(u.Domain.Base, c.SQL, pretty)
			if c.NotValid {
				def += " NOT VALID"
			}
			return def, true
		}
	}
	return "", false
}

// domainUDT is the udt_schema and udt_name information_schema gives a
// user-defined type t (a domain, an enum or an array of either); ok is
// false for a built-in type.
func domainUDT(t sqltypes.Type) (schema, name string, ok bool) {
	switch {
	case t.Domain != nil:
		name = t.Domain.Name
	case t.Enum != nil:
		name = t.Enum.Name
	case t.Composite.Named():
		name = t.Composite.Name
	case t.Range != nil:
		name = t.Range.Name
		if t.ID == sqltypes.UserMultirange || t.Elem == sqltypes.UserMultirange {
			name = t.Range.MultiName
		}
	default:
		return "", "", false
	}
	schema, name = catalog.SplitName(name) // the catalog's key
	if !t.IsDomain() && t.IsArray() {
		name = "_" + name
	}
	return schema, name, true
}

func init() {
	generate("information_schema.domains", func(e *Env) []row {
		var out []row
		for _, u := range e.domains() {
			// A domain's type facts are a column's of its base type.
			c := typeColumnsRow(e, &object{ns: NamespacePublic}, 0, column{typ: u.Domain.Base})
			sc, bare := catalog.SplitName(u.Name)
			r := &isDomainsRow{DomainCatalog: nameV(e.database()), DomainSchema: nameV(sc), DomainName: nameV(bare),
				DataType: c.DataType, CharacterMaximumLength: c.CharacterMaximumLength, CharacterOctetLength: c.CharacterOctetLength,
				CollationCatalog: c.CollationCatalog, CollationSchema: c.CollationSchema, CollationName: c.CollationName,
				NumericPrecision: c.NumericPrecision, NumericPrecisionRadix: c.NumericPrecisionRadix, NumericScale: c.NumericScale,
				DatetimePrecision: c.DatetimePrecision, IntervalType: c.IntervalType, IntervalPrecision: c.IntervalPrecision,
				UdtCatalog: c.UdtCatalog, UdtSchema: c.UdtSchema, UdtName: c.UdtName, DtdIdentifier: textV("1")}
			if b := u.Domain.Base; b.ID == sqltypes.Array && b.Domain == nil {
				r.DataType = textV(b.String()) // as PostgreSQL's view prints it
			}
			if u.Domain.Default != "" {
				r.DomainDefault = textV(defaultDisplay(u.Domain.Default, u.Domain.Base.StripDomain()))
			}
			out = append(out, r)
		}
		return out
	})
	generate("information_schema.domain_constraints", func(e *Env) []row {
		var out []row
		for _, u := range e.domains() {
			sc, bare := catalog.SplitName(u.Name)
			for _, c := range u.Domain.Checks {
				out = append(out, &isDomainConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(sc),
					ConstraintName: nameV(c.Name), DomainCatalog: nameV(e.database()), DomainSchema: nameV(sc),
					DomainName: nameV(bare), IsDeferrable: textV("NO"), InitiallyDeferred: textV("NO")})
			}
		}
		return out
	})
	generate("information_schema.column_domain_usage", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if !o.isTable() && o.kind != 'v' {
				continue
			}
			for _, c := range o.cols {
				if c.typ.IsDomain() {
					sc, bare := catalog.SplitName(c.typ.Domain.Name)
					out = append(out, &isColumnDomainUsageRow{DomainCatalog: nameV(e.database()), DomainSchema: nameV(sc),
						DomainName: nameV(bare), TableCatalog: nameV(e.database()), TableSchema: nameV(e.namespaceName(o.ns)),
						TableName: nameV(o.name), ColumnName: nameV(c.name)})
				}
			}
		}
		return out
	})
}

// domainCheckConstraints are information_schema.check_constraints' rows
// of the domains' CHECKs.
func (e *Env) domainCheckConstraints() []row {
	var out []row
	for _, u := range e.domains() {
		sc, _ := catalog.SplitName(u.Name)
		for _, c := range u.Domain.Checks {
			out = append(out, &isCheckConstraintsRow{ConstraintCatalog: nameV(e.database()), ConstraintSchema: nameV(sc),
				ConstraintName: nameV(c.Name), CheckClause: textV(strings.TrimPrefix(e.domainCheckDef(u.Domain.Base, c.SQL, false), "CHECK "))})
		}
	}
	return out
}
