package pgcatalog

import (
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
			out = append(out, row{"oid": oidV(n.oid), "nspname": nameV(n.name), "nspowner": oidV(owner)})
		}
		return out
	})
	generate("pg_catalog.pg_class", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			r := classRow(o)
			if o.table != nil && o.table.Virtual == nil {
				r["reltuples"] = floatV(reltuples(e.Snap, o.table))
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
				r := row{"attrelid": oidV(o.oid), "attname": nameV(c.name), "atttypid": oidV(typ), "attstattarget": intV(-1),
					"attnum": intV(int64(i + 1)), "attcacheoff": intV(-1), "atttypmod": intV(int64(mod)), "attnotnull": boolV(c.notNull),
					"atthasdef": boolV(c.deflt != "" && !o.isIndex()), "attislocal": boolV(true), "attidentity": textV(c.ident),
					"attgenerated": textV(""), "attcompression": textV(""), "attcollation": oidV(collationOf(c.typ))}
				if c.typ.ID == sqltypes.Array {
					r["attndims"] = intV(1)
				}
				if t != nil {
					r["attlen"], r["attbyval"], r["attalign"], r["attstorage"] = intV(int64(t.len)), boolV(t.byval), charV(t.align), charV(t.storage)
				}
				out = append(out, r)
			}
		}
		return out
	})
	generate("pg_catalog.pg_type", func(e *Env) []row {
		var out []row
		for _, t := range e.allTypes() {
			owner := t.owner
			out = append(out, row{"oid": oidV(t.oid), "typname": nameV(t.name), "typnamespace": oidV(t.ns), "typowner": oidV(ownerOID(owner)),
				"typlen": intV(int64(t.len)), "typbyval": boolV(t.byval), "typtype": charV(t.typtype), "typcategory": charV(t.category),
				"typispreferred": boolV(t.preferred), "typisdefined": boolV(true), "typdelim": charV(t.delim), "typrelid": oidV(t.relid),
				"typsubscript": regprocV(subscriptProc(t.subscript)), "typelem": oidV(t.elem), "typarray": oidV(t.array),
				"typinput": regprocV(t.in), "typoutput": regprocV(t.out), "typreceive": regprocV(t.recv), "typsend": regprocV(t.send),
				"typalign": charV(t.align), "typstorage": charV(t.storage), "typtypmod": intV(-1), "typcollation": oidV(t.collation)})
		}
		return out
	})
	generate("pg_catalog.pg_description", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.comment != "" {
				out = append(out, row{"objoid": oidV(o.oid), "classoid": oidV(pgClassOID), "objsubid": intV(0), "description": textV(o.comment)})
			}
			for i, c := range o.cols {
				if c.comment != "" {
					out = append(out, row{"objoid": oidV(o.oid), "classoid": oidV(pgClassOID), "objsubid": intV(int64(i + 1)), "description": textV(c.comment)})
				}
			}
		}
		for _, x := range Extensions {
			out = append(out, row{"objoid": oidV(x.OID), "classoid": oidV(pgExtensionOID), "objsubid": intV(0), "description": textV(x.Description)})
		}
		return out
	})
	generate("pg_catalog.pg_operator", func(e *Env) []row {
		var out []row
		for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
			f := strings.Split(line, "|")
			if len(f) != 12 {
				continue
			}
			num := func(s string) uint32 { n, _ := strconv.ParseUint(s, 10, 32); return uint32(n) }
			out = append(out, row{"oid": oidV(num(f[0])), "oprname": nameV(f[1]), "oprnamespace": oidV(NamespaceCatalog), "oprowner": oidV(BootstrapOID),
				"oprkind": charV(f[2][0]), "oprcanmerge": boolV(f[3] == "t"), "oprcanhash": boolV(f[4] == "t"), "oprleft": oidV(num(f[5])),
				"oprright": oidV(num(f[6])), "oprresult": oidV(num(f[7])), "oprcom": oidV(num(f[8])), "oprnegate": oidV(num(f[9])),
				"oprcode": sqltypes.NewReg(num(f[10]), f[11])})
		}
		return out
	})
	generate("pg_catalog.pg_am", func(e *Env) []row {
		return []row{
			{"oid": oidV(AmHeap), "amname": nameV("heap"), "amhandler": regprocV(proc{3, "heap_tableam_handler"}), "amtype": charV('t')},
			{"oid": oidV(AmBtree), "amname": nameV("btree"), "amhandler": regprocV(proc{330, "bthandler"}), "amtype": charV('i')},
			{"oid": oidV(AmZOrder), "amname": nameV("zorder"), "amhandler": regprocV(proc{}), "amtype": charV('i')},
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
				keys, include = o.index.Columns, o.index.Include
				valid = o.index.State == catalog.StatePublic
			}
			var attnums, options, classes, colls []int64
			for _, k := range keys {
				attnums = append(attnums, int64(attnum(t, k.Column)))
				opt := int64(0)
				if k.Desc {
					opt = 3 // DESC, and so NULLS FIRST, as PostgreSQL's default
				}
				options = append(options, opt)
				classes = append(classes, 0)
				colls = append(colls, int64(collationOf(t.Columns[k.Column].Type)))
			}
			for _, c := range include {
				attnums = append(attnums, int64(attnum(t, c)))
			}
			primary := o.index == nil
			out = append(out, row{"indexrelid": oidV(o.oid), "indrelid": oidV(ObjectOID(t.ID, 0)), "indnatts": intV(int64(len(attnums))),
				"indnkeyatts": intV(int64(len(keys))), "indisunique": boolV(primary), "indisprimary": boolV(primary), "indimmediate": boolV(true),
				"indisvalid": boolV(valid), "indisready": boolV(true), "indislive": boolV(true), "indkey": vector(sqltypes.TypeInt2Vector, attnums),
				"indcollation": vector(sqltypes.TypeOidVector, colls), "indclass": vector(sqltypes.TypeOidVector, classes),
				"indoption": vector(sqltypes.TypeInt2Vector, options)})
		}
		return out
	})
	generate("pg_catalog.pg_constraint", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			t := o.table
			if o.kind != 'r' || t == nil {
				continue
			}
			if !hasRowID(t) {
				var keys []int64
				for _, k := range t.PrimaryKey {
					keys = append(keys, int64(attnum(t, k.Column)))
				}
				out = append(out, constraintRow(ObjectOID(t.ID, slotPKey), t.Name+"_pkey", 'p', o.oid, ObjectOID(t.ID, slotPKeyIndex), keys, ""))
			}
			for i, c := range t.Checks {
				name := c.Name
				if name == "" {
					name = t.Name + "_check"
				}
				out = append(out, constraintRow(ObjectOID(t.ID, slotCheck+uint32(i)), name, 'c', o.oid, 0, nil, c.SQL))
			}
		}
		return out
	})
	generate("pg_catalog.pg_attrdef", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'r' || o.table == nil {
				continue
			}
			for i, c := range o.cols {
				if c.deflt == "" {
					continue
				}
				out = append(out, row{"oid": oidV(ObjectOID(o.table.ID, slotAttrDef+uint32(c.ordinal))), "adrelid": oidV(o.oid),
					"adnum": intV(int64(i + 1)), "adbin": textV(c.deflt)})
			}
		}
		return out
	})
	generate("pg_catalog.pg_database", func(e *Env) []row {
		return []row{{"oid": oidV(DatabaseOID), "datname": nameV(e.database()), "datdba": oidV(BootstrapOID), "encoding": intV(6),
			"datlocprovider": charV('c'), "datallowconn": boolV(true), "datconnlimit": intV(-1), "datminmxid": oidV(1),
			"dattablespace": oidV(TablespaceOID), "datcollate": textV("C"), "datctype": textV("C")}}
	})
	roleRows := func(e *Env, password string) []row {
		var out []row
		for _, r := range e.roles() {
			pw := sqltypes.Null
			if r.password {
				pw = textV(password)
			}
			out = append(out, row{"oid": oidV(r.oid), "rolname": nameV(r.name), "rolsuper": boolV(r.superuser), "rolinherit": boolV(true),
				"rolcreaterole": boolV(r.superuser), "rolcreatedb": boolV(r.superuser), "rolcanlogin": boolV(r.login),
				"rolreplication": boolV(false), "rolconnlimit": intV(-1), "rolpassword": pw, "rolbypassrls": boolV(r.superuser),
				// pg_user and pg_shadow spell the same facts their own way.
				"usename": nameV(r.name), "usesysid": oidV(r.oid), "usecreatedb": boolV(r.superuser), "usesuper": boolV(r.superuser),
				"userepl": boolV(false), "usebypassrls": boolV(r.superuser), "passwd": pw})
		}
		return out
	}
	generate("pg_catalog.pg_roles", func(e *Env) []row { return roleRows(e, "********") })
	generate("pg_catalog.pg_user", func(e *Env) []row { return roleRows(e, "********") })
	generate("pg_catalog.pg_authid", func(e *Env) []row { return roleRows(e, "SCRAM-SHA-256$") })
	generate("pg_catalog.pg_shadow", func(e *Env) []row { return roleRows(e, "SCRAM-SHA-256$") })
	generate("pg_catalog.pg_settings", func(e *Env) []row {
		var all []Setting
		if e.Sess != nil {
			all = e.Sess.Settings()
		}
		have := map[string]bool{}
		for _, s := range all {
			have[s.Name] = true
		}
		for _, s := range serverSettings {
			if !have[s.Name] {
				all = append(all, s)
			}
		}
		var out []row
		for _, s := range sortedSettings(all) {
			r := row{"name": textV(s.Name), "setting": textV(s.Value), "category": textV(s.Category), "short_desc": textV(s.Description),
				"context": textV(orDefault(s.Context, "user")), "vartype": textV(orDefault(s.VarType, "string")),
				"source": textV(orDefault(s.Source, "default")), "boot_val": textV(s.Boot), "reset_val": textV(s.Boot)}
			if s.Unit != "" {
				r["unit"] = textV(s.Unit)
			}
			if s.EnumVals != nil {
				r["enumvals"] = textArray(s.EnumVals)
			}
			if s.Min != "" {
				r["min_val"], r["max_val"] = textV(s.Min), textV(s.Max)
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
			out = append(out, row{"oid": oidV(p.oid), "proname": nameV(p.name), "pronamespace": oidV(NamespaceCatalog), "proowner": oidV(BootstrapOID),
				"prolang": oidV(12), "procost": floatV(1), "prorows": floatV(map[bool]float64{true: 1000}[p.retset]), "provariadic": oidV(variadic),
				"prokind": charV(p.kind), "proisstrict": boolV(p.strict), "proretset": boolV(p.retset), "provolatile": charV(orByte(p.vol, 'i')),
				"proparallel": charV('s'), "pronargs": intV(int64(len(p.args))), "prorettype": oidV(p.ret),
				"proargtypes": vector(sqltypes.TypeOidVector, args), "prosrc": textV(p.name)})
		}
		return out
	})
	generate("pg_catalog.pg_collation", func(e *Env) []row {
		coll := func(oid uint32, name string, provider byte, c string) row {
			r := row{"oid": oidV(oid), "collname": nameV(name), "collnamespace": oidV(NamespaceCatalog), "collowner": oidV(BootstrapOID),
				"collprovider": charV(provider), "collisdeterministic": boolV(true), "collencoding": intV(-1)}
			if c != "" {
				r["collcollate"], r["collctype"] = textV(c), textV(c)
			}
			return r
		}
		return []row{coll(CollationDflt, "default", 'd', ""), coll(CollationC, "C", 'c', "C"), coll(951, "POSIX", 'c', "POSIX")}
	})
	generate("pg_catalog.pg_tablespace", func(e *Env) []row {
		return []row{{"oid": oidV(TablespaceOID), "spcname": nameV("pg_default"), "spcowner": oidV(BootstrapOID)},
			{"oid": oidV(1664), "spcname": nameV("pg_global"), "spcowner": oidV(BootstrapOID)}}
	})
	generate("pg_catalog.pg_sequence", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if q := o.seq; q != nil {
				out = append(out, row{"seqrelid": oidV(o.oid), "seqtypid": oidV(seqType(q).OID()), "seqstart": intV(q.Start), "seqincrement": intV(q.Increment),
					"seqmax": intV(q.Max), "seqmin": intV(q.Min), "seqcache": intV(q.Cache), "seqcycle": boolV(q.Cycle)})
			}
		}
		return out
	})
	generate("pg_catalog.pg_sequences", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if q := o.seq; q != nil {
				out = append(out, row{"schemaname": nameV("public"), "sequencename": nameV(q.Name), "sequenceowner": nameV(BootstrapRole),
					"data_type": sqltypes.NewReg(seqType(q).OID(), seqType(q).String()), "start_value": intV(q.Start), "min_value": intV(q.Min),
					"max_value": intV(q.Max), "increment_by": intV(q.Increment), "cycle": boolV(q.Cycle), "cache_size": intV(q.Cache)})
			}
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
			return sqltypes.NewTimestampTZ(t.UnixMicro())
		}
		me, allStats := e.Sess.User(), e.readsAllStats()
		var out []row
		for _, a := range e.Sess.Activity() {
			r := row{"datid": oidV(DatabaseOID), "datname": nameV(a.Database), "pid": intV(int64(a.PID)), "usesysid": oidV(RoleOID(a.User)),
				"usename": nameV(a.User), "application_name": textV(a.ApplicationName), "backend_start": ts(a.BackendStart),
				"xact_start": ts(a.XactStart), "query_start": ts(a.QueryStart), "state_change": ts(a.StateChange), "state": textV(a.State),
				"query": textV(a.Query), "backend_type": textV("client backend"), "leader_pid": sqltypes.Null, "backend_xid": sqltypes.Null,
				"backend_xmin": sqltypes.Null, "query_id": sqltypes.Null}
			if a.ClientAddr != "" {
				r["client_addr"], r["client_port"] = textV(a.ClientAddr), intV(int64(a.ClientPort))
			} else {
				r["client_port"] = intV(-1)
			}
			if !allStats && a.User != me {
				// As PostgreSQL 15 shows another role's session to a
				// role without pg_read_all_stats: who and where only,
				// every other column NULL and no query text.
				hidden := row{"query": textV("<insufficient privilege>")}
				for _, c := range []string{"datid", "datname", "pid", "usesysid", "usename", "application_name"} {
					hidden[c] = r[c]
				}
				r = hidden
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
		for _, l := range e.Sess.Locks().Held() {
			mode := "ExclusiveLock"
			if l.Shared {
				mode = "ShareLock"
			}
			out = append(out, row{"locktype": textV("advisory"), "database": oidV(DatabaseOID), "classid": oidV(uint32(uint64(l.Key) >> 32)),
				"objid": oidV(uint32(l.Key)), "objsubid": intV(1), "pid": intV(int64(l.Owner)), "mode": textV(mode), "granted": boolV(true)})
		}
		return out
	})
	generate("pg_catalog.pg_tables", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'r' {
				continue
			}
			out = append(out, row{"schemaname": nameV(namespaceName(o.ns)), "tablename": nameV(o.name), "tableowner": nameV(ownerName(o.owner)),
				"hasindexes": boolV(o.table != nil || o.rel != nil)})
		}
		return out
	})
	generate("pg_catalog.pg_indexes", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if !o.isIndex() {
				continue
			}
			out = append(out, row{"schemaname": nameV("public"), "tablename": nameV(o.table.Name), "indexname": nameV(o.name),
				"indexdef": textV(indexDef(o, true))})
		}
		return out
	})
	generate("pg_catalog.pg_views", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if o.kind != 'v' {
				continue
			}
			def := ""
			if o.view != nil {
				def = viewDef(o.view)
			}
			out = append(out, row{"schemaname": nameV(namespaceName(o.ns)), "viewname": nameV(o.name), "viewowner": nameV(ownerName(o.owner)),
				"definition": textV(def)})
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

func classRow(o *object) row {
	natts := len(o.cols)
	r := row{"oid": oidV(o.oid), "relname": nameV(o.name), "relnamespace": oidV(o.ns), "reltype": oidV(o.rowType()),
		"relowner": oidV(ownerOID(o.owner)), "relam": oidV(o.am), "relfilenode": oidV(o.oid), "reltuples": floatV(-1),
		"relpersistence": charV('p'), "relkind": charV(o.kind), "relnatts": intV(int64(natts)), "relispopulated": boolV(true),
		"relreplident": charV('n'), "relminmxid": oidV(0)}
	if o.kind == 'v' || o.kind == 'S' {
		r["relam"] = oidV(0)
	}
	switch {
	case o.table != nil && !o.isIndex():
		t := o.table
		r["relhasindex"] = boolV(!hasRowID(t) || len(t.Indexes) > 0)
		r["relchecks"] = intV(int64(len(t.Checks)))
		r["relreplident"] = charV('d')
		opts := t.ShardOptions(nil)
		if t.Mutability != "" && t.Mutability != catalog.Mutable {
			opts = append(opts, "mutability="+t.Mutability)
		}
		r["reloptions"] = textArray(opts)
	case o.index != nil:
		if o.index.Shards > 1 { // one shard is the default, left unsaid
			r["reloptions"] = textArray(o.table.ShardOptions(o.index))
		}
	case o.view != nil:
		r["relhasrules"] = boolV(true)
	case o.rel != nil && o.kind == 'v':
		r["relhasrules"] = boolV(true)
	}
	return r
}

func constraintRow(oid uint32, name string, kind byte, rel, index uint32, keys []int64, bin string) row {
	r := row{"oid": oidV(oid), "conname": nameV(name), "connamespace": oidV(NamespacePublic), "contype": charV(kind),
		"convalidated": boolV(true), "conrelid": oidV(rel), "conindid": oidV(index), "confupdtype": charV(' '), "confdeltype": charV(' '),
		"confmatchtype": charV(' '), "conislocal": boolV(true), "connoinherit": boolV(kind == 'p')}
	if keys != nil {
		r["conkey"] = int2Array(keys)
	}
	if bin != "" {
		r["conbin"] = textV(bin)
	}
	return r
}

// indexDef is pg_get_indexdef: zproxy's own truth, as CREATE INDEX
// statements it accepts (USING zorder, widths, INCLUDE, WITH (shards)).
func indexDef(o *object, qualified bool) string {
	t := o.table
	keys := t.PrimaryKey
	var include []int
	method := "btree"
	shards := 0
	unique := "UNIQUE "
	if o.index != nil {
		keys, include, shards = o.index.Columns, o.index.Include, o.index.Shards
		unique = ""
		if o.index.Kind == catalog.KindZOrder {
			method = "zorder"
		}
	}
	var cols []string
	for _, k := range keys {
		c := quoteIdentIfNeeded(t.Columns[k.Column].Name)
		if k.Width > 0 {
			c += "(" + strconv.Itoa(k.Width) + ")"
		}
		if k.Desc {
			c += " DESC"
		}
		cols = append(cols, c)
	}
	table := quoteIdentIfNeeded(t.Name)
	if qualified {
		table = "public." + table
	}
	var sb strings.Builder
	sb.WriteString("CREATE " + unique + "INDEX " + quoteIdentIfNeeded(o.name) + " ON " + table + " USING " + method + " (" + strings.Join(cols, ", ") + ")")
	if len(include) > 0 {
		var inc []string
		for _, c := range include {
			inc = append(inc, quoteIdentIfNeeded(t.Columns[c].Name))
		}
		sb.WriteString(" INCLUDE (" + strings.Join(inc, ", ") + ")")
	}
	var opts []string
	if shards > 1 && o.index != nil { // one shard is the default, left unsaid
		opts = t.ShardOptions(o.index)
	}
	if o.index != nil {
		if leads := o.index.LeadsOption(); leads != "" {
			opts = append(opts, "leads="+leads)
		}
	}
	if len(opts) > 0 {
		// As PostgreSQL's flatten_reloptions: a value that is not a plain
		// identifier or number is quoted.
		for i, opt := range opts {
			name, val, _ := strings.Cut(opt, "=")
			if quoteIdentIfNeeded(val) != val && strings.Trim(val, "0123456789") != "" {
				opts[i] = name + "=" + quoteLiteral(val)
			}
		}
		sb.WriteString(" WITH (" + strings.Join(opts, ", ") + ")")
	}
	return sb.String()
}

// indexColumnDef is pg_get_indexdef(index, column, pretty): one column.
func indexColumnDef(o *object, col int) string {
	keys := o.table.PrimaryKey
	var include []int
	if o.index != nil {
		keys, include = o.index.Columns, o.index.Include
	}
	switch {
	case col >= 1 && col <= len(keys):
		return quoteIdentIfNeeded(o.table.Columns[keys[col-1].Column].Name)
	case col > len(keys) && col <= len(keys)+len(include):
		return quoteIdentIfNeeded(o.table.Columns[include[col-len(keys)-1]].Name)
	}
	return ""
}

// viewDef is pg_get_viewdef: the query as the view keeps it.
func viewDef(v *catalog.View) string {
	q := strings.TrimSpace(v.SQL)
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

// serverSettings are the server's fixed facts, which no session sets but
// clients read (pgJDBC reads max_index_keys before getImportedKeys).
var serverSettings = []Setting{
	{Name: "max_index_keys", Value: "32", Boot: "32", VarType: "integer", Min: "32", Max: "32", Context: "internal", Category: "Preset Options", Description: "Shows the maximum number of index keys."},
	{Name: "max_function_args", Value: "100", Boot: "100", VarType: "integer", Min: "100", Max: "100", Context: "internal", Category: "Preset Options"},
	{Name: "block_size", Value: "8192", Boot: "8192", VarType: "integer", Min: "8192", Max: "8192", Context: "internal", Category: "Preset Options"},
	{Name: "server_version_num", Value: "150000", Boot: "150000", VarType: "integer", Context: "internal", Category: "Preset Options"},
	{Name: "lc_collate", Value: "C", Boot: "C", Context: "internal", Category: "Preset Options"},
	{Name: "lc_ctype", Value: "C", Boot: "C", Context: "internal", Category: "Preset Options"},
	{Name: "data_checksums", Value: "off", Boot: "off", VarType: "bool", Context: "internal", Category: "Preset Options"},
}

// pgClassOID is pg_class's OID, the classoid of relations' descriptions.
const pgClassOID = 1259

// description is obj_description / col_description: the comment of the
// relation with OID oid (sub 0) or of its column number sub.
func (e *Env) description(oid uint32, sub int64) (string, bool) {
	o := e.objects().byOID[oid]
	if o == nil {
		return "", false
	}
	if sub == 0 {
		return o.comment, o.comment != ""
	}
	if sub < 1 || int(sub) > len(o.cols) {
		return "", false
	}
	c := o.cols[sub-1].comment
	return c, c != ""
}
