package pgcatalog

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The rows of pg_catalog's relations, from the schema snapshot and the
// session.

func init() {
	generate("pg_catalog.pg_namespace", func(e *Env) []row {
		var out []row
		for _, n := range namespaces {
			owner := uint32(BootstrapOID)
			if n.oid == NamespacePublic {
				owner = DatabaseOwnerOID
			}
			r := &pgNamespaceRow{Oid: oidV(n.oid), Nspname: nameV(n.name), Nspowner: oidV(owner)}
			switch {
			case n.oid == NamespacePublic && e.Snap != nil:
				name, _ := e.roleName(owner)
				r.Nspacl = aclArray(e.Snap.SchemaACL(name))
			case n.oid == NamespaceCatalog || n.oid == NamespaceInfoSchema:
				r.Nspacl = aclArray(initdbSchemaACL(BootstrapRole))
			}
			out = append(out, r)
		}
		if e.Snap == nil {
			return out
		}
		for _, sc := range e.Snap.Schemas() {
			r := &pgNamespaceRow{Oid: oidV(schemaOID(e.Snap, sc.Name)), Nspname: nameV(sc.Name), Nspowner: oidV(RoleOID(sc.Owner))}
			if acl := e.Snap.UserSchemaACL(sc); len(acl) > 0 {
				r.Nspacl = aclArray(acl)
			}
			out = append(out, r)
		}
		if n, ok := e.Snap.TempSchema(); ok {
			oid := TempNamespaceOID(n)
			out = append(out, &pgNamespaceRow{Oid: oidV(oid), Nspname: nameV(e.namespaceName(oid)), Nspowner: oidV(BootstrapOID)},
				&pgNamespaceRow{Oid: oidV(oid + 1), Nspname: nameV(e.namespaceName(oid + 1)), Nspowner: oidV(BootstrapOID)})
		}
		return out
	})
	generate("pg_catalog.pg_default_acl", func(e *Env) []row {
		var out []row
		if e.Snap == nil {
			return nil
		}
		for _, d := range e.Snap.DefaultACLs() {
			ns := uint32(0)
			if d.Schema != "" {
				ns = schemaOID(e.Snap, d.Schema)
			}
			out = append(out, &pgDefaultAclRow{Oid: oidV(ObjectOID(d.ID, d.Slot)), Defaclrole: oidV(RoleOID(d.Role)),
				Defaclnamespace: oidV(ns), Defaclobjtype: charV(d.ObjType), Defaclacl: aclArray(catalog.DefaultACLItems(d.ACL, d.Role))})
		}
		return out
	})
	generate("pg_catalog.pg_init_privs", func(e *Env) []row {
		// The ACLs initdb leaves on system objects, which pg_dump takes
		// as the baseline of what it dumps (a GRANT on one of them shows
		// as the difference): pg_catalog's, and public's, as
		// PostgreSQL 15 records them, and the relations zproxy computes:
		// pg_catalog's as initdb's ('i'), an extension's as CREATE
		// EXTENSION's ('e') once it is installed (information_schema's
		// have none, as in PostgreSQL). zproxy's functions keep their
		// default ACL (NULL proacl), so they need no row.
		out := []row{
			&pgInitPrivsRow{Objoid: oidV(NamespaceCatalog), Classoid: oidV(pgNamespaceOID), Objsubid: intV(0),
				Privtype: charV('i'), Initprivs: aclArray(initdbSchemaACL(BootstrapRole))},
			&pgInitPrivsRow{Objoid: oidV(NamespacePublic), Classoid: oidV(pgNamespaceOID), Objsubid: intV(0),
				Privtype: charV('i'), Initprivs: aclArray(initdbSchemaACL(catalog.RoleDatabaseOwner))},
		}
		for _, o := range e.objects().list {
			privtype := byte('i')
			switch {
			case o.rel == nil:
				continue
			case o.ns == NamespacePublic:
				privtype = 'e'
			case o.ns != NamespaceCatalog:
				continue
			}
			acl := systemRelationACL(o.rel)
			if acl == nil {
				continue
			}
			out = append(out, &pgInitPrivsRow{Objoid: oidV(o.oid), Classoid: oidV(pgClassOID), Objsubid: intV(0),
				Privtype: charV(privtype), Initprivs: aclArray(aclItems(acl))})
			for i, c := range o.cols {
				if cacl := systemColumnACL(o.rel, c.name); cacl != nil {
					out = append(out, &pgInitPrivsRow{Objoid: oidV(o.oid), Classoid: oidV(pgClassOID), Objsubid: intV(int64(i + 1)),
						Privtype: charV(privtype), Initprivs: aclArray(aclItems(cacl))})
				}
			}
		}
		return out
	})
	generate("pg_catalog.pg_class", func(e *Env) []row {
		var out []row
		os := e.objects()
		for _, o := range os.list {
			r := classRow(o)
			if o.table != nil && o.table.Virtual == nil && o.isTable() {
				partitionClass(os, o, r)
			}
			if o.table != nil && o.table.Virtual == nil && o.isIndex() {
				indexPartitionClass(os, o, r)
			}
			if o.table != nil && o.table.Virtual == nil {
				r.Reltuples = floatV(reltuples(e.Snap, o.table))
			}
			if o.table != nil && o.table.Virtual == nil && !o.isIndex() {
				// PostgreSQL enforces foreign keys with triggers on both
				// tables, and clients (pg_dump, psql's \d) read a table's
				// foreign keys only when relhastriggers says so.
				r.Relhastriggers = boolV(len(o.table.ForeignKeys) > 0 || os.referenced[o.table.Name] || len(e.Snap.WithClonedTriggers(o.table).Triggers) > 0)
			}
			if acl := e.relationACL(o); acl != nil {
				r.Relacl = aclArray(acl)
			}
			out = append(out, r)
		}
		return out
	})
	generate("pg_catalog.pg_attribute", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			for i, c := range o.cols {
				typ, mod := typeOf(c.typ)
				t := typesByOID[typ]
				r := &pgAttributeRow{Attrelid: oidV(o.oid), Attname: nameV(c.name), Atttypid: oidV(typ), Attstattarget: intV(-1),
					Attnum: intV(int64(i + 1)), Attcacheoff: intV(-1), Atttypmod: intV(int64(mod)), Attnotnull: boolV(c.notNull),
					Atthasdef: boolV(c.deflt != "" && !o.isIndex()), Attislocal: boolV(true), Attidentity: textV(c.ident),
					Attgenerated: textV(map[bool]string{true: "s"}[c.generated]), Attcompression: textV(""), Attcollation: oidV(collationOf(c.typ))}
				if c.typ.ID == sqltypes.Array {
					r.Attndims = intV(1)
				}
				if o.rel != nil {
					if cacl := systemColumnACL(o.rel, c.name); cacl != nil {
						r.Attacl = aclArray(aclItems(cacl))
					}
				}
				if o.table != nil && o.table.IsPartition() && !o.isIndex() {
					// A partition's columns are its parent's, whether
					// PARTITION OF or ATTACH PARTITION made it one.
					r.Attislocal, r.Attinhcount = boolV(false), intV(1)
				}
				if t != nil {
					r.Attlen, r.Attbyval, r.Attalign, r.Attstorage = intV(int64(t.len)), boolV(t.byval), charV(t.align), charV(t.storage)
				} else if c.typ.HasComposite() || c.typ.ID == sqltypes.Record {
					// A composite (or record) value: varlena, stored extended.
					r.Attlen, r.Attbyval, r.Attalign, r.Attstorage = intV(-1), boolV(false), charV('d'), charV('x')
				}
				out = append(out, r)
			}
		}
		return out
	})
	generate("pg_catalog.pg_parameter_acl", func(e *Env) []row {
		// One row per parameter something was granted on (GRANT ... ON
		// PARAMETER), its grantor the bootstrap superuser, who owns them.
		if e.Snap == nil {
			return nil
		}
		acls := e.Snap.ParameterACL()
		names := make([]string, 0, len(acls))
		for n := range acls {
			names = append(names, n)
		}
		sort.Strings(names)
		var out []row
		for _, n := range names {
			acl := acls[n]
			acl[BootstrapRole] = catalog.KindParameter.All()
			out = append(out, &pgParameterAclRow{Oid: oidV(RoleOID("parameter " + n)), Parname: textV(n),
				Paracl: aclArray(catalog.DefaultACLItems(acl, BootstrapRole))})
		}
		return out
	})
	generate("pg_catalog.pg_type", func(e *Env) []row {
		var out []row
		for _, t := range e.allTypes() {
			owner := t.owner
			out = append(out, &pgTypeRow{Oid: oidV(t.oid), Typname: nameV(t.name), Typnamespace: oidV(t.ns), Typowner: oidV(ownerOID(owner)),
				Typlen: intV(int64(t.len)), Typbyval: boolV(t.byval), Typtype: charV(t.typtype), Typcategory: charV(t.category),
				Typispreferred: boolV(t.preferred), Typisdefined: boolV(true), Typdelim: charV(t.delim), Typrelid: oidV(t.relid),
				Typsubscript: regprocV(subscriptProc(t.subscript)), Typelem: oidV(t.elem), Typarray: oidV(t.array),
				Typinput: regprocV(t.in), Typoutput: regprocV(t.out), Typreceive: regprocV(t.recv), Typsend: regprocV(t.send),
				Typalign: charV(t.align), Typstorage: charV(t.storage), Typtypmod: intV(int64(t.typtypmod())), Typcollation: oidV(t.collation),
				Typnotnull: boolV(t.notNull), Typbasetype: oidV(t.basetype), Typndims: intV(int64(t.ndims)), Typdefault: typdefaultV(t.typdefault), Typacl: aclArray(t.acl)})
		}
		return out
	})
	generateChecked("pg_catalog.pg_description", func(e *Env) ([]row, error) {
		var out []row
		for _, d := range e.descriptions() {
			out = append(out, &pgDescriptionRow{Objoid: oidV(d.objoid), Classoid: oidV(d.classoid), Objsubid: intV(d.subid), Description: textV(d.text)})
		}
		// Large objects are data, not the snapshot's: read each time.
		_, los, err := e.largeObjects()
		for _, lo := range los {
			if lo.Comment != "" {
				out = append(out, &pgDescriptionRow{Objoid: oidV(lo.OID), Classoid: oidV(pgLargeObjectOID), Objsubid: intV(0), Description: textV(lo.Comment)})
			}
		}
		return out, err
	})
	generate("pg_catalog.pg_operator", func(e *Env) []row {
		var out []row
		for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
			f := operatorFields(line)
			if f == nil {
				continue
			}
			num := func(s string) uint32 { n, _ := strconv.ParseUint(s, 10, 32); return uint32(n) }
			out = append(out, &pgOperatorRow{Oid: oidV(num(f[0])), Oprname: nameV(f[1]), Oprnamespace: oidV(NamespaceCatalog), Oprowner: oidV(BootstrapOID),
				Oprkind: charV(f[2][0]), Oprcanmerge: boolV(f[3] == "t"), Oprcanhash: boolV(f[4] == "t"), Oprleft: oidV(num(f[5])),
				Oprright: oidV(num(f[6])), Oprresult: oidV(num(f[7])), Oprcom: oidV(num(f[8])), Oprnegate: oidV(num(f[9])),
				Oprcode: sqltypes.NewReg(num(f[10]), f[11])})
		}
		return append(out, userOperatorRows(e)...)
	})
	generate("pg_catalog.pg_range", func(e *Env) []row {
		// The built-in range types, as PostgreSQL 15 has them: subtype,
		// multirange type, btree operator class of the subtype, canonical
		// and subtype-difference functions.
		ranges := []struct {
			typ, sub, multi, opc uint32
			canonical, subdiff   proc
		}{
			{3904, 23, 4451, 1978, proc{3914, "int4range_canonical"}, proc{3922, "int4range_subdiff"}},
			{3906, 1700, 4532, 3125, proc{}, proc{3924, "numrange_subdiff"}},
			{3908, 1114, 4533, 3128, proc{}, proc{3929, "tsrange_subdiff"}},
			{3910, 1184, 4534, 3127, proc{}, proc{3930, "tstzrange_subdiff"}},
			{3912, 1082, 4535, 3122, proc{3915, "daterange_canonical"}, proc{3925, "daterange_subdiff"}},
			{3926, 20, 4536, 3124, proc{3928, "int8range_canonical"}, proc{3923, "int8range_subdiff"}},
		}
		out := make([]row, 0, len(ranges))
		for _, r := range ranges {
			out = append(out, &pgRangeRow{Rngtypid: oidV(r.typ), Rngsubtype: oidV(r.sub), Rngmultitypid: oidV(r.multi), Rngcollation: oidV(0),
				Rngsubopc: oidV(r.opc), Rngcanonical: regprocV(r.canonical), Rngsubdiff: regprocV(r.subdiff)})
		}
		return append(out, e.userRangeRows()...)
	})
	generate("pg_catalog.pg_am", func(e *Env) []row {
		return []row{
			&pgAmRow{Oid: oidV(AmHeap), Amname: nameV("heap"), Amhandler: regprocV(proc{3, "heap_tableam_handler"}), Amtype: charV('t')},
			&pgAmRow{Oid: oidV(AmBtree), Amname: nameV("btree"), Amhandler: regprocV(proc{330, "bthandler"}), Amtype: charV('i')},
			&pgAmRow{Oid: oidV(AmGist), Amname: nameV("gist"), Amhandler: regprocV(proc{332, "gisthandler"}), Amtype: charV('i')},
			&pgAmRow{Oid: oidV(AmGin), Amname: nameV("gin"), Amhandler: regprocV(proc{333, "ginhandler"}), Amtype: charV('i')},
			&pgAmRow{Oid: oidV(AmZOrder), Amname: nameV("zorder"), Amhandler: regprocV(proc{}), Amtype: charV('i')},
		}
	})
	generate("pg_catalog.pg_index", func(e *Env) []row {
		var out []row
		os := e.objects()
		for _, o := range os.list {
			if !o.isIndex() {
				continue
			}
			t := o.table
			keys := t.PrimaryKey
			var include []int
			valid := true
			if o.index != nil {
				keys, include = o.index.DeclaredColumns(), o.index.Include
				valid = o.index.State == catalog.StatePublic
				if valid && o.kind == 'I' && e.Snap != nil {
					valid = e.Snap.IndexComplete(t, o.index)
				}
			}
			var attnums, options, classes, colls []int64
			var exprs []string
			for _, k := range keys {
				if k.Column < 0 {
					// An expression: attribute number 0, the expression in
					// indexprs.
					attnums = append(attnums, 0)
					exprs = append(exprs, k.Expr)
				} else {
					attnums = append(attnums, int64(attnum(t, k.Column)))
				}
				opt := int64(0)
				if k.Desc {
					opt = 3 // DESC, and so NULLS FIRST, as PostgreSQL's default
				}
				options = append(options, opt)
				kind := catalog.KindBTree
				if o.index != nil && o.index.Kind != "" {
					kind = o.index.Kind
				}
				class := k.Opclass
				if class == "" && kind == catalog.KindGIN {
					class, _ = catalog.DefaultOpclass(t.KeyType(k))
				}
				switch {
				case o.index != nil && o.index.Gist != nil:
					classes = append(classes, int64(gistOpclass(o.index.Gist.Opclass)))
				case o.index != nil && o.index.Exclusion != nil && exclusionAm(o.index.Exclusion.Method) == AmGist:
					classes = append(classes, int64(gistKeyOpclass(t.KeyType(k))))
				default:
					classes = append(classes, int64(keyOpclass(kind, t.KeyType(k), class)))
				}
				colls = append(colls, int64(collationOf(t.KeyType(k))))
			}
			for _, c := range include {
				attnums = append(attnums, int64(attnum(t, c)))
			}
			primary := o.index == nil
			unique := primary || o.index.Unique
			r := &pgIndexRow{Indexrelid: oidV(o.oid), Indrelid: oidV(ObjectOID(t.ID, 0)), Indnatts: intV(int64(len(attnums))),
				Indnkeyatts: intV(int64(len(keys))), Indisunique: boolV(unique), Indnullsnotdistinct: boolV(!primary && o.index.NullsNotDistinct),
				Indisprimary: boolV(primary), Indimmediate: boolV(o.index == nil || !o.index.Deferrable && (o.index.Exclusion == nil || !o.index.Exclusion.Deferrable)),
				Indisexclusion: boolV(o.index != nil && o.index.Exclusion != nil),
				Indisvalid:     boolV(valid), Indisready: boolV(true), Indislive: boolV(true), Indkey: vector(sqltypes.TypeInt2Vector, attnums),
				Indcollation: vector(sqltypes.TypeOidVector, colls), Indclass: vector(sqltypes.TypeOidVector, classes),
				Indoption: vector(sqltypes.TypeInt2Vector, options), Indexprs: sqltypes.Null, Indpred: sqltypes.Null}
			// pg_node_tree is PostgreSQL's internal form; zproxy holds the
			// expressions' text, which pg_get_expr prints (as PostgreSQL
			// prints a list of expressions: joined by ", ").
			if len(exprs) > 0 {
				r.Indexprs = textV(strings.Join(exprs, ", "))
			}
			if o.index != nil && o.index.Predicate != "" {
				r.Indpred = textV(o.index.Predicate)
			}
			out = append(out, r)
		}
		return out
	})
	generate("pg_catalog.pg_constraint", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			t := o.table
			if !o.isTable() || t == nil {
				continue
			}
			parent := e.Snap.Parent(t) // a partition's constraints may be its parent's copies
			if !hasRowID(t) {
				var keys []int64
				for _, k := range t.PrimaryKey {
					keys = append(keys, int64(attnum(t, k.Column)))
				}
				r := constraintRow(ObjectOID(t.ID, slotPKey), t.PrimaryKeyName(), 'p', o.oid, ObjectOID(t.ID, slotPKeyIndex), keys, "")
				if parent != nil && !hasRowID(parent) {
					inheritedConstraint(r, ObjectOID(parent.ID, slotPKey))
				}
				out = append(out, r)
			}
			for i, c := range t.Checks {
				name := c.Name
				if name == "" {
					name = t.Name + "_check"
				}
				// conkey: the columns the check reads, as PostgreSQL
				// records them (in the order they appear).
				var keys []int64
				if CheckColumns != nil {
					for _, col := range CheckColumns(e.Snap, t, c.SQL) {
						keys = append(keys, int64(attnum(t, col)))
					}
				}
				r := constraintRow(ObjectOID(t.ID, slotCheck+uint32(i)), name, 'c', o.oid, 0, keys, c.SQL)
				if parent != nil && c.Name != "" && slices.ContainsFunc(parent.Checks, func(pc catalog.Check) bool { return pc.Name == c.Name }) {
					inheritedConstraint(r, 0)
				}
				out = append(out, r)
			}
			for _, ix := range t.Indexes {
				if ix.Exclusion != nil {
					out = append(out, exclusionRow(t, ix, o.oid))
					continue
				}
				if ix.Constraint {
					var keys []int64
					for _, k := range ix.Columns {
						keys = append(keys, int64(attnum(t, k.Column)))
					}
					r := constraintRow(ObjectOID(ix.ID, slotPKey), ix.Name, 'u', o.oid, ObjectOID(ix.ID, 0), keys, "")
					r.Connoinherit = boolV(true)
					r.Condeferrable, r.Condeferred = boolV(ix.Deferrable), boolV(ix.InitiallyDeferred)
					if pix := parentConstraintIndex(parent, ix); pix != nil {
						inheritedConstraint(r, ObjectOID(pix.ID, slotPKey))
					}
					out = append(out, r)
				}
			}
			for i := range t.ForeignKeys {
				if r := e.foreignKeyRow(t, i); r != nil {
					out = append(out, r)
				}
			}
			for _, p := range e.partitionFKs(t) {
				out = append(out, e.partitionFKRow(p))
			}
			out = append(out, triggerConstraintRows(t, o.oid)...)
		}
		// A constraint is in its table's schema.
		os := e.objects()
		for _, r := range out {
			if c, ok := r.(*pgConstraintRow); ok {
				if t := os.byOID[uint32(c.Conrelid.I)]; t != nil && t.ns != 0 {
					c.Connamespace = oidV(t.ns)
				}
			}
		}
		return append(out, e.domainConstraintRows()...)
	})
	generate("pg_catalog.pg_attrdef", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			var id uint64
			switch {
			case o.isTable() && o.table != nil:
				id = o.table.ID
			case o.view != nil:
				id = o.view.ID // ALTER VIEW ... SET DEFAULT
			default:
				continue
			}
			for i, c := range o.cols {
				if c.deflt == "" {
					continue
				}
				out = append(out, &pgAttrdefRow{Oid: oidV(ObjectOID(id, slotAttrDef+uint32(c.ordinal))), Adrelid: oidV(o.oid),
					Adnum: intV(int64(i + 1)), Adbin: textV(c.deflt)})
			}
		}
		return out
	})
	generate("pg_catalog.pg_shdescription", func(e *Env) []row {
		var out []row
		for _, d := range e.sharedDescriptions() {
			out = append(out, &pgShdescriptionRow{Objoid: oidV(d.objoid), Classoid: oidV(d.classoid), Description: textV(d.text)})
		}
		return out
	})
	generate("pg_catalog.pg_database", func(e *Env) []row {
		var out []row
		for _, d := range e.databases() {
			owner := uint32(BootstrapOID)
			if d.Owner != "" {
				owner = RoleOID(d.Owner)
			}
			out = append(out, &pgDatabaseRow{Oid: oidV(d.OID), Datname: nameV(d.Name), Datdba: oidV(owner), Encoding: intV(6),
				Datlocprovider: charV('c'), Datistemplate: boolV(d.IsTemplate), Datallowconn: boolV(d.AllowConn), Datconnlimit: intV(int64(d.ConnLimit)),
				Datminmxid: sqltypes.NewXID(1), Dattablespace: oidV(TablespaceOID), Datcollate: textV("C"), Datctype: textV("C"), Datacl: aclArray(d.ACL)})
		}
		return out
	})
	generate("pg_catalog.pg_db_role_setting", func(e *Env) []row {
		// One row per (database, role) pair with defaults: 0 stands for
		// every database or every role. setconfig is name=value in the
		// parameters' order.
		config := func(m map[string]string) sqltypes.Value {
			items := make([]string, 0, len(m))
			for _, n := range slices.Sorted(maps.Keys(m)) {
				items = append(items, n+"="+m[n])
			}
			return textArray(items)
		}
		// Role settings are kept as PostgreSQL keeps setconfig.
		var out []row
		oids := map[uint64]uint32{}
		for _, d := range e.databases() {
			oids[d.ID] = d.OID
			if len(d.Settings) > 0 {
				out = append(out, &pgDbRoleSettingRow{Setdatabase: oidV(d.OID), Setrole: oidV(0), Setconfig: config(d.Settings)})
			}
		}
		for _, r := range e.roles() {
			if len(r.settings) > 0 {
				out = append(out, &pgDbRoleSettingRow{Setdatabase: oidV(0), Setrole: oidV(r.oid), Setconfig: textArray(r.settings)})
			}
			for _, id := range slices.Sorted(maps.Keys(r.dbSettings)) {
				// A dropped database's defaults are gone with it.
				if oid, ok := oids[id]; ok && len(r.dbSettings[id]) > 0 {
					out = append(out, &pgDbRoleSettingRow{Setdatabase: oidV(oid), Setrole: oidV(r.oid), Setconfig: textArray(r.dbSettings[id])})
				}
			}
		}
		return out
	})
	// roleRows builds one relation's rows of the roles; password is what
	// it shows of a role that has one.
	roleRows := func(e *Env, password string, build func(r role, pw sqltypes.Value) row) []row {
		var out []row
		for _, r := range e.roles() {
			pw := sqltypes.Null
			if r.password {
				pw = textV(password)
			}
			out = append(out, build(r, pw))
		}
		return out
	}
	pgRole := func(r role, pw sqltypes.Value) row {
		return &pgRolesRow{Oid: oidV(r.oid), Rolname: nameV(r.name), Rolsuper: boolV(r.superuser), Rolinherit: boolV(true),
			Rolcreaterole: boolV(r.superuser), Rolcreatedb: boolV(r.superuser), Rolcanlogin: boolV(r.login),
			Rolreplication: boolV(false), Rolconnlimit: intV(-1), Rolpassword: pw, Rolbypassrls: boolV(r.superuser)}
	}
	authid := func(r role, pw sqltypes.Value) row {
		return &pgAuthidRow{Oid: oidV(r.oid), Rolname: nameV(r.name), Rolsuper: boolV(r.superuser), Rolinherit: boolV(true),
			Rolcreaterole: boolV(r.superuser), Rolcreatedb: boolV(r.superuser), Rolcanlogin: boolV(r.login),
			Rolreplication: boolV(false), Rolconnlimit: intV(-1), Rolpassword: pw, Rolbypassrls: boolV(r.superuser)}
	}
	// pg_user and pg_shadow spell the same facts their own way.
	user := func(r role, pw sqltypes.Value) row {
		return &pgUserRow{Usename: nameV(r.name), Usesysid: oidV(r.oid), Usecreatedb: boolV(r.superuser), Usesuper: boolV(r.superuser),
			Userepl: boolV(false), Usebypassrls: boolV(r.superuser), Passwd: pw}
	}
	shadow := func(r role, pw sqltypes.Value) row {
		return &pgShadowRow{Usename: nameV(r.name), Usesysid: oidV(r.oid), Usecreatedb: boolV(r.superuser), Usesuper: boolV(r.superuser),
			Userepl: boolV(false), Usebypassrls: boolV(r.superuser), Passwd: pw}
	}
	generate("pg_catalog.pg_roles", func(e *Env) []row { return roleRows(e, "********", pgRole) })
	generate("pg_catalog.pg_user", func(e *Env) []row { return roleRows(e, "********", user) })
	generate("pg_catalog.pg_authid", func(e *Env) []row { return roleRows(e, "SCRAM-SHA-256$", authid) })
	generate("pg_catalog.pg_shadow", func(e *Env) []row { return roleRows(e, "SCRAM-SHA-256$", shadow) })
	generate("pg_catalog.pg_settings", func(e *Env) []row {
		var all []Setting
		if e.Sess != nil {
			all = e.Sess.Settings()
		}
		var out []row
		for _, s := range sortedSettings(all) {
			r := &pgSettingsRow{Name: textV(s.Name), Setting: textV(s.Value), Category: textV(s.Category), ShortDesc: textV(s.Description),
				Context: textV(orDefault(s.Context, "user")), Vartype: textV(orDefault(s.VarType, "string")),
				Source: textV(orDefault(s.Source, "default")), BootVal: textV(s.Boot), ResetVal: textV(s.Boot)}
			if s.Unit != "" {
				r.Unit = textV(s.Unit)
			}
			if s.EnumVals != nil {
				r.Enumvals = textArray(s.EnumVals)
			}
			if s.Min != "" {
				r.MinVal, r.MaxVal = textV(s.Min), textV(s.Max)
			}
			out = append(out, r)
		}
		return out
	})
	generate("pg_catalog.pg_proc", func(e *Env) []row {
		var out []row
		for _, p := range allProcs() {
			args := make([]int64, len(p.args))
			for i, a := range p.args {
				args[i] = int64(a)
			}
			variadic := uint32(0)
			if p.variadic && len(p.args) > 0 {
				variadic = p.args[len(p.args)-1]
			}
			r := &pgProcRow{Oid: oidV(p.oid), Proname: nameV(p.name), Pronamespace: oidV(NamespaceCatalog), Proowner: oidV(BootstrapOID),
				Prolang: oidV(12), Procost: floatV(1), Prorows: floatV(map[bool]float64{true: 1000}[p.retset]), Provariadic: oidV(variadic),
				Prokind: charV(p.kind), Proisstrict: boolV(p.strict), Proretset: boolV(p.retset), Provolatile: charV(orByte(p.vol, 'i')),
				Proparallel: charV('s'), Pronargs: intV(int64(len(p.args))), Prorettype: oidV(p.ret),
				Proargtypes: vector(sqltypes.TypeOidVector, args), Prosrc: textV(p.name)}
			if k := p.pg; k != nil {
				builtinProcAttributes(r, k)
			}
			out = append(out, r)
		}
		return append(out, userProcRows(e)...)
	})
	generate("pg_catalog.pg_collation", func(e *Env) []row {
		coll := func(oid uint32, name string, provider byte, c string) row {
			r := &pgCollationRow{Oid: oidV(oid), Collname: nameV(name), Collnamespace: oidV(NamespaceCatalog), Collowner: oidV(BootstrapOID),
				Collprovider: charV(provider), Collisdeterministic: boolV(true), Collencoding: intV(-1)}
			if c != "" {
				r.Collcollate, r.Collctype = textV(c), textV(c)
			}
			return r
		}
		return []row{coll(CollationDflt, "default", 'd', ""), coll(CollationC, "C", 'c', "C"), coll(951, "POSIX", 'c', "POSIX")}
	})
	generate("pg_catalog.pg_enum", func(e *Env) []row {
		var out []row
		for _, u := range e.enumTypes() {
			if u.Enum == nil {
				continue
			}
			for _, l := range u.Enum.Labels {
				out = append(out, &pgEnumRow{Oid: oidV(l.OID), Enumtypid: oidV(u.OID), Enumsortorder: sqltypes.NewFloat(float64(float32(l.Order))), Enumlabel: nameV(l.Label)})
			}
		}
		return out
	})
	generate("pg_catalog.pg_tablespace", func(e *Env) []row {
		return []row{&pgTablespaceRow{Oid: oidV(TablespaceOID), Spcname: nameV("pg_default"), Spcowner: oidV(BootstrapOID)},
			&pgTablespaceRow{Oid: oidV(1664), Spcname: nameV("pg_global"), Spcowner: oidV(BootstrapOID)}}
	})
	generate("pg_catalog.pg_sequence", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if q := o.seq; q != nil {
				out = append(out, &pgSequenceRow{Seqrelid: oidV(o.oid), Seqtypid: oidV(seqType(q).OID()), Seqstart: intV(q.Start), Seqincrement: intV(q.Increment),
					Seqmax: intV(q.Max), Seqmin: intV(q.Min), Seqcache: intV(q.Cache), Seqcycle: boolV(q.Cycle)})
			}
		}
		return out
	})
	generate("pg_catalog.pg_sequences", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if q := o.seq; q != nil {
				owner := q.Owner
				if owner == "" {
					owner = BootstrapRole
				}
				// last_value as the view defines it: CASE WHEN
				// has_sequence_privilege(oid, 'SELECT,USAGE') THEN
				// pg_sequence_last_value(oid) END.
				last := nullV
				if ok, err := objectPrivilege(e, e.user(), o, nil, "SELECT,USAGE", false); err == nil && ok && e.Sess != nil {
					if v, err := e.sequenceLastValue(o); err == nil {
						last = v
					}
				}
				out = append(out, &pgSequencesRow{Schemaname: nameV(e.namespaceName(o.ns)), Sequencename: nameV(o.name), Sequenceowner: nameV(owner),
					DataType: sqltypes.NewReg(seqType(q).OID(), seqType(q).String()), StartValue: intV(q.Start), MinValue: intV(q.Min),
					MaxValue: intV(q.Max), IncrementBy: intV(q.Increment), Cycle: boolV(q.Cycle), CacheSize: intV(q.Cache), LastValue: last})
			}
		}
		return out
	})
	generate("pg_catalog.pg_prepared_statements", func(e *Env) []row {
		if e.Sess == nil {
			return nil
		}
		var out []row
		for _, ps := range e.Sess.PreparedStatements() {
			types := make([]sqltypes.Value, len(ps.ParamTypes))
			for i, o := range ps.ParamTypes {
				types[i] = sqltypes.NewReg(o, e.RegName(sqltypes.TypeRegType, o))
			}
			out = append(out, &pgPreparedStatementsRow{Name: textV(ps.Name), Statement: textV(ps.Statement),
				PrepareTime: sqltypes.NewTimestampTZ(sqltypes.TimestampFromTime(ps.PrepareTime)), ParameterTypes: sqltypes.NewArray1(sqltypes.TypeRegType, types),
				FromSql: boolV(ps.FromSQL), GenericPlans: intV(ps.GenericPlans), CustomPlans: intV(ps.CustomPlans)})
		}
		return out
	})
	generate("pg_catalog.pg_stat_activity", func(e *Env) []row {
		if e.Sess == nil {
			return nil
		}
		ts := func(t time.Time) sqltypes.Value {
			if t.IsZero() {
				return sqltypes.Null
			}
			return sqltypes.NewTimestampTZ(sqltypes.TimestampFromTime(t))
		}
		me, allStats := e.Sess.User(), e.readsAllStats()
		dbOIDs := e.databaseOIDs()
		var out []row
		for _, a := range e.Sess.Activity() {
			r := &pgStatActivityRow{Datid: oidV(dbOIDs(a.Database)), Datname: nameV(a.Database), Pid: intV(int64(a.PID)), Usesysid: oidV(RoleOID(a.User)),
				Usename: nameV(a.User), ApplicationName: textV(a.ApplicationName), BackendStart: ts(a.BackendStart),
				XactStart: ts(a.XactStart), QueryStart: ts(a.QueryStart), StateChange: ts(a.StateChange), State: textV(a.State),
				Query: textV(a.Query), BackendType: textV("client backend"), LeaderPid: nullV, BackendXid: nullV,
				BackendXmin: nullV, QueryId: nullV}
			if a.Client.IsValid() {
				r.ClientAddr, r.ClientPort = sqltypes.InetFromAddr(a.Client.Addr()), intV(int64(a.Client.Port()))
			} else {
				r.ClientPort = intV(-1)
			}
			if !allStats && a.User != me {
				// As PostgreSQL 15 shows another role's session to a
				// role without pg_read_all_stats: who and where only,
				// every other column NULL and no query text.
				r = &pgStatActivityRow{Datid: r.Datid, Datname: r.Datname, Pid: r.Pid, Usesysid: r.Usesysid, Usename: r.Usename,
					ApplicationName: r.ApplicationName, Query: textV("<insufficient privilege>")}
			}
			out = append(out, r)
		}
		return out
	})
	generate("pg_catalog.pg_locks", func(e *Env) []row {
		if e.Sess == nil || e.Sess.Locks() == nil {
			return nil
		}
		var out []row
		held, err := e.Sess.Locks().Held(e.Ctx)
		if err != nil {
			// The rows have no error to return: the store's failure
			// leaves the view empty, as an unreachable peer does.
			return nil
		}
		for _, l := range held {
			mode := "ExclusiveLock"
			if l.Shared {
				mode = "ShareLock"
			}
			out = append(out, &pgLocksRow{Locktype: textV("advisory"), Database: oidV(DatabaseOID), Classid: oidV(uint32(uint64(l.Key) >> 32)),
				Objid: oidV(uint32(l.Key)), Objsubid: intV(1), Pid: intV(int64(l.Owner)), Mode: textV(mode), Granted: boolV(true)})
		}
		return out
	})
	generate("pg_catalog.pg_tables", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if !o.isTable() {
				continue
			}
			out = append(out, &pgTablesRow{Schemaname: nameV(e.namespaceName(o.ns)), Tablename: nameV(o.name), Tableowner: nameV(ownerName(o.owner)),
				Hasindexes: boolV(o.table != nil || o.rel != nil)})
		}
		return out
	})
	generate("pg_catalog.pg_matviews", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'm' {
				continue
			}
			def, _ := e.viewDefinition(o, false)
			out = append(out, &pgMatviewsRow{Schemaname: nameV(e.namespaceName(o.ns)), Matviewname: nameV(o.name), Matviewowner: nameV(ownerName(o.owner)),
				Hasindexes: boolV(len(o.table.Indexes) > 0), Ispopulated: boolV(o.table.Matview.Populated), Definition: textV(def)})
		}
		return out
	})
	generate("pg_catalog.pg_indexes", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if !o.isIndex() {
				continue
			}
			out = append(out, &pgIndexesRow{Schemaname: nameV(e.namespaceName(o.ns)), Tablename: nameV(o.table.BareName()), Indexname: nameV(o.name),
				Indexdef: textV(indexDef(o, true, nil))})
		}
		return out
	})
	generate("pg_catalog.pg_views", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'v' {
				continue
			}
			def, _ := e.viewDefinition(o, false)
			out = append(out, &pgViewsRow{Schemaname: nameV(e.namespaceName(o.ns)), Viewname: nameV(o.name), Viewowner: nameV(ownerName(o.owner)),
				Definition: textV(def)})
		}
		return out
	})
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func orByte(b, d byte) byte {
	if b == 0 {
		return d
	}
	return b
}

func ownerName(owner string) string {
	if owner == "" {
		return BootstrapRole
	}
	return owner
}

func subscriptProc(name string) proc {
	switch name {
	case "array_subscript_handler":
		return proc{6179, name}
	case "raw_array_subscript_handler":
		return proc{6180, name}
	}
	return proc{}
}

func seqType(q *catalog.Sequence) sqltypes.Type {
	if q.Type.ID == sqltypes.Unknown {
		return sqltypes.TypeInt8
	}
	return q.Type
}

// collationOf is attcollation: the default collation for the string
// types, none for the others.
func collationOf(t sqltypes.Type) uint32 {
	id := t.ID
	if id == sqltypes.Array {
		id = t.Elem
	}
	switch id {
	case sqltypes.Text, sqltypes.Varchar, sqltypes.BPChar:
		return CollationDflt
	case sqltypes.Name:
		return CollationC
	}
	return 0
}

// AttNum is the pg_attribute number of the table's column c: its position
// among the columns a client sees (the hidden row id has none).
func AttNum(t *catalog.Table, c int) int { return attnum(t, c) }

func attnum(t *catalog.Table, c int) int {
	n := 0
	for i := 0; i <= c && i < len(t.Columns); i++ {
		if !t.Columns[i].Hidden {
			n++
		}
	}
	return n
}

func classRow(o *object) *pgClassRow {
	natts := len(o.cols)
	r := &pgClassRow{Oid: oidV(o.oid), Relname: nameV(o.name), Relnamespace: oidV(o.ns), Reltype: oidV(o.rowType()),
		Relowner: oidV(ownerOID(o.owner)), Relam: oidV(o.am), Relfilenode: oidV(o.oid), Reltuples: floatV(-1),
		Relpersistence: charV(o.persistence()), Relkind: charV(o.kind), Relnatts: intV(int64(natts)), Relispopulated: boolV(true),
		Relreplident: charV('n'), Relminmxid: sqltypes.NewXID(0)}
	if o.kind == 'v' || o.kind == 'S' {
		r.Relam = oidV(0)
	}
	switch {
	case o.table != nil && !o.isIndex():
		t := o.table
		r.Relhasindex = boolV(!hasRowID(t) || len(t.Indexes) > 0)
		r.Relchecks = intV(int64(len(t.Checks)))
		r.Relreplident = charV('d')
		var opts []string
		if t.Shards != t.DefaultShardsOf() || t.ShardColumns > 0 { // the default is left unsaid (and PostgreSQL, restoring a dump, knows no shards)
			opts = t.ShardOptions(nil)
		}
		if t.Mutability != "" && t.Mutability != catalog.Mutable {
			opts = append(opts, "mutability="+t.Mutability)
		}
		r.Reloptions = textArray(opts)
		if t.IsMatview() {
			r.Relhasrules, r.Relispopulated = boolV(true), boolV(t.Matview.Populated)
		}
	case o.index != nil:
		var opts []string
		if (o.index.Shards != o.table.Shards || o.index.ShardColumns > 0) && !o.index.Deferrable { // an index's default is its table's, left unsaid; a deferrable constraint's placement is zproxy's choice
			opts = o.table.ShardOptions(o.index)
		}
		if opt := o.index.CoveringOption(); opt != "" {
			opts = append(opts, opt)
		}
		if len(opts) > 0 {
			r.Reloptions = textArray(opts)
		}
	case o.view != nil:
		r.Relhasrules = boolV(true)
		if len(o.view.Options) > 0 {
			r.Reloptions = textArray(o.view.Options)
		}
	case o.rel != nil && o.kind == 'v':
		r.Relhasrules = boolV(true)
	}
	return r
}

// fkActionLetters are pg_constraint's confupdtype/confdeltype codes.
var fkActionLetters = map[catalog.FKAction]byte{catalog.NoAction: 'a', catalog.Restrict: 'r', catalog.Cascade: 'c',
	catalog.SetNull: 'n', catalog.SetDefault: 'd'}

// foreignKeyRow is the pg_constraint row of t's i-th foreign key (nil when
// the table it references is gone from the snapshot).
func (e *Env) foreignKeyRow(t *catalog.Table, i int) *pgConstraintRow {
	fk := &t.ForeignKeys[i]
	ref, err := e.Snap.TableByKey(fk.RefTable)
	if err != nil {
		return nil
	}
	var keys, refKeys []int64
	for _, c := range fk.Columns {
		keys = append(keys, int64(attnum(t, c)))
	}
	for _, c := range fk.RefColumns {
		refKeys = append(refKeys, int64(attnum(ref, c)))
	}
	index := ObjectOID(ref.ID, slotPKeyIndex)
	if ix, _, ok := ref.KeyFor(fk.RefColumns); ok && ix != nil {
		index = ObjectOID(ix.ID, 0)
	}
	r := constraintRow(ObjectOID(t.ID, slotForeignKey+uint32(i)), fk.Name, 'f', ObjectOID(t.ID, 0), index, keys, "")
	// A partitioned table's key is its partitions' (connoinherit false).
	r.Confrelid, r.Confkey, r.Connoinherit = oidV(ObjectOID(ref.ID, 0)), int2Array(refKeys), boolV(!t.IsPartitioned())
	fkRowOptions(r, fk)
	return r
}

// fkRowOptions fills a foreign key's actions, match type, deferral and
// validity into its pg_constraint row.
func fkRowOptions(r *pgConstraintRow, fk *catalog.ForeignKey) {
	r.Confupdtype, r.Confdeltype = charV(fkActionLetters[fk.OnUpdate]), charV(fkActionLetters[fk.OnDelete])
	r.Confmatchtype = charV('s')
	if fk.MatchFull {
		r.Confmatchtype = charV('f')
	}
	r.Condeferrable, r.Condeferred, r.Convalidated = boolV(fk.Deferrable), boolV(fk.InitiallyDeferred), boolV(!fk.NotValid)
}

// foreignKeyDef is pg_get_constraintdef of a foreign key, as PostgreSQL
// prints it; ref is the referenced table's name as the session's
// search_path shows it.
func foreignKeyDef(t, refTable *catalog.Table, fk *catalog.ForeignKey, ref string) string {
	names := func(tab *catalog.Table, cols []int) string {
		var out []string
		for _, c := range cols {
			out = append(out, sqltypes.QuoteIdent(tab.Columns[c].Name))
		}
		return strings.Join(out, ", ")
	}
	def := "FOREIGN KEY (" + names(t, fk.Columns) + ") REFERENCES " + ref + "(" + names(refTable, fk.RefColumns) + ")"
	if fk.MatchFull {
		def += " MATCH FULL"
	}
	if fk.OnUpdate != "" && fk.OnUpdate != catalog.NoAction {
		def += " ON UPDATE " + string(fk.OnUpdate)
	}
	if fk.OnDelete != "" && fk.OnDelete != catalog.NoAction {
		def += " ON DELETE " + string(fk.OnDelete)
	}
	def += deferralClause(fk.Deferrable, fk.InitiallyDeferred)
	if fk.NotValid {
		def += " NOT VALID"
	}
	return def
}

// inheritedConstraint marks r, a partition's constraint, as its
// parent's copy, as PostgreSQL has it: not local, inherited once,
// conparentid the parent's constraint (0 for a CHECK, which PostgreSQL
// links by name alone).
func inheritedConstraint(r *pgConstraintRow, parentOID uint32) {
	r.Conislocal, r.Coninhcount, r.Connoinherit, r.Conparentid = boolV(false), intV(1), boolV(false), oidV(parentOID)
}

// parentConstraintIndex is the unique constraint of parent (a
// partition's parent, or nil) whose copy ix, a unique constraint of the
// partition, is: the one with the same keys.
func parentConstraintIndex(parent *catalog.Table, ix *catalog.Index) *catalog.Index {
	if parent == nil {
		return nil
	}
	for _, pix := range parent.Indexes {
		if pix.Constraint && pix.Exclusion == nil && pix.SameKeys(ix) {
			return pix
		}
	}
	return nil
}

func constraintRow(oid uint32, name string, kind byte, rel, index uint32, keys []int64, bin string) *pgConstraintRow {
	r := &pgConstraintRow{Oid: oidV(oid), Conname: nameV(name), Connamespace: oidV(NamespacePublic), Contype: charV(kind),
		Convalidated: boolV(true), Conrelid: oidV(rel), Conindid: oidV(index), Confupdtype: charV(' '), Confdeltype: charV(' '),
		Confmatchtype: charV(' '), Conislocal: boolV(true), Connoinherit: boolV(kind == 'p')}
	if keys != nil {
		r.Conkey = int2Array(keys)
	}
	if bin != "" {
		r.Conbin = textV(bin)
	}
	return r
}

// indexDef is pg_get_indexdef: zproxy's own truth, as CREATE INDEX
// statements it accepts (USING zorder, widths, INCLUDE, WITH (shards)).
// pretty, when set, reprints the expression keys and the predicate
// (pg_get_indexdef(index, 0, true)).
func indexDef(o *object, qualified bool, pretty func(sql string) string) string {
	t := o.table
	keys := t.PrimaryKey
	var include []int
	method := "btree"
	shards := 0
	unique := "UNIQUE "
	if o.index != nil {
		keys, include, shards = o.index.DeclaredColumns(), o.index.Include, o.index.Shards
		if !o.index.Unique {
			unique = ""
		}
		switch {
		case o.index.Exclusion != nil:
			method = o.index.Exclusion.Method
		case o.index.Gist != nil:
			method = "gist"
		case o.index.Kind == catalog.KindZOrder:
			method = "zorder"
		case o.index.Kind == catalog.KindGIN:
			method = "gin"
		}
	}
	var cols []string
	for _, k := range keys {
		c := t.KeyDef(k)
		if k.Column < 0 && pretty != nil {
			c = catalog.IndexKeyDef(pretty(k.Expr))
		}
		if k.Width > 0 {
			c += "(" + strconv.Itoa(k.Width) + ")"
		}
		if k.Desc {
			c += " DESC"
		}
		if def, _ := catalog.DefaultOpclass(t.KeyType(k)); k.Opclass != "" && k.Opclass != def {
			c += " " + k.Opclass // as PostgreSQL, only a class other than the default
		}
		cols = append(cols, c)
	}
	table := qualifiedTable(t, qualified)
	var sb strings.Builder
	if o.kind == 'I' {
		table = "ONLY " + table // a partitioned index, as pg_get_indexdef prints it
	}
	sb.WriteString("CREATE " + unique + "INDEX " + sqltypes.QuoteIdent(o.name) + " ON " + table + " USING " + method + " (" + strings.Join(cols, ", ") + ")")
	if len(include) > 0 {
		var inc []string
		for _, c := range include {
			inc = append(inc, sqltypes.QuoteIdent(t.Columns[c].Name))
		}
		sb.WriteString(" INCLUDE (" + strings.Join(inc, ", ") + ")")
	}
	if o.index != nil && o.index.Unique && o.index.NullsNotDistinct {
		sb.WriteString(" NULLS NOT DISTINCT")
	}
	var opts []string
	if o.index != nil && o.index.Exclusion == nil && !o.index.Deferrable && (shards != t.Shards || o.index.ShardColumns > 0) { // an index's default is its table's, left unsaid; an exclusion or deferrable constraint's placement is zproxy's choice
		opts = t.ShardOptions(o.index)
	}
	if o.index != nil && o.index.Gist == nil { // a gist index's layout follows its data, PostgreSQL's syntax has no leads
		if leads := o.index.LeadsOption(); leads != "" {
			opts = append(opts, "leads="+leads)
		}
	}
	if o.index != nil && o.index.CoveringOption() != "" {
		opts = append(opts, o.index.CoveringOption())
	}
	if len(opts) > 0 {
		// As PostgreSQL's flatten_reloptions: a value that is not a plain
		// identifier (a number is not one) is quoted.
		for i, opt := range opts {
			name, val, _ := strings.Cut(opt, "=")
			if sqltypes.QuoteIdent(val) != val {
				opts[i] = name + "=" + sqltypes.QuoteLiteral(val)
			}
		}
		sb.WriteString(" WITH (" + strings.Join(opts, ", ") + ")")
	}
	if o.index != nil && o.index.Predicate != "" {
		pred := o.index.Predicate
		if pretty != nil {
			pred = pretty(pred)
		}
		sb.WriteString(" WHERE " + pred)
	}
	return sb.String()
}

// indexColumnDef is pg_get_indexdef(index, column, pretty): one column,
// an expression deparsed (pretty or not) in pg_get_indexdef's
// parentheses.
func (e *Env) indexColumnDef(o *object, col int, pretty bool) string {
	keys := o.table.PrimaryKey
	var include []int
	if o.index != nil {
		keys, include = o.index.DeclaredColumns(), o.index.Include
	}
	switch {
	case col >= 1 && col <= len(keys):
		if k := keys[col-1]; k.Column < 0 {
			if def, ok := e.deparseExpr(o.table, k.Expr, pretty); ok {
				return catalog.IndexKeyDef(def)
			}
			return catalog.IndexKeyDef(k.Expr)
		}
		return sqltypes.QuoteIdent(o.table.Columns[keys[col-1].Column].Name)
	case col > len(keys) && col <= len(keys)+len(include):
		return sqltypes.QuoteIdent(o.table.Columns[include[col-len(keys)-1]].Name)
	}
	return ""
}

// viewDef is pg_get_viewdef: the query as the view keeps it.
func viewDef(sql string) string {
	q := strings.TrimSpace(sql)
	if !strings.HasSuffix(q, ";") {
		q += ";"
	}
	return " " + q
}

// sortedSettings orders pg_settings by name, as PostgreSQL lists it.
func sortedSettings(s []Setting) []Setting {
	sort.Slice(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	return s
}

// pgClassOID is pg_class's OID, the classoid of relations' descriptions.
const pgClassOID = 1259

// description is obj_description / col_description: the comment of the
// relation with OID oid (sub 0) or of its column number sub.
func (e *Env) description(oid, classoid uint32, sub int64) (string, bool) {
	if (classoid == pgLargeObjectOID || classoid == 0) && sub == 0 {
		if _, los, err := e.largeObjects(); err == nil {
			for _, lo := range los {
				if lo.OID == oid && lo.Comment != "" {
					return lo.Comment, true
				}
			}
		}
	}
	if classoid != 0 {
		d, ok := e.describedObjects().descIndex[descriptionKey{oid, classoid, sub}]
		return d, ok
	}
	for _, d := range e.descriptions() {
		if d.objoid == oid && d.subid == sub {
			return d.text, true
		}
	}
	return "", false
}

// descriptionKey is pg_description's key.
type descriptionKey struct {
	objoid, classoid uint32
	subid            int64
}

// descriptionEntry is one comment: a row of pg_description.
type descriptionEntry struct {
	objoid, classoid uint32
	subid            int64
	text             string
}

// descriptions are the database's comments, as pg_description holds
// them: schemas, relations and their columns, routines, types and
// extensions.
func (e *Env) descriptions() []descriptionEntry { return e.describedObjects().descs }

// describedObjects is e's objects with their descriptions made (once per
// snapshot, the first time a statement asks for them).
func (e *Env) describedObjects() *objects {
	o := e.objects()
	o.descsOnce.Do(func() {
		o.descs = e.buildDescriptions()
		o.descIndex = make(map[descriptionKey]string, len(o.descs))
		for _, d := range o.descs {
			o.descIndex[descriptionKey{d.objoid, d.classoid, d.subid}] = d.text
		}
	})
	return o
}

// sharedDescriptions are the comments of the objects every database
// shares, as pg_shdescription holds them: databases and roles.
func (e *Env) sharedDescriptions() []descriptionEntry {
	var out []descriptionEntry
	for _, d := range e.databases() {
		if d.Comment != "" {
			out = append(out, descriptionEntry{objoid: d.OID, classoid: pgDatabaseOID, text: d.Comment})
		}
	}
	if e.Snap != nil {
		for _, r := range e.Snap.Roles() {
			if r.Comment != "" {
				out = append(out, descriptionEntry{objoid: RoleOID(r.Name), classoid: pgAuthidOID, text: r.Comment})
			}
		}
	}
	return out
}

// buildDescriptions lists the comments of e's snapshot (descriptions).
func (e *Env) buildDescriptions() []descriptionEntry {
	// Schema public's comment, as PostgreSQL 15 creates it (pg_dump
	// writes COMMENT ON SCHEMA public IS '' when it is missing).
	out := []descriptionEntry{{objoid: NamespacePublic, classoid: pgNamespaceOID, text: "standard public schema"}}
	if e.Snap != nil {
		for _, sc := range e.Snap.Schemas() {
			if sc.Comment != "" {
				out = append(out, descriptionEntry{objoid: schemaOID(e.Snap, sc.Name), classoid: pgNamespaceOID, text: sc.Comment})
			}
		}
		for _, f := range e.Snap.AllFunctions() {
			if f.Comment != "" {
				out = append(out, descriptionEntry{objoid: f.OID, classoid: pgProcOID, text: f.Comment})
			}
		}
		for _, u := range e.Snap.UserTypes() {
			if u.Comment != "" {
				out = append(out, descriptionEntry{objoid: u.OID, classoid: pgTypeOID, text: u.Comment})
			}
		}
		for _, o := range e.Snap.AllOperators() {
			if o.Comment != "" {
				out = append(out, descriptionEntry{objoid: o.OID, classoid: pgOperatorClassOID, text: o.Comment})
			}
		}
		for _, c := range e.Snap.Casts() {
			if c.Comment != "" {
				out = append(out, descriptionEntry{objoid: c.OID, classoid: pgCastClassOID, text: c.Comment})
			}
		}
		triggers := func(tgs []*catalog.Trigger) {
			for _, tg := range tgs {
				if tg.Comment != "" {
					out = append(out, descriptionEntry{objoid: tg.OID, classoid: pgTriggerOID, text: tg.Comment})
				}
			}
		}
		for _, u := range e.domains() {
			for _, c := range u.Domain.Checks {
				if c.Comment != "" {
					out = append(out, descriptionEntry{objoid: c.OID, classoid: pgConstraintOID, text: c.Comment})
				}
			}
		}
		constraints := false
		for _, t := range e.Snap.Tables() {
			triggers(t.Triggers)
			constraints = constraints || len(t.ConstraintComments) > 0
		}
		if constraints {
			for _, r := range generators["pg_catalog.pg_constraint"](e) {
				c := r.(*pgConstraintRow)
				if o := e.objects().byOID[uint32(c.Conrelid.I)]; o != nil && o.table != nil {
					if text := o.table.ConstraintComment(c.Conname.S); text != "" {
						out = append(out, descriptionEntry{objoid: uint32(c.Oid.I), classoid: pgConstraintOID, text: text})
					}
				}
			}
		}
		for _, v := range e.Snap.Views() {
			triggers(v.Triggers)
		}
	}
	for _, o := range e.objects().list {
		if o.comment != "" {
			out = append(out, descriptionEntry{objoid: o.oid, classoid: pgClassOID, text: o.comment})
		}
		for i, c := range o.cols {
			if c.comment != "" {
				out = append(out, descriptionEntry{objoid: o.oid, classoid: pgClassOID, subid: int64(i + 1), text: c.comment})
			}
		}
	}
	for _, x := range Extensions {
		out = append(out, descriptionEntry{objoid: e.ExtensionOID(x), classoid: pgExtensionOID, text: x.Description})
	}
	return out
}

// operatorFields splits a row of pgOperatorTable into its 12 fields. The
// separator is "|", which operator names (|, ||, |/, ||/) may hold too:
// the name is what lies between the OID and the last ten fields. nil for
// a malformed row.
func operatorFields(line string) []string {
	f := strings.Split(line, "|")
	if len(f) < 12 {
		return nil
	}
	name := strings.Join(f[1:len(f)-10], "|")
	return append([]string{f[0], name}, f[len(f)-10:]...)
}

// qualifiedTable spells a table's name for a definition: qualified by its
// schema when qualified (the session's search_path would not find it
// bare) or when the schema is not public, else bare.
func qualifiedTable(t *catalog.Table, qualified bool) string {
	return qualifiedName(t.Name, qualified)
}

// initdbSchemaACL is the ACL initdb gives a system schema: its owner's
// privileges, and USAGE to PUBLIC.
func initdbSchemaACL(owner string) []string {
	return []string{catalog.ACLItem(owner, "UC", owner), catalog.ACLItem("", "U", owner)}
}

// deferralClause is how pg_get_constraintdef ends a constraint's
// definition: " DEFERRABLE", then " INITIALLY DEFERRED" when it is.
func deferralClause(deferrable, deferred bool) string {
	s := ""
	if deferrable {
		s = " DEFERRABLE"
	}
	if deferred {
		s += " INITIALLY DEFERRED"
	}
	return s
}
